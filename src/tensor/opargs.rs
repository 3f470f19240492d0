//! Reading the arguments of tensor operations as ktorch does: a list `(input;dim;..)` whose
//! items are longs, flags, sizes, numbers, symbols, q data or handles. Nothing here changes
//! reference counts; a handle (live or not) is never read as q data.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::convert;
use crate::k::from::{self, FromQ};
use crate::k::K;
use crate::registry::{self, Obj};

/// (moved to the registry, below the session that also describes arguments)
pub use crate::registry::describe;

/// The class of the live object of handle `x` (None for q data; an error for a stale handle).
pub fn class(x: K) -> anyhow::Result<Option<registry::Class>> {
    if !registry::is_handle(x) {
        return Ok(None);
    }
    registry::class_of(x)
        .map(Some)
        .ok_or_else(|| anyhow!("stale pointer"))
}

pub fn is_tensor(x: K) -> bool {
    registry::class_of(x) == Some(registry::Class::Tensor)
}

pub fn is_vector(x: K) -> bool {
    registry::class_of(x) == Some(registry::Class::Vector)
}

/// Does `x` hold a handle at any depth of its general lists?
fn holds_handle(x: K) -> bool {
    registry::is_handle(x) || from::list(&x).is_some_and(|v| v.iter().any(|i| holds_handle(*i)))
}

/// `x` as a tensor when all of `x` is q data of one type and a regular shape (ktorch's
/// `xarray`): how `Max x` and `transpose x` tell an array from an argument list.
pub fn array(x: K) -> Option<Tensor> {
    if holds_handle(x) {
        return None;
    }
    convert::to_tensor(x).ok()
}

/// The tensors of vector handle `x` (shallow copies).
pub fn vector(x: K) -> anyhow::Result<Vec<Tensor>> {
    registry::with(x, |o| match o {
        Obj::Vector(v) => Ok(v.iter().map(|t| t.shallow_clone()).collect()),
        other => bail!("expected a vector, given {}", other.class()),
    })
}

/// A tensor argument: q data or a tensor handle, and whether it came from a handle (a result
/// is then a new handle, else q data).
pub struct Input {
    pub t: Tensor,
    pub handle: bool,
}

impl FromQ for Input {
    const TYPE: &'static str = "a tensor or q data";
    /// Every value is read (a handle of another class, or q data that is no array, fails).
    fn read(x: K) -> anyhow::Result<Option<Input>> {
        let (t, handle) = super::arg(x)?;
        Ok(Some(Input { t, handle }))
    }
    /// A handle, or q data that is one array (`array`), is the input alone.
    fn alone(x: K) -> anyhow::Result<Option<Input>> {
        if registry::is_handle(x) {
            return Self::read(x);
        }
        Ok(array(x).map(|t| Input { t, handle: false }))
    }
}

/// An output tensor in a trailing place: a tensor handle (another value is not one).
pub struct OutTensor(pub Tensor);

impl FromQ for OutTensor {
    const TYPE: &'static str = "a tensor";
    fn read(x: K) -> anyhow::Result<Option<OutTensor>> {
        if !is_tensor(x) {
            return Ok(None);
        }
        Ok(Some(OutTensor(registry::tensor(x)?)))
    }
}

/// An output vector in a trailing place: a vector handle, kept as given (its tensors are
/// replaced by the results).
pub struct OutVector(pub K);

impl FromQ for OutVector {
    const TYPE: &'static str = "a vector";
    fn read(x: K) -> anyhow::Result<Option<OutVector>> {
        Ok(is_vector(x).then_some(OutVector(x)))
    }
}

/// A selection argument (a flag, an index or indices, a key or keys) read each way a tensor,
/// vector or dictionary may take it: which way applies is known once the object is found in the
/// registry. `given` describes it for an error, asked here, outside the registry's lock (so a
/// handle is named by its class).
pub struct Pick {
    pub flag: Option<bool>,
    pub long: Option<i64>,
    pub longs: Option<Vec<i64>>,
    pub sym: Option<&'static str>,
    pub syms: Option<Vec<&'static str>>,
    pub given: String,
}

impl FromQ for Pick {
    const TYPE: &'static str = "indices, keys or a flag";
    /// Every value is a selection (each reading of it `None` where it has not that form).
    fn read(x: K) -> anyhow::Result<Option<Pick>> {
        Ok(Some(Pick {
            flag: bool::of(x),
            long: i64::of(x),
            longs: Vec::<i64>::of(x),
            sym: <&str>::of(x),
            syms: from::Syms::of(x).map(|s| s.0),
            given: describe(x),
        }))
    }
}

/// The tensor of a tensor handle (a shallow copy); every other value is the registry's error
/// (`not a ktorch handle`, `expected a tensor, given vector`).
pub struct Stored(pub Tensor);

impl FromQ for Stored {
    const TYPE: &'static str = "a tensor";
    fn read(x: K) -> anyhow::Result<Option<Stored>> {
        registry::tensor(x).map(|t| Some(Stored(t)))
    }
}

//! The argument forms every math function shares, as ktorch's math.rst defines them:
//! - inputs are q data or tensor handles; the result is q data when every input is q data, a new
//!   tensor handle otherwise;
//! - a trailing output tensor (`f(x;out)`, `f(x;y;out)`) receives the result, which is then null;
//! - a trailing `[]` (q's unary null `::`) in place of the output runs the in-place form on the
//!   first input, which must be a tensor;
//! - functions of one input with optional arguments (reductions, cumulative sums, norms..) read
//!   `f x` or `f(x;opt..;output)` with `op`: the optional arguments a tuple of `FromQ` kinds
//!   (`(Vec<i64>, bool, Kind)`), read from the back by `k::from::call`, the output one of the
//!   kinds here (`ToTensor`, `ToTensorOrInPlace`, `ToVector`).
//!
//! The declarative macros in `pointwise` (and the other math files) turn one line per function
//! into a q function with all of these forms.
use std::marker::PhantomData;

use anyhow::{bail, Result};
use tch::Tensor;

use crate::k::from::{self, FromQ, Trailing};
use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::tensor::opargs::{self, describe, Input};
use crate::tensor::result;

/// Where a result goes.
pub enum Out {
    /// A new value: q data or a new handle.
    New,
    /// Into this output tensor (a handle).
    Into(Tensor),
    /// In place, into the first input.
    InPlace,
}

/// The last argument naming an output: a tensor handle, or `::` for in place (`Out::New` is
/// never read).
impl FromQ for Out {
    const TYPE: &'static str = "an output tensor or ::";
    fn read(x: K) -> Result<Option<Out>> {
        if read::is_unset(x) {
            return Ok(Some(Out::InPlace));
        }
        if !opargs::is_tensor(x) {
            return Ok(None);
        }
        Ok(Some(Out::Into(registry::tensor(x)?)))
    }
}

/// The input and output of a function of one input: `f x` (q data or a handle), `f(x;out)`,
/// `f(x;[])`.
pub fn unary(x: K) -> Result<(Input, Out)> {
    let (input, out) = match from::list(&x) {
        Some(&[i, o]) => match Out::read(o)? {
            Some(out) => (i, out),
            None => (x, Out::New),
        },
        _ => (x, Out::New),
    };
    if matches!(out, Out::InPlace) && !registry::is_handle(input) {
        bail!("in-place operation needs a tensor as first argument");
    }
    Ok((Input::from_q(input, "input")?, out))
}

/// The inputs of a list read from the end: the input given alone, or the `want` arguments left
/// (else `unrecognized arg(s), expected USAGE`); their tensors, and whether any was a handle.
pub fn inputs(
    a: &from::Args,
    alone: Option<Input>,
    want: usize,
    usage: &str,
) -> Result<(Vec<Tensor>, bool)> {
    let left = a.rest(want, usage)?;
    match alone {
        Some(Input { t, handle }) => Ok((vec![t], handle)),
        None => tensors(left),
    }
}

/// Tensors of the inputs, and whether any came from a handle.
pub fn tensors(inputs: &[K]) -> Result<(Vec<Tensor>, bool)> {
    let mut any = false;
    let ts = inputs
        .iter()
        .map(|x| {
            let Input { t, handle } = Input::from_q(*x, "input")?;
            any |= handle;
            Ok(t)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((ts, any))
}

/// Finish a call whose result was made as `r`: return it, or null when it went to an output.
pub fn finish(r: Tensor, handle: bool, out: &Out) -> KResult {
    match out {
        Out::New => result(r, handle),
        _ => Ok(make::null()),
    }
}

/// An output vector receives several results as ktorch's `koutput`: its first tensors are
/// replaced, and it grows to hold them all.
pub fn into_vector(o: K, ts: Vec<Tensor>) -> Result<()> {
    registry::with(o, |obj| match obj {
        crate::registry::Obj::Vector(v) => {
            for (i, r) in ts.into_iter().enumerate() {
                match v.get_mut(i) {
                    Some(slot) => *slot = r,
                    None => v.push(r),
                }
            }
            Ok(())
        }
        other => bail!("output expected as a vector, given {}", other.class()),
    })
}

/// Several results (sort, qr, svd, Max(x;dim)..): into output vector `out` (null result), a new
/// vector handle when any input was a handle, else a q list.
pub fn several(ts: Vec<Tensor>, handle: bool, out: Option<K>) -> KResult {
    if let Some(o) = out {
        into_vector(o, ts)?;
        return Ok(make::null());
    }
    if handle {
        return Ok(registry::add(crate::registry::Obj::Vector(ts)));
    }
    make::try_list(ts.iter().map(crate::tensor::convert::to_q))
}

/// One input of `op`'s form: a handle or q data; alone (`f x`) when a handle, or q data that is
/// one array (ktorch's `xarray`: a general list whose items are atoms is an argument list).
pub struct Operand(pub Input);

impl FromQ for Operand {
    const TYPE: &'static str = Input::TYPE;
    fn read(x: K) -> Result<Option<Operand>> {
        Ok(Input::read(x)?.map(Operand))
    }
    fn alone(x: K) -> Result<Option<Operand>> {
        if registry::is_handle(x) {
            return Self::read(x);
        }
        Ok(array(x).map(|t| Operand(Input { t, handle: false })))
    }
}

/// q data that is one array (ktorch's `xarray`): a general list whose items are atoms is an
/// argument list, not an array; otherwise data of one type and a regular shape.
pub fn array(x: K) -> Option<Tensor> {
    if from::list(&x).is_some_and(|v| v.len() > 1 && v.iter().any(|i| read::ktype(*i) < 0)) {
        return None;
    }
    opargs::array(x)
}

/// Where the result of `op`'s form goes.
pub enum Dest {
    New,
    Tensor(Tensor),
    InPlace,
    Vector(K),
}

/// An output tensor (another handle there is an error).
pub struct ToTensor(pub Dest);
/// An output tensor, or `[]` (or `()`) for in place.
pub struct ToTensorOrInPlace(pub Dest);
/// An output vector, for functions with several results (another handle is an error).
pub struct ToVector(pub Dest);

impl FromQ for ToTensor {
    const TYPE: &'static str = "a tensor";
    fn read(x: K) -> Result<Option<ToTensor>> {
        if opargs::is_tensor(x) {
            return Ok(Some(ToTensor(Dest::Tensor(registry::tensor(x)?))));
        }
        if registry::is_handle(x) {
            bail!("output expected as a tensor, given {}", describe(x));
        }
        Ok(None)
    }
}

impl FromQ for ToTensorOrInPlace {
    const TYPE: &'static str = "a tensor or []";
    fn read(x: K) -> Result<Option<ToTensorOrInPlace>> {
        if read::is_nil(x) {
            return Ok(Some(ToTensorOrInPlace(Dest::InPlace)));
        }
        Ok(ToTensor::read(x)?.map(|ToTensor(d)| ToTensorOrInPlace(d)))
    }
}

impl FromQ for ToVector {
    const TYPE: &'static str = "a vector";
    fn read(x: K) -> Result<Option<ToVector>> {
        if opargs::is_vector(x) {
            return Ok(Some(ToVector(Dest::Vector(x))));
        }
        if registry::is_handle(x) {
            bail!("output expected as a vector, given {}", describe(x));
        }
        Ok(None)
    }
}

/// The output place of `op`'s form: `()` (none), or a one-tuple of an output kind.
pub trait Output: Trailing {
    fn dest(o: Self::Out) -> Dest;
}

impl Output for () {
    fn dest(_: ()) -> Dest {
        Dest::New
    }
}

macro_rules! output {
    ($($t:ident),*) => {$(
        impl Output for ($t,) {
            fn dest((o,): (Option<$t>,)) -> Dest {
                o.map_or(Dest::New, |$t(d)| d)
            }
        }
    )*};
}
output!(ToTensor, ToTensorOrInPlace, ToVector);

/// One call of `op`'s form: the input tensor, whether it came from a handle, whether it was
/// given alone, the count of arguments given, the optional arguments, and where the result goes.
pub struct Op<V> {
    pub x: Tensor,
    pub handle: bool,
    pub alone: bool,
    pub given: usize,
    pub opts: V,
    pub dest: Dest,
}

/// The full form of an `op` call as a type, so that a kind can carry it (`usage!`).
pub trait Usage {
    const USAGE: &'static str;
}

/// Types of `Usage`: `usage! { DimKeep = "(input;dim;keepdim;output)"; }`.
macro_rules! usage {
    ($($t:ident = $s:expr;)*) => {$(
        pub struct $t;
        impl $crate::math::forms::Usage for $t {
            const USAGE: &'static str = $s;
        }
    )*};
}
pub(crate) use usage;

/// A call of `op`'s form as a kind: `f x` or `f(x;S..;O)` read by `op` with `U`'s usage (every
/// value is a call or an error), for the typed q functions of one input with optional arguments.
pub struct OpCall<S: Trailing, O: Output, U: Usage>(pub Op<S::Out>, PhantomData<(O, U)>);

impl<S: Trailing, O: Output, U: Usage> FromQ for OpCall<S, O, U> {
    const TYPE: &'static str = U::USAGE;
    fn read(x: K) -> Result<Option<Self>> {
        Ok(Some(OpCall(op::<S, O>(x, U::USAGE)?, PhantomData)))
    }
}

/// Read `x` as `f x` or `f(x;S..;O)` (`k::from::call`); `usage` names the full form, e.g.
/// `(input;dim;keepdim;output)`.
pub fn op<S: Trailing, O: Output>(x: K, usage: &str) -> Result<Op<S::Out>> {
    let c = from::call::<Operand, S, O>(x, usage)?;
    let dest = O::dest(c.out);
    let Operand(Input { t, handle }) = c.input;
    if matches!(dest, Dest::InPlace) && !handle {
        bail!("in-place operation needs a tensor as first argument");
    }
    Ok(Op {
        x: t,
        handle,
        alone: c.alone,
        given: c.given,
        opts: c.opts,
        dest,
    })
}

/// Finish a call with several results: into the output vector (null) or as new results.
pub fn finish_many<V>(a: &Op<V>, ts: Vec<Tensor>) -> KResult {
    match &a.dest {
        Dest::Vector(o) => {
            into_vector(*o, ts)?;
            Ok(make::null())
        }
        _ => several(ts, a.handle, None),
    }
}

type R = std::result::Result<Tensor, tch::TchError>;

/// Finish a call with one result: `new` makes it, `into` writes it to the output tensor.
pub fn finish_op<V>(
    a: &Op<V>,
    new: impl FnOnce(&Tensor) -> R,
    into: impl FnOnce(&Tensor, &Tensor) -> R,
) -> KResult {
    match &a.dest {
        Dest::New => result(new(&a.x)?, a.handle),
        Dest::Tensor(o) => {
            let _ = into(&a.x, o)?;
            Ok(make::null())
        }
        Dest::InPlace => bail!("no in-place form"),
        Dest::Vector(_) => bail!("output expected as a tensor, given vector"),
    }
}

/// Write a result made as a new tensor into an output tensor (for libtorch functions that tch
/// wraps without an `_out` form): the output is resized and takes the values in its own dtype.
pub fn copy_into(o: &Tensor, r: &Tensor) -> R {
    let mut o = o.shallow_clone();
    let _ = o.f_resize_(r.size())?;
    o.f_copy_(r)?;
    Ok(o)
}

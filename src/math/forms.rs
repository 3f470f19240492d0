//! The argument forms every math function shares, as ktorch's math.rst defines them:
//! - inputs are q data or tensor handles; the result is q data when every input is q data, a new
//!   tensor handle otherwise;
//! - a trailing output tensor (`f(x;out)`, `f(x;y;out)`) receives the result, which is then null;
//! - a trailing `[]` (q's unary null `::`) in place of the output runs the in-place form on the
//!   first input, which must be a tensor.
//!
//! The declarative macros in `pointwise` (and the other math files) turn one line per function
//! into a q function with all of these forms.
use anyhow::{bail, Result};
use tch::Tensor;

use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::tensor::{arg, result};

/// Where a result goes.
pub enum Out {
    /// A new value: q data or a new handle.
    New,
    /// Into this output tensor (a handle).
    Into(Tensor),
    /// In place, into the first input.
    InPlace,
}

/// The items of an argument list, not a handle itself.
pub fn items(x: &K) -> Option<&[K]> {
    read::items(x).filter(|_| !registry::is_handle(*x))
}

/// Is `x` the last argument that names an output: a tensor handle or `::`?
fn is_out(x: K) -> bool {
    read::is_unset(x) || registry::class_of(x) == Some("tensor")
}

/// Split `n` inputs and an optional output from the argument `x` of a function taking `n` inputs.
/// With one input, `x` itself may be the input (q data or a handle): `f x`, `f(x;out)`, `f(x;[])`.
pub fn split(x: K, n: usize, usage: &str) -> Result<(Vec<K>, Out)> {
    let v = items(&x);
    let (inputs, last) = match v {
        Some(v) if v.len() == n + 1 && is_out(v[n]) => (v[..n].to_vec(), Some(v[n])),
        Some(v) if n > 1 && v.len() == n => (v.to_vec(), None),
        _ if n == 1 => (vec![x], None),
        Some(v) => bail!("expected {usage}, given {} argument(s)", v.len()),
        None => bail!("expected {usage}"),
    };
    let out = match last {
        None => Out::New,
        Some(o) if read::is_unset(o) => {
            if !registry::is_handle(inputs[0]) {
                bail!("in-place operation needs a tensor as first argument");
            }
            Out::InPlace
        }
        Some(o) => Out::Into(registry::tensor(o)?),
    };
    Ok((inputs, out))
}

/// Tensors of the inputs, and whether any came from a handle.
pub fn tensors(inputs: &[K]) -> Result<(Vec<Tensor>, bool)> {
    let mut any = false;
    let ts = inputs
        .iter()
        .map(|x| {
            let (t, h) = arg(*x)?;
            any |= h;
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

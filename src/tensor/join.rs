//! Joining tensors, ktorch's `cat` (along an existing dimension) and `stack` (along a new one):
//! - `cat v`, `cat(v;dim)`, `cat(v;dim;out)`, `cat(v;out)` with `v` a vector handle: a new tensor
//!   handle, or null when written to output tensor `out`;
//! - `cat(a;b;..)` joins along dim 0: a tensor handle if any item is one, else q data;
//! - `cat((a;b;..);dim)` along `dim`, `cat((a;b;..);dim;out)` into output tensor `out`.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::opargs::{self, is_vector};
use super::{arg, result};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::registry;

fn join(ts: &[Tensor], dim: i64, cat: bool) -> Result<Tensor, tch::TchError> {
    if cat {
        Tensor::f_cat(ts, dim)
    } else {
        Tensor::f_stack(ts, dim)
    }
}

fn join_out(out: &Tensor, ts: &[Tensor], dim: i64, cat: bool) -> Result<Tensor, tch::TchError> {
    if cat {
        Tensor::f_cat_out(out, ts, dim)
    } else {
        Tensor::f_stack_out(out, ts, dim)
    }
}

/// Tensors from a list's items: tensor handles and q data (made into CPU tensors).
fn tensors(items: &[K]) -> anyhow::Result<Vec<Tensor>> {
    items.iter().map(|i| arg(*i).map(|(t, _)| t)).collect()
}

/// `(inputs;dim)`, `(inputs;dim;out)` or `(inputs;out)` after the inputs: (dim, out).
fn dim_out(rest: &[K]) -> Option<(i64, Option<K>)> {
    match rest {
        [d] => i64::of(*d)
            .map(|d| (d, None))
            .or_else(|| registry::is_handle(*d).then_some((0, Some(*d)))),
        [d, o] => i64::of(*d)
            .filter(|_| registry::is_handle(*o))
            .map(|d| (d, Some(*o))),
        _ => None,
    }
}

/// Write into output tensor `o`, or return a new result.
fn finish(ts: &[Tensor], dim: i64, out: Option<K>, handle: bool, cat: bool) -> KResult {
    match out {
        Some(o) => {
            let r = registry::tensor(o)?;
            let _ = join_out(&r, ts, dim, cat)?;
            Ok(make::null())
        }
        None => result(join(ts, dim, cat)?, handle),
    }
}

fn joining(x: K, cat: bool) -> KResult {
    if read::ktype(x) != 0 {
        bail!("not implemented for {}", opargs::describe(x));
    }
    if registry::is_handle(x) {
        return result(join(&opargs::vector(x)?, 0, cat)?, true); // a vector handle
    }
    let items = from::list(&x)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| anyhow!("expected a vector or a list of inputs"))?;
    if is_vector(items[0]) {
        let (dim, out) = match items.len() {
            1 => (0, None),
            _ => dim_out(&items[1..]).ok_or_else(|| {
                anyhow!(
                    "expected vector, (vector;dim), (vector;dim;out tensor) or (vector;out tensor)"
                )
            })?,
        };
        return finish(&opargs::vector(items[0])?, dim, out, true, cat);
    }
    // enlist inputs, (inputs;dim) or (inputs;dim;out): inputs a list (not a handle). As in
    // ktorch, a list whose 2nd item is a tensor is a list of inputs: cat(data;tensor) joins both.
    let nested = |i: K| from::list(&i).is_some() && !registry::is_handle(i);
    if nested(items[0]) {
        let form = match items.len() {
            1 => Some((0, None)),
            n => dim_out(&items[1..]).filter(|(_, o)| o.is_none() || n == 3),
        };
        if let Some((dim, out)) = form {
            let inputs = from::list(&items[0]).unwrap_or(&[]);
            let handle = inputs.iter().any(|i| registry::is_handle(*i));
            return finish(&tensors(inputs)?, dim, out, handle, cat);
        }
    }
    let handle = items.iter().any(|i| registry::is_handle(*i));
    result(join(&tensors(items)?, 0, cat)?, handle)
}

pub fn cat(x: K) -> KResult {
    joining(x, true)
}
pub fn stack(x: K) -> KResult {
    joining(x, false)
}

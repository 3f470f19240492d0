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

/// The inputs of `cat` and `stack` as ktorch reads them: the tensors, the dimension, the output
/// tensor (written in place, the result null) and whether a new result is a handle.
pub struct Joined {
    ts: Vec<Tensor>,
    dim: i64,
    out: Option<Tensor>,
    handle: bool,
}

impl Joined {
    /// The tensors read first, then the output tensor, as before.
    fn of(ts: Vec<Tensor>, dim: i64, out: Option<K>, handle: bool) -> anyhow::Result<Joined> {
        let out = out.map(registry::tensor).transpose()?;
        Ok(Joined {
            ts,
            dim,
            out,
            handle,
        })
    }
}

impl FromQ for Joined {
    const TYPE: &'static str = "a vector or a list of inputs";
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<Joined>> {
        if read::ktype(x) != 0 {
            bail!("not implemented for {}", opargs::describe(x));
        }
        if registry::is_handle(x) {
            return Joined::of(opargs::vector(x)?, 0, None, true).map(Some); // a vector handle
        }
        let items = from::list(&x)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| anyhow!("expected {}", Self::TYPE))?;
        if is_vector(items[0]) {
            let (dim, out) = match items.len() {
                1 => (0, None),
                _ => dim_out(&items[1..]).ok_or_else(|| {
                    anyhow!(
                        "expected vector, (vector;dim), (vector;dim;out tensor) or (vector;out tensor)"
                    )
                })?,
            };
            return Joined::of(opargs::vector(items[0])?, dim, out, true).map(Some);
        }
        // enlist inputs, (inputs;dim) or (inputs;dim;out): inputs a list (not a handle). As in
        // ktorch, a list whose 2nd item is a tensor is a list of inputs: cat(data;tensor) joins
        // both.
        let nested = |i: K| from::list(&i).is_some() && !registry::is_handle(i);
        if nested(items[0]) {
            let form = match items.len() {
                1 => Some((0, None)),
                n => dim_out(&items[1..]).filter(|(_, o)| o.is_none() || n == 3),
            };
            if let Some((dim, out)) = form {
                let inputs = from::list(&items[0]).unwrap_or(&[]);
                let handle = inputs.iter().any(|i| registry::is_handle(*i));
                return Joined::of(tensors(inputs)?, dim, out, handle).map(Some);
            }
        }
        let handle = items.iter().any(|i| registry::is_handle(*i));
        Joined::of(tensors(items)?, 0, None, handle).map(Some)
    }
}

/// Write into the output tensor, or return a new result.
fn joining(x: Joined, cat: bool) -> KResult {
    match x.out {
        Some(r) => {
            let _ = join_out(&r, &x.ts, x.dim, cat)?;
            Ok(make::null())
        }
        None => result(join(&x.ts, x.dim, cat)?, x.handle),
    }
}

crate::qfn! {
    /// `cat`: the inputs joined along an existing dimension.
    pub fn cat(x: Joined) -> KResult {
        joining(x, true)
    }
    /// `stack`: the inputs joined along a new dimension.
    pub fn stack(x: Joined) -> KResult {
        joining(x, false)
    }
}

//! Collectives on what q holds (torch.distributed's all_reduce, broadcast, all_gather,
//! reduce_scatter): a tensor, vector or dictionary handle (its tensors, in order, on every rank)
//! or q data (an array that converts to a tensor, answered as q data).
//!
//! `allreduce x`, `allreduce(x;op)`: in place for handles (answers null), the reduced data for
//! q data; op `sum (default), `avg, `prod, `min, `max. `broadcast x`, `broadcast(x;root)`: rank
//! root's values (default 0) in place, or answered for q data. `allgather x`: every rank's x
//! stacked along a new first dimension, in rank order: a new tensor, vector or dictionary, or q
//! data. `reducescatter x`, `reducescatter(x;op)`: x split along its first dimension into one
//! block per rank, each rank answered its block reduced across ranks.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::group::{self, Group};
use crate::k::from::{self, FromQ, Integer, Sym};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::{convert, opargs::describe};

pub const OPS: &[&str] = &["sum", "avg", "prod", "min", "max"];

fn op(x: K) -> Result<i32> {
    let Sym(s) =
        Sym::of(x).ok_or_else(|| anyhow!("reduce op: expected a symbol, given {}", describe(x)))?;
    OPS.iter()
        .position(|o| *o == s)
        .map(|i| i as i32)
        .ok_or_else(|| {
            anyhow!(
                "unrecognized reduce op `{s}, expecting one of `{}",
                OPS.join("`")
            )
        })
}

/// Split `(x;extra)` when the second item is what `is_extra` accepts (and x a handle or data).
fn split(x: K, is_extra: impl Fn(K) -> bool) -> (K, Option<K>) {
    match from::list(&x) {
        Some([a, b]) if is_extra(*b) => (*a, Some(*b)),
        _ => (x, None),
    }
}

/// What a collective works on: the tensors of a handle, or q data made a tensor.
enum Target {
    Handle(&'static str, Vec<Tensor>),
    Data(Tensor),
}

fn target(x: K) -> Result<Target> {
    match registry::class_of(x) {
        Some(c @ ("tensor" | "vector" | "dictionary")) => {
            Ok(Target::Handle(c, registry::tensors(x)?))
        }
        Some(c) => bail!("expected tensor, vector, dictionary or q data, given {c}"),
        None if registry::is_handle(x) => bail!("stale pointer"),
        None => Ok(Target::Data(
            convert::to_tensor(x).map_err(|e| anyhow!("q data: {e}"))?,
        )),
    }
}

/// Run an in-place collective on tensors: contiguous ones directly, others through a contiguous
/// copy written back after.
fn in_place(ts: &[Tensor], f: impl FnOnce(&[Tensor]) -> Result<()>) -> Result<()> {
    let work: Vec<Tensor> = ts
        .iter()
        .map(|t| {
            if t.is_contiguous() {
                Ok(t.shallow_clone())
            } else {
                t.f_contiguous()
            }
        })
        .collect::<Result<_, _>>()?;
    // collectives write into tensors that may be parameters (leaves that require gradients)
    tch::no_grad(|| f(&work))?;
    for (t, w) in ts.iter().zip(&work) {
        if !t.is_contiguous() {
            tch::no_grad(|| t.shallow_clone().f_copy_(w))?;
        }
    }
    Ok(())
}

/// Allreduce tensors in place (op index into OPS).
pub fn allreduce_tensors(g: &Group, ts: &[Tensor], op: i32) -> Result<()> {
    in_place(ts, |w| g.pg().allreduce(w, op))
}

/// Broadcast tensors in place from rank root.
pub fn broadcast_tensors(g: &Group, ts: &[Tensor], root: i64) -> Result<()> {
    if root < 0 || root >= g.size {
        bail!("root rank {root} out of range for {} rank(s)", g.size);
    }
    in_place(ts, |w| g.pg().broadcast(w, root as i32))
}

/// Every rank's t stacked along a new first dimension, in rank order (a new tensor).
pub fn gather_one(g: &Group, t: &Tensor) -> Result<Tensor> {
    let c = t.f_contiguous()?;
    g.pg().allgather(&c)
}

/// t split along its first dimension into one block per rank: this rank's block reduced across
/// the ranks (op index into OPS), a new tensor.
pub fn scatter_one(g: &Group, t: &Tensor, op: i32) -> Result<Tensor> {
    let c = t.f_contiguous()?;
    g.pg().reducescatter(&c, op)
}

/// New tensors made from a handle's: a new object of the handle's class (a dictionary keeps its
/// keys), or q data.
fn answer(x: K, class: &str, ts: Vec<Tensor>) -> KResult {
    Ok(match class {
        "tensor" => registry::add(Obj::Tensor(ts.into_iter().next().unwrap())),
        "vector" => registry::add(Obj::Vector(ts)),
        _ => {
            let keys = registry::with(x, |o| {
                Ok(o.keys()
                    .unwrap_or_default()
                    .into_iter()
                    .map(str::to_string)
                    .collect::<Vec<_>>())
            })?;
            registry::add(Obj::Dict(keys.into_iter().zip(ts).collect()))
        }
    })
}

pub fn allreduce(x: K) -> KResult {
    let (x, o) = split(x, |b| read::ktype(b) == -11);
    let o = o.map(op).transpose()?.unwrap_or(0);
    match target(x)? {
        Target::Handle(_, ts) => {
            group::with(|g| allreduce_tensors(g, &ts, o))?;
            Ok(make::null())
        }
        Target::Data(t) => {
            group::with(|g| allreduce_tensors(g, std::slice::from_ref(&t), o))?;
            convert::to_q(&t)
        }
    }
}

pub fn broadcast(x: K) -> KResult {
    let (x, r) = split(x, |b| matches!(read::ktype(b), -7..=-5));
    let root = r.map(|r| Integer::of(r).map_or(-1, |j| j.0)).unwrap_or(0);
    match target(x)? {
        Target::Handle(_, ts) => {
            group::with(|g| broadcast_tensors(g, &ts, root))?;
            Ok(make::null())
        }
        Target::Data(t) => {
            group::with(|g| broadcast_tensors(g, std::slice::from_ref(&t), root))?;
            convert::to_q(&t)
        }
    }
}

pub fn allgather(x: K) -> KResult {
    match target(x)? {
        Target::Handle(c, ts) => {
            let r = group::with(|g| {
                ts.iter()
                    .map(|t| gather_one(g, t))
                    .collect::<Result<Vec<_>>>()
            })?;
            answer(x, c, r)
        }
        Target::Data(t) => convert::to_q(&group::with(|g| gather_one(g, &t))?),
    }
}

pub fn reducescatter(x: K) -> KResult {
    let (x, o) = split(x, |b| read::ktype(b) == -11);
    let o = o.map(op).transpose()?.unwrap_or(0);
    match target(x)? {
        Target::Handle(c, ts) => {
            let r = group::with(|g| {
                ts.iter()
                    .map(|t| scatter_one(g, t, o))
                    .collect::<Result<Vec<_>>>()
            })?;
            answer(x, c, r)
        }
        Target::Data(t) => convert::to_q(&group::with(|g| scatter_one(g, &t, o))?),
    }
}

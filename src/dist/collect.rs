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

/// A reduce op: one of OPS, as its index.
pub struct Op(i32);

impl FromQ for Op {
    const TYPE: &'static str = "a symbol";
    fn read(x: K) -> Result<Option<Op>> {
        let Some(Sym(s)) = Sym::of(x) else {
            return Ok(None);
        };
        OPS.iter()
            .position(|o| *o == s)
            .map(|i| Some(Op(i as i32)))
            .ok_or_else(|| {
                anyhow!(
                    "unrecognized reduce op `{s}, expecting one of `{}",
                    OPS.join("`")
                )
            })
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("reduce op: expected a symbol, given {}", describe(x))
    }
}

/// A root rank: a short, int or long atom (another integral atom is rank -1, out of range).
pub struct Root(i64);

impl FromQ for Root {
    const TYPE: &'static str = "a rank";
    fn read(x: K) -> Result<Option<Root>> {
        Ok(matches!(read::ktype(x), -7..=-5).then(|| Root(Integer::of(x).map_or(-1, |j| j.0))))
    }
}

/// What a collective works on: the tensors of a handle (a dictionary's keys too), or q data
/// made a tensor.
pub enum Target {
    Handle(registry::Class, Vec<Tensor>, Vec<String>),
    Data(Tensor),
}

impl FromQ for Target {
    const TYPE: &'static str = "tensor, vector, dictionary or q data";
    /// Every q value is a target, or the error in ktorch's words.
    fn read(x: K) -> Result<Option<Target>> {
        Ok(Some(match registry::class_of(x) {
            Some(
                c @ (registry::Class::Tensor
                | registry::Class::Vector
                | registry::Class::Dictionary),
            ) => {
                let keys = registry::with(x, |o| {
                    Ok(o.keys()
                        .unwrap_or_default()
                        .into_iter()
                        .map(str::to_string)
                        .collect::<Vec<_>>())
                })?;
                Target::Handle(c, registry::tensors(x)?, keys)
            }
            Some(c) => bail!("expected {}, given {c}", Self::TYPE),
            None if registry::is_handle(x) => bail!("stale pointer"),
            None => Target::Data(convert::to_tensor(x).map_err(|e| anyhow!("q data: {e}"))?),
        }))
    }
}

/// `x` or `(x;extra)`: the target, and the extra argument when the second item of a two-item
/// list is an `E` (an op, a root).
pub struct With<E>(Target, Option<E>);

impl<E: FromQ> FromQ for With<E> {
    const TYPE: &'static str = Target::TYPE;
    fn read(x: K) -> Result<Option<With<E>>> {
        if let Some([a, b]) = from::list(&x) {
            if let Some(e) = E::read(*b)? {
                return Ok(Target::read(*a)?.map(|t| With(t, Some(e))));
            }
        }
        Ok(Target::read(x)?.map(|t| With(t, None)))
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
/// keys).
fn answer(class: registry::Class, keys: Vec<String>, ts: Vec<Tensor>) -> K {
    match class {
        registry::Class::Tensor => registry::add(Obj::Tensor(ts.into_iter().next().unwrap())),
        registry::Class::Vector => registry::add(Obj::Vector(ts)),
        _ => registry::add(Obj::Dict(keys.into_iter().zip(ts).collect())),
    }
}

crate::qfn! {
    pub fn allreduce(x: With<Op>) -> KResult {
        let With(target, o) = x;
        let o = o.map_or(0, |o| o.0);
        match target {
            Target::Handle(_, ts, _) => {
                group::with(|g| allreduce_tensors(g, &ts, o))?;
                Ok(make::null())
            }
            Target::Data(t) => {
                group::with(|g| allreduce_tensors(g, std::slice::from_ref(&t), o))?;
                convert::to_q(&t)
            }
        }
    }

    pub fn broadcast(x: With<Root>) -> KResult {
        let With(target, r) = x;
        let root = r.map_or(0, |r| r.0);
        match target {
            Target::Handle(_, ts, _) => {
                group::with(|g| broadcast_tensors(g, &ts, root))?;
                Ok(make::null())
            }
            Target::Data(t) => {
                group::with(|g| broadcast_tensors(g, std::slice::from_ref(&t), root))?;
                convert::to_q(&t)
            }
        }
    }

    pub fn allgather(target: Target) -> KResult {
        match target {
            Target::Handle(c, ts, keys) => {
                let r = group::with(|g| {
                    ts.iter()
                        .map(|t| gather_one(g, t))
                        .collect::<Result<Vec<_>>>()
                })?;
                Ok(answer(c, keys, r))
            }
            Target::Data(t) => convert::to_q(&group::with(|g| gather_one(g, &t))?),
        }
    }

    pub fn reducescatter(x: With<Op>) -> KResult {
        let With(target, o) = x;
        let o = o.map_or(0, |o| o.0);
        match target {
            Target::Handle(c, ts, keys) => {
                let r = group::with(|g| {
                    ts.iter()
                        .map(|t| scatter_one(g, t, o))
                        .collect::<Result<Vec<_>>>()
                })?;
                Ok(answer(c, keys, r))
            }
            Target::Data(t) => convert::to_q(&group::with(|g| scatter_one(g, &t, o))?),
        }
    }
}

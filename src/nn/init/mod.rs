//! Initialising parameters (ktorch's init.rst; ktensor.cpp's `kfill`, `kaiming`, `snormal`,
//! kmath.cpp's `kprob`): every function fills tensors in place, with gradients off.
//!
//! What is filled, the target, is read the same way by every function:
//! - a handle: every tensor of a tensor, vector or dictionary (a module needs names);
//! - `(handle;picks;..)`: rows of a tensor or items of a vector by index (longs), tensors of a
//!   dictionary by key, parameters or buffers of a module by full name (symbols);
//! - q data: filled and returned as q data of the same shape and type.
//!
//! The changes are made in place on the tensors the handles hold (a module's parameters are
//! shared by all its handles and by `parms` dictionaries), never by replacing them.
//!
//! Files: `heuristics` (zeros ones eye dirac orthogonal xavier kaiming sparse, and `gain`),
//! `dist` (normal uniform cauchy exponential geometric lognormal random), `reset` (a module's
//! parameters as at creation, and ktorch's tensor form of `reset`).
pub mod dist;
pub mod heuristics;
pub mod reset;

use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::api::modref;
use super::Module;
use crate::k::from::{self, FromQ, Number, Syms};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::convert;
use crate::tensor::fill::{dict_picks, rows, vector_picks};
use crate::tensor::opargs::describe;

/// The tensors to fill: shared with handles (filled in place), or made from q data.
pub enum Target {
    Shared(Vec<Tensor>),
    Array(Tensor),
}

impl Target {
    /// Fill each tensor with `f` (gradients off); null for handles, the filled q data else.
    pub fn fill(self, f: impl Fn(&mut Tensor) -> Result<()>) -> KResult {
        let _nograd = tch::no_grad_guard();
        match self {
            Target::Shared(ts) => {
                for mut t in ts {
                    f(&mut t)?;
                }
                Ok(make::null())
            }
            Target::Array(mut t) => {
                f(&mut t)?;
                convert::to_q(&t)
            }
        }
    }
}

/// q data as a target.
pub fn array(x: K) -> Result<Target> {
    Ok(Target::Array(convert::to_tensor(x)?))
}

/// The tensors of handle `h`: all of them, or those `picks` names or indexes.
pub fn shared(h: K, picks: Option<K>) -> Result<Target> {
    if registry::class_of(h) == Some(registry::Class::Module) {
        let r = modref(h)?;
        let Some(p) = picks else {
            bail!("not implemented for single module argument, parameter or buffer names required")
        };
        let names = Syms::of(p).map(|s| s.0).ok_or_else(|| {
            anyhow!(
                "unable to get parameter/buffer name(s) given {}",
                describe(p)
            )
        })?;
        let ts = names
            .iter()
            .map(|n| named_tensor(r.get(), n).map(Tensor::shallow_clone))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Target::Shared(ts));
    }
    let ts = registry::with(h, |o| {
        let ts = match (o, picks) {
            (Obj::Tensor(t), None) => vec![t.shallow_clone()],
            (Obj::Tensor(t), Some(p)) => rows(t, &indices(p, "tensor")?)?,
            (Obj::Vector(v), None) => v.iter().map(Tensor::shallow_clone).collect(),
            (Obj::Vector(v), Some(p)) => vector_picks(v.len(), &indices(p, "vector")?)?
                .into_iter()
                .map(|i| v[i].shallow_clone())
                .collect(),
            (Obj::Dict(d), None) => d.iter().map(|(_, t)| t.shallow_clone()).collect(),
            (Obj::Dict(d), Some(p)) => {
                let keys = Syms::of(p).map(|s| s.0).ok_or_else(|| {
                    anyhow!("unable to get dictionary key(s) given {}", describe(p))
                })?;
                dict_picks(d, &keys)?
                    .into_iter()
                    .map(|i| d[i].1.shallow_clone())
                    .collect()
            }
            (o, _) => bail!("not implemented for {}", o.class()),
        };
        Ok(ts)
    })?;
    if ts.iter().any(|t| !t.defined()) {
        bail!("not implemented for undefined tensor");
    }
    Ok(Target::Shared(ts))
}

fn indices(p: K, what: &str) -> Result<Vec<i64>> {
    Vec::<i64>::of(p)
        .ok_or_else(|| anyhow!("expected 2nd arg of {what} indices, given {}", describe(p)))
}

/// A module's parameter, else its buffer, by full name (`fc.weight`).
pub fn named_tensor<'a>(m: &'a Module, name: &str) -> Result<&'a Tensor> {
    m.named_parameters()
        .into_iter()
        .chain(m.named_buffers())
        .find(|(k, _)| k == name)
        .map(|(_, t)| t)
        .ok_or_else(|| anyhow!("parameter/buffer `{name} not found"))
}

/// The items of `(handle;..)` when `x` is such a list.
pub fn handle_list(x: &K) -> Option<&[K]> {
    from::list(x).filter(|v| !v.is_empty() && registry::is_handle(v[0]))
}

/// A double atom (real or float): an option that is never an index.
pub fn double(x: K) -> Option<f64> {
    match read::ktype(x) {
        -8 | -9 => Number::of(x).map(|n| match n {
            Number::Float(f) => f,
            Number::Int(j) => j as f64,
        }),
        _ => None,
    }
}

/// Any number atom as a double.
pub fn num(x: K) -> Option<f64> {
    match read::ktype(x) {
        -1 | -4 | -5 | -6 | -7 | -8 | -9 => Number::of(x).map(|n| match n {
            Number::Float(f) => f,
            Number::Int(j) => j as f64,
        }),
        _ => None,
    }
}

//! Tensors from q arguments as a model, module or loss reads them: tensor, vector (or
//! `(vector;indices)`) and dictionary handles, q arrays, or general lists of those (kmodel.cpp's
//! modelarg), gathered into one side of the data (inputs or targets).
use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

use crate::k::from::{self, FromQ, Whole, Wholes};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::{convert, opargs::describe};

/// One side of the data: no tensor yet, one, or several (a module of several inputs, a loss
/// of several targets).
#[derive(Default)]
pub enum Side {
    #[default]
    Empty,
    One(Tensor),
    Many(Vec<Tensor>),
}

impl Side {
    pub fn tensors(&self) -> Vec<&Tensor> {
        match self {
            Side::Empty => vec![],
            Side::One(t) => vec![t],
            Side::Many(v) => v.iter().collect(),
        }
    }
    /// Shallow copies (the same tensors) to pass to a module or loss.
    pub fn cloned(&self) -> Vec<Tensor> {
        self.tensors()
            .into_iter()
            .map(Tensor::shallow_clone)
            .collect()
    }
    pub fn push(&mut self, t: Tensor) {
        *self = match std::mem::take(self) {
            Side::Empty => Side::One(t),
            Side::One(a) => Side::Many(vec![a, t]),
            Side::Many(mut v) => {
                v.push(t);
                Side::Many(v)
            }
        };
    }
    pub fn map(&self, f: impl Fn(&Tensor) -> Result<Tensor>) -> Result<Side> {
        Ok(match self {
            Side::Empty => Side::Empty,
            Side::One(t) => Side::One(f(t)?),
            Side::Many(v) => Side::Many(v.iter().map(f).collect::<Result<_>>()?),
        })
    }
    /// As q data: an array, a list of arrays, or `::`.
    pub fn q(&self) -> KResult {
        match self {
            Side::Empty => Ok(make::null()),
            Side::One(t) => convert::to_q(t),
            Side::Many(v) => make::try_list(v.iter().map(convert::to_q)),
        }
    }
    /// As an object sharing the tensors (a tensor or a vector), none when empty; added to the
    /// registry by the caller, outside its lock.
    pub fn object(&self) -> Option<Obj> {
        match self {
            Side::Empty => None,
            Side::One(t) => Some(Obj::Tensor(t.shallow_clone())),
            Side::Many(v) => Some(Obj::Vector(v.iter().map(Tensor::shallow_clone).collect())),
        }
    }
}

/// Tensors from q arguments: tensor, vector (or `(vector;indices)`) and dictionary handles, q
/// arrays, or general lists of those; on the module's device.
pub fn side(args: &[K], device: Device) -> Result<Side> {
    side_on(args, Some(device))
}

/// As [`side`]; with no device, tensors stay where they are and q data goes to the CPU.
pub fn side_on(args: &[K], device: Option<Device>) -> Result<Side> {
    let mut s = Side::Empty;
    for a in args {
        add(&mut s, *a, device)?;
    }
    Ok(s)
}

fn add(s: &mut Side, a: K, device: Option<Device>) -> Result<()> {
    let to = |t: Tensor| -> Result<Tensor> {
        Ok(match device {
            Some(d) if t.defined() && t.device() != d => t.f_to_device(d)?,
            _ => t,
        })
    };
    match registry::class_of(a) {
        Some(registry::Class::Tensor) => s.push(to(registry::tensor(a)?)?),
        Some(registry::Class::Vector | registry::Class::Dictionary) => {
            for t in registry::tensors(a)? {
                s.push(to(t)?);
            }
        }
        Some(c) => bail!("unrecognized arg, {c}"),
        None if registry::is_handle(a) => bail!("stale pointer"),
        None => {
            if let Some([v, i]) = from::list(&a) {
                if registry::class_of(*v) == Some(registry::Class::Vector) {
                    let ts = registry::tensors(*v)?;
                    let ix = Wholes::of(*i)
                        .map(|w| w.0)
                        .or_else(|| Whole::of(*i).map(|w| w.0).map(|j| vec![j]))
                        .ok_or_else(|| {
                            anyhow!(
                                "vector paired with {}, expected long index or indices",
                                describe(*i)
                            )
                        })?;
                    for j in ix {
                        let t = ts
                            .get(usize::try_from(j).unwrap_or(usize::MAX))
                            .ok_or_else(|| {
                                anyhow!("vector[{j}] invalid for {}-element vector", ts.len())
                            })?;
                        s.push(to(t.shallow_clone())?);
                    }
                    return Ok(());
                }
                // `(dictionary;key(s))`: those tensors, in the order of the keys (train.rst:925)
                if registry::class_of(*v) == Some(registry::Class::Dictionary) {
                    let keys = Vec::<&str>::of(*i)
                        .or_else(|| <&str>::of(*i).map(|k| vec![k]))
                        .ok_or_else(|| {
                            anyhow!(
                                "dictionary paired with {}, expected key or keys",
                                describe(*i)
                            )
                        })?;
                    let d = registry::with(*v, |o| match o {
                        Obj::Dict(d) => Ok(d
                            .iter()
                            .map(|(k, t)| (k.clone(), t.shallow_clone()))
                            .collect::<Vec<_>>()),
                        _ => unreachable!(),
                    })?;
                    for k in keys {
                        let t = d
                            .iter()
                            .find(|(x, _)| x == k)
                            .map(|(_, t)| t)
                            .ok_or_else(|| anyhow!("dictionary[`{k}] not found"))?;
                        s.push(to(t.shallow_clone())?);
                    }
                    return Ok(());
                }
            }
            // a general list holding handles is several inputs, never an array (ktorch's
            // xarray refuses pointers): `backward(d;(x;y);t)` in ktorch's mnist/cgan.q
            if holds_handle(a) {
                for i in from::list(&a).unwrap() {
                    add(s, *i, device)?;
                }
                return Ok(());
            }
            // q data bound for CUDA goes through pinned memory without blocking (convert.rs)
            match convert::to_tensor_on(a, device) {
                Ok(t) => s.push(t),
                Err(e) => match from::list(&a) {
                    Some(v) if read::ktype(a) == 0 && !v.is_empty() => {
                        for i in v {
                            add(s, *i, device)?;
                        }
                    }
                    _ => bail!("{}: {e}", describe(a)),
                },
            }
        }
    }
    Ok(())
}

/// Is `a` a general list with a handle among its items?
pub fn holds_handle(a: K) -> bool {
    read::ktype(a) == 0
        && !registry::is_handle(a)
        && from::list(&a).is_some_and(|v| v.iter().any(|i| registry::is_handle(*i)))
}

//! `freeze` and `unfreeze` (ktorch's freeze.rst, kmodel.cpp's `kfreeze`): gradients off or on
//! for all parameters of a module (or all tensors of a tensor, vector or dictionary), or for
//! the parameters named, optionally setting their values too:
//! `freeze m`, `freeze(m;names)`, `freeze(m;names;values)`, `freeze(m;dict)` where `m` is a
//! module or a parameter dictionary and `dict` a q dictionary or a dictionary handle.
//!
//! The flag is set on the parameters themselves (shared by every handle to the module), and
//! values are copied into them, never replacing them.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::api::{is_module, modref};
use crate::k::from::{self, FromQ, Syms};
use crate::k::{make, read, K};
use crate::registry::{self, Obj};
use crate::tensor::convert;
use crate::tensor::opargs::{self, describe};

/// `freeze`'s and `unfreeze`'s forms: a handle (every tensor it holds), or `(module;names)`,
/// `(module;names;values)`, `(module;dictionary)`: the module's parameters and the names (and
/// new values) given.
pub enum Flagged {
    All(Vec<Tensor>),
    Named {
        parms: Vec<(String, Tensor)>,
        names: Vec<String>,
        values: Vec<Option<Tensor>>,
    },
}

impl FromQ for Flagged {
    const TYPE: &'static str = "a handle, or (module;names;values)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Flagged>> {
        if registry::is_handle(x) {
            return Ok(Some(Flagged::All(all(x)?)));
        }
        let v = from::list(&x)
            .filter(|v| (2..=3).contains(&v.len()))
            .ok_or_else(|| {
                anyhow!(
                    "expected 2-3 args, (module;names;values), given {}",
                    describe(x)
                )
            })?;
        let parms = named(v[0])?;
        let (names, values): (Vec<String>, Vec<Option<Tensor>>) = match read_names(v[1]) {
            Some(n) => {
                let vals = match v.get(2) {
                    None => n.iter().map(|_| None).collect(),
                    Some(y) => values(*y, n.len(), <&str>::of(v[1]).is_some())?
                        .into_iter()
                        .map(Some)
                        .collect(),
                };
                (n, vals)
            }
            None if v.len() == 2 => {
                let (k, t) = pairs(v[1])?;
                (k, t.into_iter().map(Some).collect())
            }
            None => bail!(
                "expected 2nd arg of parameter name(s), given {}",
                describe(v[1])
            ),
        };
        Ok(Some(Flagged::Named {
            parms,
            names,
            values,
        }))
    }
}

crate::qfn! {
    /// `freeze x`: no gradients for the tensors of x; `freeze(m;names)`, `freeze(m;names;values)`,
    /// `freeze(m;dictionary)`: for those parameters, given new values.
    pub fn freeze(x: Flagged) -> Result<()> {
        flag(x, false)
    }

    /// `unfreeze`: `freeze`'s forms, gradients on.
    pub fn unfreeze(x: Flagged) -> Result<()> {
        flag(x, true)
    }
}

fn flag(x: Flagged, grad: bool) -> Result<()> {
    let (parms, names, values) = match x {
        Flagged::All(ts) => {
            for t in ts {
                let _ = t.f_set_requires_grad(grad)?;
            }
            return Ok(());
        }
        Flagged::Named {
            parms,
            names,
            values,
        } => (parms, names, values),
    };
    // check every name and size first, so that nothing changes when one is wrong
    let mut found = vec![];
    for (n, val) in names.iter().zip(&values) {
        let (_, p) = parms
            .iter()
            .find(|(k, _)| k == n)
            .ok_or_else(|| anyhow!("unable to find parameter `{n}"))?;
        if let Some(val) = val {
            if !broadcasts(&val.size(), &p.size()) {
                bail!(
                    "size mismatch for parameter `{n}, size is {:?} vs new size of {:?}",
                    p.size(),
                    val.size()
                );
            }
        }
        found.push(p);
    }
    let _nograd = tch::no_grad_guard();
    for (p, val) in found.into_iter().zip(values) {
        let _ = p.f_set_requires_grad(grad)?;
        if let Some(val) = val {
            p.shallow_clone().f_copy_(&val)?;
        }
    }
    Ok(())
}

/// Every tensor a handle's gradient flag applies to: a module's parameters, a tensor, the
/// tensors of a vector or dictionary.
fn all(x: K) -> Result<Vec<Tensor>> {
    if is_module(x) {
        let r = modref(x)?;
        return Ok(r
            .get()
            .named_parameters()
            .into_iter()
            .map(|(_, t)| t.shallow_clone())
            .collect());
    }
    registry::with(x, |o| {
        Ok(o.tensors().into_iter().map(Tensor::shallow_clone).collect())
    })
}

/// The named parameters of a module, or the tensors of a parameter dictionary.
fn named(h: K) -> Result<Vec<(String, Tensor)>> {
    if is_module(h) {
        let r = modref(h)?;
        return Ok(r
            .get()
            .named_parameters()
            .into_iter()
            .map(|(k, t)| (k, t.shallow_clone()))
            .collect());
    }
    if registry::class_of(h) == Some(registry::Class::Dictionary) {
        return registry::with(h, |o| match o {
            Obj::Dict(d) => Ok(d
                .iter()
                .map(|(k, t)| (k.clone(), t.shallow_clone()))
                .collect()),
            _ => unreachable!("checked above"),
        });
    }
    bail!(
        "expected 1st arg of module or parameter dictionary, given {}",
        describe(h)
    )
}

fn read_names(x: K) -> Option<Vec<String>> {
    Syms::of(x)
        .map(|s| s.0)
        .map(|v| v.into_iter().map(String::from).collect())
}

/// The values for `n` names: one tensor or array for a single name, else a vector handle or a
/// list of n tensors or arrays.
fn values(x: K, n: usize, single: bool) -> Result<Vec<Tensor>> {
    if single {
        return Ok(vec![one(x)?]);
    }
    if registry::class_of(x) == Some(registry::Class::Vector) {
        let v = opargs::vector(x)?;
        if v.len() != n {
            bail!(
                "{n}-element list of names but {}-element list of values",
                v.len()
            );
        }
        return Ok(v);
    }
    let items = match from::list(&x) {
        Some(v) => v.to_vec(),
        None if read::ktype(x) < 0 => bail!("{n} names but a single value"),
        None => {
            let e = crate::k::Owned::new(make::explode(x));
            let v = e.items().map(|v| v.to_vec()).unwrap_or_default();
            return check_count(v.iter().map(|i| one(*i)).collect::<Result<Vec<_>>>()?, n);
        }
    };
    check_count(
        items.iter().map(|i| one(*i)).collect::<Result<Vec<_>>>()?,
        n,
    )
}

fn check_count(v: Vec<Tensor>, n: usize) -> Result<Vec<Tensor>> {
    if v.len() != n {
        bail!(
            "{n}-element list of names but {}-element list of values",
            v.len()
        );
    }
    Ok(v)
}

/// A tensor handle's tensor, or q data as a tensor.
fn one(x: K) -> Result<Tensor> {
    if registry::is_handle(x) {
        registry::tensor(x)
    } else {
        convert::to_tensor(x)
    }
}

/// Names and values of a q dictionary or a dictionary handle.
fn pairs(x: K) -> Result<(Vec<String>, Vec<Tensor>)> {
    if registry::class_of(x) == Some(registry::Class::Dictionary) {
        return registry::with(x, |o| match o {
            Obj::Dict(d) => Ok(d
                .iter()
                .map(|(k, t)| (k.clone(), t.shallow_clone()))
                .unzip()),
            _ => unreachable!("checked above"),
        });
    }
    let Some((k, v)) = read::dict_parts(x) else {
        bail!("unrecognized 2nd arg, {}", describe(x))
    };
    let keys = read_names(k).ok_or_else(|| anyhow!("dictionary keys expected as symbols"))?;
    let vals = values(v, keys.len(), false)?;
    Ok((keys, vals))
}

/// Can a value of size `from` be copied into a tensor of size `to` (broadcasting)?
fn broadcasts(from: &[i64], to: &[i64]) -> bool {
    from.len() <= to.len()
        && from
            .iter()
            .rev()
            .zip(to.iter().rev())
            .all(|(f, t)| f == t || *f == 1)
}

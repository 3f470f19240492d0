//! ktorch's `detach`: `detach t` a new tensor handle sharing storage but outside the gradient
//! graph, `detach(t;1b)` in place (null); `detach v`/`detach d` every tensor of a vector or
//! dictionary in place, `detach(v;indices)`, `detach(d;keys)` some of them.
use anyhow::bail;
use tch::Tensor;

use super::opargs::{self, Pick};
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::registry::{self, Obj};

/// `detach`'s `h` or `(h;selection)`: a tensor, vector or dictionary handle (its class known
/// in the registry) and an in-place flag, indices or keys.
pub struct Detaching {
    h: K,
    sel: Option<Pick>,
}

impl FromQ for Detaching {
    const TYPE: &'static str = "tensor, vector or dictionary";
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<Detaching>> {
        if registry::is_handle(x) {
            return Ok(Some(Detaching { h: x, sel: None }));
        }
        match from::list(&x) {
            Some([h, s]) if registry::is_handle(*h) => Ok(Some(Detaching {
                h: *h,
                sel: Some(Pick::from_q(*s, "selection")?),
            })),
            Some(v @ [h, ..]) if registry::is_handle(*h) => {
                bail!("expected tensor, vector or dictionary and at most one more argument, given {} arguments", v.len())
            }
            _ => bail!(
                "expected tensor, vector or dictionary, given {}",
                opargs::describe(x)
            ),
        }
    }
}

crate::qfn! {
    /// `detach t` a new tensor outside the gradient graph, `detach(t;1b)` in place; every or
    /// some tensors of a vector or dictionary in place.
    pub fn detach(x: Detaching) -> KResult {
        let Detaching { h, sel } = x;
        // A new tensor is added to the registry only after its lock is released.
        let new: Option<Tensor> = registry::with(h, |o| match o {
            Obj::Tensor(t) => match sel.as_ref().map(|s| s.flag.ok_or(s)) {
                None | Some(Ok(false)) => Ok(Some(t.f_detach()?)),
                Some(Ok(true)) => {
                    let _ = t.f_detach_()?;
                    Ok(None)
                }
                Some(Err(s)) => bail!(
                    "expected tensor or (tensor;inplace flag), given 2nd arg of {}",
                    s.given
                ),
            },
            Obj::Vector(v) => {
                let picked: Vec<usize> = match &sel {
                    None => (0..v.len()).collect(),
                    Some(s) => {
                        let Some(i) = &s.longs else {
                            bail!(
                                "vector supplied, expected 2nd arg of indices, given {}",
                                s.given
                            )
                        };
                        i.iter()
                            .map(|&j| {
                                if j >= 0 && (j as usize) < v.len() {
                                    Ok(j as usize)
                                } else {
                                    Err(anyhow::anyhow!("vector[{j}] out of bounds"))
                                }
                            })
                            .collect::<anyhow::Result<_>>()?
                    }
                };
                for j in picked {
                    let _ = v[j].f_detach_()?;
                }
                Ok(None)
            }
            Obj::Dict(d) => {
                let picked: Vec<usize> = match &sel {
                    None => (0..d.len()).collect(),
                    Some(s) => {
                        let Some(keys) = &s.syms else {
                            bail!(
                                "dictionary supplied, expected 2nd arg of key(s), given {}",
                                s.given
                            )
                        };
                        keys.iter()
                            .map(|k| {
                                d.iter()
                                    .position(|(n, _)| n == k)
                                    .ok_or_else(|| anyhow::anyhow!("dictionary[`{k}] not found"))
                            })
                            .collect::<anyhow::Result<_>>()?
                    }
                };
                for j in picked {
                    let _ = d[j].1.f_detach_()?;
                }
                Ok(None)
            }
            _ => bail!("not implemented for {}", o.class()),
        })?;
        Ok(match new {
            Some(t) => registry::add(Obj::Tensor(t)),
            None => make::null(),
        })
    }
}

/// A copy of `t`'s values outside the gradient graph: libtorch's `detach_copy` run without
/// gradient recording. Run with recording on, `detach_copy` of a tensor that requires gradients
/// gives one that still does, with a backward that is not implemented ("derivative for
/// aten::detach_copy is not implemented"), and so a parameter made from it is no leaf.
pub fn detached_copy(t: &Tensor) -> Result<Tensor, tch::TchError> {
    tch::no_grad(|| t.f_detach_copy())
}

//! Reading back through `tensor`: `tensor h` gives a tensor's values as q data, or new handles to
//! the tensors of a vector (a list) or dictionary (a q dictionary); `tensor(h;ind)`,
//! `tensor(h;dim;ind)`, `tensor(h;flag;dim;ind)` part of a tensor (flag: complex layout);
//! `tensor(v;ind)` and `tensor(d;key)` handles to some of a vector's or dictionary's tensors.
//! Handles made here share the tensor with the collection, as `addref` does.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::{convert, dict, vector};
use crate::k::from::{FromQ, Whole, Wholes};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

fn handle(t: &Tensor) -> K {
    registry::add(Obj::Tensor(t.shallow_clone()))
}

pub fn all(h: K) -> KResult {
    // Copy out under the registry's lock; add the new handles after it is released.
    let (class, keys, ts) = registry::with(h, |o| {
        let ts: Vec<Tensor> = o.tensors().iter().map(|t| t.shallow_clone()).collect();
        Ok((
            o.class(),
            o.keys()
                .map(|k| k.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
            ts,
        ))
    })?;
    Ok(match (class, keys) {
        (registry::Class::Tensor, _) => return convert::to_q(&ts[0]),
        (_, Some(keys)) => {
            let keys: Vec<&str> = keys.iter().map(|s| s.as_str()).collect();
            make::dict_of(
                make::symbols(&keys),
                make::list(ts.iter().map(handle).collect()),
            )
        }
        _ => make::list(ts.iter().map(handle).collect()),
    })
}

pub fn part(h: K, rest: &[K]) -> KResult {
    match registry::class_of(h) {
        Some(registry::Class::Vector) => {
            let [i] = rest else {
                bail!("expected (vector;index)")
            };
            let v = registry::tensors(h)?;
            Ok(match vector::indices(*i, v.len())? {
                Ok(k) => handle(&v[k]),
                Err(ks) => make::list(ks.iter().map(|k| handle(&v[*k])).collect()),
            })
        }
        Some(registry::Class::Dictionary) => {
            let [k] = rest else {
                bail!("expected (dictionary;key)")
            };
            let d = dict::stored(h)?;
            // Find every key before making any handle, so a missing key leaks nothing.
            Ok(match dict::keys(*k)? {
                Ok(s) => handle(&d[dict::position(&d, s)?].1),
                Err(ss) => {
                    let at = ss
                        .iter()
                        .map(|s| dict::position(&d, s))
                        .collect::<anyhow::Result<Vec<_>>>()?;
                    make::list(at.iter().map(|i| handle(&d[*i].1)).collect())
                }
            })
        }
        _ => {
            let t = registry::tensor(h)?;
            let (flag, rest) = match rest.split_first() {
                Some((f, r)) if bool::of(*f).is_some() => (bool::of(*f), r),
                _ => (None, rest),
            };
            let first = flag.unwrap_or_else(crate::session::setting::complexfirst);
            let part = match rest {
                [] if flag.is_some() => t,
                [i] => index(&t, 0, *i)?,
                [d, i] => {
                    let d = Whole::of(*d)
                        .map(|w| w.0)
                        .filter(|_| read::ktype(*d) != -1)
                        .ok_or_else(|| anyhow!("dimension expected as a long"))?;
                    index(&t, d, *i)?
                }
                _ => {
                    bail!("expected (tensor;index), (tensor;dim;index) or (tensor;flag;dim;index)")
                }
            };
            convert::to_q_complex(&part, first)
        }
    }
}

/// `t[ind]` along `dim`: one index (negative counts from the end) drops the dimension; a list of
/// indices keeps it (index_select).
fn index(t: &Tensor, dim: i64, i: K) -> anyhow::Result<Tensor> {
    if !t.defined() {
        bail!("tensor is undefined");
    }
    if t.dim() == 0 {
        bail!("cannot index a 0-dim tensor");
    }
    if let Some(j) = Whole::of(i).map(|w| w.0).filter(|_| read::ktype(i) != -1) {
        return Ok(t.f_select(dim, j)?);
    }
    let js = Wholes::of(i)
        .map(|w| w.0)
        .ok_or_else(|| anyhow!("index expected as a long or longs"))?;
    super::known::check_select_host(t, dim, &js)?;
    let idx = Tensor::f_from_slice(&js)?.f_to_device(t.device())?;
    Ok(t.f_index_select(dim, &idx)?)
}

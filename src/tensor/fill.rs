//! Filling and amending in place, ktorch's forms (no gradients are recorded):
//! - `fill(input;value)` every element, `fill(input;indices;value)` rows of a tensor or tensors of
//!   a vector, `fill(d;keys;value)` tensors of a dictionary: null for handles, q data for q data;
//! - `filldiagonal(input;value)`, `filldiagonal(input;value;wrap)`: the main diagonal;
//! - `amend(t;values)`, `amend(v;index;values)`, `amend(d;key;values)`, each with an optional
//!   trailing async flag: copy values (q data or a tensor) into the tensor, keeping its type.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::opargs;
use super::{arg, convert};
use crate::k::from::{self, FromQ, Number as Num, Syms};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Class, Obj};

/// Rows `picks` of a tensor (its first dimension), checked as ktorch's `tensorpick`.
pub(crate) fn rows(t: &Tensor, picks: &[i64]) -> anyhow::Result<Vec<Tensor>> {
    if !t.defined() {
        bail!("tensor is not defined");
    }
    if t.dim() == 0 {
        bail!("0-dim tensor");
    }
    let n = t.size()[0];
    picks
        .iter()
        .map(|&i| {
            if i >= 0 && i < n {
                Ok(t.f_select(0, i)?)
            } else {
                Err(anyhow!("tensor[{i}] invalid given a {n}-element tensor"))
            }
        })
        .collect()
}

pub(crate) fn vector_picks(n: usize, picks: &[i64]) -> anyhow::Result<Vec<usize>> {
    picks
        .iter()
        .map(|&i| {
            if i >= 0 && (i as usize) < n {
                Ok(i as usize)
            } else {
                Err(anyhow!("vector[{i}] invalid given a {n}-element vector"))
            }
        })
        .collect()
}

pub(crate) fn dict_picks(d: &[(String, Tensor)], keys: &[&str]) -> anyhow::Result<Vec<usize>> {
    keys.iter()
        .map(|k| {
            d.iter()
                .position(|(n, _)| n == k)
                .ok_or_else(|| anyhow!("dictionary key `{k} not found"))
        })
        .collect()
}

fn fill_all(ts: &mut [Tensor], v: Num) -> anyhow::Result<()> {
    for t in ts {
        let _ = t.f_fill_(v)?;
    }
    Ok(())
}

pub fn fill(x: K) -> KResult {
    let v = from::items(&x, 2..=3, "(input;value) or (input;indices/keys;value)")?;
    let last = v[v.len() - 1];
    let Some(value) = Num::of(last).filter(|_| read::ktype(last) < 0) else {
        bail!(
            "unable to get fill element from final arg of {}",
            opargs::describe(last)
        )
    };
    let pick = (v.len() == 3).then_some(v[1]);
    let _nograd = tch::no_grad_guard();
    let idx = |p: K, what: &str| {
        Vec::<i64>::of(p).ok_or_else(|| {
            anyhow!(
                "expected 2nd arg of {what} indices, given {}",
                opargs::describe(p)
            )
        })
    };
    if !registry::is_handle(v[0]) {
        let mut t = convert::to_tensor(v[0])?;
        match pick {
            None => fill_all(std::slice::from_mut(&mut t), value)?,
            Some(p) => fill_all(&mut rows(&t, &idx(p, "tensor")?)?, value)?,
        }
        return convert::to_q(&t);
    }
    registry::with(v[0], |o| match o {
        Obj::Tensor(t) => match pick {
            None => fill_all(std::slice::from_mut(t), value),
            Some(p) => fill_all(&mut rows(t, &idx(p, "tensor")?)?, value),
        },
        Obj::Vector(ts) => match pick {
            None => fill_all(ts, value),
            Some(p) => {
                for i in vector_picks(ts.len(), &idx(p, "vector")?)? {
                    let _ = ts[i].f_fill_(value)?;
                }
                Ok(())
            }
        },
        Obj::Dict(d) => {
            let picked = match pick {
                None => (0..d.len()).collect(),
                Some(p) => {
                    let keys = Syms::of(p).map(|s| s.0).ok_or_else(|| {
                        anyhow!(
                            "unable to get dictionary key(s) given {}",
                            opargs::describe(p)
                        )
                    })?;
                    dict_picks(d, &keys)?
                }
            };
            for i in picked {
                let _ = d[i].1.f_fill_(value)?;
            }
            Ok(())
        }
        _ => bail!("not implemented for {}", o.class()),
    })?;
    Ok(make::null())
}

pub fn filldiagonal(x: K) -> KResult {
    let usage = "(input;fill value) or (input;fill value;wrap flag)";
    let v = from::items(&x, 2..=3, usage)?;
    let value = Num::of(v[1]).filter(|_| read::ktype(v[1]) < 0);
    let wrap = if v.len() == 3 {
        bool::of(v[2])
    } else {
        Some(false)
    };
    let (Some(value), Some(wrap)) = (value, wrap) else {
        bail!("expected {usage}, fill value a number, wrap a boolean")
    };
    let _nograd = tch::no_grad_guard();
    let (mut t, h) = arg(v[0])?;
    let _ = t.f_fill_diagonal_(value, wrap)?;
    if h {
        Ok(make::null())
    } else {
        convert::to_q(&t)
    }
}

pub fn amend(x: K) -> KResult {
    let v = from::list(&x)
        .filter(|v| !v.is_empty() && registry::is_handle(v[0]))
        .ok_or_else(|| {
            anyhow!(
                "expected 1st arg of tensor, vector or dictionary, given {}",
                opargs::describe(x)
            )
        })?;
    let class = opargs::class(v[0])?;
    let n = v.len();
    let async_ok = |i: usize| n == i || (n == i + 1 && bool::of(v[i]).is_some());
    let usage = match class {
        Some(Class::Tensor) => "(tensor;values) or (tensor;values;async flag)",
        Some(Class::Vector) => "(vector;index;values) or (vector;index;values;async flag)",
        _ => "(dictionary;key;values) or (dictionary;key;values;async flag)",
    };
    let at = if class == Some(Class::Tensor) { 1 } else { 2 };
    if !async_ok(at + 1) {
        bail!(
            "expected {usage}, given {n} argument{}",
            if n == 1 { "" } else { "s" }
        );
    }
    // Values are read before the registry is locked (a values handle is looked up there too).
    let (src, _) = arg(v[at])?;
    let _nograd = tch::no_grad_guard();
    registry::with(v[0], |o| match o {
        Obj::Tensor(t) => Ok(t.f_copy_(&src)?),
        Obj::Vector(ts) => {
            let Some(i) = i64::of(v[1]) else {
                bail!(
                    "given vector, 2nd argument is an index (long), given {}",
                    opargs::describe(v[1])
                )
            };
            if i < 0 || i as usize >= ts.len() {
                bail!("vector[{i}] is invalid given a {}-element vector", ts.len());
            }
            Ok(ts[i as usize].f_copy_(&src)?)
        }
        Obj::Dict(d) => {
            let Some(k) = <&str>::of(v[1]) else {
                bail!(
                    "given dictionary, 2nd argument is a key (symbol), given {}",
                    opargs::describe(v[1])
                )
            };
            let i = dict_picks(d, &[k])?[0];
            Ok(d[i].1.f_copy_(&src)?)
        }
        _ => bail!("not implemented for {}", o.class()),
    })?;
    Ok(make::null())
}

//! Filling and amending in place, ktorch's forms (no gradients are recorded):
//! - `fill(input;value)` every element, `fill(input;indices;value)` rows of a tensor or tensors of
//!   a vector, `fill(d;keys;value)` tensors of a dictionary: null for handles, q data for q data;
//! - `filldiagonal(input;value)`, `filldiagonal(input;value;wrap)`: the main diagonal;
//! - `amend(t;values)`, `amend(v;index;values)`, `amend(d;key;values)`, each with an optional
//!   trailing async flag: copy values (q data or a tensor) into the tensor, keeping its type.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::convert;
use super::opargs::{self, Input, Pick};
use crate::k::from::{self, FromQ, Number as Num};
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

/// What `fill` fills: q data (made a tensor, filled and returned) or a handle's tensors.
enum Filled {
    Data(Tensor),
    Handle(K),
}

/// `fill`'s `(input;value)` or `(input;indices/keys;value)`: the value a number atom, checked
/// before the input is read.
pub struct Filling {
    input: Filled,
    pick: Option<Pick>,
    value: Num,
}

impl FromQ for Filling {
    const TYPE: &'static str = "(input;value) or (input;indices/keys;value)";
    /// Every value is the list or an error.
    fn read(x: K) -> anyhow::Result<Option<Filling>> {
        let v = from::items(&x, 2..=3, Self::TYPE)?;
        let last = v[v.len() - 1];
        let Some(value) = Num::of(last).filter(|_| read::ktype(last) < 0) else {
            bail!(
                "unable to get fill element from final arg of {}",
                opargs::describe(last)
            )
        };
        let pick = (v.len() == 3)
            .then(|| Pick::from_q(v[1], "pick"))
            .transpose()?;
        let input = if registry::is_handle(v[0]) {
            Filled::Handle(v[0])
        } else {
            Filled::Data(convert::to_tensor(v[0])?)
        };
        Ok(Some(Filling { input, pick, value }))
    }
}

/// Indices of a tensor's rows or a vector's tensors (`what`), else the error naming what was given.
fn idx<'a>(p: &'a Pick, what: &str) -> anyhow::Result<&'a [i64]> {
    p.longs
        .as_deref()
        .ok_or_else(|| anyhow!("expected 2nd arg of {what} indices, given {}", p.given))
}

crate::qfn! {
    /// `fill(input;value)`, `fill(input;indices/keys;value)`: every element, or rows of a tensor,
    /// tensors of a vector or dictionary, set to the value, in place (no gradients recorded).
    pub fn fill(x: Filling) -> KResult {
        let Filling { input, pick, value } = x;
        let _nograd = tch::no_grad_guard();
        let h = match input {
            Filled::Data(mut t) => {
                match &pick {
                    None => fill_all(std::slice::from_mut(&mut t), value)?,
                    Some(p) => fill_all(&mut rows(&t, idx(p, "tensor")?)?, value)?,
                }
                return convert::to_q(&t);
            }
            Filled::Handle(h) => h,
        };
        registry::with(h, |o| match o {
            Obj::Tensor(t) => match &pick {
                None => fill_all(std::slice::from_mut(t), value),
                Some(p) => fill_all(&mut rows(t, idx(p, "tensor")?)?, value),
            },
            Obj::Vector(ts) => match &pick {
                None => fill_all(ts, value),
                Some(p) => {
                    for i in vector_picks(ts.len(), idx(p, "vector")?)? {
                        let _ = ts[i].f_fill_(value)?;
                    }
                    Ok(())
                }
            },
            Obj::Dict(d) => {
                let picked = match &pick {
                    None => (0..d.len()).collect(),
                    Some(p) => {
                        let keys = p.syms.as_deref().ok_or_else(|| {
                            anyhow!("unable to get dictionary key(s) given {}", p.given)
                        })?;
                        dict_picks(d, keys)?
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
}

/// `filldiagonal`'s `(input;fill value)` or `(input;fill value;wrap flag)`: the value and flag
/// checked before the input is read.
pub struct Diagonal {
    input: Input,
    value: Num,
    wrap: bool,
}

impl FromQ for Diagonal {
    const TYPE: &'static str = "(input;fill value) or (input;fill value;wrap flag)";
    /// Every value is the list or an error.
    fn read(x: K) -> anyhow::Result<Option<Diagonal>> {
        let usage = Self::TYPE;
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
        let input = Input::from_q(v[0], "input")?;
        Ok(Some(Diagonal { input, value, wrap }))
    }
}

crate::qfn! {
    /// `filldiagonal(input;value)`, `filldiagonal(input;value;wrap)`: the main diagonal set to
    /// the value, in place (null for a handle, q data for q data).
    pub fn filldiagonal(x: Diagonal) -> KResult {
        let Input { mut t, handle } = x.input;
        let _nograd = tch::no_grad_guard();
        let _ = t.f_fill_diagonal_(x.value, x.wrap)?;
        if handle {
            Ok(make::null())
        } else {
            convert::to_q(&t)
        }
    }
}

/// `amend`'s `(t;values)`, `(v;index;values)`, `(d;key;values)`, each with an optional async
/// flag: the handle, its class, the values (read before the registry is locked: a values handle
/// is looked up there too) and the index or key.
pub struct Amending {
    h: K,
    src: Tensor,
    pick: Option<Pick>,
}

impl FromQ for Amending {
    const TYPE: &'static str = "tensor, vector or dictionary";
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<Amending>> {
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
        let Input { t: src, .. } = Input::from_q(v[at], "values")?;
        let pick = (at == 2).then(|| Pick::from_q(v[1], "index")).transpose()?;
        Ok(Some(Amending { h: v[0], src, pick }))
    }
}

crate::qfn! {
    /// `amend(t;values)`, `amend(v;index;values)`, `amend(d;key;values)`: copy values (q data or
    /// a tensor) into the tensor, keeping its type; null.
    pub fn amend(x: Amending) -> KResult {
        let Amending { h, src, pick } = x;
        let _nograd = tch::no_grad_guard();
        registry::with(h, |o| match (o, &pick) {
            (Obj::Tensor(t), _) => Ok(t.f_copy_(&src)?),
            (Obj::Vector(ts), Some(p)) => {
                let Some(i) = p.long else {
                    bail!(
                        "given vector, 2nd argument is an index (long), given {}",
                        p.given
                    )
                };
                if i < 0 || i as usize >= ts.len() {
                    bail!("vector[{i}] is invalid given a {}-element vector", ts.len());
                }
                Ok(ts[i as usize].f_copy_(&src)?)
            }
            (Obj::Dict(d), Some(p)) => {
                let Some(k) = p.sym else {
                    bail!(
                        "given dictionary, 2nd argument is a key (symbol), given {}",
                        p.given
                    )
                };
                let i = dict_picks(d, &[k])?[0];
                Ok(d[i].1.f_copy_(&src)?)
            }
            (other, _) => bail!("not implemented for {}", other.class()),
        })?;
        Ok(make::null())
    }
}

//! Tensor flags: `contiguous coalesced defined gradflag leaf pinned sparseflag`, booleans per
//! tensor; `gradflag` also sets the requires-gradient flag.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::{facts, query, Attr, Held};
use crate::k::from::{self, FromQ, Whole, Wholes};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

fn defined_(t: &Tensor) -> Result<bool> {
    Ok(t.defined())
}
fn requires_grad(t: &Tensor) -> Result<bool> {
    Ok(t.defined() && t.requires_grad())
}
fn leaf_(t: &Tensor) -> Result<bool> {
    Ok(!t.defined() || t.f_is_leaf()?)
}
fn sparse_(t: &Tensor) -> Result<bool> {
    Ok(t.defined() && t.is_sparse())
}

/// `contiguous`'s argument: an object or q data, and the memory format asked (0: C order),
/// named by a symbol in `(x;format)`.
pub struct Contiguity {
    x: Held<true>,
    format: usize,
}

impl FromQ for Contiguity {
    const TYPE: &'static str = Held::<true>::TYPE;
    /// `(x;format)` when the second of a pair is a symbol (an unknown format is an error), else
    /// `x` as `Held` reads it.
    fn read(x: K) -> Result<Option<Contiguity>> {
        if let Some([h, f]) = from::list(&x).filter(|_| !registry::is_handle(x)) {
            if let Some(s) = <&str>::of(*f) {
                let format = facts::MEMORY.iter().position(|n| *n == s).ok_or_else(|| {
                    anyhow!(
                        "unrecognized memory format `{s}, expected one of {}",
                        facts::MEMORY.join(",")
                    )
                })?;
                let x = Held::from_q(*h, "x")?;
                return Ok(Some(Contiguity { x, format }));
            }
        }
        Ok(Held::read(x)?.map(|x| Contiguity { x, format: 0 }))
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        Held::<true>::wrong(x, arg)
    }
}

crate::qfn! {
    /// `contiguous x` contiguous in C order; `contiguous(x;format)` in memory format
    /// `` `contiguous `preserve `channel2d `channel3d ``.
    pub fn contiguous(x: Contiguity) -> KResult {
        let m = x.format;
        query(x.x, Attr::Bool(&|t| facts::is_contiguous(t, m)))
    }
}
crate::qfn! {
    pub fn coalesced(x: Held<true>) -> KResult {
        query(x, Attr::Bool(&facts::is_coalesced))
    }
}
crate::qfn! {
    pub fn defined(x: Held<false>) -> KResult {
        query(x, Attr::Bool(&defined_))
    }
}
crate::qfn! {
    pub fn leaf(x: Held<false>) -> KResult {
        query(x, Attr::Bool(&leaf_))
    }
}
crate::qfn! {
    pub fn pinned(x: Held<false>) -> KResult {
        query(x, Attr::Bool(&facts::is_pinned))
    }
}
crate::qfn! {
    pub fn sparseflag(x: Held<true>) -> KResult {
        query(x, Attr::Bool(&sparse_))
    }
}

const USAGE: &str = "tensor/vector/dictionary or (object;flag) or (dict/vector;keys/indices) or (dict/vector;keys/indices;flag)";

/// `gradflag`'s forms: a handle whose flags to answer, `(object;flag)` to set every flag, or
/// `(dict/vector;keys/indices)` with an optional flag: the keys and indices read both ways
/// (which applies is known in the registry), an atom key or index answering an atom.
pub enum GradFlag {
    Get(Held<false>),
    SetAll(K, bool),
    Pick {
        h: K,
        keys: Option<Vec<&'static str>>,
        ix: Option<Vec<i64>>,
        atom: bool,
        flag: Option<bool>,
    },
}

impl FromQ for GradFlag {
    const TYPE: &'static str = USAGE;
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<GradFlag>> {
        if registry::is_handle(x) {
            return Ok(Some(GradFlag::Get(Held::Handle(x))));
        }
        let items = from::list(&x)
            .filter(|v| (2..=3).contains(&v.len()))
            .ok_or_else(|| anyhow!("expected {USAGE}"))?;
        let h = items[0];
        if !registry::is_handle(h) {
            bail!("expected {USAGE}");
        }
        if items.len() == 2 {
            if let Some(b) = bool::of(items[1]) {
                return Ok(Some(GradFlag::SetAll(h, b)));
            }
        }
        let pick = items[1];
        let flag = match items.get(2) {
            Some(f) => Some(
                bool::of(*f).ok_or_else(|| anyhow!("expected a boolean flag as 3rd argument"))?,
            ),
            None => None,
        };
        Ok(Some(GradFlag::Pick {
            h,
            keys: <&str>::of(pick)
                .map(|s| vec![s])
                .or_else(|| Vec::<&str>::of(pick)),
            ix: indices(pick),
            atom: read::ktype(pick) < 0,
            flag,
        }))
    }
}

crate::qfn! {
    /// `gradflag x` the flag(s); `gradflag(x;flag)` sets it on every tensor of x;
    /// `gradflag(d;keys)`, `gradflag(v;indices)` the flags of some tensors (an atom key or index
    /// gives an atom), and `gradflag(d;keys;flag)`, `gradflag(v;indices;flag)` set them.
    pub fn gradflag(x: GradFlag) -> KResult {
        let (h, keys, ix, atom, flag) = match x {
            GradFlag::Get(h) => return query(h, Attr::Bool(&requires_grad)),
            GradFlag::SetAll(h, b) => {
                registry::with(h, |o| set(o.tensors(), b))?;
                return Ok(make::null());
            }
            GradFlag::Pick {
                h,
                keys,
                ix,
                atom,
                flag,
            } => (h, keys, ix, atom, flag),
        };
        enum Picked {
            Keys(Vec<String>, Vec<bool>),
            Flags(Vec<bool>),
        }
        let picked = registry::with(h, |o| {
            let (names, ts): (Option<Vec<String>>, Vec<&Tensor>) = match o {
                Obj::Dict(d) => {
                    let keys = keys.as_ref().ok_or_else(|| {
                        anyhow!("2nd argument of key(s) expected for a dictionary")
                    })?;
                    let mut ts = Vec::new();
                    for k in keys {
                        let t = d
                            .iter()
                            .find(|(n, _)| n == k)
                            .map(|(_, t)| t)
                            .ok_or_else(|| anyhow!("dict[`{k}] not found"))?;
                        ts.push(t);
                    }
                    (Some(keys.iter().map(|k| k.to_string()).collect()), ts)
                }
                Obj::Vector(v) => {
                    let ix = ix.as_ref().ok_or_else(|| {
                        anyhow!("2nd argument of index/indices expected for a vector")
                    })?;
                    let n = v.len() as i64;
                    let mut ts = Vec::new();
                    for &j in ix {
                        if j < 0 || j >= n {
                            bail!("vector[{j}] invalid for {n}-element vector");
                        }
                        ts.push(&v[j as usize]);
                    }
                    (None, ts)
                }
                Obj::Tensor(_) => {
                    bail!("2nd argument of key(s) or index/indices not valid with a tensor")
                }
                _ => bail!("not implemented for {}", o.class()),
            };
            if let Some(b) = flag {
                set(ts, b)?;
                return Ok(None);
            }
            let flags = ts
                .iter()
                .map(|t| requires_grad(t))
                .collect::<Result<Vec<_>>>()?;
            Ok(Some(match names {
                Some(k) => Picked::Keys(k, flags),
                None => Picked::Flags(flags),
            }))
        })?;
        Ok(match picked {
            None => make::null(),
            Some(Picked::Flags(f)) | Some(Picked::Keys(_, f)) if atom => make::boolean(f[0]),
            Some(Picked::Flags(f)) => make::booleans(&f),
            Some(Picked::Keys(k, f)) => {
                let k: Vec<&str> = k.iter().map(|s| s.as_str()).collect();
                make::dict_of(make::symbols(&k), make::booleans(&f))
            }
        })
    }
}

/// Indices from a long-like atom or a long/int/short vector.
fn indices(x: K) -> Option<Vec<i64>> {
    if read::ktype(x) < 0 && read::ktype(x) != -1 {
        return Whole::of(x).map(|w| w.0).map(|j| vec![j]);
    }
    Wholes::of(x).map(|w| w.0)
}

/// Set the requires-gradient flag on tensors; every tensor is checked before any changes.
fn set(ts: Vec<&Tensor>, b: bool) -> Result<()> {
    for t in &ts {
        if !t.defined() {
            bail!("cannot set gradient flag on an undefined tensor");
        }
        if b && !t.is_floating_point() && !t.is_complex() {
            bail!(
                "only floating point and complex tensors can require gradients, given `{}",
                crate::tensor::options::kind_name(t.kind())
            );
        }
        if !b && t.requires_grad() && !t.f_is_leaf()? {
            bail!("only the gradient flag of leaf tensors can be turned off");
        }
    }
    for t in ts {
        let _ = t.f_set_requires_grad(b)?;
    }
    Ok(())
}

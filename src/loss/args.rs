//! Reading a loss function's options as kloss.cpp does (its `xargc`/`xpairs`/`xpair`, read by
//! `k::from::options`, the values by `FromQ`): after the inputs come positional options in the
//! loss's order, then optionally name-value pairs as the last argument. A symbol in the last positional place is the reduction. The pairs may be a
//! dictionary (`` `reduce`weight!(`sum;w) ``), an even symbol list (`` `reduce`sum ``), a list
//! `` (`smoothing;.1;`reduce;`none) `` or a list of pairs `` ((`smoothing;.1);(`reduce;`none)) ``;
//! `()` there is an empty set of pairs. Later settings override earlier ones.
use std::collections::HashMap;

use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

use crate::k::from::{self, Double, FromQ, Integer, Item, Sym};
use crate::k::{read, K};
use crate::registry;
use crate::tensor::convert;

/// The type of one option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ty {
    /// A tensor (class weights): q data or a tensor handle, `()` or `::` for none.
    Tensor,
    /// A long atom (an index, `p` of multimargin, ctc's blank).
    Long,
    /// A float or long atom (margins, smoothing, delta, beta, eps, `p` of triplet).
    Double,
    /// A boolean atom.
    Flag,
}

/// A reduction mode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Red {
    None,
    Mean,
    Sum,
    /// kl only: the sum divided by the batch size.
    BatchMean,
}

impl Red {
    pub fn tch(self) -> tch::Reduction {
        match self {
            Red::None => tch::Reduction::None,
            Red::Mean | Red::BatchMean => tch::Reduction::Mean,
            Red::Sum => tch::Reduction::Sum,
        }
    }
}

/// One value read, positional or named.
pub enum Val {
    Tensor(Option<Tensor>),
    Long(i64),
    Double(f64),
    Flag(bool),
}

impl Clone for Val {
    fn clone(&self) -> Val {
        match self {
            Val::Tensor(t) => Val::Tensor(t.as_ref().map(Tensor::shallow_clone)),
            Val::Long(j) => Val::Long(*j),
            Val::Double(f) => Val::Double(*f),
            Val::Flag(b) => Val::Flag(*b),
        }
    }
}

/// The options given to one call; options not given take PyTorch's defaults in the getters.
#[derive(Clone)]
pub struct Opts {
    pub reduce: Red,
    vals: HashMap<&'static str, Val>,
}

impl Opts {
    pub fn double(&self, k: &str, d: f64) -> f64 {
        match self.vals.get(k) {
            Some(Val::Double(f)) => *f,
            _ => d,
        }
    }
    pub fn long(&self, k: &str, d: i64) -> i64 {
        match self.vals.get(k) {
            Some(Val::Long(j)) => *j,
            _ => d,
        }
    }
    pub fn flag(&self, k: &str, d: bool) -> bool {
        match self.vals.get(k) {
            Some(Val::Flag(b)) => *b,
            _ => d,
        }
    }
    /// A tensor option on the device of `like` and, when both are floating point, of its dtype.
    pub fn tensor(&self, k: &str, like: &Tensor) -> Result<Option<Tensor>> {
        match self.vals.get(k) {
            Some(Val::Tensor(Some(t))) => {
                let mut t = t.shallow_clone();
                if like.device() != Device::Cpu && t.device() != like.device() {
                    t = t.f_to_device(like.device())?;
                }
                if like.is_floating_point() && t.is_floating_point() && t.kind() != like.kind() {
                    t = t.f_to_kind(like.kind())?;
                }
                Ok(Some(t))
            }
            _ => Ok(None),
        }
    }
}

/// A tensor option (class weights): `()` or `::` for none, a tensor handle, or q data.
struct Weight(Option<Tensor>);

impl FromQ for Weight {
    const TYPE: &'static str = "tensor";
    fn read(x: K) -> Result<Option<Weight>> {
        Ok(Some(Weight(if read::is_nil(x) {
            None
        } else if registry::is_handle(x) {
            Some(registry::tensor(x)?)
        } else {
            Some(convert::to_tensor(x)?)
        })))
    }
}

fn value(name: &str, ty: Ty, x: Item) -> Result<Val> {
    let bad = |what: &str| anyhow!("{name}: expected {what}, given {}", x.describe());
    Ok(match ty {
        Ty::Tensor => Val::Tensor(x.read::<Weight>()?.and_then(|w| w.0)),
        Ty::Long => Val::Long(x.read::<Integer>()?.ok_or_else(|| bad("long scalar"))?.0),
        Ty::Double => Val::Double(x.read::<Double>()?.ok_or_else(|| bad("double"))?.0),
        Ty::Flag => Val::Flag(x.read::<bool>()?.ok_or_else(|| bad("boolean scalar"))?),
    })
}

fn reduction(x: Item, modes: &[&str]) -> Result<Red> {
    let s = x
        .read::<Sym>()?
        .ok_or_else(|| anyhow!("reduce: expected symbol, given {}", x.describe()))?
        .0;
    if modes.is_empty() {
        bail!("reduce: no reduction for this loss, given `{s}");
    }
    if !modes.contains(&s) {
        bail!("reduce: `{s} is not one of {}", modes.join(","));
    }
    Ok(match s {
        "none" => Red::None,
        "sum" => Red::Sum,
        "batchmean" => Red::BatchMean,
        _ => Red::Mean,
    })
}

impl Opts {
    /// The options `v` (the arguments after the inputs, `k::from::options`) of a loss whose
    /// positional options are `slots` in order (each also accepted by name, as is `reduce`),
    /// with reduction `modes`.
    pub fn of(v: &[K], slots: &[(&'static str, Ty)], modes: &[&str]) -> Result<Opts> {
        let names: Vec<&'static str> = slots.iter().map(|s| s.0).collect();
        let mut o = Opts {
            reduce: Red::Mean,
            vals: HashMap::new(),
        };
        for (name, x) in from::options(v, &names, "reduce")? {
            match slots.iter().find(|s| s.0 == name) {
                Some((name, ty)) => {
                    o.vals.insert(name, value(name, *ty, x)?);
                }
                None => o.reduce = reduction(x, modes)?,
            }
        }
        Ok(o)
    }
}

/// ktorch's default for option `slot` of loss `loss` (kloss.cpp's option functions, PyTorch's
/// defaults): what a loss's options show for an option not given.
pub fn default_of(loss: &str, slot: &str) -> Val {
    match (loss, slot) {
        (_, "weight") => Val::Tensor(None),
        (_, "ignore") => Val::Long(-100),
        (_, "smoothing") => Val::Double(0.0),
        ("cosineloss" | "margin", "margin") => Val::Double(0.0),
        (_, "margin") => Val::Double(1.0),
        (_, "blank") => Val::Long(0),
        (_, "zeroinf") | (_, "full") | (_, "swap") | (_, "keepdim") => Val::Flag(false),
        ("similar", "dim") => Val::Long(1),
        ("similar", "eps") => Val::Double(1e-8),
        (_, "log") => Val::Flag(true),
        (_, "delta") | (_, "beta") => Val::Double(1.0),
        ("multimargin", "p") => Val::Long(1),
        (_, "p") => Val::Double(2.0),
        ("poissonloss", "eps") => Val::Double(1e-8),
        (_, "eps") => Val::Double(1e-6),
        _ => Val::Tensor(None),
    }
}

fn same(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Tensor(None), Val::Tensor(None)) => true,
        (Val::Long(x), Val::Long(y)) => x == y,
        (Val::Double(x), Val::Double(y)) => x == y,
        (Val::Flag(x), Val::Flag(y)) => x == y,
        _ => false,
    }
}

fn q(v: &Val) -> Result<K> {
    Ok(match v {
        Val::Tensor(Some(t)) => crate::tensor::convert::to_q(t)?,
        Val::Tensor(None) => crate::k::make::null(),
        Val::Long(j) => crate::k::make::long(*j),
        Val::Double(f) => crate::k::make::float(*f),
        Val::Flag(b) => crate::k::make::boolean(*b),
    })
}

impl Opts {
    /// The options of loss `loss` in its slot order, then `reduce` (for losses with reduction
    /// modes; `pairwise` and `similar` have none), as q values: all of them (those not given at
    /// their defaults), or only those differing from the defaults (ktorch's `alloptions` setting
    /// and the flag of `loss(l;flag)`).
    pub fn listed(
        &self,
        loss: &str,
        slots: &[(&'static str, Ty)],
        modes: &[&str],
        all: bool,
    ) -> Result<Vec<(&'static str, K)>> {
        let mut v = vec![];
        for (name, _) in slots {
            let d = default_of(loss, name);
            match self.vals.get(name) {
                Some(x) if all || !same(x, &d) => v.push((*name, q(x)?)),
                None if all => v.push((*name, q(&d)?)),
                _ => {}
            }
        }
        let r = match self.reduce {
            Red::None => "none",
            Red::Mean => "mean",
            Red::Sum => "sum",
            Red::BatchMean => "batchmean",
        };
        if !modes.is_empty() && (all || self.reduce != Red::Mean) {
            v.push(("reduce", crate::k::make::symbol(r)));
        }
        Ok(v)
    }
}

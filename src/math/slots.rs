//! ktorch's argument form for reductions and other one-input math: `f x` (an array or a tensor
//! handle alone), or `f(x;a;b;..;output)` where the optional arguments after the input are read
//! from the back, each kind at most once, in the order the function declares them (ktorch's
//! `if(n>1 && xbool(x,n-1,k)) n--;` chains): so `mean(x;dim;keepdim;dtype)`, `mean(x;dtype)` and
//! `mean(x;keepdim;dtype)` all parse with one declaration `[Dims, Flag, Dtype]`.
//! The output, when the function has one, comes last: a tensor handle, `[]` for in place (where
//! the function has an in-place form), or a vector handle for functions with several results.
use anyhow::{anyhow, bail, Result};
use tch::{Kind, Tensor};

use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::tensor::opargs::{self, describe};
use crate::tensor::{arg, options};

/// The kind of one optional argument.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// A long atom (a dimension, an offset, a count); `0N` reads as "none" where allowed.
    Long,
    /// Longs: a long atom, a long vector or `()` (dimensions, sizes).
    Longs,
    /// A boolean atom (keepdim, unbiased, replacement, ...).
    Flag,
    /// A symbol naming a dtype (`` `float``, `` `double``, ...).
    Dtype,
    /// A float atom (a norm's order: a double tells it from a long dimension).
    Double,
}

/// One optional argument as read.
#[derive(Clone, Debug)]
pub enum Val {
    Long(i64),
    Longs(Vec<i64>),
    Flag(bool),
    Kind(Kind),
    Double(f64),
}

impl Slot {
    fn read(self, x: K) -> Result<Option<Val>> {
        Ok(match self {
            Slot::Long => opargs::long(x).map(Val::Long),
            Slot::Longs => opargs::longs(x).map(Val::Longs),
            Slot::Flag => opargs::flag(x).map(Val::Flag),
            Slot::Double => read::float(x).map(Val::Double),
            Slot::Dtype => match read::symbol(x) {
                Some(s) => Some(Val::Kind(
                    options::kind_from_name(s)
                        .ok_or_else(|| anyhow!("unrecognized data type: `{s}"))?,
                )),
                None => None,
            },
        })
    }
}

/// What the function accepts in the output position.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OutKind {
    None,
    Tensor,
    /// An output tensor, or `[]` (or `()`) for in place.
    TensorOrInPlace,
    Vector,
}

/// Where the result goes.
pub enum Dest {
    New,
    Tensor(Tensor),
    InPlace,
    Vector(K),
}

/// Parsed arguments: the input tensor, whether it came from a handle, whether it was given
/// alone (no argument list), the count of arguments given, the optional arguments by slot, and
/// where the result goes.
pub struct Args {
    pub x: Tensor,
    pub handle: bool,
    pub alone: bool,
    pub given: usize,
    vals: Vec<Option<Val>>,
    pub dest: Dest,
}

impl Args {
    pub fn long(&self, i: usize) -> Option<i64> {
        match &self.vals[i] {
            Some(Val::Long(j)) => Some(*j),
            _ => None,
        }
    }
    pub fn longs(&self, i: usize) -> Option<Vec<i64>> {
        match &self.vals[i] {
            Some(Val::Longs(v)) => Some(v.clone()),
            _ => None,
        }
    }
    pub fn flag(&self, i: usize) -> Option<bool> {
        match &self.vals[i] {
            Some(Val::Flag(b)) => Some(*b),
            _ => None,
        }
    }
    pub fn kind(&self, i: usize) -> Option<Kind> {
        match &self.vals[i] {
            Some(Val::Kind(k)) => Some(*k),
            _ => None,
        }
    }
    pub fn double(&self, i: usize) -> Option<f64> {
        match &self.vals[i] {
            Some(Val::Double(f)) => Some(*f),
            _ => None,
        }
    }
    pub fn has(&self, i: usize) -> bool {
        self.vals[i].is_some()
    }
}

/// q data that is one array (ktorch's `xarray`): a general list whose items are atoms is an
/// argument list, not an array; otherwise data of one type and a regular shape.
pub fn array(x: K) -> Option<Tensor> {
    if read::items(&x).is_some_and(|v| v.len() > 1 && v.iter().any(|i| read::ktype(*i) < 0)) {
        return None;
    }
    opargs::array(x)
}

/// Parse `x` as `f x` or `f(x;slots..;output)`; `usage` names the full form, e.g.
/// `(input;dim;keepdim;output)`.
pub fn parse(x: K, slots: &[Slot], out: OutKind, usage: &str) -> Result<Args> {
    let none = || vec![None; slots.len()];
    if registry::is_handle(x) {
        let (t, _) = arg(x)?;
        return Ok(Args {
            x: t,
            handle: true,
            alone: true,
            given: 1,
            vals: none(),
            dest: Dest::New,
        });
    }
    if let Some(t) = array(x) {
        return Ok(Args {
            x: t,
            handle: false,
            alone: true,
            given: 1,
            vals: none(),
            dest: Dest::New,
        });
    }
    let max = 1 + slots.len() + (out != OutKind::None) as usize;
    let v = opargs::list(&x)
        .ok_or_else(|| anyhow!("not implemented for {}, expected {usage}", describe(x)))?;
    if v.is_empty() || v.len() > max {
        bail!("expected up to {max} args, {usage}, given {}", v.len());
    }
    let mut n = v.len();
    let mut dest = Dest::New;
    if n > 1 {
        let last = v[n - 1];
        match out {
            OutKind::Tensor | OutKind::TensorOrInPlace if opargs::is_tensor(last) => {
                dest = Dest::Tensor(registry::tensor(last)?)
            }
            OutKind::TensorOrInPlace if read::is_nil(last) => dest = Dest::InPlace,
            OutKind::Vector if opargs::is_vector(last) => dest = Dest::Vector(last),
            OutKind::Vector if registry::is_handle(last) => {
                bail!("output expected as a vector, given {}", describe(last))
            }
            OutKind::Tensor | OutKind::TensorOrInPlace if registry::is_handle(last) => {
                bail!("output expected as a tensor, given {}", describe(last))
            }
            _ => {}
        }
        if !matches!(dest, Dest::New) {
            n -= 1;
        }
    }
    let mut vals = none();
    for (i, slot) in slots.iter().enumerate().rev() {
        if n > 1 {
            if let Some(val) = slot.read(v[n - 1])? {
                vals[i] = Some(val);
                n -= 1;
            }
        }
    }
    if n != 1 {
        bail!("unrecognized args, expected up to {max}, {usage}");
    }
    if matches!(dest, Dest::InPlace) && !registry::is_handle(v[0]) {
        bail!("in-place operation needs a tensor as first argument");
    }
    let (t, handle) = arg(v[0])?;
    Ok(Args {
        x: t,
        handle,
        alone: false,
        given: v.len(),
        vals,
        dest,
    })
}

/// Several new results: a vector handle when any input was a handle, else a q list.
pub fn results(ts: Vec<Tensor>, handle: bool) -> KResult {
    super::forms::several(ts, handle, None)
}

/// An output vector receives results: see `forms::into_vector`.
pub fn into_vector(o: K, ts: Vec<Tensor>) -> Result<()> {
    super::forms::into_vector(o, ts)
}

/// Finish a call with several results: into the output vector (null) or as new results.
pub fn finish_many(a: &Args, ts: Vec<Tensor>) -> KResult {
    match &a.dest {
        Dest::Vector(o) => {
            into_vector(*o, ts)?;
            Ok(make::null())
        }
        _ => results(ts, a.handle),
    }
}

type R = std::result::Result<Tensor, tch::TchError>;

/// Finish a call with one result: `new` makes it, `into` writes it to the output tensor.
pub fn finish(
    a: &Args,
    new: impl FnOnce(&Tensor) -> R,
    into: impl FnOnce(&Tensor, &Tensor) -> R,
) -> KResult {
    match &a.dest {
        Dest::New => crate::tensor::result(new(&a.x)?, a.handle),
        Dest::Tensor(o) => {
            let _ = into(&a.x, o)?;
            Ok(make::null())
        }
        Dest::InPlace => bail!("no in-place form"),
        Dest::Vector(_) => bail!("output expected as a tensor, given vector"),
    }
}

/// Write a result made as a new tensor into an output tensor (for libtorch functions that tch
/// wraps without an `_out` form): the output is resized and takes the values in its own dtype.
pub fn copy_into(o: &Tensor, r: &Tensor) -> R {
    let mut o = o.shallow_clone();
    let _ = o.f_resize_(r.size())?;
    o.f_copy_(r)?;
    Ok(o)
}

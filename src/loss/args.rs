//! Reading a loss function's options as kloss.cpp does (its `xargc`/`xpairs`/`xpair`): after the
//! inputs come positional options in the loss's order, then optionally name-value pairs as the
//! last argument. A symbol in the last positional place is the reduction. The pairs may be a
//! dictionary (`` `reduce`weight!(`sum;w) ``), an even symbol list (`` `reduce`sum ``), a list
//! `` (`smoothing;.1;`reduce;`none) `` or a list of pairs `` ((`smoothing;.1);(`reduce;`none)) ``;
//! `()` there is an empty set of pairs. Later settings override earlier ones.
use std::collections::HashMap;

use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

use crate::k::{read, K};
use crate::registry;
use crate::tensor::{convert, opargs::describe};

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

/// An argument or one element of a name-value structure.
#[derive(Clone, Copy)]
enum Item {
    /// A q value (an atom, a list, a handle).
    K(K),
    /// Element `i` of the simple list `K`.
    At(K, usize),
}

impl Item {
    fn describe(self) -> String {
        match self {
            Item::K(x) => describe(x),
            Item::At(x, _) => describe(x).replace(" list", " scalar"),
        }
    }
    /// The item as an atom's type and 8 bytes of its value (None for lists and handles).
    fn atom(self) -> Option<(i8, [u8; 8])> {
        // a value's width by its type (atom or list alike)
        let width = |t: i8| match t.abs() {
            1 | 4 => 1,
            5 => 2,
            6 | 8 => 4,
            _ => 8,
        };
        let mut b = [0u8; 8];
        let t = match self {
            Item::K(x) if read::ktype(x) < 0 => {
                let t = read::ktype(x);
                b[..width(t)].copy_from_slice(read::atom_bytes(&x, width(t)));
                t
            }
            Item::At(x, i) => {
                let t = read::ktype(x);
                let w = width(t);
                b[..w].copy_from_slice(&read::vector_bytes(&x, w)[i * w..(i + 1) * w]);
                -t
            }
            _ => return None,
        };
        Some((t, b))
    }
    fn symbol(self) -> Option<&'static str> {
        match self {
            Item::K(x) => read::symbol(x),
            Item::At(x, i) => read::symbols(x).and_then(|v| v.get(i).copied()),
        }
    }
    fn long(self) -> Option<i64> {
        let (t, b) = self.atom()?;
        match t {
            -5 => Some(i16::from_le_bytes([b[0], b[1]]) as i64),
            -6 => Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64),
            -7 => Some(i64::from_le_bytes(b)),
            _ => None,
        }
    }
    fn double(self) -> Option<f64> {
        match self.atom()? {
            (-9, b) => Some(f64::from_le_bytes(b)),
            _ => self.long().map(|j| j as f64),
        }
    }
    fn flag(self) -> Option<bool> {
        match self.atom()? {
            (-1, b) => Some(b[0] != 0),
            _ => None,
        }
    }
    fn tensor(self) -> Result<Option<Tensor>> {
        match self {
            Item::K(x) if read::is_nil(x) => Ok(None),
            Item::K(x) if registry::is_handle(x) => Ok(Some(registry::tensor(x)?)),
            Item::K(x) => Ok(Some(convert::to_tensor(x)?)),
            Item::At(x, i) => Ok(Some(convert::to_tensor(x)?.f_get(i as i64)?)),
        }
    }
}

/// Is `x` a name-value structure (ktorch's `xpairs`)? Returns its (name, value) items.
fn pairs(x: K) -> Result<Option<Vec<(&'static str, Item)>>> {
    if registry::is_handle(x) {
        return Ok(None);
    }
    if let Some((k, v)) = read::dict_parts(x) {
        let keys = match read::symbols(k) {
            Some(s) => s,
            None if read::ktype(k) == 0 && read::len(k) == 0 => vec![],
            None => bail!(
                "unexpected name,value dictionary with {} as keys",
                describe(k)
            ),
        };
        let vals: Vec<Item> = match read::items(&v) {
            Some(items) => items.iter().map(|i| Item::K(*i)).collect(),
            None => (0..read::len(v) as usize).map(|i| Item::At(v, i)).collect(),
        };
        return Ok(Some(keys.into_iter().zip(vals).collect()));
    }
    if let Some(s) = read::symbols(x) {
        if s.len() % 2 != 0 {
            bail!(
                "uneven no. of symbols for name,value pairs: {}",
                s.join(",")
            );
        }
        return Ok(Some(
            (0..s.len() / 2)
                .map(|i| (s[2 * i], Item::At(x, 2 * i + 1)))
                .collect(),
        ));
    }
    let Some(items) = read::items(&x) else {
        return Ok(None);
    };
    if items.is_empty() {
        return Ok(Some(vec![]));
    }
    if read::symbol(items[0]).is_some() {
        if items.len() % 2 != 0 {
            bail!("uneven no. of elements for name,value pairs in list");
        }
        return (0..items.len() / 2)
            .map(|i| match read::symbol(items[2 * i]) {
                Some(s) => Ok((s, Item::K(items[2 * i + 1]))),
                None => bail!(
                    "unrecognized name for pair, element[{}], expected symbol, given {}",
                    2 * i,
                    describe(items[2 * i])
                ),
            })
            .collect::<Result<Vec<_>>>()
            .map(Some);
    }
    let is_pair = |y: K| match (read::symbols(y), read::items(&y)) {
        (Some(s), _) => s.len() == 2,
        (_, Some(v)) => v.len() == 2 && read::symbol(v[0]).is_some(),
        _ => false,
    };
    if !is_pair(items[0]) {
        return Ok(None);
    }
    items
        .iter()
        .enumerate()
        .map(|(i, y)| match (read::symbols(*y), read::items(y)) {
            (Some(s), _) if s.len() == 2 => Ok((s[0], Item::At(*y, 1))),
            (_, Some(v)) if v.len() == 2 && read::symbol(v[0]).is_some() => {
                Ok((read::symbol(v[0]).unwrap_or(""), Item::K(v[1])))
            }
            _ => bail!("name,value pair[{i}] is not a (name;value) pair"),
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

fn value(name: &str, ty: Ty, x: Item) -> Result<Val> {
    let bad = |what: &str| anyhow!("{name}: expected {what}, given {}", x.describe());
    Ok(match ty {
        Ty::Tensor => Val::Tensor(x.tensor()?),
        Ty::Long => Val::Long(x.long().ok_or_else(|| bad("long scalar"))?),
        Ty::Double => Val::Double(x.double().ok_or_else(|| bad("double"))?),
        Ty::Flag => Val::Flag(x.flag().ok_or_else(|| bad("boolean scalar"))?),
    })
}

fn reduction(x: Item, modes: &[&str]) -> Result<Red> {
    let s = x
        .symbol()
        .ok_or_else(|| anyhow!("reduce: expected symbol, given {}", x.describe()))?;
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

/// Read the options `v` (the arguments after the inputs) of a loss whose positional options are
/// `slots` in order (each also accepted by name, as is `reduce`), with reduction `modes`.
pub fn parse(v: &[K], slots: &[(&'static str, Ty)], modes: &[&str]) -> Result<Opts> {
    let mut o = Opts {
        reduce: Red::Mean,
        vals: HashMap::new(),
    };
    let (mut pos, named) = match v.split_last() {
        Some((last, rest)) => match pairs(*last)? {
            Some(p) => (rest, p),
            None => (v, vec![]),
        },
        None => (v, vec![]),
    };
    if let Some((last, rest)) = pos.split_last() {
        if read::symbol(*last).is_some() {
            o.reduce = reduction(Item::K(*last), modes)?;
            pos = rest;
        }
    }
    if pos.len() > slots.len() {
        if slots.is_empty() {
            bail!("reduce: expected symbol, given {}", describe(pos[0]));
        }
        let names: Vec<&str> = slots.iter().map(|s| s.0).collect();
        bail!(
            "expected up to {} positional option{} ({}) and a reduce symbol after the inputs, given {}",
            slots.len(),
            if slots.len() == 1 { "" } else { "s" },
            names.join(";"),
            pos.len()
        );
    }
    for (x, (name, ty)) in pos.iter().zip(slots) {
        o.vals.insert(name, value(name, *ty, Item::K(*x))?);
    }
    for (k, x) in named {
        if k == "reduce" {
            o.reduce = reduction(x, modes)?;
        } else if let Some((name, ty)) = slots.iter().find(|s| s.0 == k) {
            o.vals.insert(name, value(name, *ty, x)?);
        } else {
            let names: Vec<&str> = slots.iter().map(|s| s.0).chain(["reduce"]).collect();
            bail!("option: {k} not recognized, expected {}", names.join(","));
        }
    }
    Ok(o)
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

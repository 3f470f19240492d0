//! Dictionaries of tensors, as ktorch: `dict d` (a q dictionary of symbols to q data or tensor
//! handles) or `dict(keys;values)` makes one (handles move in and go stale, as in ktorch);
//! `dict h` all values as a q dictionary; `dict(h;key)` one or several values; `dict(h;key;value)`
//! replaces or appends.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::{convert, vector::take_args};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, Owned, K};
use crate::registry::{self, Obj};

pub fn is_dict(x: K) -> bool {
    registry::class_of(x) == Some(registry::Class::Dictionary)
}

/// Keys given as a symbol (`Ok`) or symbols (`Err`).
pub fn keys(x: K) -> anyhow::Result<Result<&'static str, Vec<&'static str>>> {
    if let Some(s) = <&str>::of(x) {
        return Ok(Ok(s));
    }
    Vec::<&str>::of(x)
        .map(Err)
        .ok_or_else(|| anyhow!("dictionary key(s) expected as symbol(s)"))
}

pub fn stored(x: K) -> anyhow::Result<Vec<(String, Tensor)>> {
    registry::with(x, |o| match o {
        Obj::Dict(d) => Ok(d
            .iter()
            .map(|(k, t)| (k.clone(), t.shallow_clone()))
            .collect()),
        other => bail!("expected a dictionary, given {}", other.class()),
    })
}

/// Position of `key` in a stored dictionary, or an error naming it.
pub fn position(d: &[(String, Tensor)], key: &str) -> anyhow::Result<usize> {
    d.iter()
        .position(|(k, _)| k == key)
        .ok_or_else(|| anyhow!("no key `{key} in dictionary"))
}

/// Make a dictionary from keys and a list of values aligned with them: a general list of q data
/// and handles, or a simple list (one atom per key).
fn make_dict(names: Vec<&str>, v: K) -> KResult {
    Ok(registry::add(Obj::Dict(pairs(names, v)?)))
}

/// The names and tensors of a dictionary made from symbols and a list of values (q data or
/// tensor handles, which move in).
fn pairs(names: Vec<&str>, v: K) -> anyhow::Result<Vec<(String, Tensor)>> {
    if read::len(v) as usize != names.len() || read::ktype(v) < 0 || read::ktype(v) > 19 {
        bail!(
            "{} key(s) need a list of {} value(s)",
            names.len(),
            names.len()
        );
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = names.iter().find(|n| !seen.insert(**n)) {
        bail!("duplicate key `{dup}");
    }
    let vals = Owned::new(make::explode(v));
    let ts = take_args(vals.items().unwrap_or(&[]));
    Ok(names.iter().map(|s| s.to_string()).zip(ts?).collect())
}

/// The contents of a new dictionary from a q dictionary of symbols to values, or `()` for an
/// empty one (ktensor.cpp's `kputd`): for `use(d;x)`.
pub fn from_q(x: K) -> anyhow::Result<Vec<(String, Tensor)>> {
    if let Some((k, v)) = read::dict_parts(x) {
        let names = Vec::<&str>::of(k).ok_or_else(|| anyhow!("dictionary keys must be symbols"))?;
        return pairs(names, v);
    }
    if from::list(&x).is_some_and(|v| v.is_empty()) {
        return Ok(vec![]);
    }
    bail!(
        "expected a q dictionary of symbols to values, given {}",
        crate::tensor::opargs::describe(x)
    )
}

/// `dict`'s forms, read without changing anything: the values of a dictionary handle, a table's
/// columns, keys and values to make a new one from (handles among the values move in when the
/// call runs), `()` an empty one, `(d;key)` the values picked, `(d;key;value)` new values
/// (taken when the call runs, after every check).
pub enum DictCall {
    Values(Vec<(String, Tensor)>),
    Columns(Vec<(String, Tensor)>),
    Make(Vec<&'static str>, K),
    /// one key and its value (made a one-item list when the call runs)
    MakeOne(&'static str, K),
    Empty,
    Get(
        Vec<(String, Tensor)>,
        Result<&'static str, Vec<&'static str>>,
    ),
    Set(K, Vec<&'static str>, Vec<K>),
}

const USAGE: &str = "a q dictionary, (keys;values), a dictionary, (dict;key) or (dict;key;value)";

impl FromQ for DictCall {
    const TYPE: &'static str = USAGE;
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<DictCall>> {
        if registry::is_handle(x) {
            return Ok(Some(DictCall::Values(stored(x)?)));
        }
        // a table: one tensor per column, each of its own type (tensor/table.rs)
        if let Some(t) = super::table::Table::read(x)? {
            return Ok(Some(DictCall::Columns(super::table::columns(t.values())?)));
        }
        if let Some((k, v)) = read::dict_parts(x) {
            let names =
                Vec::<&str>::of(k).ok_or_else(|| anyhow!("dictionary keys must be symbols"))?;
            return Ok(Some(DictCall::Make(names, v)));
        }
        let items = from::list(&x).ok_or_else(|| anyhow!("expected {USAGE}"))?;
        // `dict()`: an empty dictionary, filled later (`use[d]copyparms m` in ktorch's examples)
        if items.is_empty() {
            return Ok(Some(DictCall::Empty));
        }
        Ok(Some(match items {
            [h, k] if is_dict(*h) => {
                let d = stored(*h)?;
                DictCall::Get(d, keys(*k)?)
            }
            [h, k, v] if is_dict(*h) => {
                let (names, vals) = match keys(*k)? {
                    Ok(s) => (vec![s], vec![*v]),
                    Err(ss) => {
                        let vs = from::list(v)
                            .filter(|vs| vs.len() == ss.len() && !registry::is_handle(*v));
                        let vs = vs.ok_or_else(|| {
                            anyhow!("{} keys need a list of {} values", ss.len(), ss.len())
                        })?;
                        (ss, vs.to_vec())
                    }
                };
                DictCall::Set(*h, names, vals)
            }
            [k, v] if !registry::is_handle(*k) => match keys(*k)? {
                Ok(s) => DictCall::MakeOne(s, *v),
                Err(ss) => DictCall::Make(ss, *v),
            },
            _ => bail!("expected {USAGE}"),
        }))
    }
}

crate::qfn! {
    /// `dict d` or `dict(keys;values)` a new dictionary, `dict h` its values, `dict(h;key)` some
    /// of them, `dict(h;key;value)` new values (replaced or appended).
    pub fn dict(x: DictCall) -> KResult {
        match x {
            DictCall::Values(d) => {
                let names: Vec<&str> = d.iter().map(|(k, _)| k.as_str()).collect();
                let vals = make::try_list(d.iter().map(|(_, t)| convert::to_q(t)))?;
                Ok(make::dict_of(make::symbols(&names), vals))
            }
            DictCall::Columns(c) => Ok(registry::add(Obj::Dict(c))),
            DictCall::Make(names, v) => make_dict(names, v),
            DictCall::MakeOne(s, v) => {
                let one = Owned::new(make::list_of(&[v]));
                make_dict(vec![s], one.k())
            }
            DictCall::Empty => Ok(registry::add(Obj::Dict(vec![]))),
            DictCall::Get(d, Ok(s)) => convert::to_q(&d[position(&d, s)?].1),
            DictCall::Get(d, Err(ss)) => {
                // q values are made only once every key is found, so an error leaks nothing.
                let at = ss
                    .iter()
                    .map(|s| position(&d, s))
                    .collect::<anyhow::Result<Vec<_>>>()?;
                make::try_list(at.iter().map(|i| convert::to_q(&d[*i].1)))
            }
            DictCall::Set(h, names, vals) => {
                let ts = take_args(&vals)?;
                registry::with(h, |o| {
                    if let Obj::Dict(d) = o {
                        for (name, t) in names.into_iter().zip(ts) {
                            match d.iter_mut().find(|(k, _)| k == name) {
                                Some(slot) => slot.1 = t,
                                None => d.push((name.to_string(), t)),
                            }
                        }
                    }
                    Ok(())
                })?;
                Ok(make::null())
            }
        }
    }
}

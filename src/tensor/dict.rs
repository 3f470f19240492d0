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

pub fn dict(x: K) -> KResult {
    if registry::is_handle(x) {
        let d = stored(x)?;
        let names: Vec<&str> = d.iter().map(|(k, _)| k.as_str()).collect();
        let vals = make::try_list(d.iter().map(|(_, t)| convert::to_q(t)))?;
        return Ok(make::dict_of(make::symbols(&names), vals));
    }
    // a table: one tensor per column, each of its own type (tensor/table.rs)
    if let Some(t) = super::table::Table::read(x)? {
        return Ok(registry::add(Obj::Dict(super::table::columns(t.values())?)));
    }
    if let Some((k, v)) = read::dict_parts(x) {
        let names = Vec::<&str>::of(k).ok_or_else(|| anyhow!("dictionary keys must be symbols"))?;
        return make_dict(names, v);
    }
    let items = from::list(&x).ok_or_else(|| {
        anyhow!(
            "expected a q dictionary, (keys;values), a dictionary, (dict;key) or (dict;key;value)"
        )
    })?;
    // `dict()`: an empty dictionary, filled later (`use[d]copyparms m` in ktorch's examples)
    if items.is_empty() {
        return Ok(registry::add(Obj::Dict(vec![])));
    }
    match items {
        [h, k] if is_dict(*h) => {
            let d = stored(*h)?;
            match keys(*k)? {
                Ok(s) => convert::to_q(&d[position(&d, s)?].1),
                Err(ss) => {
                    // q values are made only once every key is found, so an error leaks nothing.
                    let at = ss
                        .iter()
                        .map(|s| position(&d, s))
                        .collect::<anyhow::Result<Vec<_>>>()?;
                    make::try_list(at.iter().map(|i| convert::to_q(&d[*i].1)))
                }
            }
        }
        [h, k, v] if is_dict(*h) => {
            let (names, vals) = match keys(*k)? {
                Ok(s) => (vec![s], vec![*v]),
                Err(ss) => {
                    let vs =
                        from::list(v).filter(|vs| vs.len() == ss.len() && !registry::is_handle(*v));
                    let vs = vs.ok_or_else(|| {
                        anyhow!("{} keys need a list of {} values", ss.len(), ss.len())
                    })?;
                    (ss, vs.to_vec())
                }
            };
            let ts = take_args(&vals)?;
            registry::with(*h, |o| {
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
        [k, v] if !registry::is_handle(*k) => match keys(*k)? {
            Ok(s) => {
                let one = Owned::new(make::list_of(&[*v]));
                make_dict(vec![s], one.k())
            }
            Err(ss) => make_dict(ss, *v),
        },
        _ => bail!(
            "expected a q dictionary, (keys;values), a dictionary, (dict;key) or (dict;key;value)"
        ),
    }
}

//! `opt(state;module)` (ktorch's `optput`): an optimizer rebuilt from what `state o` answered, its
//! type, a table of options (a row per group) and a table of parameters (group, name, size and
//! buffers), onto the parameters of the same names in a module (or a model's module), so that
//! training can go on where it stopped (after `module state` rebuilt the module, for instance).
use std::collections::HashSet;
use std::sync::Mutex;

use anyhow::{anyhow, bail, Result};
use once_cell::sync::Lazy;

use super::{kinds, Group, Optimizer, Parm};
use crate::k::from::{FromQ, Whole, Wholes};
use crate::k::{make, read, Owned, K};
use crate::nn::api::modref;
use crate::nn::spec;
use crate::tensor::{convert, opargs::describe};

/// Is `x` a `(state;module)` pair?
pub fn is_state_call(v: &[K]) -> bool {
    matches!(v, [s, m] if read::dict_parts(*s).is_some() && matches!(crate::registry::class_of(*m), Some(crate::registry::Class::Module | crate::registry::Class::Model)))
}

/// The value of key `k` in a symbol-keyed dictionary (a list made from simple values goes into
/// `made`, which the value points into).
fn key(d: K, k: &str, made: &mut Vec<Owned>) -> Result<K> {
    let (ks, vs) = read::dict_parts(d)
        .ok_or_else(|| anyhow!("expected a dictionary, given {}", describe(d)))?;
    let names = Vec::<&str>::of(ks).ok_or_else(|| anyhow!("expected symbol keys"))?;
    let i = names
        .iter()
        .position(|n| *n == k)
        .ok_or_else(|| anyhow!("state has no `{k}"))?;
    let e = Owned::new(make::explode(vs));
    let x = e.items().unwrap()[i];
    made.push(e);
    Ok(x)
}

/// A table's columns by name (a table is a flipped dictionary: k.h's x->k at offset 8).
/// Lists made from simple columns go into `made`, which the columns point into.
fn columns(t: K, what: &str, made: &mut Vec<Owned>) -> Result<Vec<(&'static str, Vec<K>)>> {
    if read::ktype(t) != 98 {
        bail!("{what}: expected a table, given {}", describe(t));
    }
    let d = read::table_dict(t).unwrap();
    let (ks, vs) = read::dict_parts(d).unwrap();
    let names = Vec::<&str>::of(ks).ok_or_else(|| anyhow!("{what}: expected symbol columns"))?;
    let cols = Owned::new(make::explode(vs));
    let mut out = vec![];
    for (n, c) in names.into_iter().zip(cols.items().unwrap()) {
        let e = Owned::new(make::explode(*c));
        out.push((n, e.items().unwrap().to_vec()));
        made.push(e);
    }
    made.push(cols);
    Ok(out)
}

fn column<'a>(cols: &'a [(&'static str, Vec<K>)], name: &str, what: &str) -> Result<&'a [K]> {
    cols.iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_slice())
        .ok_or_else(|| anyhow!("{what}: no column `{name}"))
}

/// Buffer names live as long as the library (a parameter's state is keyed by `&'static str`):
/// each distinct name is kept once.
fn intern(s: &str) -> &'static str {
    static NAMES: Lazy<Mutex<HashSet<&'static str>>> = Lazy::new(|| Mutex::new(HashSet::new()));
    let mut set = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = set.get(s) {
        return n;
    }
    let n: &'static str = Box::leak(s.to_string().into_boxed_str());
    set.insert(n);
    n
}

pub fn rebuild(state: K, target: K) -> Result<Optimizer> {
    // lists made while reading the state (simple lists' items as atoms): what it reads points
    // into them
    let mut made = vec![];
    let name = <&str>::of(key(state, "optimizer", &mut made)?)
        .ok_or_else(|| anyhow!("state: optimizer expected as a symbol"))?;
    let kind = kinds::find(name).ok_or_else(|| anyhow!("unrecognized optimizer: `{name}"))?;
    let opts = columns(key(state, "options", &mut made)?, "options", &mut made)?;
    let rows = opts.first().map_or(0, |(_, v)| v.len());
    let mut groups = vec![];
    for i in 0..rows {
        let pairs: spec::Pairs = opts.iter().map(|(n, v)| (*n, v[i])).collect();
        let vals = spec::settings(kind.name, kind.opts, &[], &pairs)?;
        if let Some(check) = kind.check {
            check(i, &super::Settings { kind, vals: &vals })?;
        }
        groups.push(Group {
            opts: vals,
            parms: vec![],
        });
    }
    let parms = columns(key(state, "parms", &mut made)?, "parms", &mut made)?;
    let (group, module, pname, size) = (
        column(&parms, "parmgroup", "parms")?,
        column(&parms, "module", "parms")?,
        column(&parms, "name", "parms")?,
        column(&parms, "size", "parms")?,
    );
    let buffers = column(&parms, "buffers", "parms").ok();
    let root = modref(target)?;
    let named = root.get().named_parameters();
    for r in 0..pname.len() {
        let g = Whole::of(group[r])
            .map(|w| w.0)
            .ok_or_else(|| anyhow!("parms: group expected as a long"))?;
        let n = <&str>::of(pname[r]).ok_or_else(|| anyhow!("parms: name expected as a symbol"))?;
        let t = named
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, t)| *t)
            .ok_or_else(|| anyhow!("parameter `{n} not found in the module"))?;
        let want = Wholes::of(size[r]).map(|w| w.0).unwrap_or_default();
        if t.size() != want {
            bail!(
                "parameter `{n}: size {:?} in the state, {:?} in the module",
                want,
                t.size()
            );
        }
        let mut state = vec![];
        if let Some(b) = buffers {
            if let Some((ks, vs)) = read::dict_parts(b[r]) {
                let keys = Vec::<&str>::of(ks).unwrap_or_default();
                let e = Owned::new(make::explode(vs));
                for (k, v) in keys.iter().zip(e.items().unwrap_or(&[])) {
                    let b = convert::to_tensor(*v)
                        .map_err(|e| anyhow!("parameter `{n}, buffer `{k}: {e}"))?;
                    // step counts stay on the CPU (optim::Parm::count_step)
                    let b = if *k == "step" {
                        b
                    } else {
                        b.f_to_device(t.device())?
                    };
                    state.push((intern(k), b));
                }
            }
        }
        let grp = groups
            .get_mut(usize::try_from(g).unwrap_or(usize::MAX))
            .ok_or_else(|| {
                anyhow!("parameter `{n}: group {g} not in the options ({rows} row(s))")
            })?;
        let module = <&str>::of(module[r]).unwrap_or("");
        grp.parms.push(Parm {
            t: t.shallow_clone(),
            module: module.to_string(),
            name: n.to_string(),
            state,
        });
    }
    // as kopt.cpp's `putgroups`, the first group's options are the defaults
    let defaults = groups
        .first()
        .map_or_else(|| kind.defaults(), |g| g.opts.clone());
    // the module rebuilt onto is the optimizer's container (kopt.cpp: `opt(state;module)`)
    let (m, addr) = (root.get(), root.address());
    let sources = vec![super::Source {
        key: m.name.clone().unwrap_or_else(|| "0".into()),
        addr,
        tree: m.shared_copy(),
        count: 0,
    }];
    Ok(Optimizer {
        kind,
        sources,
        defaults,
        groups,
        found_inf: None,
        global_sq: None,
    })
}

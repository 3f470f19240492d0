//! The `module` and `seq` q functions (knn.cpp): `module` makes a module from a definition (a
//! tree, depth-value pairs, or the dictionary/table `module` or `state` returns, the latter with
//! its parameters), or returns the definition of an existing module, as a dictionary for a
//! single layer, a table (one row per module, depth first) for a container. `state` is the
//! definition with each module's own parameters (and buffers, none so far) as q data (the q
//! function, which also takes an optimizer or a model, is in dispatch/state.rs).
use anyhow::{bail, Result};

use super::layers::{self, Val};
use super::spec::{self, Stack};
use super::{ModRef, Module};
use crate::k::from::{self, FromQ, Whole, Wholes};
use crate::k::{make, read, KResult, Owned, K};
use crate::registry::{self, Obj};
use crate::session::setting::alloptions;
use crate::tensor::opargs::describe;

/// A module, or an object holding one (a model): whatever `modref` reads.
pub fn has_module(x: K) -> bool {
    registry::holds::<ModRef>(x)
}

pub fn is_module(x: K) -> bool {
    registry::class_of(x) == Some(registry::Class::Module)
}

/// `module def`, `module m`, `module(m;flag)`, and adding to a module: `module(m;def)` adds the
/// layer `def` as the module's last child; `module(m;depth;def)`
/// adds the layer `def` at the given depth (a child of the last module at the depth above; the
/// module itself is depth 0).
pub fn module(x: K) -> KResult {
    if is_module(x) {
        return definition(modref(x)?.get(), alloptions(), false);
    }
    if let Some(v) = from::list(&x).filter(|v| !v.is_empty() && is_module(v[0])) {
        return match v {
            [m, f] if bool::of(*f).is_some() => {
                definition(modref(*m)?.get(), bool::of(*f).unwrap(), false)
            }
            [m] => definition(modref(*m)?.get(), alloptions(), false),
            // a child added to the module itself (depth 1 below it)
            [m, d] => add(
                *m,
                1,
                match from::list(d) {
                    // `enlist(`linear;..)`: a tree of one layer
                    Some([l]) if read::ktype(*l) >= 0 => *l,
                    _ => *d,
                },
            ),
            [m, n, d] if read::ktype(*n) == -7 => add(*m, Whole::of(*n).map(|w| w.0).unwrap(), *d),
            _ => bail!(
                "module given as 1st arg, expected (module;flag) or (module;depth;definition)"
            ),
        };
    }
    if registry::is_handle(x) {
        bail!("expected a module, given {}", describe(x));
    }
    if let Some(m) = parmdict(x)? {
        return Ok(registry::add(Obj::new(ModRef::new(m))));
    }
    // lists made while reading a state table (simple lists' items as atoms), owned here: the
    // rows point into them
    let mut made = vec![];
    let m = (|| -> Result<Module> {
        let mut q = Stack::default();
        if let Some(rows) = state_rows(x, &mut made)? {
            for (d, ty, name, opts, parms, buffers) in rows {
                let l = layers::find(ty)
                    .ok_or_else(|| anyhow::anyhow!("unrecognized module type: `{ty}"))?;
                let (keys, vals) = opts;
                let named: Vec<(&'static str, K)> = keys.into_iter().zip(vals).collect();
                let o = spec::options(l, &[], &named)?;
                let mut m = Module::new(l, (!name.is_empty()).then(|| name.to_string()), o)?;
                if let Some(p) = parms {
                    restore(&mut m, p, false)?;
                }
                if let Some(b) = buffers {
                    restore(&mut m, b, true)?;
                }
                q.push(d, m)?;
            }
        } else {
            match spec::dv_count(x) {
                0 => spec::tree(x, 0, &mut q)?,
                n => spec::dv(x, n, &mut q)?,
            }
        }
        q.finish()
    })()?;
    Ok(registry::add(Obj::new(ModRef::new(m))))
}

/// Add the layer defined by `d` at depth `depth` of module `h`: the parent is the last module at
/// depth-1 (ktorch's depth-value form on an existing module).
fn add(h: K, depth: i64, d: K) -> KResult {
    if is_module(d) && registry::id_of(d) == registry::id_of(h) {
        bail!("cannot add a module to itself");
    }
    // a module handle given: its tree is added and the handle is freed, as ktorch's
    // `module(parent;depth;module)`; a tree shared with other handles (or a child of another
    // tree) stays where it is, since moving it would part it from those handles
    if is_module(d) {
        check_parent(h, depth)?;
        if !registry::with(d, |o| Ok(o.get::<ModRef>().is_some_and(|q| q.sole_root())))? {
            bail!("module to add is shared with other handles or is part of another module, free those first");
        }
        let Ok(q) = registry::take(d)?.take::<ModRef>() else {
            unreachable!()
        };
        let c = q
            .into_module()
            .map_err(|_| anyhow::anyhow!("module to add is in use"))?;
        return put(h, depth, c);
    }
    let c = spec::layer(d)?;
    put(h, depth, c)
}

/// Check that module h has a container at depth-1 before its child is taken from its handle.
fn check_parent(h: K, depth: i64) -> Result<()> {
    registry::with(h, |o| {
        let m = module_mut(o)?;
        let parent = last_at(m, depth - 1)?;
        if !parent.layer.container {
            bail!(
                "unable to add a module as a child of a {} module",
                parent.layer.name
            );
        }
        Ok(())
    })
}

/// Add module `c` at depth `depth` of module `h`.
fn put(h: K, depth: i64, c: Module) -> KResult {
    registry::with(h, |o| {
        let m = module_mut(o)?;
        let parent = last_at(m, depth - 1)?;
        if !parent.layer.container {
            bail!(
                "unable to add a {} module as a child of a {} module",
                c.layer.name,
                parent.layer.name
            );
        }
        parent.push(c)?;
        Ok(make::null())
    })
}

/// The last module at depth `d` (0: the module itself), following the last child down.
fn last_at(m: &mut Module, d: i64) -> Result<&mut Module> {
    if d < 0 {
        bail!("depth {} below min depth of 1", d + 1);
    }
    let mut p = m;
    for i in 0..d {
        let n = p.children.len();
        if n == 0 {
            bail!("depth {} above max depth of {}", d + 1, i + 1);
        }
        p = &mut p.children[n - 1].1;
    }
    Ok(p)
}

/// A module handle's shared reference (the registry is not locked while it is used).
pub fn modref(x: K) -> Result<ModRef> {
    // a model's module too, for the functions ktorch applies to both
    registry::with(x, |o| match o.part::<ModRef>() {
        Some(m) => Ok(m.share()),
        None => bail!("expected a module, given {}", o.class()),
    })
}

/// A module handle, or a model's (its module), as its shared reference: `modref`'s errors.
impl FromQ for ModRef {
    const TYPE: &'static str = "a module";
    fn read(x: K) -> Result<Option<ModRef>> {
        if !registry::is_handle(x) {
            return Ok(None);
        }
        modref(x).map(Some)
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        modref(x)
            .err()
            .unwrap_or_else(|| anyhow::anyhow!("expected a module"))
    }
}

/// The module of an object, to change it (fails while its tree is shared).
pub fn module_mut(o: &mut Obj) -> Result<&mut Module> {
    if o.get::<ModRef>().is_none() {
        bail!("expected a module, given {}", o.class());
    }
    o.get_mut::<ModRef>().unwrap().get_mut()
}

/// `` module(`parmdict;dict) ``, `` module(`parmdict;`name;dict) ``: a parameter dictionary made
/// from a q dictionary of names to values (ktorch's `parmdict`), None for any other definition.
/// Its parameters have no fixed names, so it is read here rather than from options.
fn parmdict(x: K) -> Result<Option<Module>> {
    let Some(v) = from::list(&x) else {
        return Ok(None);
    };
    let (name, d) = match v {
        [t, d] if <&str>::of(*t) == Some("parmdict") => (None, *d),
        [t, n, d] if <&str>::of(*t) == Some("parmdict") && <&str>::of(*n).is_some() => {
            (<&str>::of(*n), *d)
        }
        _ => return Ok(None),
    };
    if read::dict_parts(d).is_none() {
        return Ok(None);
    }
    let l = layers::find("parmdict").ok_or_else(|| anyhow::anyhow!("no parmdict layer"))?;
    let mut m = Module::new(l, name.map(str::to_string), vec![])?;
    restore(&mut m, d, false)?;
    Ok(Some(m))
}

type Row = (
    i64,
    &'static str,
    &'static str,
    (Vec<&'static str>, Vec<K>),
    Option<K>,
    Option<K>,
);

/// Set the parameters (or buffers) of module `m` from a q dictionary of name to values
/// (ktorch's `mparms`): every one must be given, of the same type and size.
fn restore(m: &mut Module, p: K, buffers: bool) -> Result<()> {
    let what = if buffers { "buffer" } else { "parameter" };
    let Some((k, v)) = read::dict_parts(p) else {
        bail!(
            "{}: {what}s expected as a dictionary, given {}",
            m.layer.name,
            describe(p)
        )
    };
    let keys = Vec::<&str>::of(k).unwrap_or_default();
    let vals = spec::exploded(v, keys.len())?;
    let name = m.layer.name;
    if (name == "parmdict" && !buffers) || name == "callback" {
        // a parameter dictionary (a callback: parameters and buffers) takes the tensors given,
        // whatever their names
        let requires = !buffers;
        let slots = keys
            .iter()
            .zip(vals.iter().copied())
            .map(|(k, v)| {
                let t = crate::tensor::convert::to_tensor(v)?.f_detach()?;
                Ok((
                    k.to_string(),
                    if requires {
                        t.f_set_requires_grad(true)?
                    } else {
                        t
                    },
                ))
            })
            .collect::<Result<_>>()?;
        if buffers {
            m.buffers = slots;
        } else {
            m.parms = slots;
        }
        return Ok(());
    }
    if name == "parmdict" && !buffers {
        // a parameter dictionary takes the parameters given, whatever their names
        m.parms = keys
            .iter()
            .zip(vals.iter().copied())
            .map(|(k, v)| {
                let t = crate::tensor::convert::to_tensor(v)?
                    .f_detach()?
                    .f_set_requires_grad(true)?;
                Ok((k.to_string(), t))
            })
            .collect::<Result<_>>()?;
        return Ok(());
    }
    // a layer made of parts has its parts' tensors under their dotted names (`out_proj.weight`)
    let names: Vec<String> = if m.has_parts() {
        let v = if buffers {
            m.named_buffers()
        } else {
            m.named_parameters()
        };
        v.into_iter().map(|(k, _)| k).collect()
    } else {
        (if buffers { &m.buffers } else { &m.parms })
            .iter()
            .map(|(k, _)| k.clone())
            .collect()
    };
    for key in &names {
        let slot = m
            .slot_mut(key, buffers)
            .ok_or_else(|| anyhow::anyhow!("{name}: no {what} slot `{key}"))?;
        let Some(i) = keys.iter().position(|s| s == key) else {
            bail!("{name}: unable to find {what}: {key}")
        };
        let t = crate::tensor::convert::to_tensor(vals[i])?;
        if t.kind() != slot.kind() {
            bail!(
                "{name}: type mismatch, {key} is {}, input is {}",
                crate::tensor::options::kind_name(slot.kind()),
                crate::tensor::options::kind_name(t.kind())
            );
        }
        if t.size() != slot.size() {
            bail!(
                "{name}: size mismatch, {key} is {:?}, input is {:?}",
                slot.size(),
                t.size()
            );
        }
        let t = t.f_to_device(slot.device())?.f_detach()?;
        *slot = if buffers {
            t
        } else {
            t.f_set_requires_grad(slot.requires_grad())?
        };
    }
    Ok(())
}

/// The rows of a definition given as the dictionary or table `module m` returns, or None.
/// Lists made from simple ones while reading go into `made`, which the rows point into.
fn state_rows(x: K, made: &mut Vec<Owned>) -> Result<Option<Vec<Row>>> {
    let (table, d) = match read::ktype(x) {
        // a table: its dictionary is k.h's x->k, at offset 8
        98 => (true, read::table_dict(x).unwrap()),
        99 => (false, x),
        _ => return Ok(None),
    };
    let Some((k, v)) = read::dict_parts(d) else {
        return Ok(None);
    };
    let Some(keys) = Vec::<&str>::of(k) else {
        return Ok(None);
    };
    if !(keys.len() >= 4 && keys[..4] == ["depth", "module", "name", "options"]) {
        return Ok(None);
    }
    let parms = keys.get(4) == Some(&"parms");
    let buffers = keys.get(5) == Some(&"buffers");
    let cols = from::list(&v).map(|c| c.to_vec()).unwrap_or_else(|| {
        let e = Owned::new(make::explode(v));
        let c = e.items().unwrap().to_vec();
        made.push(e);
        c
    });
    // q's `!` makes keys and values of one count; a dictionary made in C need not (the fuzzer's)
    if cols.len() != keys.len() {
        bail!(
            "module definition: {} keys but {} values",
            keys.len(),
            cols.len()
        );
    }
    let mut opts = |o: K| -> Result<(Vec<&'static str>, Vec<K>)> {
        let Some((ok, ov)) = read::dict_parts(o) else {
            bail!(
                "module options expected as a dictionary, given {}",
                describe(o)
            )
        };
        let ks = Vec::<&str>::of(ok).unwrap_or_default();
        let vs = match from::list(&ov) {
            Some(v) => v.to_vec(),
            None => {
                let e = Owned::new(make::explode(ov));
                let c = e.items().unwrap().to_vec();
                made.push(e);
                c
            }
        };
        Ok((ks, vs))
    };
    let sym = |x: K| {
        <&str>::of(x).ok_or_else(|| {
            anyhow::anyhow!("module definition: expected symbol, given {}", describe(x))
        })
    };
    if !table {
        let d = Whole::of(cols[0])
            .map(|w| w.0)
            .ok_or_else(|| anyhow::anyhow!("module definition: depth expected as long"))?;
        return Ok(Some(vec![(
            d,
            sym(cols[1])?,
            sym(cols[2])?,
            opts(cols[3])?,
            parms.then(|| cols[4]),
            buffers.then(|| cols[5]),
        )]));
    }
    let depth = Wholes::of(cols[0])
        .map(|w| w.0)
        .ok_or_else(|| anyhow::anyhow!("module definition: depth expected as longs"))?;
    let mods = Vec::<&str>::of(cols[1])
        .ok_or_else(|| anyhow::anyhow!("module definition: module expected as symbols"))?;
    let names = Vec::<&str>::of(cols[2])
        .ok_or_else(|| anyhow::anyhow!("module definition: name expected as symbols"))?;
    let o = from::list(&cols[3]).ok_or_else(|| {
        anyhow::anyhow!("module definition: options expected as a list of dictionaries")
    })?;
    let p = if parms {
        Some(from::list(&cols[4]).ok_or_else(|| {
            anyhow::anyhow!("module state: parms expected as a list of dictionaries")
        })?)
    } else {
        None
    };
    let b = if buffers {
        Some(from::list(&cols[5]).ok_or_else(|| {
            anyhow::anyhow!("module state: buffers expected as a list of dictionaries")
        })?)
    } else {
        None
    };
    let n = depth.len();
    if mods.len() != n
        || names.len() != n
        || o.len() != n
        || p.is_some_and(|p| p.len() != n)
        || b.is_some_and(|b| b.len() != n)
    {
        bail!("module definition: columns of different lengths");
    }
    (0..depth.len())
        .map(|i| {
            Ok((
                depth[i],
                mods[i],
                names[i],
                opts(o[i])?,
                p.map(|p| p[i]),
                b.map(|b| b[i]),
            ))
        })
        .collect::<Result<_>>()
        .map(Some)
}

/// A list of option values as q data: a simple list when all are atoms of one type (ktorch's
/// `resolvedict`), else a general list.
fn values(v: &[Val]) -> K {
    make::uniform(v.iter().map(atom).collect())
}

/// One option's value as q data (`::` for an unset option).
pub fn atom(v: &Val) -> K {
    match v {
        Val::None => make::null(),
        Val::Long(j) => make::long(*j),
        Val::Bool(b) => make::boolean(*b),
        Val::Float(f) => make::float(*f),
        Val::Longs(v) => make::longs(v),
        Val::Floats(v) => make::floats(v),
        Val::Sym(s) => make::symbol(s),
        Val::Syms(s) => make::symbols(s),
        Val::Str(s) => make::string(s),
    }
}

/// The options of a module as a dictionary: all, or only those differing from their defaults
/// (required options always show).
pub fn options(m: &Module, all: bool) -> K {
    options_of(m.layer, &m.opts, all)
}

/// Options that ktorch shows only when they have a value, all options or not: onehot's data type
/// (knn/onehot.cpp `onehot`: `if(o.dtype()) msetting(..)`) and squeeze's dimension
/// (knn/squeeze.cpp `squeeze`: `if(o.dim().has_value()) ..`).
const SHOWN_WHEN_SET: &[(&str, &str)] = &[("onehot", "dtype"), ("squeeze", "dim")];

/// Option values `vals` of a layer type as a dictionary. Sizes of a fixed count whose elements
/// are all equal show as one value, as ktorch shows PyTorch's expanding arrays (`kexpand`):
/// a conv2d's stride `1`, not `1 1`.
pub fn options_of(layer: &layers::Layer, vals: &[Val], all: bool) -> K {
    let (k, v): (Vec<&str>, Vec<Val>) = layer
        .opts
        .iter()
        .zip(vals)
        .filter(|(o, v)| all || o.default.val(o.ty).as_ref() != Some(*v))
        .filter(|(o, v)| !(**v == Val::None && SHOWN_WHEN_SET.contains(&(layer.name, o.name))))
        .map(|(o, v)| (o.name, collapse(o.ty, v)))
        .unzip();
    if k.is_empty() {
        return empty_dict();
    }
    make::dict_of(make::symbols(&k), values(&v))
}

/// An expanding array's value as one element when all its elements are the same.
fn collapse(ty: layers::Ty, v: &Val) -> Val {
    use layers::Ty;
    let fixed = matches!(ty, Ty::Size(n) | Ty::Floats(n) | Ty::SizeOrSym(n, _) if n >= 1);
    match v {
        Val::Longs(l) if fixed && !l.is_empty() && l.iter().all(|j| *j == l[0]) => Val::Long(l[0]),
        Val::Floats(f) if fixed && !f.is_empty() && f.iter().all(|x| *x == f[0]) => {
            Val::Float(f[0])
        }
        // a list of argument types (a callback's `in`): one as a symbol atom, as ktorch.cpp's
        // `arglist` (knn/callback.cpp `callback`)
        Val::Syms(s) if matches!(ty, Ty::Syms(_)) && s.len() == 1 => Val::Sym(s[0]),
        _ => v.clone(),
    }
}

/// A module's own parameters (or buffers) as a q dictionary of name to values.
fn own(m: &Module, buffers: bool) -> Result<K> {
    // a layer made of parts: its parts' too, by dotted name (the definition has no rows for them)
    let v: Vec<(String, &tch::Tensor)> = if m.has_parts() {
        if buffers {
            m.named_buffers()
        } else {
            m.named_parameters()
        }
    } else {
        (if buffers { &m.buffers } else { &m.parms })
            .iter()
            .map(|(k, t)| (k.clone(), t))
            .collect()
    };
    if v.is_empty() {
        return Ok(empty_dict());
    }
    let names: Vec<&str> = v.iter().map(|(k, _)| k.as_str()).collect();
    let vals = make::try_list(
        v.iter()
            .map(|(_, t)| crate::tensor::convert::to_q(&t.f_detach()?)),
    )?;
    Ok(make::dict_of(make::symbols(&names), vals))
}

fn empty_dict() -> K {
    make::empty_dict()
}

/// `module m`: a dictionary for a single layer, a table for a container; `state m` (`state`
/// true) adds each module's parameters and buffers.
pub fn definition(m: &Module, all: bool, state: bool) -> KResult {
    let keys: &[&str] = if state {
        &["depth", "module", "name", "options", "parms", "buffers"]
    } else {
        &["depth", "module", "name", "options"]
    };
    if (!m.layer.container && m.children.is_empty()) || m.has_parts() {
        let mut v = vec![
            make::long(0),
            make::symbol(m.layer.name),
            make::symbol(m.name.as_deref().unwrap_or("")),
            options(m, all),
        ];
        if state {
            v.push(own(m, false)?);
            v.push(own(m, true)?);
        }
        return Ok(make::dict(keys, v));
    }
    let mut rows: Vec<(i64, &str, String, &Module)> = vec![];
    fn walk<'a>(
        m: &'a Module,
        d: i64,
        key: String,
        rows: &mut Vec<(i64, &'a str, String, &'a Module)>,
    ) {
        rows.push((d, m.layer.name, key, m));
        if m.has_parts() {
            return;
        }
        for (k, c) in &m.children {
            walk(c, d + 1, k.clone(), rows);
        }
    }
    walk(m, 0, m.name.clone().unwrap_or_default(), &mut rows);
    let parms = if state {
        Some((
            make::try_list(rows.iter().map(|r| own(r.3, false)))?,
            make::try_list(rows.iter().map(|r| own(r.3, true)))?,
        ))
    } else {
        None
    };
    let depth = make::longs(&rows.iter().map(|r| r.0).collect::<Vec<_>>());
    let module = make::symbols(&rows.iter().map(|r| r.1).collect::<Vec<_>>());
    let name = make::symbols(&rows.iter().map(|r| r.2.as_str()).collect::<Vec<_>>());
    let opts = make::list(rows.iter().map(|r| options(r.3, all)).collect());
    let mut cols = vec![depth, module, name, opts];
    if let Some((p, b)) = parms {
        cols.push(p);
        cols.push(b);
    }
    Ok(make::table(keys, cols))
}

/// `seq`'s argument: a module symbol, module symbols, or a list of definitions (its first item
/// any, each other a symbol or a definition: no other atom).
pub enum Sequence {
    One(K),
    Names(Vec<&'static str>),
    Items(Vec<K>),
}

impl FromQ for Sequence {
    const TYPE: &'static str = "module symbols or a list of definitions";
    /// Every value is a sequence or an error.
    fn read(x: K) -> Result<Option<Sequence>> {
        let t = read::ktype(x);
        if t < 0 {
            if t != -11 {
                bail!("expecting module symbol, given {}", describe(x));
            }
            return Ok(Some(Sequence::One(x)));
        }
        if t > 0 {
            let Some(s) = Vec::<&str>::of(x) else {
                bail!("expected module symbols, given {}", describe(x))
            };
            if s.is_empty() {
                bail!("expected at least one module symbol, given empty list");
            }
            return Ok(Some(Sequence::Names(s)));
        }
        let Some(items) = from::list(&x) else {
            bail!(
                "expected module symbols or a list of definitions, given {}",
                describe(x)
            )
        };
        if items.is_empty() {
            bail!("empty list");
        }
        for i in &items[1..] {
            let ti = read::ktype(*i);
            if ti < 0 && ti != -11 {
                bail!("scalar expected to be a symbol, given a {}", describe(*i));
            }
        }
        Ok(Some(Sequence::Items(items.to_vec())))
    }
}

crate::qfn! {
    /// `seq x`: enlist all but the first item (knn.cpp's `seq`), the 2-level tree of a sequence.
    pub fn seq(x: Sequence) -> KResult {
        Ok(match x {
            Sequence::One(s) => make::share(s),
            Sequence::Names(s) => {
                let mut v = vec![make::symbol(s[0])];
                v.extend(s[1..].iter().map(|a| make::symbols(&[a])));
                make::list(v)
            }
            Sequence::Items(items) => {
                let mut v = vec![Owned::share(items[0])];
                for i in &items[1..] {
                    v.push(Owned::new(match <&str>::of(*i) {
                        Some(s) => make::symbols(&[s]),
                        None => make::list_of(&[*i]),
                    }));
                }
                make::list(v.into_iter().map(Owned::into_raw).collect())
            }
        })
    }
}

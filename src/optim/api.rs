//! The q functions of optimizers (opt.rst): `opt`, `step`, `lr`, and the optimizer forms of
//! `state` (called from dispatch::state::state).
//!
//! - `opt name`, `opt(name;parms;options..)`, `opt(name;group;parms;options..)`: a new optimizer;
//! - `opt(o;parms)`, `opt(o;group;parms;options..)`: add parameters (and set a group's options;
//!   groups are numbered consecutively from 0);
//! - `opt(state;module)`: an optimizer rebuilt from `state o` onto a module's parameters of the
//!   same names (optim::restore);
//! - `opt o`, `opt(o;flag)`: the definition: type, a table of options (a row per group) and a
//!   table of parameters (group, pointer, module, name, size).
//!
//! Parameters: `()` for none, a tensor, a vector (or `(v;indices)`), a dictionary (or
//! `(d;keys)`), a module (or `(m;child index)`, `(m;child names)`).
use anyhow::{anyhow, bail, Result};

use super::{kinds, Group, Optimizer, Parm, Settings, Source};
use crate::k::from::{self, FromQ, Number, Whole, Wholes};

use crate::k::{make, read, KResult, K};
use crate::nn::api::{atom, modref};
use crate::nn::spec;
use crate::registry::{self, Obj};
use crate::session::setting::alloptions;
use crate::tensor::opargs::describe;

pub fn is_optimizer(x: K) -> bool {
    registry::class_of(x) == Some(registry::Class::Optimizer)
}

/// An optimizer handle (`step o`, `state o`, `module o`): q's argument, alive for the call.
#[derive(Clone, Copy)]
pub struct Opt(K);

impl FromQ for Opt {
    const TYPE: &'static str = "an optimizer";
    fn read(x: K) -> Result<Option<Opt>> {
        Ok(is_optimizer(x).then_some(Opt(x)))
    }
    /// ktorch's words: the class given, a stale handle, or q data
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expected an optimizer, given {}",
            registry::class_of(x)
                .map(registry::Class::name)
                .unwrap_or_else(|| if registry::is_handle(x) {
                    "stale pointer"
                } else {
                    "q data"
                })
        )
    }
}

/// The forms of `opt` (see the module's doc), read from q's argument.
pub enum OptCall {
    /// `opt o`, `opt(o;flag)`: the definition, all options or those not at their defaults
    Show(Opt, bool),
    /// `opt name`: a new optimizer of one group of no parameters
    Empty(&'static kinds::Kind),
    /// `opt(name;[group];parms;options..)`: a new optimizer
    New(&'static kinds::Kind, Option<i64>, Given, Opts),
    /// `opt(o;[group];parms;options..)`: parameters (and a group's options) added
    Add(Opt, Option<i64>, Given, Opts),
    /// `opt(state;module)`: an optimizer rebuilt from `state o` (the two as given: restore.rs
    /// reads them)
    Rebuild(K, K),
}

impl FromQ for OptCall {
    const TYPE: &'static str = "an optimizer name, an optimizer, or an argument list";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<OptCall>> {
        if let Some(o) = Opt::of(x) {
            return Ok(Some(OptCall::Show(o, alloptions())));
        }
        if let Some(s) = <&str>::of(x) {
            return Ok(Some(OptCall::Empty(kind(s)?)));
        }
        let v = from::list(&x)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| anyhow!("unrecognized arg(s), given {}", describe(x)))?;
        if let Some(o) = Opt::of(v[0]) {
            if let [_, f] = v {
                if let Some(b) = bool::of(*f) {
                    return Ok(Some(OptCall::Show(o, b)));
                }
            }
            let (group, rest) = group_arg(&v[1..]);
            let (parms, opts) = read_args(rest, v.len() > 2 || group.is_some())?;
            return Ok(Some(OptCall::Add(o, group, parms, opts)));
        }
        if super::restore::is_state_call(v) {
            return Ok(Some(OptCall::Rebuild(v[0], v[1])));
        }
        let s = <&str>::of(v[0]).ok_or_else(|| {
            anyhow!(
                "expected optimizer name or pointer as 1st arg, given {}",
                describe(v[0])
            )
        })?;
        let kind = kind(s)?;
        let (group, rest) = group_arg(&v[1..]);
        let (parms, opts) = read_args(rest, true)?;
        Ok(Some(OptCall::New(kind, group, parms, opts)))
    }
}

/// The optimizer kind of a name.
fn kind(s: &str) -> Result<&'static kinds::Kind> {
    kinds::find(s).ok_or_else(|| anyhow!("unrecognized optimizer: `{s}"))
}

crate::qfn! {
    /// `opt`'s forms (the module's doc): a definition, or a new or changed optimizer.
    pub fn opt(call: OptCall) -> KResult {
        match call {
            OptCall::Show(o, all) => registry::with(o.0, |o| definition(optimizer(o)?, all, false)),
            // one group of no parameters at the defaults, as kopt.cpp's optinit always makes
            // (ParamGroup g({}) given to the optimizer's constructor)
            OptCall::Empty(kind) => Ok(registry::add(Obj::new(Optimizer {
                kind,
                sources: vec![],
                defaults: kind.defaults(),
                groups: vec![Group {
                    opts: {
                        let mut v = kind.defaults();
                        eval_default(kind, &mut v);
                        v
                    },
                    parms: vec![],
                }],
                found_inf: None,
                global_sq: None,
            }))),
            OptCall::Add(o, group, parms, opts) => {
                registry::with(o.0, |o| add(optimizer(o)?, group, parms, opts))?;
                Ok(make::null())
            }
            OptCall::Rebuild(state, target) => {
                let o = super::restore::rebuild(state, target)?;
                Ok(registry::add(Obj::new(o)))
            }
            OptCall::New(kind, group, parms, opts) => {
                // the options given at creation are the optimizer's defaults, for groups added
                // later
                let defaults = match &opts {
                    Some((pos, named)) => spec::settings(kind.name, kind.opts, pos, named)?,
                    None => kind.defaults(),
                };
                let mut o = Optimizer {
                    kind,
                    sources: vec![],
                    defaults,
                    groups: vec![],
                    found_inf: None,
                    global_sq: None,
                };
                add(&mut o, group, parms, opts)?;
                Ok(registry::add(Obj::new(o)))
            }
        }
    }
}

/// LBFGS's `eval` left unset is `iter*5/4` in the group made with the optimizer, as libtorch's
/// LBFGS constructor stores it (`max_eval_val`) and torch.optim.LBFGS (`max_iter * 5 // 4`).
fn eval_default(kind: &kinds::Kind, vals: &mut [crate::nn::Val]) {
    use crate::nn::Val;
    let at = |n: &str| kind.opts.iter().position(|o| o.name == n);
    if let (Some(i), Some(e)) = (at("iter"), at("eval")) {
        if let (Val::Long(n), Val::None) = (&vals[i], &vals[e]) {
            vals[e] = Val::Long(n * 5 / 4);
        }
    }
}

pub fn optimizer(o: &mut Obj) -> Result<&mut Optimizer> {
    if o.get::<Optimizer>().is_none() {
        bail!("expected an optimizer, given {}", o.class());
    }
    Ok(o.get_mut::<Optimizer>().unwrap())
}

/// A leading long is a group number.
fn group_arg(v: &[K]) -> (Option<i64>, &[K]) {
    match v.first() {
        Some(g) if read::ktype(*g) == -7 => (Whole::of(*g).map(|w| w.0), &v[1..]),
        _ => (None, v),
    }
}

/// The options of an `opt` call as given, positional and named: None when none given.
pub type Opts = Option<(Vec<K>, spec::Pairs)>;

/// The parameters (first) and options (the rest; None when none given) of an `opt` call.
fn read_args(v: &[K], with_opts: bool) -> Result<(Given, Opts)> {
    let Some(first) = v.first() else {
        return Ok(((vec![], None), None));
    };
    let parms = parameters(*first)?;
    let rest = &v[1..];
    if rest.is_empty() || !with_opts {
        return Ok((parms, None));
    }
    let (pos, named) = match rest.last() {
        Some(last) => match spec::pairs(*last)? {
            Some(p) => (&rest[..rest.len() - 1], p),
            None => (rest, spec::Pairs::default()),
        },
        None => (rest, spec::Pairs::default()),
    };
    Ok((parms, Some((pos.to_vec(), named))))
}

/// Add parameters and options to group `g` (default 0). The options given replace those of the
/// group; the others keep their values: a new group's come from the optimizer's defaults (the
/// options it was made with), an existing group's are its own (kopt.cpp's `optedit`; PyTorch's
/// `add_param_group` likewise fills a new group from the defaults).
fn add(o: &mut Optimizer, g: Option<i64>, (mut parms, from): Given, opts: Opts) -> Result<()> {
    let n = o.groups.len() as i64;
    let g = g.unwrap_or(0);
    if g < 0 || g > n {
        bail!("group {g} invalid, cannot be greater than number of groups({n})");
    }
    let base = match o.groups.get(g as usize) {
        Some(grp) => grp.opts.clone(),
        None => o.defaults.clone(),
    };
    let vals = match &opts {
        Some((pos, named)) => spec::settings_from(
            o.kind.name,
            o.kind.opts,
            base.into_iter().map(Some).collect(),
            pos,
            named,
        )?,
        None => base,
    };
    if let Some(check) = o.kind.check {
        check(
            g as usize,
            &Settings {
                kind: o.kind,
                vals: &vals,
            },
        )?;
    }
    for (i, p) in parms.iter().enumerate() {
        let dup = o
            .groups
            .iter()
            .flat_map(|g| &g.parms)
            .any(|q| q.t.data_ptr() == p.t.data_ptr() && q.t.size() == p.t.size())
            || parms[..i]
                .iter()
                .any(|q| q.t.data_ptr() == p.t.data_ptr() && q.t.size() == p.t.size());
        if dup {
            bail!(
                "parameter {} is already in the optimizer",
                if p.name.is_empty() {
                    format!("[{i}]")
                } else {
                    p.name.clone()
                }
            );
        }
    }
    if let Some(from) = from {
        name_parms(o, &mut parms, from)?;
    }
    if g == n {
        let mut vals = vals;
        eval_default(o.kind, &mut vals);
        o.groups.push(Group {
            opts: vals,
            parms: vec![],
        });
    } else {
        o.groups[g as usize].opts = vals;
    }
    o.groups[g as usize].parms.extend(parms);
    Ok(())
}

/// The parameters of one `opt` argument and where they came from (None for none).
pub type Given = (Vec<Parm>, Option<From>);

/// Where parameters came from: a module (its own name, address and a tree on the same tensors)
/// or tensors (a tensor, vector or dictionary: kopt.cpp's parameter dictionary).
pub enum From {
    Module {
        name: Option<String>,
        addr: i64,
        tree: Option<crate::nn::Module>,
    },
    Tensors,
}

/// Name the parameters given as ktorch's container names them (kopt.cpp's `addmodule`,
/// `addvector`, `adddict`, `parmname`) and record their source: the first source is the
/// container itself (names as in the module); a second turns it into a module dictionary, every
/// name then prefixed by its source's key: a module's own name, else its position (`0`, `1`),
/// `parms` for the tensors (their names a dictionary's keys, else their position among them).
fn name_parms(o: &mut Optimizer, parms: &mut [Parm], from: From) -> Result<()> {
    let key_of = |name: &Option<String>, n: usize| name.clone().unwrap_or_else(|| n.to_string());
    let taken = |o: &Optimizer, k: &str| o.sources.iter().any(|s| s.key == k);
    let at = match from {
        From::Tensors => match o.sources.iter().position(|s| s.addr == 0) {
            Some(i) => i,
            None => {
                let mut key = "parms".to_string();
                let mut n = 1;
                while taken(o, &key) {
                    key = format!("parms{n}");
                    n += 1;
                }
                let l = crate::nn::layers::find("parmdict")
                    .ok_or_else(|| anyhow!("no parmdict layer"))?;
                let tree = crate::nn::Module::new(l, Some(key.clone()), vec![])?;
                new_source(
                    o,
                    Source {
                        key,
                        addr: 0,
                        tree: Some(tree),
                        count: 0,
                    },
                    None,
                )?
            }
        },
        From::Module { name, addr, tree } => {
            match o.sources.iter().position(|s| s.addr == addr && addr != 0) {
                Some(i) => i,
                None => {
                    let module = tree.as_ref().map_or("module", |t| t.layer.name);
                    let key = key_of(&name, o.sources.len());
                    let src = Source {
                        key,
                        addr,
                        tree,
                        count: 0,
                    };
                    new_source(o, src, name.map(|n| (n, module)))?
                }
            }
        }
    };
    let src = &mut o.sources[at];
    for p in parms.iter_mut() {
        if src.addr == 0 {
            if p.name.is_empty() {
                p.name = src.count.to_string();
            }
            src.count += 1;
            if let Some(t) = src.tree.as_mut() {
                t.parms.push((p.name.clone(), p.t.shallow_clone()));
            }
        }
    }
    if o.sources.len() > 1 {
        let key = &o.sources[at].key;
        for p in parms.iter_mut() {
            p.name = format!("{key}.{}", p.name);
        }
    }
    Ok(())
}

/// Add a source: the second one makes the container a dictionary, the first one's parameters
/// then named with its key (its name, else `0`). A named module whose name is taken is an error.
fn new_source(o: &mut Optimizer, src: Source, named: Option<(String, &str)>) -> Result<usize> {
    if let Some((n, module)) = &named {
        if o.sources.iter().any(|s| &s.key == n) {
            bail!("a {module} module named `{n} already registered with the optimizer");
        }
    }
    if o.sources.len() == 1 {
        let key = o.sources[0].key.clone();
        for p in o.groups.iter_mut().flat_map(|g| g.parms.iter_mut()) {
            p.name = format!("{key}.{}", p.name);
        }
    }
    o.sources.push(src);
    Ok(o.sources.len() - 1)
}

fn parm(t: &tch::Tensor, module: &str, name: &str) -> Result<Parm> {
    if !t.defined() {
        bail!("undefined tensor cannot be optimized");
    }
    if !t.requires_grad() {
        bail!(
            "{}: tensor does not require gradients",
            if name.is_empty() { "tensor" } else { name }
        );
    }
    Ok(Parm {
        t: t.shallow_clone(),
        module: module.to_string(),
        name: name.to_string(),
        state: vec![],
    })
}

/// The parameters of an `opt` argument.
fn parameters(x: K) -> Result<Given> {
    if read::is_nil(x) {
        return Ok((vec![], None));
    }
    let tensors = |v: Vec<Parm>| -> Result<Given> { Ok((v, Some(From::Tensors))) };
    let (h, sel) = match from::list(&x) {
        Some([h, s]) if registry::is_handle(*h) => (*h, Some(*s)),
        _ => (x, None),
    };
    match registry::class_of(h) {
        Some(registry::Class::Tensor) if sel.is_none() => {
            tensors(vec![parm(&registry::tensor(h)?, "parmdict", "")?])
        }
        Some(registry::Class::Vector) => {
            let v = registry::tensors(h)?;
            let idx: Vec<i64> = match sel {
                None => (0..v.len() as i64).collect(),
                Some(s) => Wholes::of(s)
                    .map(|w| w.0)
                    .or_else(|| Whole::of(s).map(|w| w.0).map(|j| vec![j]))
                    .ok_or_else(|| {
                        anyhow!("vector index expected as long(s), given {}", describe(s))
                    })?,
            };
            tensors(
                idx.iter()
                    .map(|&i| {
                        let t = v.get(i as usize).filter(|_| i >= 0).ok_or_else(|| {
                            anyhow!("vector index {i} out of range for {} tensors", v.len())
                        })?;
                        parm(t, "parmdict", "")
                    })
                    .collect::<Result<_>>()?,
            )
        }
        Some(registry::Class::Dictionary) => {
            let (keys, ts) = registry::with(h, |o| match o {
                Obj::Dict(d) => Ok((
                    d.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
                    d.iter().map(|(_, t)| t.shallow_clone()).collect::<Vec<_>>(),
                )),
                _ => unreachable!(),
            })?;
            let want: Vec<String> = match sel {
                None => keys.clone(),
                Some(s) => Vec::<&str>::of(s)
                    .or_else(|| <&str>::of(s).map(|k| vec![k]))
                    .ok_or_else(|| {
                        anyhow!(
                            "dictionary keys expected as symbol(s), given {}",
                            describe(s)
                        )
                    })?
                    .into_iter()
                    .map(String::from)
                    .collect(),
            };
            tensors(
                want.iter()
                    .map(|k| {
                        let i = keys
                            .iter()
                            .position(|x| x == k)
                            .ok_or_else(|| anyhow!("dictionary has no key `{k}"))?;
                        parm(&ts[i], "parmdict", k)
                    })
                    .collect::<Result<_>>()?,
            )
        }
        Some(registry::Class::Module) => {
            let r = modref(h)?;
            let m = r.get();
            let from = || {
                Some(From::Module {
                    name: m.name.clone(),
                    addr: r.address(),
                    tree: m.shared_copy(),
                })
            };
            let mods: Vec<(String, &crate::nn::Module)> = match sel {
                None => vec![(String::new(), m)],
                Some(s) => {
                    if let Some(j) = Whole::of(s).map(|w| w.0).filter(|_| read::ktype(s) < 0) {
                        vec![(child_name(m, Err(j))?, m.find(Err(j))?)]
                    } else if let Some(names) =
                        Vec::<&str>::of(s).or_else(|| <&str>::of(s).map(|k| vec![k]))
                    {
                        // a name is a child module's, else a parameter's (kopt.cpp's moduleparms)
                        let mut v = vec![];
                        for n in names {
                            if let Ok(c) = m.find(Ok(n)) {
                                for (name, t) in c.named_parameters() {
                                    v.push(parm(t, owner_type(c, &name), &format!("{n}.{name}"))?);
                                }
                            } else if let Some((_, t)) =
                                m.named_parameters().into_iter().find(|(k, _)| k == n)
                            {
                                v.push(parm(t, owner_type(m, n), n)?);
                            } else {
                                bail!("no module or parameter named `{n}");
                            }
                        }
                        return Ok((v, from()));
                    } else {
                        bail!(
                            "module children expected as an index or name(s), given {}",
                            describe(s)
                        )
                    }
                }
            };
            let mut v = vec![];
            for (prefix, c) in mods {
                for (name, t) in c.named_parameters() {
                    let owner = owner_type(c, &name);
                    let full = if prefix.is_empty() {
                        name
                    } else {
                        format!("{prefix}.{name}")
                    };
                    v.push(parm(t, owner, &full)?);
                }
            }
            Ok((v, from()))
        }
        Some(c) => bail!("cannot optimize parameters of {c}"),
        None if registry::is_handle(h) => bail!("stale pointer"),
        None => bail!(
            "unrecognized parameters, expected tensor, vector, dictionary or module, given {}",
            describe(x)
        ),
    }
}

/// The dotted name of descendant `j`.
fn child_name(m: &crate::nn::Module, j: Result<&str, i64>) -> Result<String> {
    let Err(j) = j else { unreachable!() };
    let all = m.named_modules();
    all.get(j as usize + 1)
        .map(|(k, _)| k.clone())
        .ok_or_else(|| anyhow!("invalid child index {j}"))
}

/// The type of the module that owns parameter `name` (`0.weight` -> child 0's type; a flat
/// parameter of a submodule, as `tok.weight` of an `embedseq`, that submodule's type).
fn owner_type(m: &crate::nn::Module, name: &str) -> &'static str {
    m.parm_type(name)
}

fn dict(keys: &[&str], vals: Vec<K>) -> K {
    make::dict(keys, vals)
}

/// The options of optimizer `o` as a table, one row per group (kopt.cpp's `optsettings`, what
/// `opt o` shows and `help o`/`options o` answer): all columns, or those differing from a default.
pub fn options_table(o: &Optimizer, all: bool) -> K {
    let names: Vec<&str> = o.kind.opts.iter().map(|x| x.name).collect();
    // options: a table, one row per group, all columns or those differing from a default
    // an optional option unset in every group has no column (kopt.cpp's `lbfgs` adds `search`
    // only when a line search is set, and `maketable` keeps the keys some group has)
    let keep: Vec<usize> = (0..names.len())
        .filter(|&i| {
            o.groups.is_empty() || o.groups.iter().any(|g| g.opts[i] != crate::nn::Val::None)
        })
        .filter(|&i| {
            all || o
                .groups
                .iter()
                .any(|g| o.kind.opts[i].default.val(o.kind.opts[i].ty).as_ref() != Some(&g.opts[i]))
        })
        .collect();
    let cols: Vec<K> = keep
        .iter()
        .map(|&i| column(o.groups.iter().map(|g| &g.opts[i]).collect()))
        .collect();
    make::table(&keep.iter().map(|&i| names[i]).collect::<Vec<_>>(), cols)
}

/// `opt o`: type, options per group, parameters (and, for `state`, their buffers).
pub fn definition(o: &Optimizer, all: bool, state: bool) -> KResult {
    let options = options_table(o, all);
    let parms: Vec<(usize, &Parm)> = o
        .groups
        .iter()
        .enumerate()
        .flat_map(|(i, g)| g.parms.iter().map(move |p| (i, p)))
        .collect();
    let mut pcols = vec![
        make::longs(&parms.iter().map(|(g, _)| *g as i64).collect::<Vec<_>>()),
        make::longs(
            &parms
                .iter()
                .map(|(_, p)| p.t.data_ptr() as i64)
                .collect::<Vec<_>>(),
        ),
        make::symbols(
            &parms
                .iter()
                .map(|(_, p)| p.module.as_str())
                .collect::<Vec<_>>(),
        ),
        make::symbols(
            &parms
                .iter()
                .map(|(_, p)| p.name.as_str())
                .collect::<Vec<_>>(),
        ),
        make::list(
            parms
                .iter()
                .map(|(_, p)| make::longs(&p.t.size()))
                .collect(),
        ),
    ];
    let mut pnames = vec!["parmgroup", "pointer", "module", "name", "size"];
    if state {
        pnames.push("buffers");
        pcols.push(make::try_list(parms.iter().map(|(_, p)| buffers(p)))?);
    }
    let ptable = make::table(&pnames, pcols);
    Ok(dict(
        &["optimizer", "options", "parms"],
        vec![make::symbol(o.kind.name), options, ptable],
    ))
}

/// A column of option values: a simple list when all are atoms of one type (an empty column of
/// no groups is an empty float list).
fn column(v: Vec<&crate::nn::Val>) -> K {
    if v.is_empty() {
        return make::floats(&[]);
    }
    make::uniform(v.into_iter().map(atom).collect())
}

/// A parameter's buffers as a dictionary of name to q data.
fn buffers(p: &Parm) -> Result<K> {
    if p.state.is_empty() {
        return Ok(make::empty_dict());
    }
    let names: Vec<&str> = p.state.iter().map(|(k, _)| *k).collect();
    let vals = make::try_list(p.state.iter().map(|(_, t)| crate::tensor::convert::to_q(t)))?;
    Ok(make::dict_of(make::symbols(&names), vals))
}

/// `state o`, `state(o;flag)`: the definition with each parameter's buffers.
pub fn state(o: Opt, all: bool) -> KResult {
    registry::with(o.0, |x| definition(optimizer(x)?, all, true))
}

crate::qfn! {
    /// `step o`: one update (a model's `step`: dispatch/train.rs).
    pub fn step(o: Opt) -> Result<()> {
        registry::with(o.0, |o| optimizer(o)?.step())
    }
}

/// An optimizer or a model (its optimizer): `lr`'s first argument, alone (`lr o`) or in
/// `(o;rates)`; any other value alone is `lr`'s usage.
#[derive(Clone, Copy)]
pub struct Holder(K);

impl FromQ for Holder {
    const TYPE: &'static str = "optimizer or model";
    fn read(x: K) -> Result<Option<Holder>> {
        Ok(matches!(
            registry::class_of(x),
            Some(registry::Class::Optimizer | registry::Class::Model)
        )
        .then_some(Holder(x)))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expected optimizer or model as 1st arg, given {}",
            describe(x)
        )
    }
    fn alone(x: K) -> Result<Option<Holder>> {
        match from::list(&x) {
            Some([_, _]) => Ok(None),
            _ => Holder::read(x)?.map(Some).ok_or_else(|| {
                anyhow!(
                    "expected optimizer, model, or (optimizer or model;rate(s)), given {}",
                    describe(x)
                )
            }),
        }
    }
}

/// Learning rates: a numeric atom (one for every group: short, int, long, real or float) or a
/// float vector (one a group).
pub struct Rates(Vec<f64>);

impl FromQ for Rates {
    const TYPE: &'static str = "double(s)";
    fn read(x: K) -> Result<Option<Rates>> {
        Ok(match read::ktype(x) {
            -9..=-6 => Number::of(x).map(|n| match n {
                Number::Int(i) => vec![i as f64],
                Number::Float(f) => vec![f],
            }),
            9 => Vec::<f64>::of(x),
            _ => None,
        }
        .map(Rates))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "learning rate(s) expected as double(s), given {}",
            describe(x)
        )
    }
}

/// Run `f` on the optimizer of `x`: an optimizer, or a model's.
fn with_opt<R>(x: Holder, f: impl FnOnce(&mut Optimizer) -> Result<R>) -> Result<R> {
    registry::with(x.0, |o| {
        let class = o.class();
        match o.part_mut::<Optimizer>() {
            Some(z) => f(z),
            None => bail!("expected optimizer or model, given {class}"),
        }
    })
}

crate::qfn! {
    /// `lr o`: each group's learning rate; `lr(o;r)`: set every group's, `lr(o;r1 r2..)` each.
    /// `o` is an optimizer or a model (its optimizer), as kopt.cpp's `lr`.
    pub fn lr(o: Holder, rates: Option<Rates>) -> KResult {
        let Some(Rates(rates)) = rates else {
            return with_opt(o, |o| {
                let v: Vec<f64> = (0..o.groups.len())
                    .map(|g| o.settings(g).float("lr"))
                    .collect();
                Ok(make::floats(&v))
            });
        };
        with_opt(o, |o| {
            let i = o.kind.opts.iter().position(|x| x.name == "lr").unwrap();
            let n = o.groups.len();
            if rates.len() != 1 && rates.len() != n {
                bail!(
                    "{} learning rate(s) given for {n} parameter group(s)",
                    rates.len()
                );
            }
            for (g, grp) in o.groups.iter_mut().enumerate() {
                grp.opts[i] =
                    crate::nn::Val::Float(if rates.len() == 1 { rates[0] } else { rates[g] });
            }
            Ok(make::null())
        })
    }
}

/// `module o`: the optimizer's container module (kopt.cpp): the one module (or parameter
/// dictionary) given, else a module dictionary of them by key, on the same parameter tensors.
pub fn container(x: Opt) -> Result<crate::nn::Module> {
    registry::with(x.0, |o| {
        let o = optimizer(o)?;
        let copy = |s: &Source| {
            s.tree
                .as_ref()
                .and_then(|t| t.shared_copy())
                .ok_or_else(|| {
                    anyhow!(
                        "the optimizer's `{} cannot be returned as a module (a Python model)",
                        s.key
                    )
                })
        };
        match o.sources.as_slice() {
            [] => bail!("the optimizer has no parameters from modules or tensors"),
            [one] => copy(one),
            all => {
                let l = crate::nn::layers::find("moduledict")
                    .ok_or_else(|| anyhow!("no moduledict layer"))?;
                let mut d = crate::nn::Module::new(l, None, vec![])?;
                for s in all {
                    d.children.push((s.key.clone(), copy(s)?));
                }
                Ok(d)
            }
        }
    })
}

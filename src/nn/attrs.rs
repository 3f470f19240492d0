//! Module attributes (ktorch's modules.rst "Module attributes" and "Module objects"; kmodel.cpp's
//! `tensorarg`, `nameargs`, `child`, `moduletypes`, `parmtypes`; ktorch.cpp's `inputmodule`,
//! `outputmodule`):
//! - `parm(m;name)`, `buffer(m;name)`: a tensor handle sharing the module's tensor;
//!   `parm(m;name;value)`, `buffer(m;name;value)` copy values in (or add the tensor if new);
//! - `buffers m`, `buffernames m` (and `(m;child)`), `parmtypes m`;
//! - `child(m;name|index)`, `children m`, `modules m` (and `(m;child)`): module handles that
//!   share the tree and its tensors;
//! - `moduletypes m`, `moduletypes(m;types)`, `moduletypes[]` (every module type);
//! - `inputmodule m`, `outputmodule m`: the type of module that takes the first input and the
//!   one that gives the output (a sequential's first and last child, followed down).
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::api::{has_module, is_module, modref, module_mut};
use super::parms::{on, ModuleKey};
use super::{layers, ModRef, Module};
use crate::k::from::{self, FromQ, Syms};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

/// `parm`'s (B false) or `buffer`'s (B true) arguments: a module or model, the tensor's full
/// name, and a new value (a tensor or q data) to copy in or to add as a new tensor.
pub struct TensorAttr<const B: bool> {
    h: K,
    name: &'static str,
    value: Option<Tensor>,
}

impl<const B: bool> FromQ for TensorAttr<B> {
    const TYPE: &'static str = "(module;name) or (module;name;value)";
    /// Every value is the call or an error.
    fn read(x: K) -> Result<Option<TensorAttr<B>>> {
        let what = if B { "buffer" } else { "parameter" };
        let v = from::list(&x)
            .filter(|v| !v.is_empty() && has_module(v[0]))
            .ok_or_else(|| anyhow!("first arg must be a module or model"))?;
        if !(2..=3).contains(&v.len()) {
            bail!("expected 2-3 args, e.g. (module;{what} name) or (module;{what} name;value), but given {} args", v.len());
        }
        let name = <&str>::of(v[1]).ok_or_else(|| {
            anyhow!(
                "second arg is {what} name, expected symbol given {}",
                describe(v[1])
            )
        })?;
        let value = match v.get(2) {
            Some(&value) => Some(crate::tensor::arg(value)?.0),
            None => None,
        };
        Ok(Some(TensorAttr {
            h: v[0],
            name,
            value,
        }))
    }
}

crate::qfn! {
    /// `parm(m;name)`, `parm(m;name;value)`.
    pub fn parm(x: TensorAttr<false>) -> KResult {
        tensor_attr(x)
    }

    /// `buffer(m;name)`, `buffer(m;name;value)`.
    pub fn buffer(x: TensorAttr<true>) -> KResult {
        tensor_attr(x)
    }
}

/// The tensor of that name, or its new value copied in (or added when there is none).
fn tensor_attr<const B: bool>(x: TensorAttr<B>) -> KResult {
    let what = if B { "buffer" } else { "parameter" };
    let TensorAttr { h, name, value } = x;
    let r = modref(h)?;
    let found = {
        let m = r.get();
        let all = if B {
            m.named_buffers()
        } else {
            m.named_parameters()
        };
        all.into_iter()
            .find(|(k, _)| k == name)
            .map(|(_, t)| t.shallow_clone())
    };
    let Some(src) = value else {
        let t = found.ok_or_else(|| anyhow!("{what} `{name} not found"))?;
        return Ok(registry::add(Obj::Tensor(t)));
    };
    match found {
        Some(mut t) => {
            let _nograd = tch::no_grad_guard();
            t.f_copy_(&src)?;
        }
        None => {
            let device = r.get().device();
            drop(r); // changing the tree's shape needs the only reference to it
            let t = src.f_to_device(device)?.f_detach()?.f_contiguous()?;
            registry::with(h, |o| add_tensor(module_mut(o)?, name, t, B))?;
        }
    }
    Ok(make::null())
}

/// Add a new parameter or buffer by full name: the part before the last dot names the module.
fn add_tensor(m: &mut Module, name: &str, t: Tensor, buffers: bool) -> Result<()> {
    let (path, leaf) = name.rsplit_once('.').unwrap_or(("", name));
    let mut at = m;
    for key in path.split('.').filter(|k| !k.is_empty()) {
        at = at
            .children
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, c)| c)
            .ok_or_else(|| anyhow!("no child module named `{key} for `{name}"))?;
    }
    if buffers {
        at.add_buffer(leaf, t);
    } else {
        at.add_parm(leaf, t.f_set_requires_grad(true)?);
    }
    Ok(())
}

crate::qfn! {
    /// `buffers m`, `buffers(m;child)`: a dictionary handle of the buffers (shared tensors).
    pub fn buffers(x: ModuleKey) -> KResult {
        let d = on(x, |m| {
            Ok(m.named_buffers()
                .into_iter()
                .map(|(k, t)| (k, t.shallow_clone()))
                .collect::<Vec<_>>())
        })?;
        Ok(registry::add_as(Obj::Dict(d), "buffer"))
    }

    /// `buffernames m`, `buffernames(m;child)`.
    pub fn buffernames(x: ModuleKey) -> KResult {
        on(x, |m| Ok(syms(m.named_buffers().into_iter().map(|(k, _)| k))))
    }
}

pub fn syms(v: impl Iterator<Item = String>) -> K {
    let v: Vec<String> = v.collect();
    make::symbols(&v.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `parmtypes m`: each parameter's full name to the type of the module holding it (an
/// optimizer's: dispatch/info.rs).
pub fn parmtypes(x: K) -> KResult {
    if !has_module(x) {
        bail!("expected model, module or optimizer, given {}", describe(x));
    }
    let r = modref(x)?;
    let (mut k, mut v) = (vec![], vec![]);
    for (path, m) in r.get().named_modules() {
        for (p, _) in &m.parms {
            k.push(if path.is_empty() {
                p.clone()
            } else {
                format!("{path}.{p}")
            });
            // the leaf module's type, also for parameters held flat (kmodel.cpp's parmtypes)
            v.push(m.parm_type(p));
        }
    }
    Ok(dict(syms(k.into_iter()), make::symbols(&v)))
}

pub fn dict(k: K, v: K) -> K {
    make::dict_of(k, v)
}

/// A module and the child a key names: `(m;name)` or `(m;index)`.
pub struct ChildKey {
    r: ModRef,
    key: Result<&'static str, i64>,
}

impl FromQ for ChildKey {
    const TYPE: &'static str = "(module; name/index)";
    /// Every value is the pair or an error.
    fn read(x: K) -> Result<Option<ChildKey>> {
        let v = from::list(&x)
            .filter(|v| !v.is_empty() && is_module(v[0]))
            .ok_or_else(|| anyhow!("expected module as first argument"))?;
        let [m, k] = v else {
            bail!(
                "expected 2 args, (module; name/index), {} arg(s) given",
                v.len()
            )
        };
        let key = match (<&str>::of(*k), i64::of(*k)) {
            (Some(s), _) => Ok(s),
            (None, Some(j)) => Err(j),
            _ => bail!("expected 2nd arg of name or index, given {}", describe(*k)),
        };
        Ok(Some(ChildKey {
            r: modref(*m)?,
            key,
        }))
    }
}

/// A module alone, or a `ChildKey`: the module whose children `children` and `modules` list.
pub struct Below {
    r: ModRef,
    key: Option<Result<&'static str, i64>>,
}

impl FromQ for Below {
    const TYPE: &'static str = "a module, or (module; name/index)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Below>> {
        if is_module(x) {
            return Ok(Some(Below {
                r: modref(x)?,
                key: None,
            }));
        }
        let ChildKey { r, key } = ChildKey::from_q(x, "module")?;
        Ok(Some(Below { r, key: Some(key) }))
    }
}

/// A module handle (not a model's): `expected a module, given ..`.
pub struct OnlyModule(ModRef);

impl FromQ for OnlyModule {
    const TYPE: &'static str = "a module";
    fn read(x: K) -> Result<Option<OnlyModule>> {
        if !is_module(x) {
            return Ok(None);
        }
        modref(x).map(|r| Some(OnlyModule(r)))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected a module, given {}", describe(x))
    }
}

crate::qfn! {
    /// `child(m;name)`, `child(m;index)`: a handle to the child, sharing the tree.
    pub fn child(x: ChildKey) -> KResult {
        let c = x.r.get().find(x.key)?;
        Ok(registry::add(Obj::new(ModRef::inside(x.r.root(), c))))
    }

    /// `children m`, `children(m;child)`: the immediate children as a dictionary of handles.
    pub fn children(x: Below) -> KResult {
        handles(x, false)
    }

    /// `modules m`, `modules(m;child)`: every module below, by full name, as handles.
    pub fn modules(x: Below) -> KResult {
        handles(x, true)
    }
}

fn handles(x: Below, all: bool) -> KResult {
    let Below { r, key } = x;
    let m = match key {
        None => r.get(),
        Some(k) => r.get().find(k)?,
    };
    let found: Vec<(String, &Module)> = if all {
        m.named_modules().into_iter().skip(1).collect()
    } else {
        m.children.iter().map(|(k, c)| (k.clone(), c)).collect()
    };
    let vals = found
        .iter()
        .map(|(_, c)| registry::add(Obj::new(ModRef::inside(r.root(), c))))
        .collect();
    Ok(dict(
        syms(found.into_iter().map(|(k, _)| k)),
        make::list(vals),
    ))
}

/// `moduletypes`' forms: `moduletypes[]` (every type there is, `()` given), a module, or
/// `(module;types)` (true: one type given as an atom).
pub enum TypesOf {
    All,
    Module(K, Option<(Vec<&'static str>, bool)>),
}

impl FromQ for TypesOf {
    const TYPE: &'static str = "a module or (module;types)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<TypesOf>> {
        if read::is_nil(x) {
            return Ok(Some(TypesOf::All));
        }
        if is_module(x) {
            return Ok(Some(TypesOf::Module(x, None)));
        }
        match from::list(&x) {
            Some([h, t]) if is_module(*h) => {
                let s = Syms::of(*t).map(|s| s.0).ok_or_else(|| {
                    anyhow!(
                        "expected 2nd arg of module types(symbols), given {}",
                        describe(*t)
                    )
                })?;
                for n in &s {
                    if layers::find(n).is_none() {
                        bail!("unrecognized module: `{n}");
                    }
                }
                Ok(Some(TypesOf::Module(
                    *h,
                    Some((s, <&str>::of(*t).is_some())),
                )))
            }
            _ => bail!("expected a module or (module;types), given {}", describe(x)),
        }
    }
}

crate::qfn! {
    /// `moduletypes m`: each module's full name (the module itself is `) to its type;
    /// `moduletypes(m;`type)`: the names of modules of that type; `moduletypes(m;types)`: the
    /// dictionary for those types only; `moduletypes[]`: every module type there is.
    pub fn moduletypes(x: TypesOf) -> KResult {
        let (h, types) = match x {
            TypesOf::All => {
                let v: Vec<&str> = layers::all().map(|l| l.name).collect();
                return Ok(make::symbols(&v));
            }
            TypesOf::Module(h, types) => (h, types),
        };
        let r = modref(h)?;
        let rows: Vec<(String, &'static str)> = r
            .get()
            .named_modules()
            .into_iter()
            .map(|(k, m)| (k, m.layer.name))
            .filter(|(_, t)| types.as_ref().is_none_or(|(s, _)| s.contains(t)))
            .collect();
        let names = syms(rows.iter().map(|(k, _)| k.clone()));
        if matches!(types, Some((_, true))) {
            return Ok(names);
        }
        let t: Vec<&str> = rows.iter().map(|(_, t)| *t).collect();
        Ok(dict(names, make::symbols(&t)))
    }
}

/// Containers whose own forward is only their children's (ktorch's `hasforward` false): the
/// module taking the input or giving the output is found among their children.
const PASS_THROUGH: &[&str] = &["sequential", "moduledict", "modulelist", "parmdict"];

fn end_module(m: &Module, first: bool) -> Option<&'static str> {
    if !PASS_THROUGH.contains(&m.layer.name) {
        return Some(m.layer.name);
    }
    let c = if first {
        m.children.first()
    } else {
        m.children.last()
    };
    c.and_then(|(_, c)| end_module(c, first))
}

crate::qfn! {
    /// `inputmodule m`: the type of the module that takes the first input (` when none).
    pub fn inputmodule(m: OnlyModule) -> KResult {
        Ok(make::symbol(end_module(m.0.get(), true).unwrap_or("")))
    }

    /// `outputmodule m`: the type of the module that gives the output (` when none).
    pub fn outputmodule(m: OnlyModule) -> KResult {
        Ok(make::symbol(end_module(m.0.get(), false).unwrap_or("")))
    }
}

crate::qfn! {
    /// `result m`: the form of a module's forward result, in ktorch's words: `tensor`, `tuple`
    /// (rnn, gru: output and hidden state; attention: output and weights), `nested` (lstm: output
    /// and (h;c)); a container's is its output module's.
    pub fn result(r: OnlyModule) -> KResult {
        let m = r.0.get();
        let out = end_module(m, false).unwrap_or(m.layer.name);
        Ok(make::symbol(match out {
            "rnn" | "gru" | "attention" => "tuple",
            "lstm" => "nested",
            _ => "tensor",
        }))
    }
}

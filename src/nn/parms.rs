//! Parameters and names of a module (kmodel.cpp's `nameargs`): `parms m` a dictionary of the
//! parameter tensors (a ktorch dictionary handle whose tensors are the module's own, as ktorch),
//! `parmnames m`, `names m` (all descendant modules), `childnames m` (immediate children); each
//! also as `(m;name)` or `(m;index)` for a child module (index into all descendants).
use anyhow::{bail, Result};

use super::api::{has_module, modref};
use super::Module;
use crate::k::from::{self, FromQ, Whole};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

/// A module (or a model's) and optionally the child it names: `m`, `(m;name)` or `(m;index)`
/// (an index into all descendants).
pub struct ModuleKey {
    h: K,
    key: Option<Result<&'static str, i64>>,
}

impl FromQ for ModuleKey {
    const TYPE: &'static str = "a module, or (module;name or index)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<ModuleKey>> {
        if registry::is_handle(x) {
            return Ok(Some(ModuleKey { h: x, key: None }));
        }
        match from::list(&x) {
            Some([h, k]) if registry::is_handle(*h) => {
                let key = if let Some(s) = <&str>::of(*k) {
                    Ok(s)
                } else if read::ktype(*k) == -7 {
                    Err(Whole::of(*k).map(|w| w.0).unwrap())
                } else {
                    bail!(
                        "expected integer or symbol for 2nd arg, given {}",
                        describe(*k)
                    )
                };
                Ok(Some(ModuleKey {
                    h: *h,
                    key: Some(key),
                }))
            }
            Some(v) if v.first().is_some_and(|h| registry::is_handle(*h)) => {
                bail!(
                    "expected up to two args, (object; index/name), given {} args",
                    v.len()
                )
            }
            _ => bail!("expected a module, not implemented for {}", describe(x)),
        }
    }
}

/// Run `f` on the module (or the child it names).
pub(crate) fn on<R>(x: ModuleKey, f: impl FnOnce(&Module) -> Result<R>) -> Result<R> {
    let ModuleKey { h, key } = x;
    if !has_module(h) {
        match registry::class_of(h) {
            Some(c) => bail!("not implemented for {c}"),
            None => bail!("stale pointer"),
        }
    }
    let r = modref(h)?;
    match key {
        None => f(r.get()),
        Some(k) => f(r.get().find(k)?),
    }
}

fn syms(v: Vec<String>) -> K {
    make::symbols(&v.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `names`' argument: a dictionary (its keys) or a module's (`ModuleKey`).
pub enum NamesOf {
    Dict(K),
    Module(ModuleKey),
}

impl FromQ for NamesOf {
    const TYPE: &'static str = "a dictionary, a module, or (module;name or index)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<NamesOf>> {
        if registry::class_of(x) == Some(registry::Class::Dictionary) {
            return Ok(Some(NamesOf::Dict(x)));
        }
        ModuleKey::read(x).map(|m| m.map(NamesOf::Module))
    }
}

crate::qfn! {
    /// `parms m`: a dictionary of the parameter tensors (the module's own).
    pub fn parms(x: ModuleKey) -> KResult {
        let d = on(x, |m| {
            Ok(m.named_parameters()
                .into_iter()
                .map(|(k, t)| (k, t.shallow_clone()))
                .collect::<Vec<_>>())
        })?;
        Ok(registry::add_as(Obj::Dict(d), "parameter"))
    }

    /// `parmnames m`: the parameters' names.
    pub fn parmnames(x: ModuleKey) -> KResult {
        on(x, |m| {
            Ok(syms(
                m.named_parameters().into_iter().map(|(k, _)| k).collect(),
            ))
        })
    }

    /// `names m`: every descendant module's name; `names d`: a dictionary's keys (ktorch's
    /// `names` of a tensor dictionary).
    pub fn names(x: NamesOf) -> KResult {
        let x = match x {
            NamesOf::Dict(d) => {
                return registry::with(d, |o| {
                    Ok(syms(
                        o.keys()
                            .unwrap_or_default()
                            .into_iter()
                            .map(String::from)
                            .collect(),
                    ))
                })
            }
            NamesOf::Module(x) => x,
        };
        on(x, |m| {
            Ok(syms(
                m.named_modules()
                    .into_iter()
                    .skip(1)
                    .map(|(k, _)| k)
                    .collect(),
            ))
        })
    }

    /// `childnames m`: the immediate children's names.
    pub fn childnames(x: ModuleKey) -> KResult {
        on(x, |m| {
            Ok(syms(m.children.iter().map(|(k, _)| k.clone()).collect()))
        })
    }
}

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

/// Run `f` on the module (or the child it names) of `x`: `m`, `(m;name)` or `(m;index)`.
pub(crate) fn on<R>(x: K, what: &str, f: impl FnOnce(&Module) -> Result<R>) -> Result<R> {
    let (h, key) = if registry::is_handle(x) {
        (x, None)
    } else {
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
                (*h, Some(key))
            }
            Some(v) if v.first().is_some_and(|h| registry::is_handle(*h)) => {
                bail!(
                    "expected up to two args, (object; index/name), given {} args",
                    v.len()
                )
            }
            _ => bail!("expected a module, not implemented for {}", describe(x)),
        }
    };
    if !has_module(h) {
        match registry::class_of(h) {
            Some(c) => bail!("not implemented for {c}"),
            None => bail!("stale pointer"),
        }
    }
    let _ = what;
    let r = modref(h)?;
    match key {
        None => f(r.get()),
        Some(k) => f(r.get().find(k)?),
    }
}

pub fn parms(x: K) -> KResult {
    let d = on(x, "parms", |m| {
        Ok(m.named_parameters()
            .into_iter()
            .map(|(k, t)| (k, t.shallow_clone()))
            .collect::<Vec<_>>())
    })?;
    Ok(registry::add_as(Obj::Dict(d), "parameter"))
}

fn syms(v: Vec<String>) -> K {
    make::symbols(&v.iter().map(String::as_str).collect::<Vec<_>>())
}

pub fn parmnames(x: K) -> KResult {
    on(x, "parmnames", |m| {
        Ok(syms(
            m.named_parameters().into_iter().map(|(k, _)| k).collect(),
        ))
    })
}

pub fn names(x: K) -> KResult {
    // a dictionary's keys (ktorch's `names` of a tensor dictionary)
    if registry::class_of(x) == Some(registry::Class::Dictionary) {
        return registry::with(x, |o| {
            Ok(syms(
                o.keys()
                    .unwrap_or_default()
                    .into_iter()
                    .map(String::from)
                    .collect(),
            ))
        });
    }
    on(x, "names", |m| {
        Ok(syms(
            m.named_modules()
                .into_iter()
                .skip(1)
                .map(|(k, _)| k)
                .collect(),
        ))
    })
}

pub fn childnames(x: K) -> KResult {
    on(x, "childnames", |m| {
        Ok(syms(m.children.iter().map(|(k, _)| k.clone()).collect()))
    })
}

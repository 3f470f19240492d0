//! The q functions for models and weights made in Python (issue 23):
//! `loadscript`/`savescript` (TorchScript modules), `loadaoti` (AOTInductor packages),
//! `loadsafe`/`savesafe` (safetensors files) and `loadpt` (state dicts saved by `torch.save`).
//! Files are given as a symbol (`` `:path `` or `` `path ``) or a string. q's own `load` and
//! `save` are keywords, so the names say what they load.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use crate::k::from::{self, FromQ, Sym};
use crate::k::{make, read, KResult, K};
use crate::nn::layers::{self, Val};
use crate::nn::{api::modref, ModRef, Module};
use crate::registry::{self, Obj};
use crate::tensor::{convert, opargs::describe};

/// A file name: a symbol (its leading colon dropped) or a string, not empty.
pub fn file(x: K) -> Option<String> {
    Sym::of(x)
        .map(|Sym(s)| s.strip_prefix(':').unwrap_or(s).to_string())
        .or_else(|| String::of(x))
        .filter(|s| !s.is_empty())
}

/// A file argument (`file`).
pub struct File(pub String);

impl FromQ for File {
    const TYPE: &'static str = "a file name, a symbol or string";
    fn read(x: K) -> Result<Option<File>> {
        Ok(file(x).map(File))
    }
}

/// `loadscript`'s file, alone (`loadscript file`), or with its device in one symbol list
/// (`` loadscript`:file`cuda ``).
pub struct ScriptFile {
    file: String,
    device: Option<&'static str>,
}

impl FromQ for ScriptFile {
    const TYPE: &'static str = File::TYPE;
    fn read(x: K) -> Result<Option<ScriptFile>> {
        Ok(file(x).map(|file| ScriptFile { file, device: None }))
    }
    /// (`:file;`cuda) is a symbol list
    fn alone(x: K) -> Result<Option<ScriptFile>> {
        Ok(Vec::<&str>::of(x)
            .filter(|v| v.len() == 2)
            .map(|v| ScriptFile {
                file: v[0].strip_prefix(':').unwrap_or(v[0]).to_string(),
                device: Some(v[1]),
            }))
    }
}

fn new_module(layer: &str, opts: Vec<Val>) -> Result<K> {
    let l = layers::find(layer).ok_or_else(|| anyhow!("no layer {layer}"))?;
    let m = Module::new(l, None, opts)?;
    Ok(registry::add(Obj::new(ModRef::new(m))))
}

crate::qfn! {
    /// `loadscript file`, `loadscript(file;device)`: a module of the TorchScript file (written
    /// by `torch.jit.save`), its tensors on the device (default cpu).
    pub fn loadscript(file: ScriptFile, device: Option<Sym>) -> KResult as "file or (file;device)" {
        let dev = device.map(|s| s.0).or(file.device).unwrap_or("cpu");
        new_module("torchscript", vec![Val::Str(file.file), Val::Sym(dev)])
    }

    /// `loadaoti file`: a module of the AOTInductor package (made by
    /// `torch._inductor.aoti_compile_and_package`), for inference on the device it was compiled
    /// for.
    pub fn loadaoti(file: File) -> KResult {
        new_module("aoti", vec![Val::Str(file.0)])
    }

    /// `savescript(module;file)`: write a TorchScript module (or a model's), with its current
    /// parameters and buffers, as `torch.jit.load` reads it. Answers the file name.
    pub fn savescript(module: ModRef, file: File) -> KResult {
        let m = module.get();
        let s = m
            .foreign
            .as_ref()
            .and_then(|f| f.script())
            .ok_or_else(|| anyhow!("module is a {}, not a TorchScript module (savescript writes those loaded by loadscript)", m.layer.name))?;
        s.save(&file.0)?;
        Ok(make::symbol(&format!(":{}", file.0)))
    }
}

/// The named tensors of an object to write (`savesafe`): a tensor ("0"), a vector ("0", "1",
/// ...), a dictionary (its keys), a module or model (its parameters then buffers, PyTorch's
/// names), or a q dictionary of symbols to arrays or tensor handles.
pub struct Named(Vec<(String, Tensor)>);

impl FromQ for Named {
    const TYPE: &'static str = "a tensor, vector, dictionary, module, model or a q dictionary";
    /// Every value is read (or is an error).
    fn read(x: K) -> Result<Option<Named>> {
        named(x).map(|v| Some(Named(v)))
    }
}

/// The named tensors of an object to write: a tensor ("0"), a vector ("0", "1", ...), a
/// dictionary (its keys), a module or model (its parameters then buffers, PyTorch's names), or a
/// q dictionary of symbols to arrays or tensor handles.
fn named(x: K) -> Result<Vec<(String, Tensor)>> {
    if let Some(c) = registry::class_of(x) {
        return registry::with(x, |o| {
            Ok(match o {
                Obj::Tensor(t) => vec![("0".to_string(), t.shallow_clone())],
                Obj::Vector(v) => v
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (i.to_string(), t.shallow_clone()))
                    .collect(),
                Obj::Dict(d) => d
                    .iter()
                    .map(|(k, t)| (k.clone(), t.shallow_clone()))
                    .collect(),
                o if o.part::<ModRef>().is_some() => vec![],
                _ => bail!("expected a tensor, vector, dictionary, module or model, given {c}"),
            })
        })
        .and_then(|v| {
            if matches!(c, registry::Class::Module | registry::Class::Model) {
                Ok(state(modref(x)?.get()))
            } else {
                Ok(v)
            }
        });
    }
    if registry::is_handle(x) {
        bail!("stale pointer");
    }
    let (k, v) = read::dict_parts(x).ok_or_else(|| {
        anyhow!(
            "expected a tensor, vector, dictionary, module, model or a q dictionary, given {}",
            describe(x)
        )
    })?;
    let keys = Vec::<&str>::of(k).ok_or_else(|| anyhow!("q dictionary keys must be symbols"))?;
    let n = keys.len();
    let vals: Vec<K> = match from::list(&v) {
        Some(items) => items.to_vec(),
        _ => bail!("q dictionary values must be a general list of arrays or tensors (one per key)"),
    };
    if vals.len() != n {
        bail!("q dictionary has {n} keys and {} values", vals.len());
    }
    keys.iter()
        .zip(vals)
        .map(|(k, v)| {
            let t = match registry::class_of(v) {
                Some(registry::Class::Tensor) => registry::tensor(v)?,
                Some(c) => bail!("`{k}: expected an array or tensor, given {c}"),
                None if registry::is_handle(v) => bail!("`{k}: stale pointer"),
                None => convert::to_tensor(v).map_err(|e| anyhow!("`{k}: {e}"))?,
            };
            Ok((k.to_string(), t))
        })
        .collect()
}

/// A module's (or model's) parameters then buffers with PyTorch's names.
fn state(m: &Module) -> Vec<(String, Tensor)> {
    m.named_parameters()
        .into_iter()
        .chain(m.named_buffers())
        .map(|(k, t)| (k, t.shallow_clone()))
        .collect()
}

/// Copy named tensors from `file` into the parameters and buffers of a module (or model): the
/// names must match both ways and every shape must agree (checked before anything changes);
/// values are converted to each tensor's type and device, as `load_state_dict` does.
fn into_module(h: &ModRef, file: &str, from: Vec<(String, Tensor)>) -> Result<()> {
    let mine = state(h.get());
    let has = |n: &str, v: &[(String, Tensor)]| v.iter().any(|(k, _)| k == n);
    let missing: Vec<&str> = mine
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !has(k, &from))
        .collect();
    let extra: Vec<&str> = from
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !has(k, &mine))
        .collect();
    if !missing.is_empty() || !extra.is_empty() {
        let list = |v: &[&str]| {
            v.iter()
                .take(8)
                .map(|s| format!("`{s}"))
                .collect::<String>()
                + if v.len() > 8 { " .." } else { "" }
        };
        let mut why = vec![];
        if !missing.is_empty() {
            why.push(format!("missing from the file: {}", list(&missing)));
        }
        if !extra.is_empty() {
            why.push(format!(
                "not in the {}: {}",
                h.get().layer.name,
                list(&extra)
            ));
        }
        bail!(
            "{file}: names do not match the module's ({})",
            why.join("; ")
        );
    }
    let mut pairs = vec![];
    for (k, t) in &mine {
        let (_, s) = from.iter().find(|(n, _)| n == k).unwrap();
        if s.size() != t.size() {
            let q = |v: Vec<i64>| {
                v.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            bail!(
                "{file}: `{k} has shape {} in the file, {} in the module",
                q(s.size()),
                q(t.size())
            );
        }
        pairs.push((t.shallow_clone(), s));
    }
    tch::no_grad(|| -> Result<()> {
        for (mut t, s) in pairs {
            t.f_copy_(s)?;
        }
        Ok(())
    })
}

/// Where `loadsafe` and `loadpt` read a file: into a new dictionary (`f file`) or into a module
/// or model (`f(module;file)`).
pub enum Load {
    Dict(String),
    Into(ModRef, String),
}

const LOAD_USAGE: &str = "file or (module;file)";

impl FromQ for Load {
    const TYPE: &'static str = LOAD_USAGE;
    fn read(x: K) -> Result<Option<Load>> {
        let need = |x: K| -> Result<String> {
            file(x).ok_or_else(|| {
                anyhow!(
                    "expected {LOAD_USAGE}, file name a symbol or string, given {}",
                    describe(x)
                )
            })
        };
        Ok(Some(match from::list(&x) {
            None => Load::Dict(need(x)?),
            Some([f]) => Load::Dict(need(*f)?),
            Some([m, f]) => {
                let f = need(*f)?;
                Load::Into(ModRef::from_q(*m, "module")?, f)
            }
            Some(_) => bail!("expected {LOAD_USAGE}"),
        }))
    }
}

/// Read a file into a dictionary handle, or into a module or model.
fn load_with(to: Load, read: fn(&str) -> Result<Vec<(String, Tensor)>>) -> KResult {
    match to {
        Load::Dict(f) => Ok(registry::add(Obj::Dict(read(&f)?))),
        Load::Into(m, f) => {
            let t = read(&f)?;
            into_module(&m, &f, t)?;
            Ok(make::null())
        }
    }
}

crate::qfn! {
    /// `loadsafe file`: a dictionary of the tensors of a safetensors file;
    /// `loadsafe(module;file)`: the file's tensors into a module's or model's parameters and
    /// buffers, by PyTorch's names.
    pub fn loadsafe(to: Load) -> KResult {
        load_with(to, super::safetensors::read)
    }

    /// `savesafe(x;file)`: write a tensor, vector, dictionary, module or model (its state with
    /// PyTorch's names) or a q dictionary of arrays as a safetensors file. Answers the file
    /// name.
    pub fn savesafe(object: Named, file: File) -> KResult as "(object;file)" {
        super::safetensors::write(&file.0, &object.0)?;
        Ok(make::symbol(&format!(":{}", file.0)))
    }

    /// `loadpt file`: a dictionary of the tensors of a state dict saved by `torch.save`;
    /// `loadpt(module;file)`: into a module's or model's parameters and buffers. Reads only
    /// tensors: a file whose pickle names anything else (code) is refused.
    pub fn loadpt(to: Load) -> KResult {
        load_with(to, super::statedict::read)
    }
}

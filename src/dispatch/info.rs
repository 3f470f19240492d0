//! The information q functions that also take a module (or a model, for its module): `str` (its
//! PyTorch-like description), `ptr`, `ref`, `dtype`, `device`, `ktype`, `gradflag` (each
//! parameter's, by name), and `parmtypes`, which also takes an optimizer. Tensors, vectors and dictionaries are tensor/info's.
use anyhow::Result;

use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::tensor::info::{attrs, flags, pointers, summary};
use crate::tensor::options;
use crate::{nn, optim};

/// The module of a module or model handle: `device` and `dtype` answer for its parameters, as
/// ktorch does (the first parameter's or buffer's; cpu and the default type when none).
fn module_of(x: K) -> Result<Option<nn::ModRef>> {
    match registry::class_of(x) {
        Some(registry::Class::Module | registry::Class::Model) => Ok(Some(nn::api::modref(x)?)),
        _ => Ok(None),
    }
}

/// `str h`: a module's PyTorch-like description (`nn::show`), or a tensor's printed form.
pub fn str(x: K) -> KResult {
    if nn::api::is_module(x) {
        let m = nn::api::modref(x)?;
        return Ok(make::string(&nn::show::describe(m.get())));
    }
    summary::str::q(x)
}

pub fn ptr(x: K) -> KResult {
    if nn::api::is_module(x) {
        return Ok(make::long(nn::api::modref(x)?.address()));
    }
    pointers::ptr::q(x)
}

pub fn ref_(x: K) -> KResult {
    // a module: the handles sharing its tree, not counting the one `modref` makes here
    if nn::api::is_module(x) {
        return Ok(make::long(nn::api::modref(x)?.count() - 1));
    }
    pointers::ref_::q(x)
}

/// `dtype m`: each parameter's data type by name; other forms are tensor/info's.
pub fn dtype(x: K) -> KResult {
    if !read::is_nil(x) {
        // a module: each parameter's data type by name (ktorch.cpp's `moduleattr`)
        if let Some(m) = module_of(x)? {
            let p = m.get().named_parameters();
            let keys: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
            let v = p
                .iter()
                .map(|(_, t)| attrs::dtype_of(t))
                .collect::<Result<Vec<_>>>()?;
            let v: Vec<&str> = v.iter().map(String::as_str).collect();
            return Ok(make::dict_of(make::symbols(&keys), make::symbols(&v)));
        }
    }
    attrs::dtype::q(x)
}

/// `device m`: the device of a module's parameters; other forms are tensor/info's.
pub fn device(x: K) -> KResult {
    if !read::is_nil(x) {
        if let Some(m) = module_of(x)? {
            return Ok(make::symbol(&options::device_name(m.get().device())));
        }
    }
    attrs::device::q(x)
}

pub fn ktype(x: K) -> KResult {
    // a module: each parameter's k type by name, as `dtype`
    if let Some(m) = module_of(x)? {
        let p = m.get().named_parameters();
        let keys: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
        let v = p
            .iter()
            .map(|(_, t)| attrs::ktype_of(t))
            .collect::<Result<Vec<_>>>()?;
        return Ok(make::dict_of(make::symbols(&keys), make::chars(&v)));
    }
    attrs::ktype::q(x)
}

pub fn gradflag(x: K) -> KResult {
    // a module's (or model's) parameters: names to flags (ktorch's freeze.rst)
    if matches!(
        registry::class_of(x),
        Some(registry::Class::Module) | Some(registry::Class::Model)
    ) {
        let m = nn::api::modref(x)?;
        let p = m.get().named_parameters();
        let keys: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
        let flags: Vec<bool> = p.iter().map(|(_, t)| t.requires_grad()).collect();
        return Ok(make::dict_of(make::symbols(&keys), make::booleans(&flags)));
    }
    flags::gradflag::q(x)
}

/// `parmtypes o` of an optimizer: the module type and name it keeps for each parameter; of a
/// module or model: nn/attrs.rs.
pub fn parmtypes(x: K) -> KResult {
    if registry::class_of(x) == Some(registry::Class::Optimizer) {
        let (k, v): (Vec<String>, Vec<String>) =
            registry::with(x, |o| match o.get::<optim::Optimizer>() {
                Some(z) => Ok(z
                    .groups
                    .iter()
                    .flat_map(|g| g.parms.iter().map(|p| (p.name.clone(), p.module.clone())))
                    .unzip()),
                None => unreachable!(),
            })?;
        return Ok(nn::attrs::dict(
            nn::attrs::syms(k.into_iter()),
            make::symbols(&v.iter().map(String::as_str).collect::<Vec<_>>()),
        ));
    }
    nn::attrs::parmtypes(x)
}

//! The information q functions that also take a module (or a model, for its module): `str` (its
//! PyTorch-like description), `ptr`, `ref`, `dtype`, `device`, `ktype`, `gradflag` (each
//! parameter's, by name), and `parmtypes`, which also takes an optimizer. Tensors, vectors and
//! dictionaries are tensor/info's: each function's kind ([`Routed`]) names the classes answered
//! here and hands the rest to tensor/info's typed function.
use anyhow::Result;

use super::route::{classes, Classes, Given, Object, Routed, MODULES, TENSORS};
use crate::k::{make, KResult};
use crate::registry::{self, Class};
use crate::tensor::info::attrs::{self, DeviceArg, DtypeArg};
use crate::tensor::info::flags::{self, GradFlag};
use crate::tensor::info::{pointers, summary, Held, TensorHandle};
use crate::tensor::options;
use crate::{nn, optim};

/// A module alone (`str`, `ptr`, `ref` take no model, as ktorch).
const MODULE: Classes = classes(&[Class::Module]);
/// An optimizer (`parmtypes`).
const OPTIMIZER: Classes = classes(&[Class::Optimizer]);

/// The module of a module or model handle: `device`, `dtype`, `ktype` and `gradflag` answer for
/// its parameters, as ktorch does.
fn module_of(o: Object) -> Result<nn::ModRef> {
    nn::api::modref(o.k)
}

/// Each parameter of a module by name, with `f` of it: ktorch.cpp's `moduleattr`.
fn by_parameter<T>(
    o: Object,
    f: impl Fn(&tch::Tensor) -> Result<T>,
) -> Result<(crate::k::K, Vec<T>)> {
    let m = module_of(o)?;
    let p = m.get().named_parameters();
    let keys: Vec<&str> = p.iter().map(|(k, _)| k.as_str()).collect();
    let v = p.iter().map(|(_, t)| f(t)).collect::<Result<Vec<_>>>()?;
    Ok((make::symbols(&keys), v))
}

crate::qfn! {
    /// `str m`: a module's PyTorch-like description (`nn::show`), or a tensor's printed form.
    pub fn str(x: Routed<MODULE, { classes(&[Class::Tensor]) }, TensorHandle>) -> KResult {
        match x {
            Routed::Here(m) => Ok(make::string(&nn::show::describe(module_of(m)?.get()))),
            Routed::There(t) => summary::str(t),
        }
    }

    /// `ptr m`: the address of a module; of tensors, tensor/info's.
    pub fn ptr(x: Routed<MODULE, TENSORS, Held<false>>) -> KResult {
        match x {
            Routed::Here(m) => Ok(make::long(module_of(m)?.address())),
            Routed::There(h) => pointers::ptr(h),
        }
    }

    /// `ref m`: the handles sharing a module's tree, not counting the one `modref` makes here.
    pub fn ref_(x: Routed<MODULE, TENSORS, Held<false>>) -> KResult {
        match x {
            Routed::Here(m) => Ok(make::long(module_of(m)?.count() - 1)),
            Routed::There(h) => pointers::ref_(h),
        }
    }

    /// `dtype m`: each parameter's data type by name; other forms are tensor/info's.
    pub fn dtype(x: Routed<MODULES, TENSORS, DtypeArg>) -> KResult {
        match x {
            Routed::Here(m) => {
                let (k, v) = by_parameter(m, attrs::dtype_of)?;
                let v: Vec<&str> = v.iter().map(String::as_str).collect();
                Ok(make::dict_of(k, make::symbols(&v)))
            }
            Routed::There(a) => attrs::dtype(a),
        }
    }

    /// `device m`: the device of a module's parameters (the first's; cpu when none); other forms
    /// are tensor/info's.
    pub fn device(x: Routed<MODULES, TENSORS, DeviceArg>) -> KResult {
        match x {
            Routed::Here(m) => Ok(make::symbol(&options::device_name(module_of(m)?.get().device()))),
            Routed::There(a) => attrs::device(a),
        }
    }

    /// `ktype m`: each parameter's k type by name, as `dtype`.
    pub fn ktype(x: Routed<MODULES, TENSORS, Held<true>>) -> KResult {
        match x {
            Routed::Here(m) => {
                let (k, v) = by_parameter(m, attrs::ktype_of)?;
                Ok(make::dict_of(k, make::chars(&v)))
            }
            Routed::There(h) => attrs::ktype(h),
        }
    }

    /// `gradflag m`: a module's (or model's) parameters, names to flags (ktorch's freeze.rst);
    /// other forms are tensor/info's.
    pub fn gradflag(x: Routed<MODULES, TENSORS, GradFlag>) -> KResult {
        match x {
            Routed::Here(m) => {
                let (k, v) = by_parameter(m, |t| Ok(t.requires_grad()))?;
                Ok(make::dict_of(k, make::booleans(&v)))
            }
            Routed::There(a) => flags::gradflag(a),
        }
    }

    /// `parmtypes o` of an optimizer: the module type and name it keeps for each parameter; of a
    /// module or model: nn/attrs.rs.
    pub fn parmtypes(x: Routed<OPTIMIZER, MODULES, Given>) -> KResult {
        match x {
            Routed::Here(o) => {
                let (k, v): (Vec<String>, Vec<String>) = registry::with(o.k, |o| {
                    let z = optim::api::optimizer(o)?;
                    Ok(z.groups
                        .iter()
                        .flat_map(|g| g.parms.iter().map(|p| (p.name.clone(), p.module.clone())))
                        .unzip())
                })?;
                Ok(nn::attrs::dict(
                    nn::attrs::syms(k.into_iter()),
                    make::symbols(&v.iter().map(String::as_str).collect::<Vec<_>>()),
                ))
            }
            Routed::There(x) => nn::attrs::parmtypes(x.0),
        }
    }
}

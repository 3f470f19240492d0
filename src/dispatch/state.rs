//! `state` of a module, an optimizer or a model, and `module` and `opt`, which also take a model
//! (a handle sharing its module, an optimizer on its tensors) and an optimizer (its container
//! module); their other forms are nn/api.rs's and optim/api.rs's.
use anyhow::{anyhow, Result};

use super::route::{classes, expect, Classes, Given, Routed};
use crate::k::from::{self, FromQ};
use crate::k::{KResult, K};
use crate::model::ModelArg;
use crate::nn::api::{is_module, modref};
use crate::nn::ModRef;
use crate::optim::api::{Opt, OptCall};
use crate::registry::{self, Class, Obj};
use crate::session::setting::alloptions;
use crate::tensor::opargs::describe;
use crate::{model, nn, optim};

/// A module, an optimizer or a model.
const OBJECTS: Classes = classes(&[Class::Module, Class::Optimizer, Class::Model]);

/// `state`'s forms: an optimizer or a module alone or with a flag (show all options, else those
/// not at their defaults: the setting `alloptions` when none is given), or a model.
pub enum Stated {
    Opt(Opt, bool),
    Module(ModRef, bool),
    Model(ModelArg),
}

impl FromQ for Stated {
    const TYPE: &'static str = "a module, optimizer or model, or (module;flag)";
    fn read(x: K) -> Result<Option<Stated>> {
        if let Some(o) = Opt::of(x) {
            return Ok(Some(Stated::Opt(o, alloptions())));
        }
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(Stated::Model(m)));
        }
        if is_module(x) {
            return Ok(Some(Stated::Module(modref(x)?, alloptions())));
        }
        if let Some([h, f]) = from::list(&x) {
            if let Some(f) = bool::of(*f) {
                if let Some(o) = Opt::of(*h) {
                    return Ok(Some(Stated::Opt(o, f)));
                }
                if is_module(*h) {
                    return Ok(Some(Stated::Module(modref(*h)?, f)));
                }
            }
        }
        expect(x, OBJECTS)?;
        Ok(None)
    }
    /// ktorch's words.
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected a module, or (module;flag), given {}", describe(x))
    }
}

/// `module`'s argument: a model or an optimizer (answered here), or nn/api.rs's forms (a module,
/// a definition, a module to add to).
pub enum Moduled {
    Model(ModelArg),
    Opt(Opt),
    Module(Given),
}

impl FromQ for Moduled {
    const TYPE: &'static str = "a module, optimizer or model, or a module's definition";
    fn read(x: K) -> Result<Option<Moduled>> {
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(Moduled::Model(m)));
        }
        if let Some(o) = Opt::of(x) {
            return Ok(Some(Moduled::Opt(o)));
        }
        expect(x, OBJECTS)?;
        Ok(Some(Moduled::Module(Given(x))))
    }
}

crate::qfn! {
    /// `state m`, `state(m;flag)`: the definition with each module's parameters and buffers (of
    /// an optimizer, each parameter's buffers; of a model, its parts').
    pub fn state(x: Stated) -> KResult {
        match x {
            Stated::Opt(o, all) => optim::api::state(o, all),
            Stated::Module(m, all) => nn::api::definition(m.get(), all, true),
            Stated::Model(m) => model::api::state(m.0, alloptions()),
        }
    }

    /// `module m` of a model: a handle sharing its module (ktorch's); `module o` of an
    /// optimizer: its container, the modules and tensors its parameters came from; every other
    /// form is the module's (nn/api.rs).
    pub fn module(x: Moduled) -> KResult {
        match x {
            Moduled::Model(m) => Ok(registry::add(Obj::new(modref(m.0)?))),
            Moduled::Opt(o) => Ok(registry::add(Obj::new(ModRef::new(optim::api::container(o)?)))),
            Moduled::Module(x) => nn::api::module(x.0),
        }
    }

    /// `opt m` of a model: an optimizer on the same tensors as the model's
    /// (Optimizer::shared_copy, ktorch's); every other form is the optimizer's (optim/api.rs).
    pub fn opt(x: Routed<{ classes(&[Class::Model]) }, { classes(&[Class::Optimizer]) }, OptCall>) -> KResult {
        match x {
            Routed::Here(m) => {
                let o = registry::with(m.k, |o| Ok(model::of(o)?.opt.shared_copy()))?;
                Ok(registry::add(Obj::new(o)))
            }
            Routed::There(c) => optim::api::opt(c),
        }
    }
}

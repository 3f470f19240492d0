//! `state` of a module, an optimizer or a model, and `module`, which also takes a model (a handle
//! sharing its module).
use anyhow::bail;

use crate::k::from::{self, FromQ};
use crate::k::{KResult, K};
use crate::registry::{self, Obj};
use crate::session::setting::alloptions;
use crate::tensor::opargs::describe;
use crate::{model, nn, optim};

/// `module m` of a model: a handle sharing its module (ktorch's); `module o` of an optimizer: its
/// container module; every other form is the module's (nn/api.rs).
pub fn module(x: K) -> KResult {
    if model::is_model(x) {
        return Ok(registry::add(Obj::new(nn::api::modref(x)?)));
    }
    // `module o`: an optimizer's container, the modules and tensors its parameters came from
    if let Some(o) = optim::api::Opt::of(x) {
        return Ok(registry::add(Obj::new(nn::ModRef::new(
            optim::api::container(o)?,
        ))));
    }
    nn::api::module(x)
}

/// `opt m` of a model: an optimizer on the same tensors as the model's (Optimizer::shared_copy,
/// ktorch's); every other form is the optimizer's (optim/api.rs).
pub fn opt(x: K) -> KResult {
    if model::is_model(x) {
        let o = registry::with(x, |o| {
            Ok(o.get::<model::Model>().map(|m| m.opt.shared_copy()))
        })?;
        if let Some(o) = o {
            return Ok(registry::add(Obj::new(o)));
        }
    }
    optim::api::opt::q(x)
}

/// `state m`, `state(m;flag)`: the definition with each module's parameters and buffers.
pub fn state(x: K) -> KResult {
    if let Some(o) = optim::api::Opt::of(x) {
        return optim::api::state(o, alloptions());
    }
    if model::is_model(x) {
        return model::api::state(x, alloptions());
    }
    if let Some([o, f]) = from::list(&x) {
        if let (Some(o), Some(f)) = (optim::api::Opt::of(*o), bool::of(*f)) {
            return optim::api::state(o, f);
        }
    }
    match from::list(&x) {
        _ if nn::api::is_module(x) => {
            nn::api::definition(nn::api::modref(x)?.get(), alloptions(), true)
        }
        Some([m, f]) if nn::api::is_module(*m) && bool::of(*f).is_some() => {
            let f = bool::of(*f).unwrap_or_default();
            nn::api::definition(nn::api::modref(*m)?.get(), f, true)
        }
        _ => bail!("expected a module, or (module;flag), given {}", describe(x)),
    }
}

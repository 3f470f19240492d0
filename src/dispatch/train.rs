//! Training steps that take a tensor, an optimizer or a model: `backward` (a tensor's gradients,
//! or a model's forward, loss and backward) and `step` (an optimizer's update, or a model's).
use anyhow::Result;

use super::route::{classes, expect, Routed};
use crate::k::from::FromQ;
use crate::k::{KResult, K};
use crate::model::{steps::StepCall, ModelArg};
use crate::optim::api::Opt;
use crate::registry::Class;
use crate::tensor::autograd::Backward;
use crate::{model, optim, tensor};

/// `backward`'s argument: a model's forms (model/steps.rs) or a tensor's (tensor/autograd.rs).
pub enum Backwards {
    Model(StepCall),
    Tensor(Backward),
}

impl FromQ for Backwards {
    const TYPE: &'static str = "a tensor or model";
    fn read(x: K) -> Result<Option<Backwards>> {
        if let Some(m) = StepCall::read(x)? {
            return Ok(Some(Backwards::Model(m)));
        }
        expect(x, classes(&[Class::Tensor, Class::Model]))?;
        Ok(Backward::read(x)?.map(Backwards::Tensor))
    }
}

crate::qfn! {
    /// `backward m`, `backward(m;x;y)`: a model's step without the update; `backward t` and its
    /// forms: a tensor's gradients.
    pub fn backward(x: Backwards) -> KResult {
        match x {
            Backwards::Model(m) => model::steps::backward(m),
            Backwards::Tensor(t) => tensor::autograd::backward(t),
        }
    }

    /// `step m` a model's update, `step o` an optimizer's.
    pub fn step(x: Routed<{ classes(&[Class::Model]) }, { classes(&[Class::Optimizer]) }, Opt>) -> Result<()> {
        match x {
            Routed::Here(m) => model::steps::step(ModelArg(m.k)),
            Routed::There(o) => optim::api::step(o),
        }
    }
}

//! Training steps that take a tensor, an optimizer or a model: `backward` (a tensor's gradients,
//! or a model's forward, loss and backward) and `step` (an optimizer's update, or a model's).
use crate::k::{KResult, K};
use crate::{model, optim, tensor};

pub fn backward(x: K) -> KResult {
    if model::steps::is_model_call(x) {
        return model::steps::backward::q(x);
    }
    tensor::autograd::backward::q(x)
}

pub fn step(x: K) -> KResult {
    if model::is_model(x) {
        return model::steps::step::q(x);
    }
    optim::api::step::q(x)
}

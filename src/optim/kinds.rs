//! The optimizer table: ktorch's names, PyTorch's classes, option names in positional order with
//! their defaults (kopt.cpp), and each one's step.
use anyhow::Result;
use tch::Tensor;

use super::Optimizer;
use crate::nn::layers::{flag, float, Opt};

pub struct Kind {
    pub name: &'static str,
    pub pytorch: &'static str,
    pub opts: &'static [Opt],
    pub step: fn(&mut Optimizer) -> Result<()>,
    /// A step that re-evaluates the loss through a closure (LBFGS); None: `step` after one
    /// call of the closure.
    pub closure: Option<Closure>,
}

/// A step given a closure that zeroes gradients, runs forward, loss and backward, and answers
/// the loss; the step answers the loss of its first evaluation (as torch.optim does).
pub type Closure = fn(&mut Optimizer, &mut dyn FnMut() -> Result<Tensor>) -> Result<Tensor>;

pub static KINDS: &[Kind] = &[
    Kind {
        name: "adagrad",
        pytorch: "torch.optim.Adagrad",
        opts: &[float("lr", 0.01), float("lrdecay", 0.0), float("decay", 0.0), float("init", 0.0), float("eps", 1e-10)],
        step: super::adagrad::step,
        closure: None,
    },
    Kind {
        name: "adam",
        pytorch: "torch.optim.Adam",
        opts: &[float("lr", 0.001), float("beta1", 0.9), float("beta2", 0.999), float("eps", 1e-8), float("decay", 0.0), flag("amsgrad", false)],
        step: super::adam::adam,
        closure: None,
    },
    Kind {
        name: "adamw",
        pytorch: "torch.optim.AdamW",
        opts: &[float("lr", 0.001), float("beta1", 0.9), float("beta2", 0.999), float("eps", 1e-8), float("decay", 0.01), flag("amsgrad", false)],
        step: super::adam::adamw,
        closure: None,
    },
    Kind {
        name: "lamb",
        pytorch: "",
        opts: &[
            float("lr", 0.001),
            float("beta1", 0.9),
            float("beta2", 0.999),
            float("eps", 1e-8),
            float("decay", 0.0),
            flag("unbiased", true),
            flag("globalnorm", true),
            flag("trustclip", true),
            float("trustmin", 0.0),
            float("trustmax", 1.0),
        ],
        step: super::lamb::step,
        closure: None,
    },
    Kind {
        name: "rmsprop",
        pytorch: "torch.optim.RMSprop",
        opts: &[float("lr", 0.01), float("alpha", 0.99), float("eps", 1e-8), float("decay", 0.0), float("momentum", 0.0), flag("centered", false)],
        step: super::rmsprop::step,
        closure: None,
    },
    Kind {
        name: "sgd",
        pytorch: "torch.optim.SGD",
        opts: &[float("lr", 0.01), float("momentum", 0.0), float("dampening", 0.0), float("decay", 0.0), flag("nesterov", false)],
        step: super::sgd::step,
        closure: None,
    },
];

pub fn find(name: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.name == name)
}

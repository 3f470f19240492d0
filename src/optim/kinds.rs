//! The optimizer table: ktorch's names, PyTorch's classes, option names in positional order with
//! their defaults (kopt.cpp), and each one's step.
use anyhow::Result;
use tch::Tensor;

use super::{Optimizer, Settings};
use crate::nn::layers::{flag, float, long_null, long_or, opt, Def, Opt, Ty};

pub struct Kind {
    pub name: &'static str,
    pub pytorch: &'static str,
    pub opts: &'static [Opt],
    pub step: fn(&mut Optimizer) -> Result<()>,
    /// A step that re-evaluates the loss through a closure (LBFGS); None: `step` after one
    /// call of the closure.
    pub closure: Option<Closure>,
    /// Checks a group's options as `opt` sets them, given the group's number (LBFGS: one group,
    /// sizes that make sense); None: any values of the right types.
    pub check: Option<fn(usize, &Settings) -> Result<()>>,
}

impl Kind {
    /// Every option's default, in positional order.
    pub fn defaults(&self) -> Vec<crate::nn::Val> {
        self.opts
            .iter()
            .map(|o| {
                o.default
                    .val(o.ty)
                    .expect("optimizer options all have defaults")
            })
            .collect()
    }
}

/// A step given a closure that zeroes gradients, runs forward, loss and backward, and answers
/// the loss; the step answers the loss of its first evaluation (as torch.optim does).
pub type Closure = fn(&mut Optimizer, &mut dyn FnMut() -> Result<Tensor>) -> Result<Tensor>;

pub static KINDS: &[Kind] = &[
    Kind {
        name: "adagrad",
        pytorch: "torch.optim.Adagrad",
        opts: &[
            float("lr", 0.01),
            float("lrdecay", 0.0),
            float("decay", 0.0),
            float("init", 0.0),
            float("eps", 1e-10),
        ],
        step: super::adagrad::step,
        closure: None,
        check: None,
    },
    Kind {
        name: "adam",
        pytorch: "torch.optim.Adam",
        opts: &[
            float("lr", 0.001),
            float("beta1", 0.9),
            float("beta2", 0.999),
            float("eps", 1e-8),
            float("decay", 0.0),
            flag("amsgrad", false),
        ],
        step: super::adam::adam,
        closure: None,
        check: None,
    },
    Kind {
        name: "adamw",
        pytorch: "torch.optim.AdamW",
        opts: &[
            float("lr", 0.001),
            float("beta1", 0.9),
            float("beta2", 0.999),
            float("eps", 1e-8),
            float("decay", 0.01),
            flag("amsgrad", false),
        ],
        step: super::adam::adamw,
        closure: None,
        check: None,
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
        check: None,
    },
    Kind {
        name: "lbfgs",
        pytorch: "torch.optim.LBFGS",
        opts: &[
            float("lr", 1.0),
            long_or("iter", 20),
            long_null("eval"),
            float("gradtol", 1e-7),
            float("changetol", 1e-9),
            long_or("history", 100),
            opt("search", Ty::Sym(&["strong_wolfe"]), Def::Null),
        ],
        step: super::lbfgs::step,
        closure: Some(super::lbfgs::closure),
        check: Some(super::lbfgs::check),
    },
    Kind {
        name: "rmsprop",
        pytorch: "torch.optim.RMSprop",
        opts: &[
            float("lr", 0.01),
            float("alpha", 0.99),
            float("eps", 1e-8),
            float("decay", 0.0),
            float("momentum", 0.0),
            flag("centered", false),
        ],
        step: super::rmsprop::step,
        closure: None,
        check: None,
    },
    Kind {
        name: "sgd",
        pytorch: "torch.optim.SGD",
        opts: &[
            float("lr", 0.01),
            float("momentum", 0.0),
            float("dampening", 0.0),
            float("decay", 0.0),
            flag("nesterov", false),
        ],
        step: super::sgd::step,
        closure: None,
        check: None,
    },
];

pub fn find(name: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.name == name)
}

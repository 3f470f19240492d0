//! The forward q functions, of a module or a model (its inputs: training data for the
//! training-mode forms, test data for the evaluation forms): `forward`, `nforward`, `eforward`,
//! `evaluate`, `kforward`. Each reads its call as a [`Forward`] of its mode: model/api.rs's
//! `prepare_forward` reads a model's, nn/forward.rs a module's `(m;x..)` or `(m;`child;x..)`.
use std::marker::PhantomData;

use anyhow::Result;

use crate::k::from::{self, FromQ};
use crate::k::{KResult, K};
use crate::model::api::prepare_forward;
use crate::nn::forward::Mode as Way;
use crate::nn::forward::{handle, qdata, Call, EFORWARD, FORWARD, KFORWARD, NFORWARD};
use crate::registry;
use crate::tensor::table::is_table;

/// The mode a forward function runs in, as a type (`Forward<Eval>`).
pub trait Mode {
    const MODE: Way;
}

/// `forward`: training mode with gradients.
pub struct Train;
/// `nforward`: training mode without gradients.
pub struct NoGrad;
/// `eforward`, `evaluate`: evaluation mode without gradients.
pub struct Eval;
/// `kforward`: the mode of the callback it is called in.
pub struct Callback;

impl Mode for Train {
    const MODE: Way = FORWARD;
}
impl Mode for NoGrad {
    const MODE: Way = NFORWARD;
}
impl Mode for Eval {
    const MODE: Way = EFORWARD;
}
impl Mode for Callback {
    const MODE: Way = KFORWARD;
}

/// A forward call of a model or module, its inputs read as tensors, to run in mode `M`.
pub struct Forward<M: Mode>(Call, PhantomData<M>);

impl<M: Mode> FromQ for Forward<M> {
    const TYPE: &'static str = "a model, or a module and inputs";
    /// Every value is a call or an error (`requires a module and at least one input`).
    fn read(x: K) -> Result<Option<Self>> {
        Ok(Some(Forward(prepare_forward(x, M::MODE)?, PhantomData)))
    }
}

/// `evaluate`'s argument: `(model;table)` (model/score.rs), or a forward call.
pub enum Evaluated {
    Table(K, K),
    Call(Forward<Eval>),
}

impl FromQ for Evaluated {
    const TYPE: &'static str = "(model;table), a model, or a module and inputs";
    fn read(x: K) -> Result<Option<Evaluated>> {
        if let Some([h, t]) = from::list(&x) {
            if is_table(*t) && registry::is_handle(*h) {
                return Ok(Some(Evaluated::Table(*h, *t)));
            }
        }
        Ok(Forward::read(x)?.map(Evaluated::Call))
    }
}

crate::qfn! {
    /// `forward m`, `forward(m;x..)`: training mode with gradients; a tensor (a vector for
    /// several outputs).
    pub fn forward(x: Forward<Train>) -> KResult {
        Ok(handle(x.0.run()?))
    }

    pub fn nforward(x: Forward<NoGrad>) -> KResult {
        Ok(handle(x.0.run()?))
    }

    pub fn eforward(x: Forward<Eval>) -> KResult {
        Ok(handle(x.0.run()?))
    }

    /// As `eforward`, answering q data; a table: its feature columns in, a table of the named
    /// output back (model/score.rs).
    pub fn evaluate(x: Evaluated) -> KResult {
        match x {
            Evaluated::Table(h, t) => crate::model::score::evaluate(h, t),
            Evaluated::Call(c) => qdata(c.0.run()?),
        }
    }

    /// For use inside a callback: the training mode and gradients of the call it is in (outside
    /// one, the module's own flag and the current gradient mode).
    pub fn kforward(x: Forward<Callback>) -> KResult {
        Ok(handle(x.0.run()?))
    }
}

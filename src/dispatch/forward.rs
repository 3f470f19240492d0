//! The forward q functions, of a module or a model (its inputs: training data for the
//! training-mode forms, test data for the evaluation forms): `forward`, `nforward`, `eforward`,
//! `evaluate`, `kforward` (nn/forward.rs reads and runs a module's call).
use anyhow::Result;

use crate::k::{KResult, K};
use crate::model::api::prepare_forward;
use crate::nn::forward::{handle, qdata, Mode, EFORWARD, FORWARD, KFORWARD, NFORWARD};
use crate::nn::Out;

/// Run the module of `x[0]` (or its child named by `x[1]`) on the inputs that follow, or a
/// model's module on its data.
fn run(x: K, mode: Mode) -> Result<Out> {
    prepare_forward(x, mode)?.run()
}

pub fn forward(x: K) -> KResult {
    Ok(handle(run(x, FORWARD)?))
}

pub fn nforward(x: K) -> KResult {
    Ok(handle(run(x, NFORWARD)?))
}

pub fn eforward(x: K) -> KResult {
    Ok(handle(run(x, EFORWARD)?))
}

pub fn evaluate(x: K) -> KResult {
    // a table: its feature columns in, a table of the named output back (model/score.rs)
    if let Some([h, t]) = crate::k::from::list(&x) {
        if crate::tensor::table::is_table(*t) && crate::registry::is_handle(*h) {
            return crate::model::score::evaluate(*h, *t);
        }
    }
    qdata(run(x, EFORWARD)?)
}

/// For use inside a callback: the training mode and gradients of the call it is in (outside
/// one, the module's own flag and the current gradient mode).
pub fn kforward(x: K) -> KResult {
    Ok(handle(run(x, KFORWARD)?))
}

//! Functional forms of the activations (knn.cpp's `act` and `prelu`): `elu x`, `elu(x;alpha)`,
//! `` elu(x;`alpha,0.5) ``, ... with the options, positions and defaults of the module of the same
//! name (see `layers::act`). rrelu runs as in evaluation (the mean slope), as ktorch's does.
use anyhow::bail;

use super::by_layer;
use crate::k::from;
use crate::k::{KResult, K};
use crate::tensor::opargs::describe;
use crate::tensor::result;

pub fn celu(x: K) -> KResult {
    by_layer("celu", x, false)
}
pub fn elu(x: K) -> KResult {
    by_layer("elu", x, false)
}
pub fn glu(x: K) -> KResult {
    by_layer("glu", x, false)
}
pub fn hardshrink(x: K) -> KResult {
    by_layer("hardshrink", x, false)
}
pub fn hardtanh(x: K) -> KResult {
    by_layer("hardtanh", x, false)
}
pub fn leakyrelu(x: K) -> KResult {
    by_layer("leakyrelu", x, false)
}
pub fn logsigmoid(x: K) -> KResult {
    by_layer("logsigmoid", x, false)
}
pub fn relu6(x: K) -> KResult {
    by_layer("relu6", x, false)
}
pub fn rrelu(x: K) -> KResult {
    by_layer("rrelu", x, false)
}
pub fn selu(x: K) -> KResult {
    by_layer("selu", x, false)
}
pub fn softplus(x: K) -> KResult {
    by_layer("softplus", x, false)
}
pub fn softshrink(x: K) -> KResult {
    by_layer("softshrink", x, false)
}
pub fn softsign(x: K) -> KResult {
    by_layer("softsign", x, false)
}
pub fn tanhshrink(x: K) -> KResult {
    by_layer("tanhshrink", x, false)
}
pub fn threshold(x: K) -> KResult {
    by_layer("threshold", x, false)
}

/// `softmin x`, `softmin(x;dim)`, `softmin(x;dim;type)`: as softmax (same default dimension).
pub fn softmin(x: K) -> KResult {
    super::soft(x, |t, d, k| t.f_neg()?.f_softmax(d, k))
}

/// `prelu(x;w)`: the weight given directly, not the module's count and initial value.
pub fn prelu(x: K) -> KResult {
    let v = match from::list(&x) {
        Some(v) if v.len() == 2 => v,
        _ => bail!("expected 2 args: input & weight, given {}", describe(x)),
    };
    let (ts, h) = crate::math::pointwise::inputs(v)?;
    result(ts[0].f_prelu(&ts[1])?, h)
}

//! Functional forms of the activations (knn.cpp's `act` and `prelu`): `elu x`, `elu(x;alpha)`,
//! `` elu(x;`alpha,0.5) ``, ... with the options, positions and defaults of the module of the same
//! name (see `layers::act`). rrelu runs as in evaluation (the mean slope), as ktorch's does.
use super::{together, ByLayer, Soft};
use crate::k::KResult;
use crate::tensor::opargs::Input;
use crate::tensor::result;

super::by_layer! {
    ByLayer: celu,
    elu,
    glu,
    hardshrink,
    hardtanh,
    leakyrelu,
    logsigmoid,
    relu6,
    rrelu,
    selu,
    softplus,
    softshrink,
    softsign,
    tanhshrink,
    threshold,
}

crate::qfn! {
    /// `softmin x`, `softmin(x;dim)`, `softmin(x;dim;type)`: as softmax (same default dimension).
    pub fn softmin(x: Soft) -> KResult {
        x.apply(|t, d, k| t.f_neg()?.f_softmax(d, k))
    }

    /// `prelu(x;w)`: the weight given directly, not the module's count and initial value.
    pub fn prelu(x: Input, w: Input) -> KResult as "(input;weight)" {
        let (ts, h) = together([Some(x), Some(w)])?;
        result(ts[0].f_prelu(&ts[1])?, h)
    }
}

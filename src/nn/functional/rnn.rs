//! Functional forms of the recurrent/attention/embedding family (knn.cpp's `bilinear`):
//! `bilinear(x;y;w)`, `bilinear(x;y;w;b)`.
use anyhow::bail;

use crate::k::from;
use crate::k::{KResult, K};
use crate::tensor::opargs::describe;
use crate::tensor::result;

/// `bilinear(x;y;w)`, `bilinear(x;y;w;b)`: x' w_k y + b_k for each output k, with w of shape
/// (out; in1; in2); any of the arguments q data or tensors (a tensor result if any is).
pub fn bilinear(x: K) -> KResult {
    let v = match from::list(&x) {
        Some(v) if (3..=4).contains(&v.len()) => v,
        Some(_) => bail!("requires 3-4 args, (input1; input2; weight; optional bias)"),
        None => bail!("not implemented for {}", describe(x)),
    };
    let (ts, h) = crate::math::pointwise::inputs(v)?;
    let r = tch::Tensor::f_bilinear(&ts[0], &ts[1], &ts[2], ts.get(3))?;
    result(r, h)
}

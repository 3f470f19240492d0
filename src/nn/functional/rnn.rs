//! Functional forms of the recurrent/attention/embedding family (knn.cpp's `bilinear`):
//! `bilinear(x;y;w)`, `bilinear(x;y;w;b)`.
use super::together;
use crate::k::KResult;
use crate::tensor::opargs::Input;
use crate::tensor::result;

crate::qfn! {
    /// `bilinear(x;y;w)`, `bilinear(x;y;w;b)`: x' w_k y + b_k for each output k, with w of shape
    /// (out; in1; in2); any of the arguments q data or tensors (a tensor result if any is).
    pub fn bilinear(x: Input, y: Input, w: Input, b: Option<Input>) -> KResult as "(input1;input2;weight;[bias])" {
        let (ts, h) = together([Some(x), Some(y), Some(w), b])?;
        result(tch::Tensor::f_bilinear(&ts[0], &ts[1], &ts[2], ts.get(3))?, h)
    }
}

//! Layer norm through src/cxx/fused_ln.cpp (setting`fusedln): ATen's forward, a backward compiled
//! with NVRTC for float32 CUDA tensors. The invariant of cxx/tensor.rs holds for the `unsafe`
//! blocks here: tensors borrowed for the whole call, the out-slot on the calling frame, the made
//! tensor owned once by `made`, every C++ exception caught in the shim (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use anyhow::Result;
use libc::{c_int, c_long};
use tch::Tensor;

use super::tensor::{making, ptr};

/// `torch.nn.functional.layer_norm(x, shape, w, b, eps)` whose backward is the fused kernel
/// where it applies (ATen's otherwise, in the same autograd function).
pub fn fused(
    x: &Tensor,
    shape: &[i64],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let s: Vec<c_long> = shape.iter().map(|&d| d as c_long).collect();
    let opt = |t: Option<&Tensor>| t.map_or(std::ptr::null_mut(), ptr);
    making(|r| unsafe {
        super::ktorch_fused_layer_norm(ptr(x), s.as_ptr(), s.len() as c_int, opt(w), opt(b), eps, r)
    })
}

/// How many backward passes ran the fused kernels in this process (tests: the path was taken).
pub fn fused_calls() -> i64 {
    unsafe { super::ktorch_fused_layer_norm_calls() as i64 }
}

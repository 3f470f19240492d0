//! Dropout fused with a residual add through src/cxx/dropout_add.cpp (setting`dropadd). The
//! invariant of cxx/tensor.rs holds for the `unsafe` blocks here: tensors borrowed for the whole
//! call, the out-slots on the calling frame, the made tensor owned once by `made`, every C++
//! exception caught in the shim (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use anyhow::Result;
use libc::c_int;
use tch::Tensor;

use super::tensor::{making, ptr};

/// `x + torch.nn.functional.dropout(h, p, training=True)`: one NVRTC kernel for CUDA tensors of
/// one shape (its own random numbers from ATen's generator state), ATen's dropout and add where
/// it does not apply. The flag says whether the kernel ran.
pub fn dropout_add(x: &Tensor, h: &Tensor, p: f64) -> Result<(Tensor, bool)> {
    let mut fused: c_int = 0;
    let y = making(|r| unsafe { super::ktorch_dropout_add(ptr(x), ptr(h), p, &mut fused, r) })?;
    Ok((y, fused != 0))
}

/// How many forward passes ran the fused kernel in this process (tests: the path was taken).
pub fn fused_calls() -> i64 {
    unsafe { super::ktorch_dropout_add_calls() as i64 }
}

//! Layer norm through src/cxx/fused_ln.cpp (setting`fusedln): ATen's forward, a backward compiled
//! with NVRTC for float32 CUDA tensors. The invariant of cxx/tensor.rs holds for the `unsafe`
//! blocks here: tensors borrowed for the whole call, the out-slot on the calling frame, the made
//! tensor owned once by `made`, every C++ exception caught in the shim (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use anyhow::Result;
use libc::{c_int, c_long, c_void};
use tch::Tensor;

use super::tensor::{made, making, ptr};

/// How src/cxx/fused_ln.cpp computes layer norm: `kernels`, the backward through the NVRTC
/// kernels where they apply (ATen's otherwise, in the same autograd function); `lowcast`, under
/// CUDA autocast, the output in autocast's type (written so by the forward kernel).
#[derive(Clone, Copy)]
pub struct Fusion {
    pub kernels: bool,
    pub lowcast: bool,
}

impl Fusion {
    /// The default settings: the backward kernels, a float32 output.
    pub const KERNELS: Fusion = Fusion {
        kernels: true,
        lowcast: false,
    };

    /// The shim's flags: 1 the kernels, 2 the lower-type output.
    fn flags(self) -> c_int {
        self.kernels as c_int | (self.lowcast as c_int) << 1
    }
}

/// The normalized shape as the shim takes it.
fn longs(shape: &[i64]) -> Vec<c_long> {
    shape.iter().map(|&d| d as c_long).collect()
}

/// An optional tensor as the shim takes it (null: none).
fn opt(t: Option<&Tensor>) -> *mut c_void {
    t.map_or(std::ptr::null_mut(), ptr)
}

/// `torch.nn.functional.layer_norm(x, shape, w, b, eps)` through the fused autograd function.
pub fn fused(
    x: &Tensor,
    shape: &[i64],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
    how: Fusion,
) -> Result<Tensor> {
    let (flags, s) = (how.flags(), longs(shape));
    making(|r| unsafe {
        super::ktorch_fused_layer_norm(
            ptr(x),
            s.as_ptr(),
            s.len() as c_int,
            opt(w),
            opt(b),
            eps,
            flags,
            r,
        )
    })
}

/// Layer norm that also hands x on, for a residual block that adds x at its end: `(y, x')`, where
/// x' is x (a view of it) whose gradient, from the sum, meets layer norm's in one backward pass
/// and is added into dx by the fused kernel. None where it does not apply (no gradients, no
/// weight, an x autocast would cast): the caller runs layer norm and adds x as usual.
pub fn fused_res(
    x: &Tensor,
    shape: &[i64],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
    how: Fusion,
) -> Result<Option<(Tensor, Tensor)>> {
    let (flags, s) = (how.flags(), longs(shape));
    let (mut fused, mut y, mut x2): (c_int, *mut c_void, *mut c_void) =
        (0, std::ptr::null_mut(), std::ptr::null_mut());
    super::check(unsafe {
        super::ktorch_fused_layer_norm_res(
            ptr(x),
            s.as_ptr(),
            s.len() as c_int,
            opt(w),
            opt(b),
            eps,
            flags,
            &mut fused,
            &mut y,
            &mut x2,
        )
    })?;
    Ok((fused != 0).then(|| (made(y), made(x2))))
}

/// How many backward passes ran the fused kernels in this process (tests: the path was taken).
pub fn fused_calls() -> i64 {
    unsafe { super::ktorch_fused_layer_norm_calls() as i64 }
}

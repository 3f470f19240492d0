//! Tensors through the C++ shim: the entry points of src/cxx/autograd_device.cpp, speed.cpp and
//! tensor_info.cpp that take or make an `at::Tensor`, each a safe function on tch's `Tensor`.
//!
//! The one invariant, stated here for every `unsafe` block of this file (instead of a SAFETY
//! comment on each): a pointer passed in is `Tensor::as_ptr` of a tensor borrowed for the whole
//! call (the shim only reads the `at::Tensor` object, or calls an in-place op on it, as tch's own
//! `&self` ops do); an out-slot is a local of the calling frame; a pointer the shim writes there
//! after a successful call (0) is a new `at::Tensor` allocated for the caller, which `made` turns
//! into the one `Tensor` that owns it; every entry point catches each C++ exception (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use anyhow::Result;
use libc::{c_int, c_void};
use tch::Tensor;

use super::{check, Generator};

/// The `at::Tensor*` of a borrowed tensor, as the shim's signatures spell it.
pub(crate) fn ptr(t: &Tensor) -> *mut c_void {
    t.as_ptr() as *mut c_void
}

/// The tensor a successful call made, owned from here.
pub(crate) fn made(p: *mut c_void) -> Tensor {
    unsafe { Tensor::from_ptr(p as *mut _) }
}

/// Call an entry point that makes one tensor into an out-slot.
pub(crate) fn making(f: impl FnOnce(*mut *mut c_void) -> c_int) -> Result<Tensor> {
    let mut r = std::ptr::null_mut();
    check(f(&mut r))?;
    Ok(made(r))
}

/// `t += value * a * b` in place, one kernel.
pub fn addcmul_(t: &Tensor, a: &Tensor, b: &Tensor, value: f64) -> Result<()> {
    check(unsafe { super::ktorch_addcmul_value_(ptr(t), ptr(a), ptr(b), value) })
}

/// `t += value * a / b` in place, one kernel.
pub fn addcdiv_(t: &Tensor, a: &Tensor, b: &Tensor, value: f64) -> Result<()> {
    check(unsafe { super::ktorch_addcdiv_value_(ptr(t), ptr(a), ptr(b), value) })
}

/// `t += alpha * other` in place, one kernel (ATen's `add_(other, alpha)`).
pub fn add_alpha_(t: &Tensor, other: &Tensor, alpha: f64) -> Result<()> {
    check(unsafe { super::ktorch_add_alpha_(ptr(t), ptr(other), alpha) })
}

/// `t.backward(g, retain_graph, create_graph)` (g: None for a scalar `t`).
pub fn backward(t: &Tensor, g: Option<&Tensor>, retain: bool, create: bool) -> Result<()> {
    let gp = g.map_or(std::ptr::null_mut(), ptr);
    check(unsafe { super::ktorch_backward(ptr(t), gp, retain as c_int, create as c_int) })
}

/// Zero the gradient of `t` (`none`: drop it).
pub fn reset_grad(t: &Tensor, none: bool) -> Result<()> {
    check(unsafe { super::ktorch_reset_grad(ptr(t), none as c_int) })
}

/// A copy of CPU tensor `t` in pinned (page-locked) memory.
pub fn pin_memory(t: &Tensor) -> Result<Tensor> {
    making(|r| unsafe { super::ktorch_pin_memory(ptr(t), r) })
}

/// `t` in memory format `code` (0 contiguous, 2 channels-last 2d, 3 channels-last 3d).
pub fn to_memory_format(t: &Tensor, code: c_int) -> Result<Tensor> {
    making(|r| unsafe { super::ktorch_to_memory_format(ptr(t), code, r) })
}

/// An empty CPU tensor of `size` in pinned memory, of c10::ScalarType `dtype`.
pub fn empty_pinned(size: &[i64], dtype: c_int) -> Result<Tensor> {
    making(|r| unsafe { super::ktorch_empty_pinned(size.as_ptr(), size.len() as c_int, dtype, r) })
}

/// The version counter of `t` (bumped by every in-place change).
pub fn version(t: &Tensor) -> Result<i64> {
    let mut v: libc::c_long = 0;
    check(unsafe { super::ktorch_tensor_version(ptr(t), &mut v) })?;
    Ok(v as i64)
}

/// A seeded `at::Generator` of its own on a device (kind 0 CPU, 1 CUDA), owned by this value
/// alone and freed once, on drop.
pub struct SeededGenerator(*mut Generator);

// SAFETY: the generator is owned by this value alone (made by the shim, freed once in drop) and
// used only through &self by one thread at a time (its owner is in the registry, behind its
// lock); libtorch's randperm takes the generator's own mutex around each draw.
unsafe impl Send for SeededGenerator {}

impl SeededGenerator {
    pub fn new(kind: c_int, index: c_int, seed: i64) -> Result<SeededGenerator> {
        let mut g = std::ptr::null_mut();
        check(unsafe { super::ktorch_generator_new(kind, index, seed, &mut g) })?;
        Ok(SeededGenerator(g))
    }
    /// A permutation of 0..n (long, on the generator's device), the generator advanced.
    pub fn randperm(&self, n: i64) -> Result<Tensor> {
        making(|r| unsafe { super::ktorch_generator_randperm(self.0, n, r) })
    }
}

impl Drop for SeededGenerator {
    fn drop(&mut self) {
        unsafe { super::ktorch_generator_free(self.0) }
    }
}

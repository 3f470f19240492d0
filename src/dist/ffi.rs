//! Helpers for the entry points of src/cxx/dist.cpp and dist_reducer.cpp (declared in
//! crate::cxx). Each answers 0, or -1 with the C++ exception's message kept for the shim's one
//! last-error getter (no C++ exception reaches Rust).
use libc::{c_int, c_void};
use tch::Tensor;

/// 0 is success; -1 becomes the shim's message as an error.
pub fn check(rc: c_int) -> anyhow::Result<()> {
    crate::cxx::check(rc)
}

/// tch tensors as the shim's at::Tensor pointers.
pub fn ptrs(ts: &[Tensor]) -> Vec<*mut c_void> {
    ts.iter().map(|t| t.as_ptr() as *mut c_void).collect()
}

/// A tensor the shim made (new'd at::Tensor), now owned here.
pub fn owned(p: *mut c_void) -> Tensor {
    // SAFETY: the pointer is an at::Tensor the shim allocated for us (its call succeeded); the Tensor owns it from here and frees it once.
    unsafe { Tensor::from_ptr(p as *mut _) }
}

//! Tensor facts from src/cxx/tensor_info.cpp (libtorch calls tch does not wrap). Each takes a
//! borrowed tensor: nothing here clones it, so reference counts read are the registry's own.
use crate::cxx::{
    ktorch_device_seed, ktorch_grad_fn, ktorch_impl_ptr, ktorch_is_alias, ktorch_is_coalesced,
    ktorch_is_contiguous, ktorch_is_pinned, ktorch_layout, ktorch_memory_format,
    ktorch_storage_bytes, ktorch_storage_count, ktorch_storage_fits, ktorch_storage_offset,
    ktorch_storage_ptr, ktorch_use_count, ktorch_weak_count,
};
use anyhow::{anyhow, Result};
use libc::{c_int, c_void};
use tch::Tensor;

type Tp = *const c_void;

fn error() -> anyhow::Error {
    let msg = crate::cxx::last_error_text().unwrap_or_default();
    anyhow!("{}", msg.lines().next().unwrap_or("libtorch error"))
}

fn call(f: impl FnOnce(*mut i64) -> c_int) -> Result<i64> {
    let mut r = 0i64;
    if f(&mut r) == 0 {
        Ok(r)
    } else {
        Err(error())
    }
}

fn p(t: &Tensor) -> Tp {
    t.as_ptr() as Tp
}

/// Owning references to the tensor (its TensorImpl): 0 when undefined.
pub fn use_count(t: &Tensor) -> Result<i64> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_use_count(p(t), r) })
}
pub fn weak_count(t: &Tensor) -> Result<i64> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_weak_count(p(t), r) })
}
/// The TensorImpl's address: 0 when undefined.
pub fn impl_ptr(t: &Tensor) -> Result<i64> {
    if !t.defined() {
        return Ok(0);
    }
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are tensors borrowed for the call and out-slots on this frame, and it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_impl_ptr(p(t), r) })
}
pub fn storage_count(t: &Tensor) -> Result<i64> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_storage_count(p(t), r) })
}
pub fn storage_ptr(t: &Tensor) -> Result<i64> {
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are tensors borrowed for the call and out-slots on this frame, and it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_storage_ptr(p(t), r) })
}
pub fn storage_bytes(t: &Tensor) -> Result<i64> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_storage_bytes(p(t), r) })
}
/// Whether the tensor's shape lies within its storage (see ktorch_storage_fits); a tensor the
/// shim cannot ask (no sizes: nested) counts as fitting.
pub fn storage_fits(t: &Tensor) -> bool {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_storage_fits(p(t), r) }).map_or(true, |r| r != 0)
}
pub fn storage_offset(t: &Tensor) -> Result<i64> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_storage_offset(p(t), r) })
}
pub fn is_pinned(t: &Tensor) -> Result<bool> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_is_pinned(p(t), r) }).map(|v| v != 0)
}

/// Memory formats as ktorch names them, by the shim's codes.
pub const MEMORY: [&str; 4] = ["contiguous", "preserve", "channel2d", "channel3d"];

/// The suggested memory format's code (an index into MEMORY).
pub fn memory_format(t: &Tensor) -> Result<usize> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    let m = call(|r| unsafe { ktorch_memory_format(p(t), r) })?;
    usize::try_from(m).map_err(|_| anyhow!("unrecognized memory format"))
}
/// Contiguous in memory format `m` (an index into MEMORY; preserve means contiguous).
pub fn is_contiguous(t: &Tensor, m: usize) -> Result<bool> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_is_contiguous(p(t), m as c_int, r) }).map(|v| v != 0)
}

/// Layouts by the shim's codes.
const LAYOUT: [&str; 8] = [
    "strided",
    "sparse",
    "sparse_csr",
    "sparse_csc",
    "sparse_bsr",
    "sparse_bsc",
    "mkldnn",
    "unknown",
];

pub fn layout(t: &Tensor) -> Result<&'static str> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    let l = call(|r| unsafe { ktorch_layout(p(t), r) })?;
    Ok(LAYOUT.get(l as usize).copied().unwrap_or("unknown"))
}
pub fn is_coalesced(t: &Tensor) -> Result<bool> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_is_coalesced(p(t), r) }).map(|v| v != 0)
}
/// Do two tensors share their storage?
pub fn is_alias(a: &Tensor, b: &Tensor) -> Result<bool> {
    if !a.defined() || !b.defined() {
        return Ok(false);
    }
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_is_alias(p(a), p(b), r) }).map(|v| v != 0)
}
/// The gradient function's name, "" when none.
pub fn grad_fn(t: &Tensor) -> Result<String> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    crate::cxx::take_string(unsafe { ktorch_grad_fn(p(t)) }).ok_or_else(error)
}
/// The current seed of the CPU generator (None) or of CUDA device i's.
pub fn device_seed(cuda: Option<usize>) -> Result<i64> {
    let (kind, i) = cuda.map_or((0, 0), |i| (1, i as c_int));
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    call(|r| unsafe { ktorch_device_seed(kind, i, r) })
}

/// The tensor's version counter (bumped by every in-place change).
pub fn version(t: &Tensor) -> Result<i64> {
    let mut v: libc::c_long = 0;
    // SAFETY: a src/cxx entry point on a borrowed live tensor and an out-slot on this frame; it
    // catches every C++ exception (attempt.h).
    let r = unsafe { crate::cxx::ktorch_tensor_version(t.as_ptr() as *mut c_void, &mut v) };
    if r == 0 {
        Ok(v as i64)
    } else {
        Err(error())
    }
}

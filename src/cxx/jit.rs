//! TorchScript modules through the C++ shim (src/cxx/jit.cpp): named parameters and buffers,
//! the training flag, a deep copy, the code, each a safe function on tch's `CModule`.
//!
//! The one invariant, stated here for every `unsafe` block of this file: tch's `CModule` is one
//! pointer to the `torch::jit::Module` it new'd (tch =0.24.0, pinned; the size is checked
//! below), borrowed for each call; a module the shim copies is new'd for the caller and becomes
//! the one `CModule` that deletes it; the tensors the shim hands `collect` are new'd for the
//! caller, each taken once by `made`; every entry point catches each C++ exception (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use std::ffi::CStr;

use anyhow::Result;
use libc::{c_char, c_int, c_void};
use tch::{CModule, Tensor};

use super::check;
use super::tensor::made;

const _: () = assert!(std::mem::size_of::<CModule>() == std::mem::size_of::<*mut c_void>());

fn raw(m: &CModule) -> *mut c_void {
    unsafe { std::mem::transmute_copy::<CModule, *mut c_void>(m) }
}

/// Called by jit.cpp for each named tensor, `data` the Vec that `named` passes.
extern "C" fn collect(data: *mut c_void, name: *const c_char, t: *mut c_void) {
    let v = unsafe { &mut *(data as *mut Vec<(String, Tensor)>) };
    let name = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    v.push((name, made(t)));
}

type Visit = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    extern "C" fn(*mut c_void, *const c_char, *mut c_void),
) -> c_int;

fn named(m: &CModule, f: Visit) -> Result<Vec<(String, Tensor)>> {
    let mut v: Vec<(String, Tensor)> = vec![];
    check(unsafe { f(raw(m), &mut v as *mut _ as *mut c_void, collect) })?;
    Ok(v)
}

/// Parameters with PyTorch's dotted names.
pub fn parameters(m: &CModule) -> Result<Vec<(String, Tensor)>> {
    named(m, super::ktorch_jit_parameters)
}

/// Buffers (batch norm's running statistics) with PyTorch's dotted names.
pub fn buffers(m: &CModule) -> Result<Vec<(String, Tensor)>> {
    named(m, super::ktorch_jit_buffers)
}

/// Set the module's training flag (the module and its children).
pub fn set_training(m: &CModule, on: bool) -> Result<()> {
    check(unsafe { super::ktorch_jit_train(raw(m), on as c_int) })
}

/// An independent copy (every tensor copied).
pub fn deep_clone(m: &CModule) -> Result<CModule> {
    let mut r = std::ptr::null_mut();
    check(unsafe { super::ktorch_jit_clone(raw(m), &mut r) })?;
    Ok(unsafe { std::mem::transmute_copy::<*mut c_void, CModule>(&r) })
}

/// The module's TorchScript code.
pub fn code(m: &CModule) -> Result<String> {
    let mut p = std::ptr::null_mut();
    check(unsafe { super::ktorch_jit_code(raw(m), &mut p) })?;
    Ok(super::take_string(p).unwrap_or_default())
}

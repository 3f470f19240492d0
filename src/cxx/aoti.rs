//! AOTInductor packages through the C++ shim (src/cxx/aoti.cpp): a loader owned by one Rust
//! value, freed once on drop, and its run on borrowed tensors.
//!
//! The one invariant, stated here for every `unsafe` block of this file: the loader pointer is
//! the one `ktorch_aoti_load` made for this value alone; tensors passed in are borrowed for the
//! call; the array the run answers is malloc'd for the caller and holds `nr` tensors allocated
//! for it, each taken once by `made`, the array freed once after; every entry point catches each
//! C++ exception (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use std::ffi::CStr;

use anyhow::Result;
use libc::{c_int, c_void};
use tch::Tensor;

use super::check;
use super::tensor::{made, ptr};

/// A loaded package (libtorch's AOTIModelPackageLoader).
pub struct AotiLoader(*mut c_void);

// SAFETY: The loader's runner is libtorch's: its run may be called from several threads (it
// keeps a pool of one runner and waits for it), and nothing here changes after loading.
unsafe impl Send for AotiLoader {}
// SAFETY: as Send above.
unsafe impl Sync for AotiLoader {}

impl Drop for AotiLoader {
    fn drop(&mut self) {
        unsafe { super::ktorch_aoti_free(self.0) }
    }
}

impl AotiLoader {
    /// Load the package at `path`: the loader and the device it was compiled for (`cpu`,
    /// `cuda`, ..; empty when the package does not say).
    pub fn load(path: &CStr) -> Result<(AotiLoader, String)> {
        let (mut l, mut dev) = (std::ptr::null_mut(), std::ptr::null_mut());
        check(unsafe {
            super::ktorch_aoti_load(path.as_ptr(), std::ptr::null(), -1, &mut l, &mut dev)
        })?;
        let loader = AotiLoader(l);
        Ok((loader, super::take_string(dev).unwrap_or_default()))
    }

    /// Run the package on `x`: its outputs.
    pub fn run(&self, x: &[Tensor]) -> Result<Vec<Tensor>> {
        let ptrs: Vec<*mut c_void> = x.iter().map(ptr).collect();
        let (mut r, mut nr) = (std::ptr::null_mut(), 0);
        check(unsafe {
            super::ktorch_aoti_run(self.0, ptrs.as_ptr(), ptrs.len() as c_int, &mut r, &mut nr)
        })?;
        let out = (0..nr.max(0) as usize)
            .map(|i| made(unsafe { *r.add(i) }))
            .collect();
        unsafe { libc::free(r as *mut c_void) };
        Ok(out)
    }
}

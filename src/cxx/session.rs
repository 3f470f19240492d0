//! The session's switches through the C++ shim (src/cxx/config.cpp, speed.cpp, warnings.cpp):
//! libtorch's version and build configuration, the seed, TF32, the float32 matmul precision,
//! autocast scopes, libtorch's warnings handed to a Rust sink, and the build facts and global
//! flags that session/setting.rs reads and sets.
//!
//! The one invariant, stated here for every `unsafe` block of this file: each entry point takes
//! plain values, a `CStr` borrowed for the call, or out-slots on the calling frame, and catches
//! every C++ exception (attempt.h); the strings it answers are `take_string`'s (malloc'd for the
//! caller) or, for the version, libtorch's static text.
#![allow(clippy::undocumented_unsafe_blocks)]
use std::ffi::CStr;
use std::sync::OnceLock;

use anyhow::Result;
use libc::{c_char, c_int};

use super::{check, take_string};

/// The loaded libtorch's version, e.g. "2.11.0".
pub fn torch_version() -> &'static str {
    let p = unsafe { super::ktorch_torch_version() };
    if p.is_null() {
        return "";
    }
    // TORCH_VERSION: a static NUL-terminated string of libtorch's, never freed
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

/// at::show_config()'s text.
pub fn show_config() -> Option<String> {
    take_string(unsafe { super::ktorch_show_config() })
}

/// at::get_parallel_info()'s text.
pub fn parallel_info() -> Option<String> {
    take_string(unsafe { super::ktorch_parallel_info() })
}

/// Seed every generator (CPU and each CUDA device), as torch.manual_seed.
pub fn manual_seed(n: i64) -> Result<()> {
    check(unsafe { super::ktorch_manual_seed(n) })
}

/// A TF32 flag (`which` 0 cuBLAS, 1 cuDNN): 0 or 1, negative when it cannot be read.
pub fn get_tf32(which: c_int) -> c_int {
    unsafe { super::ktorch_get_tf32(which) }
}

pub fn set_tf32(which: c_int, on: bool) -> Result<()> {
    check(unsafe { super::ktorch_set_tf32(which, on as c_int) })
}

/// The float32 matmul precision: 0 highest, 1 high, 2 medium; negative when it cannot be read.
pub fn get_matmul_precision() -> c_int {
    unsafe { super::ktorch_get_matmul_precision() }
}

pub fn set_matmul_precision(s: &CStr) -> Result<()> {
    check(unsafe { super::ktorch_set_matmul_precision(s.as_ptr()) })
}

/// Enter an autocast scope (device type code, c10::ScalarType code): what was set before,
/// for `autocast_leave`.
pub fn autocast_enter(dev: c_int, dtype: c_int) -> Result<(c_int, c_int)> {
    let (mut was, mut wasdtype) = (0, 0);
    check(unsafe { super::ktorch_autocast_enter(dev, dtype, &mut was, &mut wasdtype) })?;
    Ok((was, wasdtype))
}

pub fn autocast_leave(dev: c_int, was: (c_int, c_int)) -> Result<()> {
    check(unsafe { super::ktorch_autocast_leave(dev, was.0, was.1) })
}

/// Where libtorch's warnings go: a level (0-4) and the text.
pub type WarningSink = fn(c_int, &CStr);

static SINK: OnceLock<WarningSink> = OnceLock::new();

/// Route libtorch's warnings raised on the calling thread to `sink` (the first sink given is
/// kept; libtorch keeps the handler per thread, so each thread that wants them calls this).
pub fn install_warning_handler(sink: WarningSink) {
    let _ = SINK.set(sink);
    unsafe { super::ktorch_install_warning_handler() };
}

/// Called by the C++ handler (src/cxx/warnings.cpp) with a level and the warning's text (a C
/// string, or null); never unwinds into C++.
///
/// # Safety
/// `text` is null or points to a NUL-terminated string valid for the call.
#[no_mangle]
pub unsafe extern "C" fn ktorch_log_from_cxx(level: c_int, text: *const c_char) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if text.is_null() {
            return;
        }
        if let Some(sink) = SINK.get() {
            // not null (checked above) and NUL-terminated for the call (the contract above)
            sink(level, unsafe { CStr::from_ptr(text) });
        }
    }));
}

// The build's facts and global flags of src/cxx/config.cpp, as their raw answers (for
// session/setting.rs: a negative answer is a failure to read, a non-zero one a failure to set).

/// Whether libtorch was built with MAGMA: 1, 0, negative when it cannot be read.
pub fn has_magma() -> c_int {
    unsafe { super::ktorch_has_magma() }
}
/// Whether cuDNN is available: 1, 0, negative when it cannot be read.
pub fn has_cudnn() -> c_int {
    unsafe { super::ktorch_has_cudnn() }
}
/// cuDNN's version (0 without it).
pub fn cudnn_version() -> libc::c_long {
    unsafe { super::ktorch_cudnn_version() }
}
/// cuDNN's benchmark flag: 1, 0, negative when it cannot be read.
pub fn get_benchmark() -> c_int {
    unsafe { super::ktorch_get_benchmark() }
}
pub fn set_benchmark(b: c_int) -> c_int {
    unsafe { super::ktorch_set_benchmark(b) }
}
/// Deterministic algorithms: 0 off, 1 warn only, 2 error; negative when it cannot be read.
pub fn get_deterministic() -> c_int {
    unsafe { super::ktorch_get_deterministic() }
}
pub fn set_deterministic(n: c_int) -> c_int {
    unsafe { super::ktorch_set_deterministic(n) }
}
/// cuDNN's deterministic flag: 1, 0, negative when it cannot be read.
pub fn get_cudnn_deterministic() -> c_int {
    unsafe { super::ktorch_get_cudnn_deterministic() }
}
pub fn set_cudnn_deterministic(b: c_int) -> c_int {
    unsafe { super::ktorch_set_cudnn_deterministic(b) }
}
/// Whether scaled_dot_product_attention may use a backend (0 flash, 1 memory-efficient, 2 cuDNN,
/// 3 math): 1, 0, negative when it cannot be read or the backend is unknown.
pub fn get_sdp(which: c_int) -> c_int {
    unsafe { super::ktorch_get_sdp(which) }
}
pub fn set_sdp(which: c_int, b: c_int) -> c_int {
    unsafe { super::ktorch_set_sdp(which, b) }
}

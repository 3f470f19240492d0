//! libtorch's warnings (TORCH_WARN, TORCH_WARN_ONCE) into the log at `warn`, through the
//! c10::WarningHandler of src/cxx/warnings.cpp.
//!
//! libtorch keeps the handler per thread (c10's ThreadWarningHandler), so it is installed on the
//! q thread at load; a thread of ktorch's own that runs libtorch ops (a worker) calls
//! [`install`] first for its warnings to reach the log too. Warnings on libtorch's own pool
//! threads keep libtorch's default handler (stderr).
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::Level;
use crate::cxx::ktorch_install_warning_handler;

/// Route libtorch's warnings raised on the calling thread into the log (their text goes to
/// stderr as before if the handler cannot be installed).
pub fn install() {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    unsafe { ktorch_install_warning_handler() };
}

/// Called by the C++ handler with a level (0-4) and the warning's text (a C string, or null);
/// never unwinds into C++.
///
/// # Safety
/// `text` is null or points to a NUL-terminated string valid for the call.
#[no_mangle]
pub unsafe extern "C" fn ktorch_log_from_cxx(level: libc::c_int, text: *const libc::c_char) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if text.is_null() {
            return;
        }
        let level = Level::from_number(level as i64).unwrap_or(Level::Warn);
        if super::enabled(level) {
            // SAFETY: `text` is not null (checked above) and NUL-terminated for the call (the
            // function's contract with warnings.cpp).
            let msg = unsafe { std::ffi::CStr::from_ptr(text) }.to_string_lossy();
            super::route::send(level, &msg);
        }
    }));
}

//! libtorch's warnings (TORCH_WARN, TORCH_WARN_ONCE) into the log at `warn`, through the
//! c10::WarningHandler of src/cxx/warnings.cpp.
//!
//! libtorch keeps the handler per thread (c10's ThreadWarningHandler), so it is installed on the
//! q thread at load; a thread of ktorch's own that runs libtorch ops (a worker) calls
//! [`install`] first for its warnings to reach the log too. Warnings on libtorch's own pool
//! threads keep libtorch's default handler (stderr).
use super::Level;

/// Route libtorch's warnings raised on the calling thread into the log (their text goes to
/// stderr as before if the handler cannot be installed).
pub fn install() {
    crate::cxx::session::install_warning_handler(sink);
}

/// A warning from the C++ handler: a level (0-4) and its text.
fn sink(level: libc::c_int, text: &std::ffi::CStr) {
    let level = Level::from_number(level as i64).unwrap_or(Level::Warn);
    if super::enabled(level) {
        super::route::send(level, &text.to_string_lossy());
    }
}

//! The C++ entry points of src/cxx/config.cpp (each catches its own exceptions), and the shim's
//! last error.
extern "C" {
    pub fn ktorch_show_config() -> *mut libc::c_char;
    pub fn ktorch_parallel_info() -> *mut libc::c_char;
    pub fn ktorch_torch_version() -> *const libc::c_char;
    pub fn ktorch_has_magma() -> libc::c_int;
    pub fn ktorch_has_cudnn() -> libc::c_int;
    pub fn ktorch_cudnn_version() -> libc::c_long;
    pub fn ktorch_get_benchmark() -> libc::c_int;
    pub fn ktorch_set_benchmark(b: libc::c_int) -> libc::c_int;
    pub fn ktorch_get_deterministic() -> libc::c_int;
    pub fn ktorch_set_deterministic(b: libc::c_int) -> libc::c_int;
    pub fn ktorch_get_cudnn_deterministic() -> libc::c_int;
    pub fn ktorch_set_cudnn_deterministic(b: libc::c_int) -> libc::c_int;
    fn ktorch_ad_error() -> *mut libc::c_char;
}

/// Take a malloc'd C string from the shim.
pub fn take_string(p: *mut libc::c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    let s = unsafe { std::ffi::CStr::from_ptr(p) }
        .to_string_lossy()
        .into_owned();
    unsafe { libc::free(p as *mut libc::c_void) };
    Some(s)
}

/// The C++ shim's last error as an anyhow error (every shim file keeps it in one thread-local
/// `last_error`, src/cxx/attempt.h).
pub fn shim_error() -> anyhow::Error {
    let m = take_string(unsafe { ktorch_ad_error() });
    anyhow::anyhow!("{}", m.unwrap_or_else(|| "unknown C++ error".into()))
}

//! libtorch's profiler (src/cxx/profiler.cpp): start, stop, the stopped profile's events and its
//! Chrome trace, as safe calls. The profile itself is libtorch's (one per process); the events of
//! the last one stopped are held by the shim until the next stop.
use crate::cxx::check;
use anyhow::Result;
use libc::{c_char, c_int, c_long, c_void};
use std::ffi::{CStr, CString};

extern "C" {
    fn ktorch_profiler_enabled() -> c_int;
    fn ktorch_profiler_start(cuda: c_int, shapes: c_int, memory: c_int) -> c_int;
    fn ktorch_profiler_stop(n: *mut c_long) -> c_int;
    fn ktorch_profiler_event(
        i: c_long,
        name: *mut *const c_char,
        shapes: *mut *const c_char,
        v: *mut c_long,
    ) -> c_int;
    fn ktorch_profiler_save(path: *const c_char) -> c_int;
    fn ktorch_profiler_range_begin(name: *const c_char, len: c_long) -> *mut c_void;
    fn ktorch_profiler_range_end(range: *mut c_void);
}

/// Open a user range `ktorch::name` in the running profile (as torch.profiler's
/// record_function): a token for `range_end`, 0 when the profile does not take it.
pub fn range_begin(name: &str) -> usize {
    // SAFETY: the name is borrowed for the call (copied by the shim); the shim catches every
    // C++ exception and answers null then.
    unsafe {
        ktorch_profiler_range_begin(name.as_ptr() as *const c_char, name.len() as c_long) as usize
    }
}

/// Close a range `range_begin` opened (0: nothing to close).
pub fn range_end(token: usize) {
    if token != 0 {
        // SAFETY: a token from range_begin, closed once (the guard's drop).
        unsafe { ktorch_profiler_range_end(token as *mut c_void) }
    }
}

/// One event of a stopped profile: an operator or runtime call on the CPU, or a kernel, copy or
/// fill on the GPU. Times in nanoseconds on libtorch's clock.
#[derive(Clone, Debug)]
pub struct Event {
    pub name: String,
    /// The inputs' shapes, `[[200, 128], [512]]`, when the profile recorded them (else empty).
    pub shapes: String,
    /// c10::DeviceType: 0 the CPU, 1 CUDA.
    pub device: i64,
    pub device_index: i64,
    pub start: i64,
    pub duration: i64,
    pub thread: i64,
    pub correlation: i64,
    /// libkineto's activity type: 0 a CPU operator.
    pub activity: i64,
}

/// Whether a profile is running in this process.
pub fn enabled() -> bool {
    // SAFETY: a src/cxx entry point with no arguments; it cannot throw.
    unsafe { ktorch_profiler_enabled() != 0 }
}

/// Start a profile: CPU operators, with CUDA kernels and copies when `cuda`.
pub fn start(cuda: bool, shapes: bool, memory: bool) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    check(unsafe { ktorch_profiler_start(cuda.into(), shapes.into(), memory.into()) })
}

/// Stop the running profile; its events are then read by `events`.
pub fn stop() -> Result<Vec<Event>> {
    let mut n: c_long = 0;
    // SAFETY: as start; `n` is an out-slot on this frame.
    check(unsafe { ktorch_profiler_stop(&mut n) })?;
    events(n as usize)
}

/// The first `n` events of the last stopped profile, copied.
fn events(n: usize) -> Result<Vec<Event>> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let (mut name, mut shapes) = (std::ptr::null(), std::ptr::null());
        let mut v = [0 as c_long; 7];
        // SAFETY: out-slots on this frame; the strings returned stay valid until the next stop,
        // which cannot happen before they are copied below (q calls ktorch from one thread at a
        // time and the profile functions hold session::profile's lock).
        check(unsafe {
            ktorch_profiler_event(i as c_long, &mut name, &mut shapes, v.as_mut_ptr())
        })?;
        // SAFETY: non-null, nul-terminated strings owned by the shim (checked above: rc 0).
        let text = |p: *const c_char| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
        out.push(Event {
            name: text(name),
            shapes: text(shapes),
            device: v[0],
            device_index: v[1],
            start: v[2],
            duration: v[3],
            thread: v[4],
            correlation: v[5],
            activity: v[6],
        });
    }
    Ok(out)
}

/// Write the last stopped profile as a Chrome trace (JSON) to `path`.
pub fn save(path: &str) -> Result<()> {
    let c = CString::new(path).map_err(|_| anyhow::anyhow!("path holds a null byte"))?;
    // SAFETY: a nul-terminated path borrowed for the call; the shim catches every exception.
    check(unsafe { ktorch_profiler_save(c.as_ptr()) })
}

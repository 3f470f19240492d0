//! The C++ CUDA shim's entry points (src/cxx/cuda.cpp), each wrapped to return a Result: every
//! unsafe call into it is in this file. Objects (streams, events, graphs) are opaque pointers
//! owned by the Rust types in stream.rs, event.rs and capture.rs, which free them on drop.
use std::ffi::c_void;

use anyhow::Result;

use super::shim_error;

extern "C" {
    fn ktorch_cuda_props(d: i32, name: *mut libc::c_char, n: i32, v: *mut libc::c_long) -> i32;
    fn ktorch_cuda_memory(d: i32, v: *mut libc::c_long) -> i32;
    fn ktorch_cuda_empty_cache() -> i32;
    fn ktorch_cuda_thread_device(d: i32) -> i32;
    fn ktorch_cuda_reset_peak(d: i32) -> i32;

    fn ktorch_stream_new(d: i32, high: i32, out: *mut *mut c_void) -> i32;
    fn ktorch_stream_current(d: i32, out: *mut *mut c_void) -> i32;
    fn ktorch_stream_default(d: i32, out: *mut *mut c_void) -> i32;
    fn ktorch_stream_copy(s: *mut c_void, out: *mut *mut c_void) -> i32;
    pub(super) fn ktorch_stream_free(s: *mut c_void);
    fn ktorch_stream_set(s: *mut c_void) -> i32;
    fn ktorch_stream_sync(s: *mut c_void) -> i32;
    fn ktorch_stream_query(s: *mut c_void, done: *mut i32) -> i32;
    fn ktorch_stream_info(s: *mut c_void, id: *mut libc::c_long, device: *mut i32, priority: *mut i32) -> i32;
    fn ktorch_stream_same(a: *mut c_void, b: *mut c_void, same: *mut i32) -> i32;

    fn ktorch_event_new(timing: i32, out: *mut *mut c_void) -> i32;
    pub(super) fn ktorch_event_free(e: *mut c_void);
    fn ktorch_event_record(e: *mut c_void, s: *mut c_void) -> i32;
    fn ktorch_event_block(e: *mut c_void, s: *mut c_void) -> i32;
    fn ktorch_event_sync(e: *mut c_void) -> i32;
    fn ktorch_event_query(e: *mut c_void, done: *mut i32) -> i32;
    fn ktorch_event_recorded(e: *mut c_void, yes: *mut i32) -> i32;
    fn ktorch_event_elapsed(a: *mut c_void, b: *mut c_void, ms: *mut f64) -> i32;

    fn ktorch_graph_new(out: *mut *mut c_void) -> i32;
    pub(super) fn ktorch_graph_free(g: *mut c_void);
    fn ktorch_graph_begin(g: *mut c_void) -> i32;
    fn ktorch_graph_end(g: *mut c_void) -> i32;
    fn ktorch_graph_replay(g: *mut c_void) -> i32;
    fn ktorch_graph_abort(g: *mut c_void) -> i32;
}

fn ok(rc: i32) -> Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(shim_error())
    }
}

/// A device's properties: its name, then total memory, capability major and minor,
/// multiprocessors, max threads per block, warp size, L2 cache bytes.
pub fn props(d: usize) -> Result<(String, [i64; 7])> {
    let mut name = [0 as libc::c_char; 256];
    let mut v = [0 as libc::c_long; 7];
    ok(unsafe { ktorch_cuda_props(d as i32, name.as_mut_ptr(), 256, v.as_mut_ptr()) })?;
    let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned();
    Ok((name, v.map(|x| x as i64)))
}

/// allocated, reserved, peak allocated, peak reserved, free, total (bytes).
pub fn memory(d: usize) -> Result<[i64; 6]> {
    let mut v = [0 as libc::c_long; 6];
    ok(unsafe { ktorch_cuda_memory(d as i32, v.as_mut_ptr()) })?;
    Ok(v.map(|x| x as i64))
}

/// Device `d` current on this (worker) thread, its CUDA context bound.
pub fn thread_device(d: usize) -> Result<()> {
    ok(unsafe { ktorch_cuda_thread_device(d as i32) })
}

pub fn empty_cache() -> Result<()> {
    ok(unsafe { ktorch_cuda_empty_cache() })
}

pub fn reset_peak(d: usize) -> Result<()> {
    ok(unsafe { ktorch_cuda_reset_peak(d as i32) })
}

fn out(f: impl FnOnce(*mut *mut c_void) -> i32) -> Result<*mut c_void> {
    let mut p: *mut c_void = std::ptr::null_mut();
    ok(f(&mut p))?;
    Ok(p)
}

fn flag(f: impl FnOnce(*mut i32) -> i32) -> Result<bool> {
    let mut r = 0;
    ok(f(&mut r))?;
    Ok(r != 0)
}

pub fn stream_new(d: usize, high: bool) -> Result<*mut c_void> {
    out(|p| unsafe { ktorch_stream_new(d as i32, high as i32, p) })
}
pub fn stream_current(d: usize) -> Result<*mut c_void> {
    out(|p| unsafe { ktorch_stream_current(d as i32, p) })
}
pub fn stream_default(d: usize) -> Result<*mut c_void> {
    out(|p| unsafe { ktorch_stream_default(d as i32, p) })
}
pub fn stream_copy(s: *mut c_void) -> Result<*mut c_void> {
    out(|p| unsafe { ktorch_stream_copy(s, p) })
}
pub fn stream_set(s: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_stream_set(s) })
}
pub fn stream_sync(s: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_stream_sync(s) })
}
pub fn stream_query(s: *mut c_void) -> Result<bool> {
    flag(|r| unsafe { ktorch_stream_query(s, r) })
}
/// id (0: the default stream), device, priority
pub fn stream_info(s: *mut c_void) -> Result<(i64, usize, i32)> {
    let (mut id, mut d, mut p) = (0 as libc::c_long, 0, 0);
    ok(unsafe { ktorch_stream_info(s, &mut id, &mut d, &mut p) })?;
    Ok((id as i64, d as usize, p))
}
pub fn stream_same(a: *mut c_void, b: *mut c_void) -> Result<bool> {
    flag(|r| unsafe { ktorch_stream_same(a, b, r) })
}

pub fn event_new(timing: bool) -> Result<*mut c_void> {
    out(|p| unsafe { ktorch_event_new(timing as i32, p) })
}
pub fn event_record(e: *mut c_void, s: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_event_record(e, s) })
}
pub fn event_block(e: *mut c_void, s: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_event_block(e, s) })
}
pub fn event_sync(e: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_event_sync(e) })
}
pub fn event_query(e: *mut c_void) -> Result<bool> {
    flag(|r| unsafe { ktorch_event_query(e, r) })
}
pub fn event_recorded(e: *mut c_void) -> Result<bool> {
    flag(|r| unsafe { ktorch_event_recorded(e, r) })
}
pub fn event_elapsed(a: *mut c_void, b: *mut c_void) -> Result<f64> {
    let mut ms = 0.0;
    ok(unsafe { ktorch_event_elapsed(a, b, &mut ms) })?;
    Ok(ms)
}

pub fn graph_new() -> Result<*mut c_void> {
    out(|p| unsafe { ktorch_graph_new(p) })
}
pub fn graph_begin(g: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_graph_begin(g) })
}
pub fn graph_end(g: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_graph_end(g) })
}
pub fn graph_replay(g: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_graph_replay(g) })
}
pub fn graph_abort(g: *mut c_void) -> Result<()> {
    ok(unsafe { ktorch_graph_abort(g) })
}

//! The C++ CUDA shim's entry points (src/cxx/cuda.cpp), each wrapped to return a Result: every
//! call into it is in this file (used by crate::device as `shim`). Objects (streams, events,
//! graphs) are typed opaque pointers owned by the Rust types in device/stream.rs, event.rs and
//! capture.rs, which free them on drop.
use anyhow::Result;

use crate::cxx::{
    ktorch_cuda_empty_cache, ktorch_cuda_memory, ktorch_cuda_props, ktorch_cuda_reset_peak,
    ktorch_cuda_thread_device, ktorch_event_block, ktorch_event_elapsed, ktorch_event_new,
    ktorch_event_query, ktorch_event_record, ktorch_event_recorded, ktorch_event_sync,
    ktorch_graph_abort, ktorch_graph_begin, ktorch_graph_end, ktorch_graph_new,
    ktorch_graph_replay, ktorch_stream_copy, ktorch_stream_current, ktorch_stream_default,
    ktorch_stream_info, ktorch_stream_new, ktorch_stream_query, ktorch_stream_same,
    ktorch_stream_set, ktorch_stream_sync,
};

use crate::cxx::{CudaEvent, CudaGraph, CudaStream};

fn ok(rc: i32) -> Result<()> {
    crate::cxx::check(rc)
}

/// A device's properties: its name, then total memory, capability major and minor,
/// multiprocessors, max threads per block, warp size, L2 cache bytes.
pub fn props(d: usize) -> Result<(String, [i64; 7])> {
    let mut name = [0 as libc::c_char; 256];
    let mut v = [0 as libc::c_long; 7];
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are tensors borrowed for the call and out-slots on this frame, and it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_cuda_props(d as i32, name.as_mut_ptr(), 256, v.as_mut_ptr()) })?;
    // SAFETY: the shim wrote a NUL-terminated name of at most 255 bytes into the 256.
    let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    Ok((name, v))
}

/// allocated, reserved, peak allocated, peak reserved, free, total (bytes).
pub fn memory(d: usize) -> Result<[i64; 6]> {
    let mut v = [0 as libc::c_long; 6];
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are tensors borrowed for the call and out-slots on this frame, and it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_cuda_memory(d as i32, v.as_mut_ptr()) })?;
    Ok(v)
}

/// Device `d` current on this (worker) thread, its CUDA context bound.
pub fn thread_device(d: usize) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_cuda_thread_device(d as i32) })
}

pub fn empty_cache() -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_cuda_empty_cache() })
}

pub fn reset_peak(d: usize) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_cuda_reset_peak(d as i32) })
}

fn out<T>(f: impl FnOnce(*mut *mut T) -> i32) -> Result<*mut T> {
    let mut p: *mut T = std::ptr::null_mut();
    ok(f(&mut p))?;
    Ok(p)
}

fn flag(f: impl FnOnce(*mut i32) -> i32) -> Result<bool> {
    let mut r = 0;
    ok(f(&mut r))?;
    Ok(r != 0)
}

pub fn stream_new(d: usize, high: bool) -> Result<*mut CudaStream> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    out(|p| unsafe { ktorch_stream_new(d as i32, high as i32, p) })
}
pub fn stream_current(d: usize) -> Result<*mut CudaStream> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    out(|p| unsafe { ktorch_stream_current(d as i32, p) })
}
pub fn stream_default(d: usize) -> Result<*mut CudaStream> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    out(|p| unsafe { ktorch_stream_default(d as i32, p) })
}
pub fn stream_copy(s: *mut CudaStream) -> Result<*mut CudaStream> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    out(|p| unsafe { ktorch_stream_copy(s, p) })
}
pub fn stream_set(s: *mut CudaStream) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_stream_set(s) })
}
pub fn stream_sync(s: *mut CudaStream) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_stream_sync(s) })
}
pub fn stream_query(s: *mut CudaStream) -> Result<bool> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    flag(|r| unsafe { ktorch_stream_query(s, r) })
}
/// id (0: the default stream), device, priority
pub fn stream_info(s: *mut CudaStream) -> Result<(i64, usize, i32)> {
    let (mut id, mut d, mut p) = (0 as libc::c_long, 0, 0);
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are tensors borrowed for the call and out-slots on this frame, and it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_stream_info(s, &mut id, &mut d, &mut p) })?;
    Ok((id, d as usize, p))
}
pub fn stream_same(a: *mut CudaStream, b: *mut CudaStream) -> Result<bool> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    flag(|r| unsafe { ktorch_stream_same(a, b, r) })
}

pub fn event_new(timing: bool) -> Result<*mut CudaEvent> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    out(|p| unsafe { ktorch_event_new(timing as i32, p) })
}
pub fn event_record(e: *mut CudaEvent, s: *mut CudaStream) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_event_record(e, s) })
}
pub fn event_block(e: *mut CudaEvent, s: *mut CudaStream) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_event_block(e, s) })
}
pub fn event_sync(e: *mut CudaEvent) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_event_sync(e) })
}
pub fn event_query(e: *mut CudaEvent) -> Result<bool> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    flag(|r| unsafe { ktorch_event_query(e, r) })
}
pub fn event_recorded(e: *mut CudaEvent) -> Result<bool> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    flag(|r| unsafe { ktorch_event_recorded(e, r) })
}
pub fn event_elapsed(a: *mut CudaEvent, b: *mut CudaEvent) -> Result<f64> {
    let mut ms = 0.0;
    // SAFETY: a src/cxx entry point (crate::cxx): the pointers passed are tensors borrowed for the call and out-slots on this frame, and it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_event_elapsed(a, b, &mut ms) })?;
    Ok(ms)
}

pub fn graph_new() -> Result<*mut CudaGraph> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    out(|p| unsafe { ktorch_graph_new(p) })
}
pub fn graph_begin(g: *mut CudaGraph) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_graph_begin(g) })
}
pub fn graph_end(g: *mut CudaGraph) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_graph_end(g) })
}
pub fn graph_replay(g: *mut CudaGraph) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_graph_replay(g) })
}
pub fn graph_abort(g: *mut CudaGraph) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { ktorch_graph_abort(g) })
}

/// The current CUDA device.
pub fn current_device() -> Result<i64> {
    let mut r: libc::c_long = 0;
    // SAFETY: a src/cxx entry point writing an out-slot on this frame; it catches every C++
    // exception (attempt.h).
    ok(unsafe { crate::cxx::ktorch_cuda_current(&mut r) })?;
    Ok(r as i64)
}
/// Make CUDA device `d` the current one.
pub fn set_device(d: usize) -> Result<()> {
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    ok(unsafe { crate::cxx::ktorch_cuda_set(d as libc::c_int) })
}
/// Free a stream made by `stream_new`/`_current`/`_default`/`_copy` (its one owner, once).
pub fn stream_free(s: *mut CudaStream) {
    // SAFETY: the owner's pointer, freed once (the module's contract).
    unsafe { crate::cxx::ktorch_stream_free(s) }
}
/// Free an event made by `event_new` (its one owner, once).
pub fn event_free(e: *mut CudaEvent) {
    // SAFETY: the owner's pointer, freed once (the module's contract).
    unsafe { crate::cxx::ktorch_event_free(e) }
}
/// Free a graph made by `graph_new` (its one owner, once).
pub fn graph_free(g: *mut CudaGraph) {
    // SAFETY: the owner's pointer, freed once (the module's contract).
    unsafe { crate::cxx::ktorch_graph_free(g) }
}

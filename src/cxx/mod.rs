//! The C++ shim's boundary in Rust: every entry point of src/cxx/*.cpp declared here, one
//! getter of the shim's last error, and `check`, which turns an entry point's failure (a
//! non-zero return: each catches every C++ exception, see attempt.h) into the Rust error.
//! Pointers to libtorch objects the shim owns are typed opaque handles, so that a stream cannot
//! be passed where an event goes. `cuda` (streams, events, graphs, device memory) and
//! `tensor_info` (tensor facts) are the safe wrappers of whole C++ files; other entry points are
//! called from the domain module that needs them.
#![allow(clippy::too_many_arguments)]
// The pointers the safe wrappers here take (streams, events, graphs, the shim's strings) are
// only ever the shim's own objects, made by it and held by one Rust owner (device/'s Stream,
// Event, capture's GraphPtr; take_string's caller) that frees them once: never forged, never
// from q. That is the soundness argument clippy asks for with `unsafe fn`; it holds for every
// caller, so it is stated here once.
#![allow(clippy::not_unsafe_ptr_arg_deref)]
pub mod aoti;
pub mod cuda;
pub mod dist;
pub mod dropout_add;
pub mod fused;
pub mod interleave;
pub mod jit;
pub mod layer_norm;
pub mod memcopy;
pub mod ops;
pub mod profiler;
pub mod session;
pub mod storage;
pub mod tensor;
pub mod tensor_info;

use libc::{c_char, c_int, c_long, c_void};

/// A `const at::Tensor*` (tch's `Tensor::as_ptr`), for the tensor-fact entry points.
type Tp = *const c_void;

/// The shim's last error on this thread (`last_error` of attempt.h), whole.
pub fn last_error_text() -> Option<String> {
    // SAFETY: the getter returns a malloc'd copy (or null) that take_string frees.
    take_string(unsafe { ktorch_last_error() })
}

/// The shim's last error as an anyhow error.
pub fn last_error() -> anyhow::Error {
    anyhow::anyhow!(
        "{}",
        last_error_text().unwrap_or_else(|| "unknown C++ error".into())
    )
}

/// An entry point's return code as a result: 0 is success, else the shim's last error.
pub fn check(rc: c_int) -> anyhow::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(last_error())
    }
}

/// Opaque C++ objects the shim owns and hands out by pointer, one Rust type each: a
/// `c10::cuda::CUDAStream`, `at::cuda::CUDAEvent`, `at::cuda::CUDAGraph` (src/cxx/cuda.cpp) and a
/// c10d process group (src/cxx/dist.cpp), a gradient reducer (src/cxx/dist_reducer.cpp) and an
/// `at::Generator` (src/cxx/autograd_device.cpp). Never made in Rust; only their pointers are held.
macro_rules! opaque {
    ($($name:ident),*) => {
        $(#[repr(C)]
        pub struct $name {
            _opaque: [u8; 0],
        })*
    };
}
opaque!(
    CudaStream,
    CudaEvent,
    CudaGraph,
    DistGroup,
    DistReducer,
    Generator
);

/// Take a malloc'd C string from the shim (None for null).
pub fn take_string(p: *mut c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a non-null string from the shim is nul-terminated and malloc'd for the caller,
    // which frees it once, after copying it.
    let s = unsafe { std::ffi::CStr::from_ptr(p) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: as above: malloc'd for the caller, freed once, after the copy.
    unsafe { libc::free(p as *mut c_void) };
    Some(s)
}

extern "C" {
    /// The last error's message, malloc'd (the caller frees it): src/cxx/config.cpp.
    fn ktorch_last_error() -> *mut c_char;
}

// ---- src/cxx/cuda.cpp: the current device (src/device/mod.rs)
extern "C" {
    pub fn ktorch_cuda_current(r: *mut c_long) -> c_int;
    pub fn ktorch_cuda_set(i: c_int) -> c_int;
}

// ---- src/cxx/cuda.cpp: device facts, streams, events, graphs (wrapped in cxx/cuda.rs, for
// src/device/ and the graphs of device/capture.rs)
extern "C" {
    pub fn ktorch_cuda_props(d: i32, name: *mut c_char, n: i32, v: *mut c_long) -> i32;
    pub fn ktorch_cuda_memory(d: i32, v: *mut c_long) -> i32;
    pub fn ktorch_cuda_empty_cache() -> i32;
    pub fn ktorch_cuda_thread_device(d: i32) -> i32;
    pub fn ktorch_cuda_reset_peak(d: i32) -> i32;

    pub fn ktorch_stream_new(d: i32, high: i32, out: *mut *mut CudaStream) -> i32;
    pub fn ktorch_stream_current(d: i32, out: *mut *mut CudaStream) -> i32;
    pub fn ktorch_stream_default(d: i32, out: *mut *mut CudaStream) -> i32;
    pub fn ktorch_stream_copy(s: *mut CudaStream, out: *mut *mut CudaStream) -> i32;
    pub fn ktorch_stream_free(s: *mut CudaStream);
    pub fn ktorch_stream_set(s: *mut CudaStream) -> i32;
    pub fn ktorch_stream_sync(s: *mut CudaStream) -> i32;
    pub fn ktorch_stream_query(s: *mut CudaStream, done: *mut i32) -> i32;
    pub fn ktorch_stream_info(
        s: *mut CudaStream,
        id: *mut c_long,
        device: *mut i32,
        priority: *mut i32,
    ) -> i32;
    pub fn ktorch_stream_same(a: *mut CudaStream, b: *mut CudaStream, same: *mut i32) -> i32;

    pub fn ktorch_event_new(timing: i32, out: *mut *mut CudaEvent) -> i32;
    pub fn ktorch_event_free(e: *mut CudaEvent);
    pub fn ktorch_event_record(e: *mut CudaEvent, s: *mut CudaStream) -> i32;
    pub fn ktorch_event_block(e: *mut CudaEvent, s: *mut CudaStream) -> i32;
    pub fn ktorch_event_sync(e: *mut CudaEvent) -> i32;
    pub fn ktorch_event_query(e: *mut CudaEvent, done: *mut i32) -> i32;
    pub fn ktorch_event_recorded(e: *mut CudaEvent, yes: *mut i32) -> i32;
    pub fn ktorch_event_elapsed(a: *mut CudaEvent, b: *mut CudaEvent, ms: *mut f64) -> i32;

    pub fn ktorch_graph_new(out: *mut *mut CudaGraph) -> i32;
    pub fn ktorch_graph_free(g: *mut CudaGraph);
    pub fn ktorch_graph_begin(g: *mut CudaGraph) -> i32;
    pub fn ktorch_graph_end(g: *mut CudaGraph) -> i32;
    pub fn ktorch_graph_replay(g: *mut CudaGraph) -> i32;
    pub fn ktorch_graph_abort(g: *mut CudaGraph) -> i32;
}

// ---- src/cxx/dist.cpp: process groups and collectives (src/dist/)
extern "C" {
    pub fn ktorch_dist_has_nccl() -> c_int;
    pub fn ktorch_dist_init(
        nccl: c_int,
        host: *const c_char,
        port: c_int,
        file: *const c_char,
        rank: c_int,
        size: c_int,
        timeout_ms: c_long,
        r: *mut *mut DistGroup,
    ) -> c_int;
    pub fn ktorch_dist_free(g: *mut DistGroup) -> c_int;
    pub fn ktorch_dist_allreduce(
        g: *mut DistGroup,
        ts: *mut *mut c_void,
        n: c_int,
        op: c_int,
    ) -> c_int;
    pub fn ktorch_dist_broadcast(
        g: *mut DistGroup,
        ts: *mut *mut c_void,
        n: c_int,
        root: c_int,
    ) -> c_int;
    pub fn ktorch_dist_allgather(g: *mut DistGroup, x: *mut c_void, r: *mut *mut c_void) -> c_int;
    pub fn ktorch_dist_reducescatter(
        g: *mut DistGroup,
        x: *mut c_void,
        op: c_int,
        r: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_dist_barrier(g: *mut DistGroup) -> c_int;
    /// Has a collective of this group failed (its communicator is then unusable)?
    pub fn ktorch_dist_failed(g: *mut DistGroup) -> c_int;
}

// ---- src/cxx/dist_reducer.cpp: gradient buckets all-reduced during the backward pass
// (src/model/dist.rs)
extern "C" {
    pub fn ktorch_reducer_new(
        ts: *mut *mut c_void,
        n: c_int,
        cap: c_long,
        first_cap: c_long,
        views: c_int,
        compress: c_int,
        r: *mut *mut DistReducer,
    ) -> c_int;
    pub fn ktorch_reducer_free(r: *mut DistReducer) -> c_int;
    pub fn ktorch_reducer_prepare(
        r: *mut DistReducer,
        g: *mut DistGroup,
        ts: *mut *mut c_void,
        n: c_int,
    ) -> c_int;
    pub fn ktorch_reducer_finish(r: *mut DistReducer, ok: c_int) -> c_int;
    pub fn ktorch_reducer_settle(r: *mut DistReducer, g: *mut DistGroup) -> c_int;
    pub fn ktorch_dist_settle_pending() -> c_int;
}

// ---- src/cxx/speed.cpp: pinned host memory (src/tensor/convert.rs), GradScaler's unscale and
// update (src/model/scaler.rs)
extern "C" {
    pub fn ktorch_empty_pinned(
        size: *const i64,
        n: c_int,
        dtype: c_int,
        out: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_amp_unscale(
        n: c_int,
        g: *const *mut c_void,
        found: *mut c_void,
        inv: *mut c_void,
    ) -> c_int;
    pub fn ktorch_amp_update(
        scale: *mut c_void,
        tracker: *mut c_void,
        found: *mut c_void,
        growth: f64,
        backoff: f64,
        interval: c_long,
    ) -> c_int;
}

// ---- src/cxx/aoti.cpp: AOTInductor packages (src/nn/foreign/aoti.rs)
extern "C" {
    pub fn ktorch_aoti_load(
        path: *const c_char,
        name: *const c_char,
        device_index: c_int,
        r: *mut *mut c_void,
        dev: *mut *mut c_char,
    ) -> c_int;
    pub fn ktorch_aoti_free(l: *mut c_void);
    /// The package's metadata as key=value lines (malloc'd); not called from Rust yet.
    pub fn ktorch_aoti_metadata(l: *mut c_void, r: *mut *mut c_char) -> c_int;
    pub fn ktorch_aoti_run(
        l: *mut c_void,
        x: *const *mut c_void,
        n: c_int,
        r: *mut *mut *mut c_void,
        nr: *mut c_int,
    ) -> c_int;
}

// ---- src/cxx/jit.cpp: TorchScript modules (src/nn/foreign/torchscript.rs)
extern "C" {
    pub fn ktorch_jit_buffers(
        m: *mut c_void,
        data: *mut c_void,
        f: extern "C" fn(*mut c_void, *const c_char, *mut c_void),
    ) -> c_int;
    pub fn ktorch_jit_parameters(
        m: *mut c_void,
        data: *mut c_void,
        f: extern "C" fn(*mut c_void, *const c_char, *mut c_void),
    ) -> c_int;
    pub fn ktorch_jit_train(m: *mut c_void, on: c_int) -> c_int;
    pub fn ktorch_jit_clone(m: *mut c_void, r: *mut *mut c_void) -> c_int;
    pub fn ktorch_jit_code(m: *mut c_void, r: *mut *mut c_char) -> c_int;
}

// ---- src/cxx/linalg.cpp: decompositions (src/math/decomp.rs)
extern "C" {
    pub fn ktorch_svd(
        a: *mut c_void,
        full: c_int,
        driver: *const c_char,
        r: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_svdvals(
        out: *mut c_void,
        a: *mut c_void,
        driver: *const c_char,
        r: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_lstsq(
        a: *mut c_void,
        b: *mut c_void,
        has_rcond: c_int,
        rcond: f64,
        driver: *const c_char,
        r: *mut *mut c_void,
    ) -> c_int;
}

// ---- src/cxx/linalg.cpp: addmm and its family (src/math/linalg.rs)
extern "C" {
    #[allow(clippy::too_many_arguments)]
    pub fn ktorch_addmm(
        mode: c_int,
        out: *mut c_void,
        x: *mut c_void,
        y: *mut c_void,
        z: *mut c_void,
        bf: c_int,
        bd: f64,
        bj: c_long,
        af: c_int,
        ad: f64,
        aj: c_long,
        r: *mut *mut c_void,
    ) -> c_int;
}

// ---- src/cxx/nn_act.cpp: activations and LRN (src/nn/layers/cxx.rs)
extern "C" {
    pub fn ktorch_act(
        op: c_int,
        x: *mut c_void,
        a: f64,
        b: f64,
        training: c_int,
        inplace: c_int,
        r: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_lrn(
        cross: c_int,
        x: *mut c_void,
        size: c_long,
        alpha: f64,
        beta: f64,
        k: f64,
        r: *mut *mut c_void,
    ) -> c_int;
}

// ---- src/cxx/tensor_info.cpp: a tensor's version counter (src/nn/layers/sdpa.rs)
extern "C" {
    pub fn ktorch_tensor_version(t: *mut c_void, v: *mut c_long) -> c_int;
}

// ---- src/cxx/speed.cpp: fused optimizer steps, gradient clipping (src/optim/fused.rs)
extern "C" {
    pub fn ktorch_fused_adam(
        decoupled: c_int,
        n: c_int,
        p: *const *mut c_void,
        g: *const *mut c_void,
        m: *const *mut c_void,
        v: *const *mut c_void,
        vmax: *const *mut c_void,
        step: *const *mut c_void,
        lr: f64,
        b1: f64,
        b2: f64,
        decay: f64,
        eps: f64,
        amsgrad: c_int,
        scale: *mut c_void,
        inf: *mut c_void,
    ) -> c_int;
    pub fn ktorch_clip_norm(
        n: c_int,
        g: *const *mut c_void,
        max: f64,
        p: f64,
        total: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_fused_sgd(
        n: c_int,
        p: *const *mut c_void,
        g: *const *mut c_void,
        buf: *const *mut c_void,
        decay: f64,
        momentum: f64,
        lr: f64,
        dampening: f64,
        nesterov: c_int,
        first: c_int,
        scale: *mut c_void,
        inf: *mut c_void,
    ) -> c_int;
}

// ---- src/cxx/config.cpp: build configuration and global flags (src/session/)
extern "C" {
    pub fn ktorch_show_config() -> *mut c_char;
    pub fn ktorch_parallel_info() -> *mut c_char;
    pub fn ktorch_torch_version() -> *const c_char;
    pub fn ktorch_has_magma() -> c_int;
    pub fn ktorch_has_cudnn() -> c_int;
    pub fn ktorch_cudnn_version() -> c_long;
    pub fn ktorch_get_benchmark() -> c_int;
    pub fn ktorch_set_benchmark(b: c_int) -> c_int;
    pub fn ktorch_get_deterministic() -> c_int;
    pub fn ktorch_set_deterministic(b: c_int) -> c_int;
    pub fn ktorch_get_cudnn_deterministic() -> c_int;
    pub fn ktorch_set_cudnn_deterministic(b: c_int) -> c_int;
    pub fn ktorch_get_sdp(which: c_int) -> c_int;
    pub fn ktorch_set_sdp(which: c_int, b: c_int) -> c_int;
}

// ---- src/cxx/warnings.cpp: libtorch's warnings into the log (src/session/log/warnings.rs)
extern "C" {
    pub fn ktorch_install_warning_handler() -> c_int;
}

// ---- src/cxx/speed.cpp: TF32, matmul precision, autocast (src/session/precision.rs)
extern "C" {
    pub fn ktorch_get_tf32(which: c_int) -> c_int;
    pub fn ktorch_set_tf32(which: c_int, b: c_int) -> c_int;
    pub fn ktorch_get_matmul_precision() -> c_int;
    pub fn ktorch_set_matmul_precision(s: *const c_char) -> c_int;
    pub fn ktorch_autocast_enter(
        dev: c_int,
        dtype: c_int,
        was: *mut c_int,
        wasdtype: *mut c_int,
    ) -> c_int;
    pub fn ktorch_autocast_leave(dev: c_int, was: c_int, wasdtype: c_int) -> c_int;
}

// ---- src/session/seed.rs
extern "C" {
    pub fn ktorch_manual_seed(seed: i64) -> c_int;
}

// ---- src/cxx/autograd_device.cpp: backward, gradients (src/tensor/autograd.rs)
extern "C" {
    pub fn ktorch_backward(t: *mut c_void, g: *mut c_void, retain: c_int, create: c_int) -> c_int;
    pub fn ktorch_reset_grad(t: *mut c_void, none: c_int) -> c_int;
    pub fn ktorch_add_alpha_(t: *mut c_void, other: *const c_void, alpha: f64) -> c_int;
    pub fn ktorch_addcmul_value_(
        t: *mut c_void,
        a: *const c_void,
        b: *const c_void,
        value: f64,
    ) -> c_int;
    pub fn ktorch_addcdiv_value_(
        t: *mut c_void,
        a: *const c_void,
        b: *const c_void,
        value: f64,
    ) -> c_int;
}

// ---- src/cxx/tensor_info.cpp: tensor facts (wrapped in cxx/tensor_info.rs)
extern "C" {
    pub fn ktorch_use_count(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_weak_count(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_impl_ptr(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_storage_count(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_storage_ptr(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_storage_bytes(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_storage_offset(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_storage_fits(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_is_pinned(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_host_data(t: Tp, p: *mut *mut c_void, n: *mut i64, ok: *mut i64) -> c_int;
    pub fn ktorch_memory_format(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_is_contiguous(t: Tp, m: c_int, r: *mut i64) -> c_int;
    pub fn ktorch_layout(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_is_coalesced(t: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_is_alias(a: Tp, b: Tp, r: *mut i64) -> c_int;
    pub fn ktorch_grad_fn(t: Tp) -> *mut c_char;
    pub fn ktorch_device_seed(kind: c_int, index: c_int, r: *mut i64) -> c_int;
}

// ---- src/cxx/autograd_device.cpp: a seeded generator of its own (src/model/data.rs: shuffling
// a multi-task model's data, kmodel.cpp reshuffle)
extern "C" {
    pub fn ktorch_generator_new(
        kind: c_int,
        index: c_int,
        seed: i64,
        out: *mut *mut Generator,
    ) -> c_int;
    pub fn ktorch_generator_free(g: *mut Generator);
    pub fn ktorch_generator_randperm(g: *mut Generator, n: i64, out: *mut *mut c_void) -> c_int;
}

// ---- src/cxx/fused_ln.cpp: layer norm with the NVRTC backward (wrapped in cxx/layer_norm.rs)
extern "C" {
    pub fn ktorch_fused_layer_norm(
        x: *mut c_void,
        shape: *const c_long,
        nshape: c_int,
        w: *mut c_void,
        b: *mut c_void,
        eps: f64,
        flags: c_int,
        out: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_fused_layer_norm_res(
        x: *mut c_void,
        shape: *const c_long,
        nshape: c_int,
        w: *mut c_void,
        b: *mut c_void,
        eps: f64,
        flags: c_int,
        fused: *mut c_int,
        out_y: *mut *mut c_void,
        out_x: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_fused_layer_norm_calls() -> c_long;
}

// ---- src/cxx/dropout_add.cpp: dropout fused with a residual add (wrapped in cxx/dropout_add.rs)
extern "C" {
    pub fn ktorch_dropout_add(
        x: *mut c_void,
        h: *mut c_void,
        p: f64,
        fused: *mut c_int,
        out: *mut *mut c_void,
    ) -> c_int;
    pub fn ktorch_dropout_add_calls() -> c_long;
}

// ---- src/tensor/options.rs
extern "C" {
    pub fn ktorch_pin_memory(t: *mut c_void, out: *mut *mut c_void) -> c_int;
    pub fn ktorch_to_memory_format(t: *mut c_void, m: c_int, out: *mut *mut c_void) -> c_int;
}

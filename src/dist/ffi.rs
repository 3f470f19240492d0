//! The entry points of src/cxx/dist.cpp and dist_reducer.cpp. Each answers 0, or -1 with the C++ exception's message
//! kept for `ktorch_dist_error` (no C++ exception reaches Rust).
use anyhow::anyhow;
use libc::{c_char, c_int, c_long, c_void};
use tch::Tensor;

extern "C" {
    fn ktorch_dist_error() -> *mut c_char;
    pub fn ktorch_dist_has_nccl() -> c_int;
    pub fn ktorch_dist_init(nccl: c_int, host: *const c_char, port: c_int, file: *const c_char, rank: c_int, size: c_int, timeout_ms: c_long, r: *mut *mut c_void) -> c_int;
    pub fn ktorch_dist_free(g: *mut c_void) -> c_int;
    pub fn ktorch_dist_allreduce(g: *mut c_void, ts: *mut *mut c_void, n: c_int, op: c_int) -> c_int;
    pub fn ktorch_dist_broadcast(g: *mut c_void, ts: *mut *mut c_void, n: c_int, root: c_int) -> c_int;
    pub fn ktorch_dist_allgather(g: *mut c_void, x: *mut c_void, r: *mut *mut c_void) -> c_int;
    pub fn ktorch_dist_reducescatter(g: *mut c_void, x: *mut c_void, op: c_int, r: *mut *mut c_void) -> c_int;
    pub fn ktorch_dist_barrier(g: *mut c_void) -> c_int;
    pub fn ktorch_reducer_new(ts: *mut *mut c_void, n: c_int, cap: c_long, r: *mut *mut c_void) -> c_int;
    pub fn ktorch_reducer_free(r: *mut c_void) -> c_int;
    pub fn ktorch_reducer_prepare(r: *mut c_void, g: *mut c_void, ts: *mut *mut c_void, n: c_int) -> c_int;
    pub fn ktorch_reducer_finish(r: *mut c_void, ok: c_int) -> c_int;
}

/// 0 is success; -1 becomes the shim's message as an error.
pub fn check(rc: c_int) -> anyhow::Result<()> {
    if rc == 0 {
        return Ok(());
    }
    let m = crate::session::ffi::take_string(unsafe { ktorch_dist_error() });
    Err(anyhow!("{}", m.unwrap_or_else(|| "unknown C++ error".into())))
}

/// tch tensors as the shim's at::Tensor pointers.
pub fn ptrs(ts: &[Tensor]) -> Vec<*mut c_void> {
    ts.iter().map(|t| t.as_ptr() as *mut c_void).collect()
}

/// A tensor the shim made (new'd at::Tensor), now owned here.
pub fn owned(p: *mut c_void) -> Tensor {
    unsafe { Tensor::from_ptr(p as *mut _) }
}

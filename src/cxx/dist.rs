//! c10d through the C++ shim (src/cxx/dist.cpp, dist_reducer.cpp), as two owning types: the
//! process group (`ProcessGroup`: rendezvous, collectives, barrier) and the gradient reducer
//! (`Reducer`: hooks on the parameters' gradient accumulators that all-reduce buckets during the
//! backward pass). Each frees its shim object once, on drop (or `ProcessGroup::close`, which
//! also reports the shim's error).
//!
//! The one invariant, stated here for every `unsafe` block of this file: the group and reducer
//! pointers are the shim's own objects, made by `init`/`new` here and held by their one owner
//! until it is dropped; tensor pointers are `Tensor::as_ptr` of tensors borrowed for the whole
//! call; out-slots are locals of the calling frame, and a tensor the shim writes there after a
//! successful call is owned once by `made`; every entry point catches each C++ exception
//! (attempt.h).
#![allow(clippy::undocumented_unsafe_blocks)]
use std::ffi::CStr;
use std::ptr::NonNull;

use anyhow::Result;
use libc::{c_int, c_long, c_void};
use tch::{Kind, Tensor};

use super::tensor::{made, ptr};
use super::{check, DistGroup, DistReducer};

fn ptrs(ts: &[Tensor]) -> Vec<*mut c_void> {
    ts.iter().map(ptr).collect()
}

/// Where the ranks meet: TCP host and port (rank 0's store listens there), or a shared file.
pub enum Meet<'a> {
    Tcp(&'a CStr, i32),
    File(&'a CStr),
}

/// A c10d process group (Gloo or NCCL).
pub struct ProcessGroup(NonNull<DistGroup>);

// SAFETY: the shim's process group has no thread affinity; its one owner (dist/group.rs's
// GROUP) uses it under a mutex, one collective at a time, so moving it between threads is sound.
#[allow(unsafe_code)]
unsafe impl Send for ProcessGroup {}

impl ProcessGroup {
    /// Join the group: rank `rank` of `size`, collectives waiting up to `timeout_ms`.
    pub fn init(nccl: bool, meet: Meet, rank: i32, size: i32, timeout_ms: c_long) -> Result<Self> {
        let (host, port, file) = match meet {
            Meet::Tcp(h, p) => (h.as_ptr(), p, std::ptr::null()),
            Meet::File(f) => (std::ptr::null(), 0, f.as_ptr()),
        };
        let mut p = std::ptr::null_mut();
        check(unsafe {
            super::ktorch_dist_init(
                nccl as c_int,
                host,
                port,
                file,
                rank,
                size,
                timeout_ms,
                &mut p,
            )
        })?;
        NonNull::new(p)
            .map(ProcessGroup)
            .ok_or_else(|| anyhow::anyhow!("distinit: the shim made no process group"))
    }

    /// Free the group now, with the shim's error if it had one.
    pub fn close(self) -> Result<()> {
        let p = self.0.as_ptr();
        std::mem::forget(self);
        check(unsafe { super::ktorch_dist_free(p) })
    }

    /// All-reduce tensors in place (op: index of sum, avg, prod, min, max), contiguous ones.
    pub fn allreduce(&self, ts: &[Tensor], op: i32) -> Result<()> {
        let mut p = ptrs(ts);
        check(unsafe {
            super::ktorch_dist_allreduce(self.0.as_ptr(), p.as_mut_ptr(), p.len() as c_int, op)
        })
    }

    /// Rank `root`'s tensors into every rank's, in place (contiguous ones).
    pub fn broadcast(&self, ts: &[Tensor], root: i32) -> Result<()> {
        let mut p = ptrs(ts);
        check(unsafe {
            super::ktorch_dist_broadcast(self.0.as_ptr(), p.as_mut_ptr(), p.len() as c_int, root)
        })
    }

    /// Every rank's contiguous `t` stacked along a new first dimension, in rank order.
    pub fn allgather(&self, t: &Tensor) -> Result<Tensor> {
        let mut r = std::ptr::null_mut();
        check(unsafe { super::ktorch_dist_allgather(self.0.as_ptr(), ptr(t), &mut r) })?;
        Ok(made(r))
    }

    /// This rank's block of contiguous `t` (split along its first dimension), reduced across
    /// the ranks.
    pub fn reducescatter(&self, t: &Tensor, op: i32) -> Result<Tensor> {
        let mut r = std::ptr::null_mut();
        check(unsafe { super::ktorch_dist_reducescatter(self.0.as_ptr(), ptr(t), op, &mut r) })?;
        Ok(made(r))
    }

    /// Wait until every rank has called it.
    pub fn barrier(&self) -> Result<()> {
        check(unsafe { super::ktorch_dist_barrier(self.0.as_ptr()) })
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        // the error, if any, has no one to go to here; `close` reports it
        let _ = unsafe { super::ktorch_dist_free(self.0.as_ptr()) };
    }
}

/// DDP's reducer: buckets of gradients all-reduced as they are accumulated.
pub struct Reducer(NonNull<DistReducer>);

// SAFETY: the shim's reducer has no thread affinity; its one owner (a model's sync setting)
// uses it under the process group's lock, from the thread that runs the step.
#[allow(unsafe_code)]
unsafe impl Send for Reducer {}

impl Reducer {
    /// Buckets over `parms` of up to `cap` bytes (the first up to `first_cap`); `views`:
    /// gradients as views of the buckets; `compress`: the type gradients travel in.
    pub fn new(
        parms: &[Tensor],
        cap: i64,
        first_cap: i64,
        views: bool,
        compress: Option<Kind>,
    ) -> Result<Self> {
        let mut ps = ptrs(parms);
        let mut r = std::ptr::null_mut();
        check(unsafe {
            super::ktorch_reducer_new(
                ps.as_mut_ptr(),
                ps.len() as c_int,
                cap as c_long,
                first_cap as c_long,
                views as c_int,
                match compress {
                    Some(Kind::BFloat16) => 1,
                    Some(_) => 2,
                    None => 0,
                },
                &mut r,
            )
        })?;
        NonNull::new(r)
            .map(Reducer)
            .ok_or_else(|| anyhow::anyhow!("distmodel: the shim made no reducer"))
    }

    /// Arm the hooks for one backward pass over `parms` on group `g`.
    pub fn prepare(&self, g: &ProcessGroup, parms: &[Tensor]) -> Result<()> {
        let mut ps = ptrs(parms);
        check(unsafe {
            super::ktorch_reducer_prepare(
                self.0.as_ptr(),
                g.0.as_ptr(),
                ps.as_mut_ptr(),
                ps.len() as c_int,
            )
        })
    }

    /// Wait for the buckets (`ok`: the backward pass succeeded) and disarm the hooks. NCCL's
    /// buckets are waited for by the GPU's stream only; the host waits for them at the next
    /// `finish` or `settle`.
    pub fn finish(&self, ok: bool) -> Result<()> {
        check(unsafe { super::ktorch_reducer_finish(self.0.as_ptr(), ok as c_int) })
    }

    /// Wait on the host, within the group's timeout, for the collectives the last `finish`
    /// left to the GPU (their error: a dead peer); `g` the group now, or none (they are dropped:
    /// their group ended).
    pub fn settle(&self, g: Option<&ProcessGroup>) -> Result<()> {
        let g = g.map_or(std::ptr::null_mut(), |g| g.0.as_ptr());
        check(unsafe { super::ktorch_reducer_settle(self.0.as_ptr(), g) })
    }
}

/// Before q reads a CUDA value back: the collectives any synchronising model's last backward
/// pass left to the GPU, waited for on the host within their group's timeout. A read would
/// otherwise wait on a stream that waits on them, without end when a peer is dead; this makes
/// that a q error at the timeout. One atomic read when there are none.
pub fn settle_pending() -> Result<()> {
    // SAFETY: a src/cxx entry point without arguments; it catches every C++ exception.
    check(unsafe { super::ktorch_dist_settle_pending() })
}

impl Drop for Reducer {
    fn drop(&mut self) {
        let _ = unsafe { super::ktorch_reducer_free(self.0.as_ptr()) };
    }
}

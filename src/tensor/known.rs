//! Index values known on the host, so that CUDA indices can be checked without waiting for the
//! GPU. An index out of range on CUDA (a class target past the classes, an embedding row past
//! the table) is a device-side assert, which ends the process's CUDA context, so ktorch checks
//! CUDA indices before use; reading the check's answer from the device waits for every kernel
//! queued before it (a stall at every training step of a q loop). Two ways around the wait:
//! - q data sent to CUDA (`convert::to_tensor_on`) is integer data whose least and greatest
//!   values are taken on the host while it is copied into pinned memory: `range_of` answers
//!   them for that very tensor (the same memory, shape, strides, type and device, held here so
//!   that its memory cannot be reused, and the same version counter: an in-place change makes
//!   it unknown) until the q call that made it ends (`forget`, k's call-end hook);
//! - `trusted`: the caller checked the data the indices come from (`run`'s batches).
use std::cell::{Cell, RefCell};

use tch::{Kind, Tensor};

/// The longest integer data whose range is kept (its CUDA tensor is held until the call ends).
const MAX_ELEMENTS: usize = 1 << 24;

struct Known {
    t: Tensor,
    version: i64,
    lo: i64,
    hi: i64,
}

thread_local! {
    static KNOWN: RefCell<Vec<Known>> = const { RefCell::new(Vec::new()) };
    static TRUSTED: Cell<bool> = const { Cell::new(false) };
}

fn same(a: &Tensor, b: &Tensor) -> bool {
    a.data_ptr() == b.data_ptr()
        && a.size() == b.size()
        && a.stride() == b.stride()
        && a.kind() == b.kind()
        && a.device() == b.device()
}

/// Is `k` an integer type whose values are indices?
pub fn is_index_kind(k: Kind) -> bool {
    matches!(
        k,
        Kind::Int64 | Kind::Int | Kind::Int16 | Kind::Int8 | Kind::Uint8
    )
}

/// The least and greatest of host integer data (a CPU tensor of an index kind).
pub fn host_range(h: &Tensor) -> Option<(i64, i64)> {
    if h.numel() == 0 || h.device() != tch::Device::Cpu || !is_index_kind(h.kind()) {
        return None;
    }
    let lo = h.f_min().ok()?.f_int64_value(&[]).ok()?;
    let hi = h.f_max().ok()?.f_int64_value(&[]).ok()?;
    Some((lo, hi))
}

/// Remember that CUDA tensor `t` holds values in `lo..=hi` (it was made from host data with that
/// range), for the rest of the current q call.
pub fn remember(t: &Tensor, lo: i64, hi: i64) {
    if !t.device().is_cuda() || t.numel() > MAX_ELEMENTS {
        return;
    }
    let Ok(version) = crate::cxx::tensor_info::version(t) else {
        return;
    };
    crate::k::hooks::on_call_end(forget);
    KNOWN.with(|k| {
        k.borrow_mut().push(Known {
            t: t.shallow_clone(),
            version,
            lo,
            hi,
        })
    });
}

/// The range remembered for `t`, if it is that very tensor, unchanged since.
pub fn range_of(t: &Tensor) -> Option<(i64, i64)> {
    let version = crate::cxx::tensor_info::version(t).ok()?;
    KNOWN.with(|k| {
        k.borrow()
            .iter()
            .find(|e| same(&e.t, t) && e.version == version)
            .map(|e| (e.lo, e.hi))
    })
}

/// The first value of integer tensor `t` outside `lo..hi` (other than `except`), if any:
/// answered from the range known on the host where it proves there is none, else read from `t`
/// (on CUDA, a wait for the GPU). The one check of CUDA indices (class targets, embedding rows).
pub fn first_outside(
    t: &Tensor,
    lo: i64,
    hi: i64,
    except: Option<i64>,
) -> anyhow::Result<Option<i64>> {
    if range_of(t).is_some_and(|(a, b)| a >= lo && b < hi) {
        return Ok(None);
    }
    let mut bad = t.f_lt(lo)?.f_logical_or(&t.f_ge(hi)?)?;
    if let Some(e) = except {
        bad = bad.f_logical_and(&t.f_ne(e)?)?;
    }
    if !bool::try_from(bad.f_any()?)? {
        return Ok(None);
    }
    Ok(Some(t.f_masked_select(&bad)?.f_get(0)?.f_int64_value(&[])?))
}

/// `first_outside` for index data about to reach a CUDA kernel, where a value out of range is a
/// device-side assert (it ends the process's CUDA context); None, with nothing read, on the CPU
/// (libtorch's own check is an error there), for data of no index type, while a CUDA graph
/// records (no waiting then) and inside `trusted`.
pub fn cuda_outside(
    t: &Tensor,
    lo: i64,
    hi: i64,
    except: Option<i64>,
) -> anyhow::Result<Option<i64>> {
    if !t.device().is_cuda()
        || t.numel() == 0
        || !is_index_kind(t.kind())
        || crate::device::capture::capturing()
        || is_trusted()
    {
        return Ok(None);
    }
    first_outside(t, lo, hi, except)
}

/// The size of dimension `dim` of `t` (negative counts from the end), if `t` has it.
pub fn dim_size(t: &Tensor, dim: i64) -> Option<i64> {
    let s = t.size();
    let d = if dim < 0 { dim + s.len() as i64 } else { dim };
    usize::try_from(d).ok().and_then(|d| s.get(d).copied())
}

/// Check indices `idx` for `index_select` along dimension `dim` of `t` before the call: on CUDA
/// an index out of range is a device-side assert (it ends the process's CUDA context), on the CPU
/// libtorch's "index out of range in self"; both become this one q error. Indices made from q
/// data in this call are checked from their known range; others are read (on CUDA, a wait).
pub fn check_select(t: &Tensor, dim: i64, idx: &Tensor) -> anyhow::Result<()> {
    let Some(n) = dim_size(t, dim) else {
        return Ok(()); // a bad dimension: libtorch's own error
    };
    if !is_index_kind(idx.kind()) || idx.numel() == 0 {
        return Ok(());
    }
    match first_outside(idx, 0, n, None)? {
        Some(v) => anyhow::bail!("index {v} out of range for dimension {dim} of size {n}"),
        None => Ok(()),
    }
}

/// The same check for indices on the host.
pub fn check_select_host(t: &Tensor, dim: i64, js: &[i64]) -> anyhow::Result<()> {
    let Some(n) = dim_size(t, dim) else {
        return Ok(());
    };
    match js.iter().find(|&&j| j < 0 || j >= n) {
        Some(v) => anyhow::bail!("index {v} out of range for dimension {dim} of size {n}"),
        None => Ok(()),
    }
}

/// The q call is over: let go of what it remembered (and its CUDA tensors).
pub fn forget() {
    let _ = KNOWN.try_with(|k| {
        if let Ok(mut k) = k.try_borrow_mut() {
            k.clear();
        }
    });
}

/// Run `f` with indices taken as checked (the caller checked the data they come from).
pub fn trusted<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            TRUSTED.with(|t| t.set(self.0));
        }
    }
    let _reset = Reset(TRUSTED.with(|t| t.replace(true)));
    f()
}

/// Inside `trusted`?
pub fn is_trusted() -> bool {
    TRUSTED.with(|t| t.get())
}

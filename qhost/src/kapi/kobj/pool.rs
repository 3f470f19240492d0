//! Freed vector blocks kept for reuse, as q's own pool keeps them (issue 31): a loop that makes
//! and drops the same few hundred vectors of about a kilobyte each (char.q's training step)
//! otherwise pays glibc's malloc and free for each, whose caches stop at 1 KiB. A block is kept
//! by its exact size (the one `alloc` computes from type and count), per thread, up to
//! `DEPTH` blocks a size and `THREAD_BYTES` a thread; a thread's blocks go back to malloc when it
//! ends. Only the memory is reused: every block is still one malloc block (an extension may r0
//! what qhost made), and `cached_bytes` lets `.Q.w[]` count kept blocks as free, as q does.
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Sizes kept: above strict mode's scribbled classes (256 bytes), up to 16 KiB.
const MIN: usize = 512;
const MAX: usize = 16 << 10;
const DEPTH: usize = 512;
const THREAD_BYTES: usize = 16 << 20;

static CACHED: AtomicUsize = AtomicUsize::new(0);

/// Bytes held in all threads' pools (malloc counts them in use).
pub fn cached_bytes() -> usize {
    CACHED.load(Ordering::Relaxed)
}

struct Pool {
    bins: Vec<Vec<*mut libc::c_void>>,
    bytes: usize,
}

impl Drop for Pool {
    fn drop(&mut self) {
        for bin in &mut self.bins {
            for p in bin.drain(..) {
                // SAFETY: every kept block is a malloc block no object uses any more
                unsafe { libc::free(p) };
            }
        }
        CACHED.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

thread_local! {
    static POOL: RefCell<Pool> = const { RefCell::new(Pool { bins: Vec::new(), bytes: 0 }) };
}

fn kept(bytes: usize) -> bool {
    (MIN..=MAX).contains(&bytes) && bytes.is_multiple_of(16)
}

/// A kept block of exactly `bytes` (a multiple of 16), or null.
pub fn take(bytes: usize) -> *mut libc::c_void {
    if !kept(bytes) {
        return std::ptr::null_mut();
    }
    POOL.try_with(|p| {
        let Ok(mut p) = p.try_borrow_mut() else {
            return std::ptr::null_mut();
        };
        match p.bins.get_mut(bytes / 16).and_then(|b| b.pop()) {
            Some(x) => {
                p.bytes -= bytes;
                CACHED.fetch_sub(bytes, Ordering::Relaxed);
                x
            }
            None => std::ptr::null_mut(),
        }
    })
    .unwrap_or(std::ptr::null_mut())
}

/// Keep block `x` of at least `bytes` (as `alloc` computed them) for reuse; false: not kept,
/// the caller frees it.
pub fn put(x: *mut libc::c_void, bytes: usize) -> bool {
    if !kept(bytes) {
        return false;
    }
    POOL.try_with(|p| {
        let Ok(mut p) = p.try_borrow_mut() else {
            return false;
        };
        if p.bytes + bytes > THREAD_BYTES {
            return false;
        }
        let i = bytes / 16;
        if p.bins.len() <= i {
            p.bins.resize_with(MAX / 16 + 1, Vec::new);
        }
        if p.bins[i].len() >= DEPTH {
            return false;
        }
        p.bins[i].push(x);
        p.bytes += bytes;
        CACHED.fetch_add(bytes, Ordering::Relaxed);
        true
    })
    .unwrap_or(false)
}

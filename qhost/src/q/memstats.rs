//! `.Q.w[]` and `\w`: memory statistics in q's form (KX: dotq `.Q.w`, syscmds `\w`).
//!
//! `.Q.w[]` is the dictionary `used heap peak wmax mmap mphy syms symw` of longs. qhost has no
//! pool of its own (every K object is a malloc block), so:
//! - used: bytes malloc has handed out and not taken back (glibc mallinfo2: uordblks+hblkhd),
//!   less the freed blocks qhost keeps for reuse (kapi::kobj::pool);
//! - heap: bytes malloc holds from the system (arena+hblkhd);
//! - peak: the largest heap seen by `.Q.w[]`/`\w` so far in this process;
//! - wmax: 0, as q without `-w` (qhost sets no workspace limit);
//! - mmap: 0 (qhost maps no files);
//! - mphy: the machine's physical memory;
//! - syms: the number of interned symbols, exactly (symbols are never freed, as in q);
//! - symw: the bytes of their texts (each with its NUL).
use std::sync::atomic::{AtomicI64, Ordering};

use super::{err, QResult};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

static PEAK: AtomicI64 = AtomicI64::new(0);

/// (used heap peak wmax mmap mphy syms symw)
pub fn stats() -> [i64; 8] {
    let mi = unsafe { libc::mallinfo2() };
    // blocks qhost keeps for reuse (kapi::kobj::pool) are free, as q's pool counts them
    let used = (mi.uordblks + mi.hblkhd) as i64 - crate::kapi::kobj::pool::cached_bytes() as i64;
    let heap = (mi.arena + mi.hblkhd) as i64;
    let peak = PEAK.fetch_max(heap, Ordering::SeqCst).max(heap);
    let mphy = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) * libc::sysconf(libc::_SC_PAGESIZE) };
    let (syms, symw) = crate::kapi::sym::stats();
    [
        used,
        heap,
        peak,
        0,
        0,
        mphy as i64,
        syms as i64,
        symw as i64,
    ]
}

/// `.Q.w[]`'s dictionary.
pub fn qw() -> KObj {
    let keys = [
        "used", "heap", "peak", "wmax", "mmap", "mphy", "syms", "symw",
    ];
    KObj::dict(KObj::syms(&keys), KObj::from_slice(KJ, &stats()))
}

/// `\w`: used heap peak wmax mmap mphy; `\w 0` and `\w 1`: syms symw.
pub fn command(rest: &str) -> QResult {
    let s = stats();
    match rest {
        "" => Ok(KObj::from_slice(KJ, &s[..6])),
        "0" | "1" => Ok(KObj::from_slice(KJ, &s[6..])),
        _ => Err(err("nyi")),
    }
}

extern "C" fn qw_dl(_x: K) -> K {
    qw().into_raw()
}

/// Define `.Q.w` (a function of one ignored argument, called as `.Q.w[]`).
pub fn define() {
    let f = unsafe { crate::kapi::exports::dl(qw_dl as *const libc::c_void, 1) };
    super::globals::set_global(".Q.w", KObj::from_raw(f).unwrap());
}

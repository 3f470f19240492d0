//! Conversion: a q float vector → tensor (`tensor x`) → back to q (`tensor h`), each direction
//! beside memcpy of the same bytes. ktorch copies once each way by design (q values are immutable
//! and may be shared, tensors change in place, q cannot adopt foreign memory), so the floor is one
//! memcpy into a freshly allocated buffer: the conversion must allocate its destination too. Every
//! timed call also releases what it made (the tensor through ktorch's `free`, the q vector with
//! r0, the buffer with free), so all sides pay allocate + copy + release.
//!
//! For information also: memcpy into a buffer allocated once and touched (no allocation at all);
//! memcpy into a fresh 64-byte-aligned buffer, as libtorch allocates a tensor's storage (glibc's
//! memcpy slows down by about half when the destination sits a few bytes *after* the source
//! modulo 4096, "4K aliasing": q's data at offset 32 of a page and a tensor's at offset 64 are
//! such a pair; ktorch copies those backward, see src/cxx/memcopy.rs); and calloc + memcpy, what
//! tensor → q would cost with a ktn that zeroes (qhost's did until it was made to allocate as
//! kdb+'s does: calloc zeroes memory that malloc reuses, a fresh mmap is zero already).
use std::hint::black_box;

use qhost::kapi::*;

use crate::measure::{interleaved, Case};
use crate::report::{size, Bound, Report};
use crate::Ctx;

const BENCH: &str = "conversion";

pub fn run(ctx: &Ctx, rep: &mut Report) -> Result<(), String> {
    for &n in &ctx.conv_sizes {
        one(ctx, n, rep)?;
    }
    Ok(())
}

fn one(ctx: &Ctx, n: i64, rep: &mut Report) -> Result<(), String> {
    let kt = &ctx.ktorch;
    let bytes = n as usize * 8;
    // the q vector: type 9, filled (so its pages are touched) as q would have it
    let x = KObj::vector(KF, n);
    for (i, v) in x.slice_mut::<f64>().iter_mut().enumerate() {
        *v = i as f64;
    }
    let h = kt.call("tensor", &x)?; // held for the tensor → q direction
    let back = kt.call("tensor", &h)?;
    if back.t() != KF || back.len() != n || back.slice::<f64>()[n as usize - 1] != (n - 1) as f64 {
        return Err(format!(
            "tensor round trip of {n} floats did not give them back"
        ));
    }
    drop(back);
    let src = x.slice::<u8>().as_ptr();
    let mut touched = vec![1u8; bytes]; // written, so its pages are in place
    let dst = touched.as_mut_ptr();
    let (tensor, free) = (kt.f1("tensor"), kt.f1("free"));
    let (xp, hp) = (x.as_ptr(), h.as_ptr());
    let mut cases = [
        Case::new("memcpy, fresh buffer", || unsafe {
            let p = libc::malloc(bytes);
            libc::memcpy(p, src as *const libc::c_void, bytes);
            black_box(p);
            libc::free(p);
        }),
        Case::new("memcpy, pre-touched buffer", || unsafe {
            libc::memcpy(dst as *mut libc::c_void, src as *const libc::c_void, bytes);
            black_box(dst);
        }),
        Case::new("memcpy, fresh 64-aligned buffer", || unsafe {
            let mut p = std::ptr::null_mut();
            assert_eq!(libc::posix_memalign(&mut p, 64, bytes), 0);
            libc::memcpy(p, src as *const libc::c_void, bytes);
            black_box(p);
            libc::free(p);
        }),
        Case::new("calloc + memcpy", || unsafe {
            let p = libc::calloc(1, bytes);
            libc::memcpy(p, src as *const libc::c_void, bytes);
            black_box(p);
            libc::free(p);
        }),
        Case::new("q→tensor: tensor x; free h", || unsafe {
            let r = tensor(xp);
            assert!(!r.is_null(), "tensor x failed");
            let f = free(r);
            r0(f);
            r0(r);
        }),
        Case::new("tensor→q: tensor h", || unsafe {
            let r = tensor(hp);
            assert!(!r.is_null(), "tensor h failed");
            r0(r);
        }),
    ];
    let plan = if n >= 100_000_000 {
        ctx.plan_big
    } else {
        ctx.plan
    };
    let s = interleaved(&mut cases, plan);
    drop(cases);
    drop(touched);
    kt.call("free", &h)?;
    drop(h);
    drop(x);

    let gbs = |ns: f64| format!("{:.2} GB/s", bytes as f64 / ns);
    let floor = s[0].median;
    let sz = size(n);
    let names = [
        "memcpy, fresh buffer (floor)",
        "memcpy, pre-touched buffer",
        "memcpy, fresh 64-aligned buffer (as libtorch)",
        "calloc + memcpy (as a zeroing ktn)",
        "q→tensor: tensor x, then free",
        "tensor→q: tensor h, then r0",
    ];
    for (i, c) in names.iter().enumerate() {
        let ratio = if i == 0 {
            "1.00× memcpy".to_string()
        } else {
            format!("{:.2}× memcpy", floor / s[i].median)
        };
        rep.row(BENCH, c, &sz, Some(s[i]), gbs(s[i].median), ratio);
    }
    for (i, dir) in [(4, "q→tensor"), (5, "tensor→q")] {
        rep.target(
            format!("{dir} n={sz}: GB/s vs memcpy (fresh)"),
            Some(floor / s[i].median),
            Bound::AtLeast(0.8),
        );
    }
    Ok(())
}

/// r0 as q's C API names it (qhost's export).
unsafe fn r0(x: K) {
    qhost::kapi::exports::r0(x);
}

//! sd1/sd0: callbacks on readable file descriptors, as q's main loop runs them. qhost's main
//! loop (the REPL, and after a script) calls `poll_fds`; a callback runs on the main thread
//! between inputs, never inside another evaluation, as in q.
use std::sync::Mutex;

use libc::c_int;

use super::{set_error, K};
use crate::kapi::kobj::{alloc, atom, decref, KI};

type Callback = unsafe extern "C" fn(c_int) -> K;

static FDS: Mutex<Vec<(c_int, Callback)>> = Mutex::new(Vec::new());

pub(super) unsafe fn register(d: c_int, f: Option<Callback>) -> K {
    // q: a negative descriptor asks for the socket to be made non-blocking.
    let fd = d.abs();
    let Some(f) = f else {
        // KX: "On error, NULL is returned and d is closed."
        libc::close(fd);
        set_error("sd1: null callback");
        return std::ptr::null_mut();
    };
    if libc::fcntl(fd, libc::F_GETFD) < 0 {
        set_error(&format!("sd1: bad file descriptor {fd}"));
        return std::ptr::null_mut();
    }
    if d < 0 {
        let fl = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, fl | libc::O_NONBLOCK);
    }
    let mut t = FDS.lock().unwrap_or_else(|e| e.into_inner());
    t.retain(|(x, _)| *x != fd);
    t.push((fd, f));
    // KX: "On success, sd1 returns a K object of type integer, containing d."
    let x = alloc(-KI, 0);
    *atom::<c_int>(x) = d;
    x
}

pub(super) unsafe fn unregister(d: c_int, close: bool) {
    let fd = d.abs();
    FDS.lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|(x, _)| *x != fd);
    if close {
        libc::close(fd);
    }
}

/// Descriptors with a callback registered (the main loop waits on these and on stdin).
pub fn registered_fds() -> Vec<c_int> {
    FDS.lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(d, _)| *d)
        .collect()
}

/// Wait up to `timeout_ms` (0: don't wait, -1: forever) for registered descriptors to become
/// readable, and run the callback of each that is; answers how many ran. A callback's result
/// is released; an error it answers is printed as q prints an unhandled error.
pub fn poll_fds(timeout_ms: i32) -> usize {
    let regs: Vec<(c_int, Callback)> = FDS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if regs.is_empty() {
        return 0;
    }
    let mut pfds: Vec<libc::pollfd> = regs
        .iter()
        .map(|(d, _)| libc::pollfd {
            fd: *d,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let n = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, timeout_ms) };
    if n <= 0 {
        return 0;
    }
    let mut ran = 0;
    for (p, (d, f)) in pfds.iter().zip(regs) {
        if p.revents == 0 {
            continue;
        }
        // A callback run earlier in this round may have removed this one.
        if !registered_fds().contains(&d) {
            continue;
        }
        let r = unsafe { f(d) };
        if !r.is_null() && unsafe { (*r).t } == crate::kapi::kobj::ERR {
            let m = unsafe { *crate::kapi::kobj::atom::<*const libc::c_char>(r) };
            eprintln!("'{}", crate::kapi::sym::text(m));
        } else if r.is_null() {
            // a (K)0 with krr pending is an error q prints; without, nothing to return
            if let Some(m) = super::take_error() {
                eprintln!("'{m}");
            }
        }
        unsafe { decref(r) };
        ran += 1;
    }
    ran
}

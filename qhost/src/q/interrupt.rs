//! SIGINT as q handles it: the running expression stops with the q error 'stop ("Current
//! operation stopped due to user interrupt (Ctrl-c)", KX errors page) and the session lives on.
//!
//! The handler (installed with sigaction) only sets a flag; the evaluator checks it at every
//! step (`eval::step`, which every evaluation and application, adverb iterations included, goes
//! through). An extension may install its own handler around a long call and restore ours
//! after (ktorch does): nothing else here depends on the handler being in place.
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{err, QErr};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_sigint(_sig: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Install the SIGINT handler (a plain flag setter) for the whole process.
pub fn install() {
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as usize;
        sa.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut());
    }
}

/// 'stop if an interrupt came since the last check (the flag is then cleared).
#[inline]
pub fn check() -> Result<(), QErr> {
    if INTERRUPTED.load(Ordering::Relaxed) && INTERRUPTED.swap(false, Ordering::SeqCst) {
        return Err(err("stop"));
    }
    Ok(())
}

/// Forget an interrupt that came while nothing ran (at the REPL's prompt).
pub fn clear() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// Whether an interrupt is pending (the idle loop returns to its caller on one).
pub fn pending() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

// The other check at every step: machine stack left (deep q recursion is 'stack, as in q, not
// a crash). Here rather than in the evaluator so that the parser and the iterators below it
// check it too.
thread_local! {
    /// The lowest address of this thread's stack (0: not looked up yet, 1: unknown).
    static STACK_LO: Cell<usize> = const { Cell::new(0) };
}

/// Whether enough machine stack is left to go deeper (deep recursion is 'stack, not a crash).
pub fn stack_ok() -> bool {
    // a real stack slot (a `&0u8` literal would be promoted to a static)
    let probe = 0u8;
    let here = std::hint::black_box(&probe) as *const u8 as usize;
    let lo = STACK_LO.with(|c| {
        if c.get() == 0 {
            c.set(stack_low());
        }
        c.get()
    });
    lo == 1 || here > lo + 512 * 1024
}

fn stack_low() -> usize {
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return 1;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let r = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if r != 0 || addr.is_null() {
            return 1;
        }
        addr as usize
    }
}

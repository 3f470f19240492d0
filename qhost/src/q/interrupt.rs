//! SIGINT as q handles it: the running expression stops with the q error 'stop ("Current
//! operation stopped due to user interrupt (Ctrl-c)", KX errors page) and the session lives on.
//!
//! The handler (installed with sigaction) only sets a flag; the evaluator checks it at every
//! step (`eval::step`, which every evaluation and application, adverb iterations included, goes
//! through). An extension may install its own handler around a long call and restore ours
//! after (ktorch does): nothing else here depends on the handler being in place.
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

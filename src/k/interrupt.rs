//! Ctrl-C inside a long ktorch call. q acts on SIGINT only between the expressions it evaluates,
//! so a training call of an hour could not be stopped without killing q and losing the session.
//! Around such a call (`scope`) ktorch puts its own SIGINT handler, which only sets a flag; the
//! call looks at the flag where it can stop cleanly (`check`, at batch and iteration boundaries)
//! and ends with the error `'name: stop` (`'run: stop`): the word q uses for its own interrupt,
//! after the function's name, since KX reserves `krr("stop")` itself for q. Outside those calls
//! q's handler is untouched: the scope restores it, and hands on a SIGINT that arrived too late
//! for a check.
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The error of an interrupted call: the guard signals it as `'name: stop`.
#[derive(Debug)]
pub struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stop")
    }
}
impl std::error::Error for Stop {}

/// Whether `e` (or what it wraps) is an interrupt.
pub fn is_stop(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<Stop>())
}

static PENDING: AtomicBool = AtomicBool::new(false);
/// q's handler, saved while ours is in place.
static SAVED: Mutex<Option<libc::sigaction>> = Mutex::new(None);

thread_local! {
    /// Nesting of scopes on this thread (a callback module inside `run` may call `run` again).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

extern "C" fn on_sigint(_: libc::c_int) {
    // async-signal-safe: one atomic store
    PENDING.store(true, Ordering::SeqCst);
}

/// An error `'stop` if SIGINT came since the scope began (the flag is taken).
pub fn check() -> anyhow::Result<()> {
    if DEPTH.with(|d| d.get()) > 0 && PENDING.swap(false, Ordering::SeqCst) {
        return Err(Stop.into());
    }
    Ok(())
}

/// Run `f` with ktorch's SIGINT handler in place. Only on q's main thread: q delivers SIGINT to
/// it, and a worker (async calls, peach) must not change the process's handlers.
pub fn scope<R>(f: impl FnOnce() -> R) -> R {
    if !super::thread::on_q_thread() {
        return f();
    }
    struct Restore;
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = DEPTH.with(|d| {
                d.set(d.get() - 1);
                d.get() == 0
            });
            if outer {
                uninstall();
            }
        }
    }
    if DEPTH.with(|d| d.get()) == 0 {
        install();
    }
    DEPTH.with(|d| d.set(d.get() + 1));
    let _restore = Restore;
    f()
}

fn install() {
    PENDING.store(false, Ordering::SeqCst);
    unsafe {
        let mut ours: libc::sigaction = std::mem::zeroed();
        ours.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as usize;
        libc::sigemptyset(&mut ours.sa_mask);
        ours.sa_flags = libc::SA_RESTART;
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGINT, &ours, &mut old) == 0 {
            *SAVED.lock().unwrap_or_else(|e| e.into_inner()) = Some(old);
        }
    }
}

/// q's handler back; a SIGINT that arrived after the last check goes on to it, so q still stops
/// the expression it is running (unless that handler is the default, which would end the
/// process, or ignores the signal).
fn uninstall() {
    let Some(old) = SAVED.lock().unwrap_or_else(|e| e.into_inner()).take() else {
        return;
    };
    unsafe {
        libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut());
        if PENDING.swap(false, Ordering::SeqCst)
            && old.sa_sigaction != libc::SIG_DFL
            && old.sa_sigaction != libc::SIG_IGN
        {
            libc::raise(libc::SIGINT);
        }
    }
}

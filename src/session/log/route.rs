//! Where log messages go: stderr (the default, one line `ktorch <level>: <message>` each),
//! nowhere, or a q function called with `(level symbol; message string)`.
//!
//! Only the q thread may call q, and only where ktorch holds no lock of its own (a route
//! function may call ktorch, which would then wait on that lock forever). So a message for a q
//! function is queued, from whatever thread and at whatever point it is logged, and delivered on
//! the q thread at the guard's edges: when a ktorch call starts, and before it returns or signals
//! its error. Messages for stderr are written at once, from any thread.
//!
//! While a route function runs, what ktorch logs (the function's own ktorch calls) goes to
//! stderr rather than into the function again; a q error in the function is not passed on: that
//! message goes to stderr, saying why.
use std::cell::Cell;
use std::collections::VecDeque;
use std::ffi::CString;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use super::Level;
use crate::k::{call, make, read, Owned, K};

/// A q function value kept alive (one reference of ours) while it is the route. Only the q
/// thread reads or releases it; other threads look at `KIND` alone.
pub struct QFn(Owned);
// SAFETY: the value is only touched on the q thread (`target`, `current`, `set` run there);
// other threads read `KIND` alone, so the K never crosses threads in use.
#[allow(unsafe_code)]
unsafe impl Send for QFn {}

pub enum Route {
    None,
    Stderr,
    /// A q function value (lambda, projection, ..), one reference owned.
    Function(QFn),
    /// The name of a q function, looked up at each message (so redefining it takes effect).
    Name(String),
}

const NONE: u8 = 0;
const STDERR: u8 = 1;
const FUNCTION: u8 = 2;

/// The route's kind, for a lock-free decision on any thread.
static KIND: AtomicU8 = AtomicU8::new(STDERR);
static ROUTE: Mutex<Route> = Mutex::new(Route::Stderr);

/// Messages waiting for the q function, oldest first; `PENDING` says whether there are any.
static QUEUE: Mutex<VecDeque<(Level, String)>> = Mutex::new(VecDeque::new());
static PENDING: AtomicBool = AtomicBool::new(false);
/// A queue nobody drains (a q thread busy for long while workers log) must not grow for ever:
/// beyond this many, messages are counted and dropped, and the count is logged when delivery
/// resumes.
const QUEUE_MAX: usize = 10_000;
static DROPPED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set while this thread runs the route function.
    static IN_ROUTE: Cell<bool> = const { Cell::new(false) };
}

fn lock<T>(m: &'static Mutex<T>) -> MutexGuard<'static, T> {
    // Nothing here leaves the data half-updated, so a poisoned lock is still good.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub use crate::k::thread::{on_q_thread, set_q_thread};

fn in_route() -> bool {
    IN_ROUTE.with(|f| f.get())
}

/// One line on stderr, written whole.
pub fn write_stderr(level: Level, msg: &str) {
    let _ = writeln!(std::io::stderr().lock(), "ktorch {}: {msg}", level.name());
}

/// Send one message (its level already checked) on its way.
pub fn send(level: Level, msg: &str) {
    match KIND.load(Ordering::Relaxed) {
        NONE => {}
        FUNCTION if !in_route() => {
            let mut q = lock(&QUEUE);
            if q.len() < QUEUE_MAX {
                q.push_back((level, msg.to_string()));
                PENDING.store(true, Ordering::Release);
            } else {
                DROPPED.fetch_add(1, Ordering::Relaxed);
            }
        }
        _ => write_stderr(level, msg),
    }
}

/// Deliver queued messages, if any, to the route function: only on the q thread, and never
/// from inside the route function itself.
#[inline]
pub fn deliver() {
    if PENDING.load(Ordering::Acquire) {
        deliver_queued();
    }
}

fn deliver_queued() {
    if !on_q_thread() || in_route() {
        return;
    }
    loop {
        let next = {
            let mut q = lock(&QUEUE);
            let m = q.pop_front();
            if q.is_empty() {
                PENDING.store(false, Ordering::Release);
            }
            m
        };
        let Some((level, msg)) = next else { break };
        deliver_one(level, &msg);
        let dropped = DROPPED.swap(0, Ordering::Relaxed);
        if dropped > 0 {
            deliver_one(
                Level::Warn,
                &format!("log queue full: {dropped} message(s) dropped"),
            );
        }
    }
}

/// Where the current route sends a message now (the route may have changed since it was queued).
enum Target {
    Nowhere,
    Stderr,
    Function(Owned),
    Name(String),
}

fn target() -> Target {
    match &*lock(&ROUTE) {
        Route::None => Target::Nowhere,
        Route::Stderr => Target::Stderr,
        // our own reference for the call: the function may replace the route while it runs
        Route::Function(f) => Target::Function(f.0.clone()),
        Route::Name(n) => Target::Name(n.clone()),
    }
}

fn deliver_one(level: Level, msg: &str) {
    let result = match target() {
        Target::Nowhere => return,
        Target::Stderr => return write_stderr(level, msg),
        Target::Function(f) => route_call(|l, m| call::apply(f.k(), vec![l, m]), level, msg),
        Target::Name(n) => match CString::new(n) {
            Ok(name) => route_call(|l, m| call::named(&name, vec![l, m]), level, msg),
            Err(_) => Err("function name holds a null byte".into()),
        },
    };
    if let Err(e) = result {
        write_stderr(level, &format!("{msg} (log function failed: {e})"));
    }
}

/// Call the route function through `apply`, which takes (and consumes) the two arguments,
/// level symbol and message string; ktorch's own logging goes to stderr meanwhile. A q error
/// comes back as its text.
fn route_call(
    apply: impl FnOnce(Owned, Owned) -> Option<Owned>,
    level: Level,
    msg: &str,
) -> Result<(), String> {
    IN_ROUTE.with(|f| f.set(true));
    let r = apply(
        Owned::new(make::symbol(level.name())),
        Owned::new(make::string(msg)),
    );
    IN_ROUTE.with(|f| f.set(false));
    let Some(r) = r else {
        return Err("no result".into());
    };
    match read::error_text(r.k()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The current route as q sees it: `stderr, `none, the function, or its name.
pub fn current() -> K {
    match &*lock(&ROUTE) {
        Route::None => make::symbol("none"),
        Route::Stderr => make::symbol("stderr"),
        Route::Function(f) => make::share(f.0.k()),
        Route::Name(n) => make::symbol(n),
    }
}

/// Replace the route (on the q thread). A function value `f` passed in is one new reference,
/// now the route's; the old route's reference is released.
pub fn set(route: Route) {
    let kind = match route {
        Route::None => NONE,
        Route::Stderr => STDERR,
        Route::Function(_) | Route::Name(_) => FUNCTION,
    };
    if kind == FUNCTION {
        set_q_thread();
    }
    let old = std::mem::replace(&mut *lock(&ROUTE), route);
    KIND.store(kind, Ordering::Relaxed);
    drop(old); // a function's reference released
}

/// Wrap a q function value for the route (taking a new reference to it).
pub(crate) fn function(f: Owned) -> Route {
    Route::Function(QFn(f))
}

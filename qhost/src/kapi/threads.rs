//! Which thread may call which part of the k.h API, as KX documents it (capiref, "C client for
//! q", peach):
//! - q's main thread (here: the interpreter thread, claimed by main.rs at start) may call
//!   everything;
//! - a secondary thread (peach under `-s N`) evaluates q but may not call `k(0,..)`, `sd1`,
//!   `sd0`/`sd0x` ("Should only be called from main thread") nor update globals ('noupdate);
//! - any other thread (one an extension started) may make and free K objects in its own pool
//!   (and should call `m9` when done), may intern symbols only after `setm(1)` ("to allow
//!   symbols to be created in other threads, setm(1) should be called from the main thread
//!   before any other threads are started"), and may not evaluate q at all.
//!
//! A call from a thread not allowed answers a q error; under QHOST_STRICT=1 it is fatal, with a
//! message naming the function and the thread, so that an extension's bug cannot pass unseen.
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Role {
    Main,
    Secondary,
    Other,
}

thread_local! {
    static ROLE: Cell<Option<Role>> = const { Cell::new(None) };
}

/// pthread id of q's main thread; 0 while none has claimed it.
static MAIN: AtomicU64 = AtomicU64::new(0);

/// setm's flag: whether other threads may intern symbols.
pub static SETM: AtomicI32 = AtomicI32::new(0);

/// Make the calling thread q's main thread (main.rs's interpreter thread; an in-process test).
pub fn claim_main() {
    let me = unsafe { libc::pthread_self() } as u64;
    MAIN.store(me, Ordering::SeqCst);
    ROLE.with(|r| r.set(Some(Role::Main)));
}

/// Mark the calling thread as a peach secondary thread.
pub fn set_secondary() {
    ROLE.with(|r| r.set(Some(Role::Secondary)));
}

/// The calling thread's role. Until a host claims q's main thread (qhost's main.rs does, at
/// start) every thread counts as main: qhost used as a library in-process (tests that call the
/// API from their own threads, each its own q session) is not policed.
pub fn role() -> Role {
    if let Some(r) = ROLE.with(|r| r.get()) {
        return r;
    }
    let main = MAIN.load(Ordering::SeqCst);
    if main == 0 {
        return Role::Main;
    }
    let me = unsafe { libc::pthread_self() } as u64;
    let r = if main == me { Role::Main } else { Role::Other };
    ROLE.with(|c| c.set(Some(r)));
    r
}

/// Whether this is a peach secondary thread (globals are read-only there).
pub fn is_secondary() -> bool {
    ROLE.with(|r| r.get()) == Some(Role::Secondary)
}

fn thread_name() -> String {
    let t = std::thread::current();
    t.name()
        .map(str::to_string)
        .unwrap_or_else(|| format!("{:?}", t.id()))
}

/// Refuse `what` (a k.h function name) unless called from q's main thread. Answers the q error
/// text; fatal under strict mode.
pub fn main_only(what: &str) -> Result<(), String> {
    match role() {
        Role::Main => Ok(()),
        r => refuse(what, r, "only q's main thread may call it"),
    }
}

/// Refuse evaluation (`dot`) from a thread that is neither main nor secondary.
pub fn evaluating(what: &str) -> Result<(), String> {
    match role() {
        Role::Main | Role::Secondary => Ok(()),
        r => refuse(
            what,
            r,
            "only q's main thread (or peach's secondary threads) may evaluate q",
        ),
    }
}

/// Interning symbols from a thread q did not start needs setm(1) first.
pub fn interning(what: &str) -> Result<(), String> {
    match role() {
        Role::Other if SETM.load(Ordering::Relaxed) == 0 => refuse(
            what,
            Role::Other,
            "interning symbols off q's threads needs setm(1) first",
        ),
        _ => Ok(()),
    }
}

fn refuse(what: &str, r: Role, why: &str) -> Result<(), String> {
    let kind = match r {
        Role::Secondary => "a peach secondary thread",
        _ => "a thread q did not start",
    };
    let msg = format!("{what}: called from {kind} ({}): {why}", thread_name());
    if super::strict::on() {
        super::strict::fatal(&msg);
    }
    Err(msg)
}

/// True while peach's secondary threads run: reference counts are then changed atomically,
/// because several threads may r1/r0 the same (global) object at once.
pub static PARALLEL: AtomicBool = AtomicBool::new(false);

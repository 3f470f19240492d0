//! ktorch's log: messages at five levels (as the seed library's `log_level`: trace 0, debug 1,
//! info 2, warn 3, error 4; info by default) sent to one route (`route.rs`): stderr, nowhere, or
//! a q function. q sets both with `loglevel` and `logto` (`api.rs`); libtorch's own warnings
//! arrive through a C++ handler (`warnings.rs`).
//!
//! What ktorch logs: `trace` every q call by name and `debug` every error signalled to q (the
//! guard, src/k/guard.rs: q has the error itself), `debug` objects made and freed
//! (src/registry.rs), `info` CUDA graphs recorded (src/device), `warn`
//! libtorch's warnings, `error` failures q cannot be told of; other modules log through
//! [`klog!`](crate::klog) or [`info`] and its siblings.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use std::sync::atomic::{AtomicU8, Ordering};

pub mod api;
pub mod route;
pub mod warnings;

pub use route::deliver;

/// A message's level; a message is kept when its level is at least the current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Trace = 0,
    Debug = 1,
    Info = 2,
    Warn = 3,
    Error = 4,
}

pub const LEVELS: [Level; 5] = [
    Level::Trace,
    Level::Debug,
    Level::Info,
    Level::Warn,
    Level::Error,
];

impl Level {
    /// The q name of the level (its symbol in `loglevel` and in a route function's first argument).
    pub fn name(self) -> &'static str {
        match self {
            Level::Trace => "trace",
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }

    pub fn from_name(s: &str) -> Option<Level> {
        LEVELS.iter().copied().find(|l| l.name() == s)
    }

    pub fn from_number(n: i64) -> Option<Level> {
        usize::try_from(n).ok().and_then(|i| LEVELS.get(i).copied())
    }
}

/// The current level as its number: one relaxed load decides whether a message is kept, so a
/// level that is off costs nothing more.
static LEVEL: AtomicU8 = AtomicU8::new(Level::Info as u8);

pub fn level() -> Level {
    Level::from_number(LEVEL.load(Ordering::Relaxed) as i64).unwrap_or(Level::Info)
}

pub fn set_level(l: Level) {
    LEVEL.store(l as u8, Ordering::Relaxed);
}

/// Is a message at `l` kept?
#[inline]
pub fn enabled(l: Level) -> bool {
    l as u8 >= LEVEL.load(Ordering::Relaxed)
}

/// Log `msg` at `level` (from any thread): nothing happens unless the level is on.
pub fn log(level: Level, msg: &str) {
    if enabled(level) {
        route::send(level, msg);
    }
}

pub fn trace(msg: &str) {
    log(Level::Trace, msg)
}
pub fn debug(msg: &str) {
    log(Level::Debug, msg)
}
pub fn info(msg: &str) {
    log(Level::Info, msg)
}
pub fn warn(msg: &str) {
    log(Level::Warn, msg)
}
pub fn error(msg: &str) {
    log(Level::Error, msg)
}

/// `klog!(Level::Info, "CUDA graph captured on device {d}")`: log a formatted message; the text
/// is only formatted when the level is on.
#[macro_export]
macro_rules! klog {
    ($level:expr, $($arg:tt)+) => {{
        let level: $crate::session::log::Level = $level;
        if $crate::session::log::enabled(level) {
            $crate::session::log::log(level, &format!($($arg)+));
        }
    }};
}

/// Set up at load (`fns`), on the q thread: give the guard its log and settings, remember this
/// thread as the one that may call q, and route libtorch's warnings on it into the log.
pub fn init() {
    crate::k::hooks::install(crate::k::hooks::Hooks {
        enter,
        deliver,
        debugging: || enabled(Level::Debug),
        debug,
        stackframe: crate::session::setting::stackframe,
        range_begin: crate::session::profile::range_begin,
        range_end: crate::session::profile::range_end,
        describe: crate::registry::describe,
    });
    route::set_q_thread();
    warnings::install();
}

/// The guard's entry: the trace of the call, and delivery of what other threads queued.
#[inline]
pub fn enter(name: &str) {
    if LEVEL.load(Ordering::Relaxed) == Level::Trace as u8 {
        route::send(Level::Trace, name);
    }
    route::deliver();
}

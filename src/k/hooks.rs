//! What `k` asks of the layers above it: the log (a call's trace, its error, delivery of messages
//! other threads queued, the registry's debug lines) and the `stackframe` setting. The session
//! installs these at load (`session::log::init`), so that `k` and the registry, the lowest
//! layers, import nothing above them (docs/architecture.md).
use std::sync::OnceLock;

pub struct Hooks {
    /// A call starts (its name): its trace, and delivery of what other threads queued.
    pub enter: fn(&str),
    /// Deliver what other threads queued for a q route function.
    pub deliver: fn(),
    /// Is the log at debug level (or finer)? Messages are only formatted when it is.
    pub debugging: fn() -> bool,
    /// Log a message at debug level.
    pub debug: fn(&str),
    /// Keep libtorch's C++ backtrace after an error's first line?
    pub stackframe: fn() -> bool,
    /// A call starts while a profile runs: open its range (`ktorch::name` in the profile), a
    /// token for `range_end` (0: no profile, nothing opened).
    pub range_begin: fn(&'static str) -> usize,
    /// The call is over, however it ended: close the range `range_begin` opened.
    pub range_end: fn(usize),
    /// What an argument is, for an error's "given ...": a handle's class, else its q type.
    pub describe: fn(super::K) -> String,
}

static HOOKS: OnceLock<Hooks> = OnceLock::new();

/// Before `install`: no log, first lines only (the settings' defaults).
static NONE: Hooks = Hooks {
    enter: |_| {},
    deliver: || {},
    debugging: || false,
    debug: |_| {},
    stackframe: || false,
    range_begin: |_| 0,
    range_end: |_| {},
    describe: super::read::describe,
};

/// Install the log and settings (once per load; later calls change nothing).
pub fn install(h: Hooks) {
    let _ = HOOKS.set(h);
}

pub fn hooks() -> &'static Hooks {
    HOOKS.get().unwrap_or(&NONE)
}

/// What a layer above keeps only for the length of one q call (tensor::known: index ranges that
/// hold CUDA tensors), let go when each guarded call ends, however it ends. Set by that layer the
/// first time it keeps something (one such layer today).
static CALL_END: OnceLock<fn()> = OnceLock::new();

pub fn on_call_end(f: fn()) {
    let _ = CALL_END.set(f);
}

pub(crate) fn call_end() {
    if let Some(f) = CALL_END.get() {
        f()
    }
}

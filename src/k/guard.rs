//! The guard around every exported function: nothing unwinds across the FFI boundary. Rust
//! panics and libtorch errors (tch's `f_` methods return them; the others panic) become q errors
//! through `krr`, with text that names the function and outlives the call (`krr` keeps only the
//! pointer: the text lives in a per-thread ring of buffers, see `error_text`).
use std::cell::RefCell;
use std::ffi::CString;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::hooks::hooks;
use super::{native, KResult, K};

thread_local! {
    /// The last panic's message, recorded by our hook for the guard to report.
    static PANIC_MSG: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replace the default panic hook (which prints to stderr) with one that records the message:
/// a caught panic is reported once, as the q error. Each cdylib has its own std, so this does
/// not touch the host's hook.
pub fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                s.to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "internal error".to_string()
            };
            PANIC_MSG.with(|m| *m.borrow_mut() = Some(msg));
        }));
    });
}

/// Run `f` on the argument `x` as function `name`; any error or panic becomes `'name: message`.
/// The log sees the call (trace) and its error (error); messages queued for a q route function
/// are delivered here, at the call's edges, where ktorch holds no lock (see session::log::route).
pub fn guard(name: &'static str, x: K, f: fn(K) -> KResult) -> K {
    let log = hooks();
    (log.enter)(name);
    // closed on every way out, a panic or a q error too
    struct Range(usize, fn(usize));
    impl Drop for Range {
        fn drop(&mut self) {
            if self.0 != 0 {
                (self.1)(self.0)
            }
        }
    }
    let _range = Range((log.range_begin)(name), log.range_end);
    struct CallEnd;
    impl Drop for CallEnd {
        fn drop(&mut self) {
            super::hooks::call_end()
        }
    }
    let _end = CallEnd;
    match catch_unwind(AssertUnwindSafe(|| f(x))) {
        Ok(Ok(r)) => {
            (log.deliver)();
            r
        }
        // an interrupt reads `'name: stop`: KX reserves krr("stop") (and "abort", "stack") for q
        // itself, so ktorch may not signal q's own 'stop
        Ok(Err(e)) if super::interrupt::is_stop(&e) => signal(name, "stop"),
        Ok(Err(e)) => signal(name, &format!("{e:#}")),
        Err(_) => {
            let msg = PANIC_MSG
                .with(|m| m.borrow_mut().take())
                .unwrap_or_else(|| "internal error".into());
            signal(name, &torch_words(&msg))
        }
    }
}

/// libtorch's own message from a panic of tch's (`called `Result::unwrap()` on an `Err` value:
/// Torch("...")`, the Debug form of its error): tch panics so when a call fails inside one of
/// its infallible helpers, and even in its `f_` methods when a Scalar argument is freed while
/// the call's error is pending (the fuzzer found `dist 2 -0W 4` answering that text). Other
/// panic messages are kept.
fn torch_words(msg: &str) -> String {
    const PREFIX: &str = "called `Result::unwrap()` on an `Err` value: Torch(\"";
    match msg.strip_prefix(PREFIX) {
        Some(rest) => rest
            .strip_suffix("\")")
            .unwrap_or(rest)
            .replace("\\n", "\n")
            .replace("\\\"", "\"")
            .replace("\\\\", "\\"),
        None => msg.to_string(),
    }
}

/// Signal `'name: msg` to q, logged at debug first (q gets the error itself, so the log keeps it
/// only when asked for detail; a route function runs before krr, so the pending error is q's
/// last word). libtorch messages carry a C++ backtrace after the first
/// line: keep only the first unless the `stackframe` setting is on.
pub fn signal(name: &str, msg: &str) -> K {
    let log = hooks();
    let msg = if (log.stackframe)() {
        msg
    } else {
        msg.lines().next().unwrap_or("")
    };
    // tch prefixes libtorch's own message, also where ours wraps it (`copyparms: weight: ...`);
    // q users see libtorch's words as ktorch shows them.
    let msg = msg.replacen("Internal torch error: ", "", 1);
    let msg = msg.as_str();
    let text = if msg.starts_with(&format!("{name}:")) {
        msg.to_string()
    } else {
        format!("{name}: {msg}")
    };
    (log.debug)(&text);
    (log.deliver)();
    unsafe { native::krr(error_text(&text)) }
}

/// How many error texts a thread keeps alive at once. q reads an error's text when the C call
/// returns (to signal it, or to hand it to a trap's handler as a string), before that thread can
/// make another ktorch call; the ring only adds margin for a host that reads late.
const ERROR_SLOTS: usize = 8;

thread_local! {
    static ERRORS: RefCell<(usize, Vec<CString>)> = const { RefCell::new((0, Vec::new())) };
}

/// A pointer to `text` (nul-terminated) that stays valid until this thread has signalled
/// `ERROR_SLOTS` more errors. Not interned with `ss`: symbols are never freed, so a loop trapping
/// errors of changing text (sizes, names, values) would grow q's symbol table without bound.
fn error_text(text: &str) -> *mut libc::c_char {
    let c = CString::new(text.replace('\0', " ")).unwrap_or_default();
    ERRORS.with(|e| {
        let mut e = e.borrow_mut();
        let (next, slots) = &mut *e;
        let i = *next;
        *next = (i + 1) % ERROR_SLOTS;
        if slots.len() < ERROR_SLOTS {
            slots.push(c);
            slots.last().unwrap().as_ptr() as *mut _
        } else {
            slots[i] = c;
            slots[i].as_ptr() as *mut _
        }
    })
}

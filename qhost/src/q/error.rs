//! q errors: a signalled error carries q's name for it ('type 'length 'rank 'domain 'value 'nyi,
//! or any text from `'x` or an extension's krr).
// The error type lives with the values at the bottom (kapi::error): the C API signals and
// receives q errors without knowing the interpreter.
pub use crate::kapi::error::{err, ExitRequest, QErr, QResult};

thread_local! {
    /// Depth of `guard` calls on this thread: a panic inside one is answered, not printed.
    static GUARDED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Run interpreter work so that a panic (a bug in qhost) is answered as the q error 'nyi
/// (qhost cannot give q's answer there) instead of killing the process. `exit` unwinds through
/// here untouched. With QHOST_DEBUG set, the panic's message and place go to stderr.
pub fn guard<T>(f: impl FnOnce() -> Result<T, QErr>) -> Result<T, QErr> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(|g| g.get()) == 0 {
                prev(info)
            } else if std::env::var_os("QHOST_DEBUG").is_some() {
                eprintln!("qhost: internal error answered 'nyi: {info}");
            }
        }));
    });
    GUARDED.with(|g| g.set(g.get() + 1));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(g.get() - 1));
    match r {
        Ok(v) => v,
        Err(e) if e.is::<ExitRequest>() => std::panic::resume_unwind(e),
        Err(_) => Err(err("nyi")),
    }
}

//! Which thread may call into q. KX's rule: the k.h API is for q's main thread; secondary threads
//! (`peach` under `q -s N`) may allocate and free K objects but must not call `k(0,..)`, `dot` or
//! anything else that evaluates q. ktorch's code that calls q (a `callback` module's forward, a
//! q function given to `logto`) asks `on_q_thread` first and answers an error elsewhere.
use std::sync::OnceLock;
use std::thread::ThreadId;

static Q_THREAD: OnceLock<ThreadId> = OnceLock::new();

/// Record the calling thread as q's: `fns` does it at load (q's loader runs on the main thread),
/// as does setting a q function as the log's route. The first record stands.
pub fn set_q_thread() {
    let _ = Q_THREAD.set(std::thread::current().id());
}

/// Whether the calling thread is q's. Before any record (single functions loaded with `2:`
/// instead of `fns`), q's main thread is the process's first thread, whose id is the process id.
pub fn on_q_thread() -> bool {
    match Q_THREAD.get() {
        Some(t) => *t == std::thread::current().id(),
        None => unsafe { libc::gettid() == libc::getpid() },
    }
}

/// The calling thread's `pthread_self`, a number that no other live thread has (the registry's
/// lock records its holder with it: cheaper than a thread-local in a shared library).
pub fn pthread_id() -> usize {
    // pthread_self has no preconditions and cannot fail (POSIX)
    unsafe { libc::pthread_self() as usize }
}

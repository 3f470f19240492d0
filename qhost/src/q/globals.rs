//! q's global variables (the root namespace and dotted names, one map of full names): read,
//! set, removed, listed, and dropped before the leak check. A secondary thread of `peach` reads
//! the main thread's globals (the main thread waits meanwhile) and may not update them
//! ('noupdate). Below the evaluator, so that amend, qSQL, system commands and the main loop
//! reach globals without it.
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicPtr, Ordering};

use super::{err, QErr};
use crate::kapi::threads;
use crate::kapi::KObj;

thread_local! {
    static GLOBALS: RefCell<HashMap<String, KObj>> = RefCell::new(HashMap::new());
}

/// The main thread's globals while a peach runs (null otherwise).
static MAIN_GLOBALS: AtomicPtr<HashMap<String, KObj>> = AtomicPtr::new(std::ptr::null_mut());

pub fn get_global(n: &str) -> Option<KObj> {
    GLOBALS
        .with(|g| g.borrow().get(n).cloned())
        .or_else(|| main_global(n))
}

/// peach starts (true) or ends (false): its secondary threads read this (the main) thread's
/// globals meanwhile.
pub fn share_with_secondary(on: bool) {
    let p = if on {
        GLOBALS.with(|g| g.as_ptr())
    } else {
        std::ptr::null_mut()
    };
    MAIN_GLOBALS.store(p, Ordering::SeqCst);
}

/// Remove a global (`delete x from `.`, ref/delete.md); whether it was there.
pub fn remove_global(n: &str) -> bool {
    GLOBALS.with(|g| g.borrow_mut().remove(n).is_some())
}

pub fn set_global(n: &str, v: KObj) {
    // drop the old value after the borrow ends: its drop may run arbitrary frees only
    let old = GLOBALS.with(|g| g.borrow_mut().insert(n.to_string(), v));
    drop(old);
}

/// Global names (for `\v`-like listings and namespaces): those starting with `prefix`.
pub fn global_names(prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = GLOBALS.with(|g| {
        g.borrow()
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect()
    });
    v.sort();
    v
}

/// Drop every global (before the leak check at exit).
pub fn clear_globals() {
    let all: Vec<KObj> = GLOBALS.with(|g| g.borrow_mut().drain().map(|(_, v)| v).collect());
    drop(all);
}

/// A global of the main thread, read from a secondary thread during peach.
pub fn main_global(name: &str) -> Option<KObj> {
    if !threads::is_secondary() {
        return None;
    }
    let p = MAIN_GLOBALS.load(Ordering::SeqCst);
    if p.is_null() {
        return None;
    }
    // the main thread waits in `peach` and does not touch its globals until every secondary
    // thread is done; clones are atomic meanwhile
    unsafe { (*p).get(name).cloned() }
}

/// May this thread update a global? 'noupdate on a secondary thread.
pub fn may_update() -> Result<(), QErr> {
    if threads::is_secondary() {
        return Err(err("noupdate"));
    }
    Ok(())
}

thread_local! {
    /// The local names (arguments first) of the lambdas running on this thread, innermost last;
    /// see `in_running_lambda`.
    static RUNNING: std::cell::RefCell<Vec<std::sync::Arc<Vec<String>>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether `name` is an argument or local of the innermost lambda running on this thread. A
/// functional query's parse tree (basics/funsql.md) names columns and "other variables" by
/// symbol, and KX does not say whether such a symbol can read the calling lambda's locals: the
/// functional forms answer 'nyi for a symbol that names no column but a local (q::funsql).
pub fn in_running_lambda(name: &str) -> bool {
    RUNNING.with(|r| {
        r.borrow()
            .last()
            .is_some_and(|l| l.iter().any(|n| n == name))
    })
}

/// A lambda's entry in `RUNNING` while it runs: pushed by `enter`, popped when dropped, however
/// the call ends.
pub struct Running;

impl Running {
    pub fn enter(locals: std::sync::Arc<Vec<String>>) -> Running {
        RUNNING.with(|r| r.borrow_mut().push(locals));
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.with(|r| {
            r.borrow_mut().pop();
        });
    }
}

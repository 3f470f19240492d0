//! `peach` on secondary threads, with q's rules (KX: basics/peach, syscmds `\s`, errors):
//! - `qhost -s N` gives N secondary threads (`\s` shows them, `\s n` lowers them, `\s 0N` shows
//!   the maximum); without, `peach` is `each` on the main thread;
//! - "The result of m':[x] is exactly the same as m'[x]"; a one-item list runs on the main
//!   thread;
//! - on a secondary thread globals are read-only: an update signals 'noupdate; the C API there
//!   may not call `k(0,..)` nor `sd1`/`sd0` (see kapi::threads);
//! - the first error (in item order) is the error of the whole `peach`.
//!
//! While secondary threads run, the main thread waits in `peach` and changes nothing, so they
//! read its globals directly (`main_global`); reference counts are changed atomically meanwhile
//! (kapi::threads::PARALLEL), since several threads may hold the same object.
use std::sync::atomic::{AtomicI64, Ordering};

use super::{err, QErr, QResult};
use crate::kapi::hooks::apply;
use crate::kapi::threads;
use crate::kapi::KObj;

/// `-s N`: the most secondary threads; `\s n`: how many peach uses now.
static MAX: AtomicI64 = AtomicI64::new(0);
static NOW: AtomicI64 = AtomicI64::new(0);

/// From the command line's `-s N`.
pub fn set_secondary_threads(n: i64) {
    MAX.store(n.max(0), Ordering::SeqCst);
    NOW.store(n.max(0), Ordering::SeqCst);
}

/// `\s`, `\s n`, `\s 0N`.
pub fn command(rest: &str) -> QResult {
    match rest {
        "" => Ok(KObj::int(NOW.load(Ordering::SeqCst) as i32)),
        "0N" => Ok(KObj::int(MAX.load(Ordering::SeqCst) as i32)),
        r => {
            let n: i64 = r.parse().map_err(|_| err("type"))?;
            if n < 0 {
                // processes (.z.pd) are not qhost's
                return Err(err("nyi"));
            }
            if n > MAX.load(Ordering::SeqCst) {
                // "within the limit set by the -s command-line option"
                return Err(err("limit"));
            }
            NOW.store(n, Ordering::SeqCst);
            Ok(KObj::identity())
        }
    }
}

/// Raw pointers moved to the worker threads (the invariant above makes this sound).
struct Shared<T>(T);
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

/// `f peach x`.
pub fn peach(f: &KObj, x: &KObj) -> QResult {
    let n = NOW.load(Ordering::SeqCst) as usize;
    let items = super::values::list_items(x);
    if n == 0 || items.len() <= 1 || threads::is_secondary() || !x.is_vector() {
        // no secondary threads, a single item, or nested: each, on this thread
        return super::adverbs::apply_derived(f, "'", vec![x.clone()]);
    }
    super::globals::share_with_secondary(true);
    threads::PARALLEL.store(true, Ordering::SeqCst);
    let count = items.len();
    let workers = n.min(count);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<Shared<QResult>>>> =
        (0..count).map(|_| std::sync::Mutex::new(None)).collect();
    let shared = Shared((f, &items, &results, &next));
    std::thread::scope(|s| {
        for w in 0..workers {
            let sh = &shared;
            let b = std::thread::Builder::new()
                .name(format!("qhost-peach-{w}"))
                .stack_size(256 << 20);
            let spawned = b.spawn_scoped(s, move || {
                let (f, items, results, next) = sh.0;
                threads::set_secondary();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= items.len() {
                        break;
                    }
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        apply(f, vec![items[i].clone()])
                    }))
                    .unwrap_or_else(|_| Err(QErr("qhost panic in peach".into())));
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(Shared(r));
                }
            });
            if spawned.is_err() {
                break;
            }
        }
    });
    threads::PARALLEL.store(false, Ordering::SeqCst);
    super::globals::share_with_secondary(false);
    #[allow(clippy::drop_non_drop)] // ends the borrow of `results` before they are read
    drop(shared);
    let mut out = Vec::with_capacity(count);
    for (i, r) in results.into_iter().enumerate() {
        let r = r.into_inner().unwrap_or_else(|e| e.into_inner());
        match r {
            Some(Shared(Ok(v))) => out.push(v),
            Some(Shared(Err(e))) => return Err(e),
            // a worker could not start: run what is left here
            None => out.push(apply(f, vec![items[i].clone()])?),
        }
    }
    Ok(super::values::from_items(out))
}

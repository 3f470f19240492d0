//! Calls seeded from valid ones. Every q function has a doc example; the blocks that call the
//! function under test run in the child's q interpreter with that function replaced by a
//! recorder, which passes each call on and keeps its arguments. The fuzzer then calls the
//! function with those arguments, one part changed (see mutate.rs), on the objects the block
//! made. Calls free and change those objects, so the block runs again every RERUN calls. After
//! each run everything is freed (`free[]`) and the interpreter's variables dropped: `obj[]` must
//! then be empty and qhost's count of live K objects back where it was.
use std::cell::{Cell, RefCell};
use std::ffi::c_void;

use qhost::kapi::func::{Func, T_DL};
use qhost::kapi::kobj::live_objects;
use qhost::kapi::*;

use crate::child::{Counts, Log};
use crate::fixtures::Fixtures;
use crate::gen::{Gen, Rng};
use crate::host::{Entry, Ktorch};

include!(concat!(env!("OUT_DIR"), "/doc_blocks.rs"));

/// Calls made on one run of a block before it runs again (fresh objects).
const RERUN: u64 = 25;
/// Blocks used per function at most (chosen by the seed among those that call it).
const MAX_BLOCKS: usize = 4;
/// Evaluation steps a block's line may take (an example loops little; a changed global may not).
const STEPS: u64 = 2_000_000;

thread_local! {
    /// The function under test: its C entry point and rank.
    static TARGET: Cell<(*const c_void, i64)> = const { Cell::new((std::ptr::null(), 0)) };
    /// The arguments of each call the block made of it.
    static CAPTURED: RefCell<Vec<Vec<KObj>>> = const { RefCell::new(Vec::new()) };
}

/// Keep the arguments, then call the real function with them (its result or error unchanged).
fn record(args: &[K]) -> K {
    let kept = args
        .iter()
        .map(|a| unsafe { KObj::from_raw(incref(*a)) }.expect("a K argument"))
        .collect();
    CAPTURED.with(|c| c.borrow_mut().push(kept));
    let (ptr, n) = TARGET.with(Cell::get);
    type F1 = unsafe extern "C" fn(K) -> K;
    type F2 = unsafe extern "C" fn(K, K) -> K;
    type F3 = unsafe extern "C" fn(K, K, K) -> K;
    unsafe {
        use std::mem::transmute as tr;
        match n {
            1 => tr::<*const c_void, F1>(ptr)(args[0]),
            2 => tr::<*const c_void, F2>(ptr)(args[0], args[1]),
            _ => tr::<*const c_void, F3>(ptr)(args[0], args[1], args[2]),
        }
    }
}

extern "C" fn record1(a: K) -> K {
    record(&[a])
}
extern "C" fn record2(a: K, b: K) -> K {
    record(&[a, b])
}
extern "C" fn record3(a: K, b: K, c: K) -> K {
    record(&[a, b, c])
}

/// Does `line` use `name` as a word (not inside a longer name, not as a `symbol)?
fn mentions(line: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    line.match_indices(name).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + name.len()..].chars().next();
        !before.is_some_and(|c| word(c) || c == '`') && !after.is_some_and(word)
    })
}

/// The blocks to seed `name`'s calls from: those that call it, a few picked by the seed.
fn blocks_for(name: &str, rng: &mut Rng) -> Vec<(&'static str, &'static [&'static str])> {
    let gpu = crate::fixtures::cuda();
    let mut all: Vec<_> = BLOCKS
        .iter()
        .filter(|(_, cuda, lines)| (gpu || !cuda) && lines.iter().any(|l| mentions(l, name)))
        .map(|(at, _, lines)| (*at, *lines))
        .collect();
    while all.len() > MAX_BLOCKS {
        let i = rng.below(all.len() as u64) as usize;
        all.remove(i);
    }
    all
}

/// Run `lines` with the library's functions defined and `f` recorded; the calls' arguments.
fn run_block(lib: &Ktorch, f: &Entry, lines: &[&str]) -> Vec<Vec<KObj>> {
    qhost::q::eval::clear_globals();
    let recorder = match f.rank {
        1 => record1 as *const c_void,
        2 => record2 as *const c_void,
        _ => record3 as *const c_void,
    };
    for e in &lib.fns {
        // as `2:` makes them: a type-112 object holding the entry point
        let ptr = if e.name == f.name { recorder } else { e.ptr() };
        let v = KObj::func(T_DL, Func::Dl { ptr, n: e.rank });
        qhost::q::eval::set_global(&e.name, v);
    }
    TARGET.with(|t| t.set((f.ptr(), f.rank)));
    CAPTURED.with(|c| c.borrow_mut().clear());
    for line in lines {
        // examples end by freeing what they made (`free`, `return`): keep it, for the calls made
        // with its handles
        // (`clean` frees everything after)
        if ["free", "return"]
            .iter()
            .any(|w| f.name != *w && mentions(line, w))
        {
            continue;
        }
        qhost::q::eval::set_step_limit(Some(STEPS));
        // each line as the console runs it: an error (some examples show one) ends that line
        let _ = qhost::q::eval_text(line);
    }
    qhost::q::eval::set_step_limit(None);
    CAPTURED.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// Free everything a block run made and drop its variables.
fn clean(lib: &Ktorch) {
    qhost::q::eval::clear_globals();
    let _ = lib.call1("free", KObj::identity());
    crate::child::reset_all(lib);
}

/// `calls` calls of `f` seeded from its doc examples, counted into `c`; false when no block
/// calls it (the caller then makes random calls instead).
pub fn fuzz(lib: &Ktorch, f: &Entry, seed: u64, calls: u64, c: &mut Counts, log: &mut Log) -> bool {
    if !(1..=3).contains(&f.rank) {
        return false;
    }
    let mut pick = Rng::for_call(seed ^ 0xD0C5, &f.name, 0);
    let blocks = blocks_for(&f.name, &mut pick);
    if blocks.is_empty() {
        return false;
    }
    let k0 = live_objects();
    let mut captured: Vec<Vec<KObj>> = Vec::new();
    let mut made = 0u64;
    for n in 0..calls {
        let (at, lines) = blocks[(n / RERUN) as usize % blocks.len()];
        if n % RERUN == 0 {
            captured.clear();
            clean(lib);
            log.call(&format!("{n} (running {at} for {})", f.name));
            captured = run_block(lib, f, lines);
        }
        if captured.is_empty() {
            continue; // the block's own calls all failed before reaching f (or never reached it)
        }
        let k_call = live_objects();
        let mut rng = Rng::for_call(seed ^ 0xD0C5, &f.name, n + 1);
        let mut fx = Fixtures::new(lib);
        let base = rng.below(captured.len() as u64) as usize;
        let args = crate::mutate::args(
            &captured[base],
            &mut Gen {
                rng: &mut rng,
                fx: &mut fx,
            },
        );
        let note = format!("after running {at}");
        let v0 = c.values;
        let text = crate::child::call_once(lib, f, &args, n, &note, &mut fx, c, log);
        c.docs_values += c.values - v0;
        made += 1;
        drop(args);
        drop(fx);
        // the block's objects stay; what this call made must be gone
        crate::child::k_leak(k_call, &f.name, &format!("{n} {text}"), c, log);
    }
    drop(captured);
    clean(lib);
    c.calls += made;
    c.docs += made;
    // everything the runs made is freed: what is left is a leak of the calls above
    crate::child::obj_leak(lib, &f.name, "(docs calls)", c, log);
    crate::child::k_leak(k0, &f.name, "(docs calls)", c, log);
    true
}

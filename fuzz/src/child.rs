//! The child: one process runs the calls of a list of functions, writing each call's argument
//! (in q's one-line form) to the log before the call, so that the parent can name the call that
//! crashed or hung. After each call it frees what the call returned and what the generator made,
//! and checks that `obj[]` is empty again and that no K object was left live.
use std::io::Write;

use qhost::kapi::kobj::live_objects;
use qhost::kapi::*;
use qhost::q::display::one_line;

use crate::fixtures::{id_of, Fixtures};
use crate::gen::{Gen, Rng};
use crate::host::{Entry, Ktorch};

/// Log lines longer than this are cut (an argument's text can be long; the start names it).
const LOG_MAX: usize = 4000;

/// The child's report: events appended to `path` (functions begun and done, leaks, panics), and
/// the call under way overwritten in `path.call` (one line, so a long run writes little).
pub struct Log {
    events: std::fs::File,
    call: std::fs::File,
}

impl Log {
    pub fn open(path: &str) -> std::io::Result<Log> {
        let open = |p: &str| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
        };
        let call = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(format!("{path}.call"))?;
        Ok(Log {
            events: open(path)?,
            call,
        })
    }
    /// The call about to be made (read by the parent if the child dies in it).
    pub fn call(&mut self, s: &str) {
        use std::os::unix::fs::FileExt;
        let s = clip(s);
        let _ = self.call.set_len(0);
        let _ = self.call.write_all_at(s.as_bytes(), 0);
    }
    /// One line, written at once (the parent reads it even if the next instruction crashes).
    pub fn line(&mut self, s: &str) {
        let mut s = clip(s);
        s.push('\n');
        let _ = self.events.write_all(s.as_bytes());
    }
}

/// One line of at most LOG_MAX bytes.
fn clip(s: &str) -> String {
    let mut s: String = s.replace('\n', " ");
    if s.len() > LOG_MAX {
        let mut cut = LOG_MAX;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("..");
    }
    s
}

/// Panic texts of Rust's own checks: a q error that says one of these is a caught panic on user
/// data (the guard kept the process alive, but the input deserved a clear message).
const PANIC_TEXTS: &[&str] = &[
    "unwrap()",
    "expect()",
    "index out of bounds",
    "out of range for slice",
    "range end index",
    "range start index",
    "slice index starts",
    "attempt to ",
    "capacity overflow",
    "internal error",
    "not yet implemented",
    "entered unreachable code",
];

/// The q form of a call: `f x` for one argument, `f[x;y]` for more.
pub fn call_text(name: &str, args: &[KObj]) -> String {
    if args.len() == 1 {
        format!("{name} {}", one_line(&args[0]))
    } else {
        let a: Vec<String> = args.iter().map(one_line).collect();
        format!("{name}[{}]", a.join(";"))
    }
}

/// Every handle-shaped value inside a result (lists, dictionaries and tables walked).
fn handles_in(x: &KObj, out: &mut Vec<i64>) {
    if let Some(id) = id_of(x) {
        out.push(id);
        return;
    }
    match x.t() {
        0 => x.items().iter().for_each(|y| handles_in(y, out)),
        XD => {
            handles_in(&x.dict_keys(), out);
            handles_in(&x.dict_values(), out);
        }
        XT => handles_in(&x.table_dict(), out),
        _ => {}
    }
}

/// Put back what a call with global effects changed, so later calls run as the first did.
fn reset_globals(lib: &Ktorch, name: &str) {
    let set = |n: &str, v: KObj| lib.call1("setting", KObj::list(vec![KObj::sym(n), v]));
    match name {
        "logto" | "loglevel" => {
            let _ = lib.call1("logto", KObj::sym("stderr"));
            let _ = lib.call1("loglevel", KObj::sym("info"));
        }
        "setting" => {
            let _ = set("threads", KObj::long(1));
            for b in [
                "benchmark",
                "deterministic",
                "stackframe",
                "alloptions",
                "complexfirst",
            ] {
                let _ = set(b, KObj::bool(false));
            }
        }
        _ => {}
    }
}

/// Put back every global setting a doc block may have changed.
pub fn reset_all(lib: &Ktorch) {
    reset_globals(lib, "logto");
    reset_globals(lib, "setting");
}

/// After `what` (a call, or a function's docs-seeded calls) of `name`: anything left in `obj[]`
/// is a leak, counted, logged and freed.
pub fn obj_leak(lib: &Ktorch, name: &str, what: &str, c: &mut Counts, log: &mut Log) {
    let rows = live_rows(lib);
    if !rows.is_empty() {
        c.objleaks += 1;
        log.line(&format!("leak obj {name} {what} -> ids {rows:?}"));
        let _ = lib.call1("free", KObj::identity());
    }
}

/// After `what`: K objects live beyond the `k0` there were before it are a leak.
pub fn k_leak(k0: i64, name: &str, what: &str, c: &mut Counts, log: &mut Log) {
    let k1 = live_objects();
    if k1 != k0 {
        c.kleaks += 1;
        log.line(&format!("leak k {name} {what} -> {} K objects", k1 - k0));
    }
}

/// Rows of `obj[]`.
pub fn live_rows(lib: &Ktorch) -> Vec<i64> {
    match lib.call1("obj", KObj::identity()) {
        // the first column, ptr, holds each object's handle (enlist id), as ktorch's kobj
        Ok(t) if t.t() == XT => {
            let mut ids = vec![];
            handles_in(&t.table_dict().dict_values().item(0), &mut ids);
            ids
        }
        _ => vec![-1],
    }
}

/// KTORCH_FUZZ_TRACE=1: every call and its outcome go to the log (kept with --keep).
fn trace() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("KTORCH_FUZZ_TRACE").is_ok_and(|v| v == "1"))
}

/// What one function's calls came to (the log's `done` line).
#[derive(Default)]
pub struct Counts {
    pub calls: u64,
    pub errors: u64,
    pub values: u64,
    pub kleaks: u64,
    pub objleaks: u64,
    pub panics: u64,
    /// Calls seeded from doc examples, and their values (within the counts above).
    pub docs: u64,
    pub docs_values: u64,
}

/// One call of `f` with `args` (`fx` made the handles among them): logged before it is made,
/// its outcome counted, what it returned and what `fx` made freed after it. Its text, for a leak
/// line.
#[allow(clippy::too_many_arguments)]
pub fn call_once(
    lib: &Ktorch,
    f: &Entry,
    args: &[KObj],
    n: u64,
    note: &str,
    fx: &mut Fixtures,
    c: &mut Counts,
    log: &mut Log,
) -> String {
    let mut text = call_text(&f.name, args);
    if !note.is_empty() {
        text.push_str(&format!("   / {note}"));
    }
    if !fx.described.is_empty() {
        let d: Vec<String> = fx
            .described
            .iter()
            .map(|(id, w)| format!("{id}: {w}"))
            .collect();
        text.push_str(&format!("   / handles {}", d.join(", ")));
    }
    log.call(&format!("{n} {text}"));
    let mut returned = Vec::new();
    let r = f.call(args);
    if trace() {
        let out = match &r {
            Ok(v) => one_line(v),
            Err(e) => format!("'{}", e.0.lines().next().unwrap_or("")),
        };
        log.line(&format!("call {n} {text} -> {out}"));
    }
    match r {
        Ok(v) => {
            c.values += 1;
            handles_in(&v, &mut returned);
        }
        Err(e) => {
            c.errors += 1;
            if PANIC_TEXTS.iter().any(|p| e.0.contains(p)) {
                c.panics += 1;
                let first = e.0.lines().next().unwrap_or("");
                log.line(&format!("panic {} {n} {text} -> '{first}", f.name));
            }
        }
    }
    reset_globals(lib, &f.name);
    fx.free_all(&returned);
    text
}

/// One function's calls: `calls` with generated arguments, each checked for leaks, then half as
/// many seeded from its doc examples (docs.rs); their counts go to the log's `done` line.
fn fuzz_one(lib: &Ktorch, f: &Entry, seed: u64, calls: u64, log: &mut Log) {
    log.line(&format!("fn {}", f.name));
    let mut c = Counts::default();
    for n in 0..calls {
        let k0 = live_objects();
        let mut fx = Fixtures::new(lib);
        let mut rng = Rng::for_call(seed, &f.name, n);
        let args = Gen {
            rng: &mut rng,
            fx: &mut fx,
        }
        .args(&f.name, f.rank);
        let text = call_once(lib, f, &args, n, "", &mut fx, &mut c, log);
        drop(args);
        let what = format!("{n} {text}");
        obj_leak(lib, &f.name, &what, &mut c, log);
        k_leak(k0, &f.name, &what, &mut c, log);
    }
    c.calls += calls;
    crate::docs::fuzz(lib, f, seed, calls / 2, &mut c, log);
    log.line(&format!(
        "done {} {} {} {} {} {} {} {} {}",
        f.name, c.calls, c.errors, c.values, c.kleaks, c.objleaks, c.panics, c.docs, c.docs_values
    ));
}

/// `--child`: fuzz `names` in order; the log is the report.
pub fn run(lib: &Ktorch, names: &[String], seed: u64, calls: u64, log: &mut Log) -> i32 {
    for name in names {
        match lib.get(name) {
            Some(f) => {
                let f = f.clone();
                fuzz_one(lib, &f, seed, calls, log)
            }
            None => log.line(&format!("missing {name}")),
        }
    }
    // What is still live once everything is dropped: the process-level leak check.
    log.line(&format!("klive {}", qhost::kapi::exports::leak_report()));
    0
}

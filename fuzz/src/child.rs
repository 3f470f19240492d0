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

/// Rows of `obj[]`.
fn live_rows(lib: &Ktorch) -> Vec<i64> {
    match lib.call1("obj", KObj::identity()) {
        Ok(t) if t.t() == XT => t.table_dict().dict_values().item(0).slice::<i64>().to_vec(),
        _ => vec![-1],
    }
}

/// One function's calls; their counts go to the log's `done` line.
fn fuzz_one(lib: &Ktorch, f: &Entry, seed: u64, calls: u64, log: &mut Log) {
    log.line(&format!("fn {}", f.name));
    let (mut errors, mut values, mut kleaks, mut objleaks) = (0u64, 0u64, 0u64, 0u64);
    let mut panics = 0u64;
    for n in 0..calls {
        let k0 = live_objects();
        let mut fx = Fixtures::new(lib);
        let mut rng = Rng::for_call(seed, &f.name, n);
        let args = Gen {
            rng: &mut rng,
            fx: &mut fx,
        }
        .args(f.rank);
        let mut text = call_text(&f.name, &args);
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
        match f.call(&args) {
            Ok(v) => {
                values += 1;
                handles_in(&v, &mut returned);
            }
            Err(e) => {
                errors += 1;
                if PANIC_TEXTS.iter().any(|p| e.0.contains(p)) {
                    panics += 1;
                    let first = e.0.lines().next().unwrap_or("");
                    log.line(&format!("panic {} {n} {text} -> '{first}", f.name));
                }
            }
        }
        reset_globals(lib, &f.name);
        fx.free_all(&returned);
        drop(args);
        let rows = live_rows(lib);
        if !rows.is_empty() {
            objleaks += 1;
            log.line(&format!("leak obj {} {n} {text} -> ids {rows:?}", f.name));
            let _ = lib.call1("free", KObj::identity());
        }
        let k1 = live_objects();
        if k1 != k0 {
            kleaks += 1;
            log.line(&format!(
                "leak k {} {n} {text} -> {} K objects",
                f.name,
                k1 - k0
            ));
        }
    }
    log.line(&format!(
        "done {} {calls} {errors} {values} {kleaks} {objleaks} {panics}",
        f.name
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

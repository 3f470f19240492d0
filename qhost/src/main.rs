//! `qhost [script.q] [-s N] [-p N] [args]`: run the script, then keep q's main loop going while
//! the timer (`\t N`, `.z.ts`) is on, an extension's `sd1` callback is registered, a port
//! listens or an IPC connection is open (q::ipc), then exit 0;
//! with no script, a REPL on stdin (ticks and callbacks run while it waits). An uncaught error
//! in a script prints `'error` and the failing statement to stderr and exits 1. `-s N` gives
//! peach N secondary threads (q's option; not part of `.z.x`). `.z.exit` runs before any exit.
//! The interpreter runs on a thread with a large stack so that deep q recursion ends in 'stack
//! rather than a crash; it is q's main thread for the C API.
use std::io::Write;

use qhost::q::{eval, parser, session, system};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    keep_heap();
    let h = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(args))
        .expect("interpreter thread");
    // `exit n` and `\\` unwind the interpreter thread (dropping what its frames hold) and land here.
    let code = match h.join() {
        Ok(c) => c,
        Err(p) => p.downcast_ref::<system::ExitRequest>().map_or(1, |e| e.0),
    };
    system::exit(code)
}

/// q's own option `-s N` (secondary threads) anywhere after the script: taken out of the
/// arguments, as q leaves its single-letter options out of `.z.x`.
fn take_secondary_option(args: &mut Vec<String>) -> Result<(), String> {
    while let Some(i) = args.iter().position(|a| a == "-s") {
        let n = args.get(i + 1).and_then(|v| v.parse::<i64>().ok());
        match n {
            Some(n) if n >= 0 => qhost::q::peach::set_secondary_threads(n),
            Some(_) => return Err("-s: negative (secondary processes) is nyi".into()),
            None => return Err("-s needs a number of secondary threads".into()),
        }
        args.drain(i..i + 2);
    }
    Ok(())
}

/// q's option `-p N` (the listening port, basics/cmdline.md): taken out of the arguments as
/// `-s` is, and opened before the script runs, as q does.
fn take_port_option(args: &mut Vec<String>) -> Result<(), String> {
    while let Some(i) = args.iter().position(|a| a == "-p") {
        let Some(v) = args.get(i + 1).cloned() else {
            return Err("-p needs a port".into());
        };
        qhost::q::ipc::command(&v).map_err(|e| format!("-p {v}: '{}", e.0))?;
        args.drain(i..i + 2);
    }
    Ok(())
}

/// Keep freed memory as q's pool does instead of giving it back to the system after every
/// big free (glibc's default trims the heap's top past 128 KiB and maps blocks over 128 KiB
/// anew each time): a loop that allocates and frees the same few hundred kilobytes, as
/// char.q's training step does, then paid page faults on every pass (issue 31: `-1_'x` of its
/// 200 x 129 batch took 55 us instead of 17). Freed memory stays in the heap (up to 128 MiB
/// free at its top, 64 MiB slack asked for at a time); blocks up to 32 MiB come from the heap.
fn keep_heap() {
    // SAFETY: mallopt only sets glibc's parameters; called before any other thread starts
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

fn run(mut args: Vec<String>) -> i32 {
    eval::install();
    // QHOST_FAST=0: the generic paths only (issue 31's fast paths off), to time or compare them
    if std::env::var_os("QHOST_FAST").is_some_and(|v| v == "0") {
        qhost::q::values::set_fast_paths(false);
    }
    session::init();
    qhost::q::serve::init();
    if let Err(e) = take_secondary_option(&mut args).and_then(|_| take_port_option(&mut args)) {
        eprintln!("qhost: {e}");
        return 1;
    }
    // as q: the first argument is the script when it is one; everything after it is for .z.x
    // (even a file name ending .q, e.g. a data script the program loads itself)
    let n = args
        .iter()
        .take(1)
        .take_while(|a| a.ends_with(".q") || a.ends_with(".k"))
        .count();
    let (scripts, rest) = args.split_at(n);
    let first = scripts.first().cloned().unwrap_or_default();
    system::set_args(&first, rest.to_vec());
    if scripts.is_empty() && !rest.is_empty() {
        // an argument that is not a script: load it as q does
        let c = load(&rest[0]).unwrap_or(1);
        session::run_exit_hook(c);
        return c;
    }
    for s in scripts {
        if let Err(c) = load(s) {
            session::run_exit_hook(c);
            system::exit(c);
        }
    }
    if !scripts.is_empty() {
        session::run_after_scripts();
        session::run_exit_hook(0);
        return 0;
    }
    repl();
    session::run_exit_hook(0);
    0
}

fn load(path: &str) -> Result<i32, i32> {
    match system::load_script(path) {
        Ok(()) => Ok(0),
        Err(e) => {
            let line = system::take_failed_line().unwrap_or_default();
            let _ = std::io::stdout().flush();
            eprintln!("'{}\n  [0]  {}", e.0, line);
            Err(1)
        }
    }
}

/// Read-eval-print: results are shown as q's console shows them, except assignments and `::`.
fn repl() {
    let mut input = session::Input::new();
    loop {
        print!("q)");
        let _ = std::io::stdout().flush();
        let Some(buf) = input.line() else { break };
        let line = buf.as_str();
        if line.trim().is_empty() {
            continue;
        }
        // an interrupt at the prompt stops nothing
        qhost::q::interrupt::clear();
        let shown = if let Some(cmd) = line.strip_prefix('\\') {
            system::command(cmd).map(|v| (v, true))
        } else {
            match parser::parse(line) {
                Ok(node) => {
                    let quiet = matches!(&node, parser::Node::Assign { .. })
                        || matches!(&node, parser::Node::Seq(v) if matches!(v.last(), Some(parser::Node::Assign { .. })));
                    let mut fr = eval::Frame::default();
                    eval::done(eval::eval(&node, &mut fr)).map(|v| (v, !quiet))
                }
                Err(e) => Err(e),
            }
        };
        match shown {
            Ok((v, true)) if !qhost::q::values::is_identity(&v) => {
                if qhost::q::display::showable(&v) {
                    print!("{}", qhost::q::display::show_text(&v));
                } else {
                    eprintln!("'nyi");
                }
            }
            Ok(_) => {}
            Err(e) => eprintln!("'{}", e.0),
        }
        let _ = std::io::stdout().flush();
    }
}

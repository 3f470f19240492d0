//! `qhost [script.q ...] [-- args]`: run the scripts in order, then exit 0; with no script, a
//! REPL on stdin. An uncaught error in a script prints `'error` and the failing statement to
//! stderr and exits 1. The interpreter runs on a thread with a large stack so that deep q
//! recursion ends in 'stack rather than a crash.
use std::io::{BufRead, Write};

use qhost::q::{eval, parser, system};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
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

fn run(args: Vec<String>) -> i32 {
    // as q: the first argument is the script when it is one; everything after it is for .z.x
    // (even a file name ending .q, e.g. a data script the program loads itself)
    let n = args.iter().take(1).take_while(|a| a.ends_with(".q") || a.ends_with(".k")).count();
    let (scripts, rest) = args.split_at(n);
    let first = scripts.first().cloned().unwrap_or_default();
    system::set_args(&first, rest.to_vec());
    if scripts.is_empty() && !rest.is_empty() {
        // an argument that is not a script: load it as q does
        return load(&rest[0]).unwrap_or(1);
    }
    for s in scripts {
        if let Err(c) = load(s) {
            system::exit(c);
        }
    }
    if !scripts.is_empty() {
        return 0;
    }
    repl();
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
    let stdin = std::io::stdin();
    let mut buf = String::new();
    loop {
        print!("q)");
        let _ = std::io::stdout().flush();
        buf.clear();
        match stdin.lock().read_line(&mut buf) {
            Ok(0) | Err(_) => break,
            _ => {}
        }
        let line = buf.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
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
                print!("{}", qhost::q::display::show_text(&v));
            }
            Ok(_) => {}
            Err(e) => eprintln!("'{}", e.0),
        }
        let _ = std::io::stdout().flush();
    }
}

//! SIGINT as q handles it, with ktorch loaded (issue #18): a long `run` ends with 'stop at the
//! next batch boundary and the session goes on. The q script prints "go" just before the long
//! call; the test then waits a little, so that some batches have run, and sends SIGINT.
#[path = "qhome/mod.rs"]
mod qhome;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run `script` (from the repository root), send SIGINT `after` the line "go", and answer
/// (exit code, stdout, stderr).
fn interrupted(script: &str, after: Duration) -> (Option<i32>, String, String) {
    qhome::ktorch();
    let mut child = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .arg(script)
        .current_dir(qhome::repo_root())
        .env("QHOME", qhome::qhome())
        .env("QHOST_LEAKCHECK", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qhost runs");
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let mut out = String::new();
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while lines.read_line(&mut line).unwrap_or(0) > 0 {
        out.push_str(&line);
        if line.trim_end() == "go" {
            std::thread::sleep(after);
            unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
            break;
        }
        line.clear();
    }
    let _ = lines.read_to_string(&mut out);
    let start = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (code, out, err.join().unwrap())
}

#[test]
fn sigint_stops_a_long_run() {
    let (code, out, err) = interrupted("tests/q/signal/run_stop.q", Duration::from_millis(1500));
    assert_eq!(code, Some(0), "exit {code:?}\n--- stdout\n{out}--- stderr\n{err}");
    assert!(out.contains(" 0 failed"), "{out}");
}

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
        .env("QHOST_STRICT", "1")
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
    assert_eq!(
        code,
        Some(0),
        "exit {code:?}\n--- stdout\n{out}--- stderr\n{err}"
    );
    assert!(out.contains(" 0 failed"), "{out}");
}

/// A SIGINT between ktorch calls is q's: the running expression (a plain q loop) stops with
/// 'stop and the session reads its next line.
#[test]
fn sigint_stops_a_q_loop_and_the_session_goes_on() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .current_dir(qhome::repo_root())
        .env("QHOME", qhome::qhome())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qhost runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"i:0\n-1 \"go\";\ndo[4000000000;i+:1]\n-1 \"after \",string 0<i;\n\\\\\n")
        .unwrap();
    drop(stdin);
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut out = String::new();
    let mut line = String::new();
    while lines.read_line(&mut line).unwrap_or(0) > 0 {
        out.push_str(&line);
        if line.trim_end().ends_with("go") {
            std::thread::sleep(Duration::from_millis(500));
            unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
            break;
        }
        line.clear();
    }
    let _ = lines.read_to_string(&mut out);
    let st = child.wait().unwrap();
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    let all = format!("{out}{err}");
    assert!(all.contains("'stop"), "no 'stop:\n{all}");
    assert!(all.contains("after 1"), "the session did not go on:\n{all}");
    assert_eq!(st.code(), Some(0), "{all}");
}

/// ktorch under peach on qhost's secondary threads (`-s 2`), strict mode: a callback module is a
/// q error there, tensor math works, nothing leaks (tests/q/signal/peach.q).
#[test]
fn callback_in_peach_is_an_error() {
    qhome::ktorch();
    let r = qhome::run_qhost(
        "tests/q/signal/peach.q -s 2",
        &[("QHOST_LEAKCHECK", "1"), ("QHOST_STRICT", "1")],
        Duration::from_secs(300),
    );
    assert_eq!(
        r.code,
        Some(0),
        "--- stdout\n{}--- stderr\n{}",
        r.stdout,
        r.stderr
    );
    assert!(r.stdout.contains(" 0 failed"), "{}", r.stdout);
}

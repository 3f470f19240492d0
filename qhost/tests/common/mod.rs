//! Running the qhost binary from tests: a script's text in, what it printed and its exit code out.
#![allow(dead_code)]
use std::io::Write;
use std::process::{Command, Stdio};

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

/// Run q `text` as a script file with qhost (from a temporary directory `dir` when given).
pub fn run_script(text: &str) -> Run {
    let dir = std::env::temp_dir().join(format!("qhost-test-{}-{}", std::process::id(), unique()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.q");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .expect("qhost runs");
    let _ = std::fs::remove_dir_all(&dir);
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

/// What the REPL prints for one expression: `show` of its value, as q's console shows it.
/// `expr` must be one line of q. Returns stdout with the trailing newline removed.
pub fn q(expr: &str) -> String {
    let r = run_script(&format!("show {{ {expr} }}[]\n"));
    assert_eq!(r.code, Some(0), "qhost failed on `{expr}`: {}", r.stderr);
    r.stdout.trim_end_matches('\n').to_string()
}

/// The error q signals for `expr` (text after the quote), or panics if it succeeds.
pub fn q_err(expr: &str) -> String {
    let r = run_script(&format!("{expr}\n"));
    assert_eq!(
        r.code,
        Some(1),
        "expected an error from `{expr}`, got {}",
        r.stdout
    );
    let line = r
        .stderr
        .lines()
        .find(|l| l.starts_with('\''))
        .unwrap_or("")
        .to_string();
    line.trim_start_matches('\'')
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string()
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// Check many (expression, expected console text) pairs, reporting every mismatch at once.
pub fn check(cases: &[(&str, &str)]) {
    let bad: Vec<String> = cases
        .iter()
        .filter_map(|(e, want)| {
            let got = q(e);
            (got != *want).then(|| format!("`{e}`: got {got:?}, want {want:?}"))
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Check many (expression, expected error name) pairs, reporting every mismatch at once.
pub fn check_err(cases: &[(&str, &str)]) {
    let bad: Vec<String> = cases
        .iter()
        .filter_map(|(e, want)| {
            let got = q_err(e);
            (got != *want).then(|| format!("`{e}`: got '{got}, want '{want}"))
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

//! Scripts, system commands, handles and the REPL through the qhost binary: what q prints and
//! the exit status. Expectations follow kdb+ q's behaviour when loading a script.
mod common;
use common::run_script;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn results_are_not_printed_but_handles_are() {
    let r = run_script("1+2\nx:5\n-1 \"line\";\n1 \"no newline\";\n-2 \"to stderr\";\n");
    assert_eq!(r.code, Some(0));
    assert_eq!(r.stdout, "line\nno newline");
    assert_eq!(r.stderr, "to stderr\n");
}

#[test]
fn lists_of_strings_to_a_handle() {
    let r = run_script("-1 (\"a\";\"bc\");\n");
    assert_eq!(r.stdout, "a\nbc\n");
}

#[test]
fn uncaught_error_exits_1_with_the_error_and_line() {
    let r = run_script("-1 \"before\";\n{x}[1;2]\n-1 \"after\";\n");
    assert_eq!(r.code, Some(1));
    assert_eq!(r.stdout, "before\n");
    let mut lines = r.stderr.lines();
    assert_eq!(lines.next(), Some("'rank"));
    assert!(r.stderr.contains("{x}[1;2]"));
}

#[test]
fn exit_codes() {
    assert_eq!(run_script("exit 3\n").code, Some(3));
    assert_eq!(run_script("exit 0\n-1 \"never\";\n").stdout, "");
    let r = run_script("-1 \"a\";\n\\\\\n-1 \"b\";\n");
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), "a\n"));
    assert_eq!(run_script("-1 \"end\";\n").code, Some(0));
}

#[test]
fn comments_blocks_and_continuations() {
    let text = "/ a comment line\n\
                f:{[a]\n  / a comment inside\n  b:a;  / trailing\n  b\n  }\n\
                -1 f \"multi\";\n\
                /\nblock comment\n-1 \"not run\";\n\\\n\
                -1 \"after block\"; / trailing comment\n\
                g:{\n  -1 x;\n  -1 y;\n  }\n\
                g[\"l1\";\"l2\"]\n\
                \\\n-1 \"past the end\";\n";
    let r = run_script(text);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, "multi\nafter block\nl1\nl2\n");
}

#[test]
fn show_and_0n() {
    let r = run_script("show 1 2 3\nx:0N!`a`b\n-1 string count x;\n");
    assert_eq!(r.stdout, "1 2 3\n`a`b\n2\n");
}

#[test]
fn system_commands() {
    let r = run_script("\\t -1 \"timed\";\nt:system \"t:3 1+1\"\n-1 string type t;\nr:value \"\\\\t 1+1\"\n-1 string type r;\n");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // q prints what \t measured when it runs from a script (issue 19), not from system/value
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", r.stdout);
    assert_eq!(lines[0], "timed");
    assert!(lines[1].parse::<i64>().is_ok(), "{}", r.stdout);
    assert_eq!(&lines[2..], &["-7", "-7"]);
    let r = run_script("ts:system \"ts 1+1\"\n-1 string count ts;\n");
    assert_eq!(r.stdout, "2\n");
}

#[test]
fn load_another_script_and_read0() {
    let dir = std::env::temp_dir().join(format!("qhost-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lib = dir.join("lib.q");
    std::fs::write(&lib, "libv:42\n").unwrap();
    let data = dir.join("data.txt");
    std::fs::write(&data, "one\ntwo\n").unwrap();
    let r = run_script(&format!(
        "\\l {}\n-1 string libv;\nsystem \"l {}\"\n-1 read0 `$\":{}\";\n-1 string count read0 hsym `$\"{}\";\n",
        lib.display(),
        lib.display(),
        data.display(),
        data.display()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, "42\none\ntwo\n2\n");
}

#[test]
fn dot_z_f_is_the_script() {
    let r = run_script("-1 string .z.f;\n");
    assert!(r.stdout.trim_end().ends_with("t.q"), "{}", r.stdout);
}

#[test]
fn repl_prints_results_but_not_assignments() {
    let mut c = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin
        .take()
        .unwrap()
        .write_all(b"a:1+2\na\n::\n{x}[1;2]\n-1 \"hi\";\n")
        .unwrap();
    let out = c.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout, "q)q)3\nq)q)q)hi\nq)");
    assert!(String::from_utf8_lossy(&out.stderr).contains("'rank"));
}

#[test]
fn leak_check_after_exit() {
    let dir = std::env::temp_dir().join(format!("qhost-leak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("t.q");
    std::fs::write(
        &p,
        "a:1 2 3\nf:{x+y}[1]\nt:([]a:1 2;b:`x`y)\nd:`a`b!(1 2;\"ab\")\nb:f each a\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .arg(&p)
        .env("QHOST_LEAKCHECK", "1")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

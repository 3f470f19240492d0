//! q's main loop through the qhost binary: the timer (`\t`, `.z.ts`), `.z.exit`, `sd1`
//! callbacks after a script, SIGINT as 'stop, `.Q.w[]`/`\w`. Expected values are KX's
//! (syscmds `\t` `\w` `\s`, dotz `.z.ts` `.z.exit`, dotq `.Q.w`, errors `stop`, C client for q
//! "Callbacks").
#[path = "qhome/mod.rs"]
mod qhome;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn script(text: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!("qhost-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("s{}.q", N.fetch_add(1, Ordering::SeqCst)));
    std::fs::write(&f, text).unwrap();
    f
}

fn run(text: &str) -> qhome::Run {
    qhome::testext();
    let f = script(text);
    qhome::run_qhost(
        &f.display().to_string(),
        &[("QHOST_STRICT", "1")],
        Duration::from_secs(60),
    )
}

/// `\t` shows the interval ("default off": 0); `\t N` sets it and .z.ts runs on each tick with
/// the tick's timestamp; the script keeps running while the timer is on, and `exit` from .z.ts
/// ends it; .z.exit gets the exit parameter.
#[test]
fn timer_ticks_after_the_script() {
    let r = run(concat!(
        "-1 .Q.s1 system\"t\";\n",
        "n:0\n",
        ".z.ts:{n::n+1;-1 \"tick \",string[n],\" \",.Q.s1 type x;if[n=3;exit 7]}\n",
        ".z.exit:{-1 \"exit \",.Q.s1 x}\n",
        "\\t 20\n",
        "-1 .Q.s1 system\"t\";\n",
        "-1 \"script done\";\n",
    ));
    assert_eq!(
        r.stdout, "0i\n20i\nscript done\ntick 1 -12h\ntick 2 -12h\ntick 3 -12h\nexit 7\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.code, Some(7));
}

/// `\t 0` turns the timer off: with no other event source the script's process then ends.
/// `\t:n e` still times an expression (a long, milliseconds).
#[test]
fn timer_off_ends_the_loop() {
    let r = run(concat!(
        "n:0\n",
        ".z.ts:{n::n+1;if[n=2;system\"t 0\"]}\n",
        ".z.exit:{-1 \"ticks \",string n}\n",
        "\\t 10\n",
        "-1 .Q.s1 type system\"t:2 1+1\";\n",
    ));
    assert_eq!(r.stdout, "-7h\nticks 2\n", "{}", r.stderr);
    assert_eq!(r.code, Some(0));
}

/// "Callbacks from sd1 are executed on the main thread of q" after the script, from the main
/// loop; a descriptor registered keeps the process running until the callback removes it.
#[test]
fn sd1_callback_runs_from_the_main_loop() {
    let r = run(concat!(
        "L:{`testext 2:(x;y)}\n",
        "watch:L[`watch;1]; fired:L[`fired;1]\n",
        ".z.exit:{-1 \"fired \",.Q.s1 fired[]}\n",
        "-1 .Q.s1 watch[];\n",
        "-1 \"fired in script \",.Q.s1 fired[];\n",
    ));
    assert_eq!(r.stdout, "1b\nfired in script 0\nfired 1\n", "{}", r.stderr);
    assert_eq!(r.code, Some(0));
}

/// .Q.w[] is the dictionary used heap peak wmax mmap mphy syms symw of longs (KX dotq); `\w`
/// six longs, `\w 0` two (syms symw); a new symbol adds one to syms. What qhost does not do
/// answers 'nyi: a workspace limit (`\w n`), secondary processes (`\s -n`).
#[test]
fn memory_stats() {
    let r = run(concat!(
        "w:.Q.w[]\n",
        "-1 .Q.s1 key w;\n",
        "-1 .Q.s1 type value w;\n",
        "-1 .Q.s1 (count system\"w\";type system\"w\";count system\"w 0\");\n",
        "`$\"warm up\";\n",
        "s:.Q.w[]`syms\n",
        "-1 .Q.s1 0&(.Q.w[]`syms)-s;\n",
        "s:.Q.w[]`syms\n",
        "`$\"a symbol never seen before\";\n",
        "-1 .Q.s1 (.Q.w[]`syms)-s;\n",
        "-1 .Q.s1 (@[system;\"w 100\";{x}];@[system;\"s -2\";{x}]);\n",
        "exit 0\n",
    ));
    assert_eq!(
        r.stdout,
        "`used`heap`peak`wmax`mmap`mphy`syms`symw\n7h\n(6;7h;2)\n0\n1\n(\"nyi\";\"nyi\")\n",
        "{}",
        r.stderr
    );
}

/// SIGINT: "Current operation stopped due to user interrupt (Ctrl-c)" - the running expression
/// stops with 'stop (trappable) and the session lives on: in a script, and at the REPL.
#[test]
fn sigint_stops_the_running_expression() {
    qhome::testext();
    let f = script(concat!(
        "-1 \"start\";\n",
        "r:@[{i:0;while[1b;i+:1]};::;{x}]\n",
        "-1 r;\n",
        "r:@[{{x+1}/[0W;0]};::;{x}]\n",
        "-1 r;\n",
        "exit 0\n",
    ));
    let child = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .arg(&f)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..2 {
        std::thread::sleep(Duration::from_millis(700));
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    }
    let out = wait(child, Duration::from_secs(20));
    assert_eq!(out.0, "start\nstop\nstop\n", "{}", out.1);

    // the REPL: the line running stops with 'stop, the next one runs
    let mut child = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"while[1b;]\n").unwrap();
    std::thread::sleep(Duration::from_millis(700));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    std::thread::sleep(Duration::from_millis(200));
    stdin.write_all(b"-1 \"alive\";\n").unwrap();
    drop(stdin);
    let out = wait(child, Duration::from_secs(20));
    assert!(out.0.contains("alive"), "{}\n{}", out.0, out.1);
    assert_eq!(out.1.trim(), "'stop");
}

fn wait(mut child: std::process::Child, limit: Duration) -> (String, String) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// peach with `-s 4` (KX basics/peach): "The result of m':[x] is exactly the same as m'[x]",
/// globals are read on the secondary threads, the first error in item order is peach's error,
/// lambdas with locals run there; `\s` shows the threads, `\s n` lowers them "within the limit
/// set by the -s command-line option" (above it: 'limit).
#[test]
fn peach_matches_each() {
    qhome::testext();
    let f = script(concat!(
        "v:til 1000\n",
        "f:{sum v+x*til count v}\n",
        "-1 .Q.s1 (f peach til 2000)~f each til 2000;\n",
        "-1 .Q.s1 @[{{$[x=7;'`seven;x=3;'`three;x]} peach x};til 20;{x}];\n",
        "g:{[x] d:`a`b!(x;x*2); d`b}\n",
        "-1 .Q.s1 g peach til 5;\n",
        "-1 .Q.s1 system\"s\";\n",
        "\\s 1\n",
        "-1 .Q.s1 system\"s\";\n",
        "-1 .Q.s1 @[system;\"s 9\";{x}];\n",
        "exit 0\n",
    ));
    let r = qhome::run_qhost(
        &format!("{} -s 4", f.display()),
        &[("QHOST_STRICT", "1"), ("QHOST_LEAKCHECK", "1")],
        Duration::from_secs(120),
    );
    assert_eq!(
        r.stdout, "1b\n\"three\"\n0 2 4 6 8\n4i\n1i\n\"limit\"\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// At the REPL the timer ticks while q waits for input (.z.ts runs between inputs).
#[test]
fn timer_ticks_at_the_repl() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qhost"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"n:0\n.z.ts:{n::n+1;if[n=3;system\"t 0\"]}\n\\t 10\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    stdin.write_all(b"-1 \"ticks \",string n;\n").unwrap();
    drop(stdin);
    let out = wait(child, Duration::from_secs(20));
    assert!(out.0.contains("ticks 3\n"), "{}\n{}", out.0, out.1);
}

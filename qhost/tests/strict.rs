//! Strict mode (QHOST_STRICT=1) and the C API rules KX documents that a lenient host hides,
//! each through the qhost binary and qhost/testext: the expected outcome is the rule's text in
//! KX's capiref / "C client for q" / peach pages, quoted at each test.
#[path = "qhome/mod.rs"]
mod qhome;

use std::time::Duration;

/// Run q text as a script (written to a temporary file) with testext loadable, in strict mode
/// or not, with extra command-line arguments.
fn q(text: &str, strict: bool, args: &str) -> qhome::Run {
    qhome::testext();
    let dir = std::env::temp_dir().join(format!("qhost-strict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("t{}.q", unique()));
    let text = format!("\\l tests/q/lib/assert.q\nL:{{`testext 2:(x;y)}}\n{text}\n");
    std::fs::write(&file, text).unwrap();
    let script = format!(
        "{}{}{}",
        file.display(),
        if args.is_empty() { "" } else { " " },
        args
    );
    let env: &[(&str, &str)] = if strict {
        &[("QHOST_STRICT", "1")]
    } else {
        &[("QHOST_STRICT", "0")]
    };
    let r = qhome::run_qhost(&script, env, Duration::from_secs(120));
    let _ = std::fs::remove_file(&file);
    r
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// A run that must have died of a strict-mode violation, saying `what`.
fn fatal(r: &qhome::Run, what: &str) {
    assert_ne!(r.code, Some(0), "must fail:\n{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("qhost strict: ") && r.stderr.contains(what),
        "expected a strict-mode message with {what:?}:\n{}",
        r.stderr
    );
}

/// "For a mixed or symbol list, all elements must be initialized prior to returning the list"
/// and q's pool does not zero: strict mode fills new atoms and vectors with 0xa5.
#[test]
fn new_memory_is_poisoned() {
    let r = q("f:L[`fresh;1]\n-1 .Q.s1 f[];exit 0", true, "");
    assert_eq!(r.stdout.trim(), "0xa5a5a5", "{}", r.stderr);
}

/// KX's generic null is `ka(101); id->g=0;`: without the `->g=0`, strict mode stops.
#[test]
fn generic_null_needs_g_set() {
    let r = q("f:L[`identity;1]\n-1 .Q.s1 f[];exit 0", true, "");
    assert_eq!(r.stdout.trim(), "::", "{}", r.stderr);
    fatal(&q("f:L[`badnull;1]\nf[]", true, ""), "->g never set");
}

/// A general list returned with an item never set is fatal in strict mode.
#[test]
fn unset_list_item_is_fatal() {
    fatal(
        &q("f:L[`halflist;1]\nf[]", true, ""),
        "item 1 of a general list",
    );
}

/// "As krr records only the passed pointer, you should ensure that the string remains valid
/// after the return from your code into kdb+": a freed heap buffer's or a dead stack frame's
/// text comes out garbled in strict mode (without it, qhost reads the dead frame's text as it
/// was: the check is strict mode's); a buffer that outlives the call comes out whole.
#[test]
fn krr_keeps_only_the_pointer() {
    let r = q(
        "-1 .t.catch[{L[`krrtemp;1] 0}];-1 .t.catch[{L[`krrstack;1] 0}];-1 @[L[`krrbuf;1];7;{x}];exit 0",
        true,
        "",
    );
    assert!(
        !r.stdout
            .contains("a temporary message that dies with the call")
            && !r.stdout.contains("a message on the stack"),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stdout.lines().last(),
        Some("error number 7"),
        "{}",
        r.stderr
    );
}

/// "Do not call krr() and then return a valid pointer!"
#[test]
fn krr_then_a_value_is_an_error() {
    let r = q("-1 @[L[`krrvalue;1];0;{x}];exit 0", true, "");
    assert!(
        r.stdout
            .contains("qhost strict: a value was returned with error 'left behind' pending"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
}

/// ee: "Otherwise the error status within the interpreter may still be set, resulting in the
/// error being signalled incorrectly elsewhere": strict mode reports the error dot left pending
/// (and the extension returned a value over) instead of dropping it.
#[test]
fn stale_error_is_reported() {
    let r = q(
        "f:L[`dotnoee;2]\n-1 @[f[{'x}];`oops;{x}];g:L[`nothing;1]\n-1 .Q.s1 g[];exit 0",
        true,
        "",
    );
    let out: Vec<&str> = r.stdout.lines().collect();
    assert!(
        out.first().is_some_and(
            |l| l.starts_with("qhost strict: a value was returned with error 'oops' pending")
        ),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    assert_eq!(out.get(1), Some(&"::"), "{}", r.stderr);
    // not strict: the stale error is dropped, not blamed on the next call, which answers ::
    let r = q(
        "f:L[`dotnoee;2]\n-1 .Q.s1 f[{'x};`oops];g:L[`nothing;1]\n-1 .Q.s1 g[];exit 0",
        false,
        "",
    );
    assert_eq!(r.stdout, "1b\n::\n", "{}", r.stderr);
}

/// k(0,..) is for q's main thread ("Threads: ... work from other threads reaches q's main
/// thread through sd1"): an error object off it, fatal in strict mode.
#[test]
fn k_from_another_thread() {
    let r = q("f:L[`kthread;1]\n-1 f[];exit 0", false, "");
    assert!(
        r.stdout
            .starts_with("k: called from a thread q did not start"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    fatal(
        &q("f:L[`kthread;1]\nf[]", true, ""),
        "k: called from a thread q did not start",
    );
}

/// peach with `-s 2`: an extension's function runs on secondary threads and may allocate
/// (each thread has its own pool); "Only the main kdb+ thread may update global variables"
/// ('noupdate); k(0,..) from a secondary thread is refused (fatal in strict mode).
#[test]
fn peach_on_secondary_threads() {
    let r = q(
        "sq:L[`sq;1]\n-1 .Q.s1 sq peach 1 2 3;\n-1 .Q.s1 system\"s\";\n-1 @[{{a::x} peach x};1 2;{x}];\n-1 .Q.s1 @[kcall:L[`kcall;1];5;{x}];\nexit 0",
        true,
        "-s 2",
    );
    assert_eq!(r.stdout, "1 4 9\n2i\nnoupdate\n6\n", "{}", r.stderr);
    fatal(
        &q("kcall:L[`kcall;1]\nkcall peach 1 2", true, "-s 2"),
        "k: called from a peach secondary thread",
    );
    // "If no secondary tasks are available, performance is the same as well": each, on the
    // main thread, where k(0,..) is allowed
    let r = q("-1 .Q.s1 L[`kcall;1] peach 1 2;exit 0", true, "");
    assert_eq!(r.stdout, "2 3\n", "{}", r.stderr);
}

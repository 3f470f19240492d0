//! Random token strings from q's alphabet run through the evaluator in-process: whatever the
//! text, the answer is a value or a q error — never a panic, never a stack overflow.
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Tokens that q text is made of (with the evaluator's keywords and some deep-nesting seeds).
const ALPHABET: &[&str] = &[
    "1",
    "2",
    "-1",
    "0N",
    "1.5",
    "1 2 3",
    "101b",
    "0x1f",
    "3h",
    "`a",
    "`a`b",
    "\"s\"",
    "\"abc\"",
    "2026.01.01",
    "12:00",
    "0D00:00:01",
    "x",
    "y",
    "z",
    "a",
    "f",
    ".z.s",
    ".z.P",
    "+",
    "-",
    "*",
    "%",
    "!",
    "&",
    "|",
    "<",
    ">",
    "=",
    "~",
    ",",
    "^",
    "#",
    "_",
    "$",
    "?",
    "@",
    ".",
    ":",
    "::",
    "'",
    "/",
    "\\",
    "':",
    "/:",
    "\\:",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    " ",
    " ",
    "\n",
    "if",
    "do",
    "while",
    "each",
    "over",
    "scan",
    "value",
    "count",
    "til",
    "enlist",
    "select",
    "from",
    "where",
    "by",
    "exec",
    "update",
    "{x}",
    "{[a;b]a}",
    "{.z.s x}",
    "f:",
    "a:",
    "a[0]:",
    "a+:",
    "@[",
    ".[",
    "$[",
    "([]a:1 2)",
    "'[",
    "0N!",
    "-8!",
];

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

fn run_one(src: &str) {
    // loops like `0W f/x` or `while[1b]` are valid q that never ends: bound every evaluation
    qhost::q::eval::set_step_limit(Some(20_000));
    let r = catch_unwind(AssertUnwindSafe(|| {
        let _ = qhost::q::eval_text(src);
    }));
    qhost::q::eval::set_step_limit(None);
    assert!(r.is_ok(), "panic on {src:?}");
}

#[test]
fn random_token_strings_never_panic() {
    // bigger stack than a test thread's default, like the qhost binary's interpreter thread
    let h = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            let mut g = Lcg(0x5eed_1234);
            for _ in 0..4000 {
                let n = 1 + g.next() % 12;
                let mut s = String::new();
                for _ in 0..n {
                    s.push_str(ALPHABET[(g.next() % ALPHABET.len() as u64) as usize]);
                }
                // output-producing verbs are fine; exit and system must not end the test
                // (text starting with a backslash is a system command: it would run a shell)
                if s.contains("exit") || s.contains("system") || s.trim_start().starts_with('\\') {
                    continue;
                }
                run_one(&s);
            }
        })
        .unwrap();
    h.join().expect("fuzz thread panicked");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let h = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            for depth in [100usize, 1000, 20000] {
                for (open, close) in [("(", ")"), ("{", "}"), ("[", "]"), ("f[", "]"), ("-", "")] {
                    let s = format!("{}1{}", open.repeat(depth), close.repeat(depth));
                    run_one(&s);
                }
            }
            run_one("f:{f x}; f 1");
            run_one("f:{f each x}; f 1 2");
            run_one("{x/[1 2]}{x/[1 2]}");
        })
        .unwrap();
    h.join().expect("deep nesting thread panicked");
}

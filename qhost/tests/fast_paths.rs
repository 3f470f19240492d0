//! Issue 31's fast paths against the generic paths they short-cut: every expression is
//! evaluated with the fast paths off (`q::values::set_fast_paths(false)`: only the generic
//! code runs) and on, and the two answers must be the same value (type, attribute, `-8!` bytes,
//! console form) or the same error. Values: a fixed pool of every base type with nulls,
//! infinities, attributes, empty, ragged and mixed lists, dictionaries and tables, and random
//! long, float and short vectors and lists of them; expressions: each-left and each-right of
//! the arithmetic glyphs, atomic arithmetic, indexing, drop and take (alone and each),
//! `raze`.
use qhost::q::values::set_fast_paths;

/// Values of every kind the fast paths meet or must leave alone.
const POOL: &[&str] = &[
    "5",
    "-3",
    "0N",
    "0W",
    "-0W",
    "2h",
    "0Nh",
    "0Wh",
    "7i",
    "0Ni",
    "0Wi",
    "1b",
    "0x0f",
    "1.5",
    "0n",
    "0w",
    "-0w",
    "2.5e",
    "\"c\"",
    "`s",
    "2026.01.01",
    "12:00",
    "0D00:00:01",
    "2026.01.01D00:00:00.000000001",
    "til 5",
    "0#0",
    "0#0f",
    "1 0N 3 0W -0W",
    "1 2 3h",
    "0N 5 0Wh",
    "1 2 0Ni",
    "101b",
    "0x0102",
    "1.5 0n 0w -0w",
    "1 2e",
    "\"abc\"",
    "`a`b`c",
    "2026.01.01 2026.01.02",
    "00:01 00:02",
    "`s#1 2 3",
    "`u#3 1 2",
    "`p#1 1 2",
    "`g#1 2 1",
    "`s#1.5 2.5",
    "(1 2 3;4 5 6)",
    "(1 2;3 4 5)",
    "(1;2 3)",
    "(1 2;`a`b)",
    "()",
    "(1 2;())",
    "((1 2;3 4);5 6)",
    "(1 2 3;\"abc\")",
    "(1.5 2;3 4f)",
    "(1 2h;3 4h)",
    "enlist 1 2 3",
    "enlist 0#0",
    "(0#0;0#0)",
    "(1;2;3)",
    "(1;`a;\"b\")",
    "`a`b!1 2",
    "`a`b!(1 2;3 4)",
    "([]a:1 2;b:3 4)",
    "(til 3;til 3;til 3)",
    "`fpdom$`a`b",
    "(1 2;`fpdom$`a`b)",
    "(`fpdom$`c;1)",
    "enlist `fpdom$`a`b`c",
];

/// Expression templates: X and Y are replaced by values (parenthesised).
const BINARY: &[&str] = &[
    "X+\\:Y",
    "X-\\:Y",
    "X*\\:Y",
    "X%\\:Y",
    "X&\\:Y",
    "X|\\:Y",
    "X+/:Y",
    "X-/:Y",
    "X*/:Y",
    "X%/:Y",
    "X&/:Y",
    "X|/:Y",
    "X+Y",
    "X-Y",
    "X*Y",
    "X%Y",
    "X&Y",
    "X|Y",
    "X div Y",
    "X mod Y",
    "X xbar Y",
    "X Y",
    "X@Y",
    "X _ Y",
    "X#Y",
    "X,'Y",
    "X+'Y",
    "X_'Y",
    "X#'Y",
    "X-'Y",
    "X^'Y",
    "X|'Y",
    "_'[X;Y;1]",
];

const UNARY: &[&str] = &[
    "-1_'X",
    "1_'X",
    "2_'X",
    "-2_'X",
    "0_'X",
    "0N_'X",
    "10_'X",
    "-10_'X",
    "2#'X",
    "-2#'X",
    ",[;0]'X",
    "_[;1]'X",
    "_[1]'X",
    "2+'X",
    "1.5*'X",
    "(-1)|'X",
    "0^'X",
    "1_X",
    "-1_X",
    "0_X",
    "5_X",
    "-5_X",
    "0N_X",
    "raze X",
    "raze 1_'X",
    "raze -1_'X",
];

fn answer(src: &str) -> String {
    // the value as q would send it (type, attribute, every item), and as the console shows it
    let wrapped = format!("{{(type x;attr x;-8!x;-3!x)}} {src}");
    match qhost::q::eval_text(&wrapped) {
        Ok(v) => qhost::q::display::one_line(&v),
        Err(e) => format!("'{}", e.0),
    }
}

fn check(src: &str, failures: &mut Vec<String>) {
    set_fast_paths(false);
    let generic = answer(src);
    set_fast_paths(true);
    let fast = answer(src);
    if generic != fast {
        failures.push(format!("{src}\n  generic: {generic}\n  fast:    {fast}"));
    }
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random integer's text: small, negative, null or infinite.
fn rand_int(g: &mut Lcg) -> String {
    match g.below(12) {
        0 => "0N".into(),
        1 => "0W".into(),
        2 => "-0W".into(),
        3 => format!("-{}", g.below(5)),
        _ => g.below(9).to_string(),
    }
}

/// A random float's text: with nulls and infinities.
fn rand_float(g: &mut Lcg) -> String {
    match g.below(10) {
        0 => "0n".into(),
        1 => "0w".into(),
        2 => "-0w".into(),
        _ => format!("{}.{}", g.below(7) as i64 - 3, g.below(10)),
    }
}

/// A random simple vector or atom (long, float, short, int) or general list of vectors.
fn rand_value(g: &mut Lcg, depth: u32) -> String {
    let n = g.below(5) as usize;
    let (suffix, float) = match g.below(6) {
        0 => ("h", false),
        1 => ("i", false),
        2 | 3 => ("f", true),
        _ => ("", false),
    };
    let items = |g: &mut Lcg| -> Vec<String> {
        (0..n)
            .map(|_| if float { rand_float(g) } else { rand_int(g) })
            .collect()
    };
    match g.below(if depth == 0 { 6 } else { 4 }) {
        0 => {
            let v = if float { rand_float(g) } else { rand_int(g) };
            format!("{v}{}", if suffix == "f" { "" } else { suffix })
        }
        1 if n == 0 => format!("0#0{}", if suffix.is_empty() { "j" } else { suffix }),
        1 if n == 1 && float => format!("enlist {}", items(g)[0]),
        1 if n == 1 => format!("enlist {}{suffix}", items(g)[0]),
        1..=3 if n > 1 && float => items(g).join(" "),
        1..=3 if n > 1 => format!("{}{suffix}", items(g).join(" ")),
        1..=3 => format!("{}#0{}", n, if suffix.is_empty() { "j" } else { suffix }),
        _ => {
            // a general list of vectors, of one length or ragged
            let m = 1 + g.below(4);
            let parts: Vec<String> = (0..m).map(|_| rand_value(g, depth + 1)).collect();
            if m == 1 {
                format!("enlist {}", parts[0])
            } else {
                format!("({})", parts.join(";"))
            }
        }
    }
}

/// Run on a thread with a bigger stack, as qhost's interpreter thread has.
fn on_thread(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            // the domain of the pool's enumerations
            qhost::q::eval_text("fpdom:`a`b`c").unwrap();
            f()
        })
        .unwrap()
        .join()
        .expect("test thread panicked");
}

#[test]
fn fast_paths_answer_as_generic_on_the_pool() {
    on_thread(|| {
        let mut failures = Vec::new();
        for x in POOL {
            for t in UNARY {
                check(&t.replace('X', &format!("({x})")), &mut failures);
            }
            for y in POOL {
                for t in BINARY {
                    let e = t
                        .replace('X', &format!("({x})"))
                        .replace('Y', &format!("({y})"));
                    check(&e, &mut failures);
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    });
}

#[test]
fn fast_paths_answer_as_generic_on_random_values() {
    on_thread(|| {
        let mut g = Lcg(0x31_fa57);
        let mut failures = Vec::new();
        for _ in 0..10000 {
            let x = rand_value(&mut g, 0);
            let y = rand_value(&mut g, 0);
            let t = UNARY[g.below(UNARY.len() as u64) as usize];
            check(&t.replace('X', &format!("({x})")), &mut failures);
            let t = BINARY[g.below(BINARY.len() as u64) as usize];
            let e = t
                .replace('X', &format!("({x})"))
                .replace('Y', &format!("({y})"));
            check(&e, &mut failures);
            // char.q's step: a batch of rows of a token list, its inputs and targets
            let idx = rand_value(&mut g, 1);
            check(
                &format!("{{x:y+\\:til 3; (x;-1_'x;raze 1_'x)}}[({x});({idx})]"),
                &mut failures,
            );
            check(&format!("{{(til 20) x+\\:til 4}}[({idx})]"), &mut failures);
        }
        assert!(
            failures.is_empty(),
            "{} differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    });
}

#[test]
fn fast_paths_on_char_q_batches() {
    on_thread(|| {
        let mut failures = Vec::new();
        for src in [
            "{t:(7*til 200) mod 65; x:t 3 150 17 190 0+\\:til 9; (x;-1_'x;raze 1_'x)}[]",
            "{t:(7*til 200) mod 65; x:t (0N 5 199 -1 300)+\\:til 9; (x;-1_'x;raze 1_'x)}[]",
            "{t:\"abcdefgh\"; t (1 2;3 4 9)}[]",
            "{t:`a`b`c; t (0 1;2 5)}[]",
            "{t:1.5 2.5 0n; t (0 1 2;2 5 -1)}[]",
            "{t:(1 2;`a;\"c\"); t (0 1;2 5)}[]",
            "{t:0x0102; t (0 1;2)}[]",
            "{t:2#0Ng; t (0 1;2)}[]",
            "{t:2026.01.01 2026.01.02; t (0 1;2)}[]",
            "{(1 2;3 4) (0 1;2)}[]",
            "{5 6 7 (1 2;`a)}[]",
            "{5 6 7 (1 2h;3 4i)}[]",
            "1 2 3+\\:`a",
            "\"ab\"+\\:1 2",
            "`a`b-/:1 2",
            "1 2+\\:(1 2;3)",
            "(1 2;3 4)+\\:1 2",
            "2026.01.01 2026.01.02+\\:1 2",
            "1 2+\\:2026.01.01 2026.01.02",
            "0N 1+\\:0W -0W 0N",
            "0Wh 1h+\\:1 2h",
            "1 2i*/:0Wi 3i",
            "1.5 0n%\\:0 1f",
            "1 2%\\:0 1",
            "-1_'(1 2;`a`b;\"ab\";0#0;enlist 1;`s#1 2 3)",
            "1_'`a`b!(1 2;3 4)",
            "1_'([]a:1 2;b:3 4)",
            "-1_'1 2 3",
            "2#'(1 2 3;4 5)",
            "(`a`b`a!1 2 3)`a",
            "(`a`b`a!1 2 3)`b",
            "(`a`b`a!1 2 3)`c",
            "(`a`b!(1 2;`x))`b",
            "(`a`b!(1 2;`x))`c",
            "(`a`b!(1 2;3 4))`",
            "(``a!1 2)`",
            "(`a`b!1 2)`a`b",
            "(`a`b!1 2)(`a;`b`c)",
            "(`a`b!`x`y)`z",
            "`a`b`a`c?`a`c`d",
            "`a`b`a`c?`c",
            "(`$string til 40)?`$string 39 5 50 0",
            "(`$string 40#til 20)?`$string 19 5 50",
            "(`$string 40#til 20)?`$\"7\"",
            "(`a`b`c!til 3)`c`a`z",
            "(`a`b`a!til 3)`a`b",
            "((`$string til 40)!til 40)`$string 39 2 77",
            "`a`b`c?(`a;1)",
            "`a`b`c?\"a\"",
            "`a`b`c in `c`d",
            "`a`b`c except `b",
            "(1 2!`a`b)1",
            "(`a`b!1 2)\"a\"",
            "{x:`ep`it`lr`e`i!(2;10;0.0006;0;3); x[`lr] * .1|.5*1+cos %/[@[x[`it]*-1 0+x`e`ep; 0; +; x`i]]*acos -1}[]",
            "{s:`ep`it`lr!(2;10;0.1); s,:`e`t`r`i`l!5#0; s[`i]+:1; s[`l]:1.5; s}[]",
        ] {
            check(src, &mut failures);
        }
        assert!(
            failures.is_empty(),
            "{} differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    });
}

/// The fast and generic answers of char.q's pieces are also the answers q documents
/// (the generic path's own tests pin those; this pins a few with the fast paths on).
#[test]
fn fast_paths_known_answers() {
    on_thread(|| {
        set_fast_paths(true);
        let one = |s: &str| qhost::q::display::one_line(&qhost::q::eval_text(s).unwrap());
        assert_eq!(one("1 2+\\:10 20 30"), "(11 21 31;12 22 32)");
        assert_eq!(one("1 2+/:10 20 30"), "(11 12;21 22;31 32)");
        assert_eq!(one("-1_'(1 2 3;4 5 6)"), "(1 2;4 5)");
        assert_eq!(one("1_'(1 2 3;4 5)"), "(2 3;,5)");
        assert_eq!(one("10 20 30 (0 1;2 5)"), "(10 20;30 0N)");
        assert_eq!(one("0N 1+\\:1 2"), "(0N 0N;2 3)");
    });
}

//! The evaluator in-process (`qhost::q::eval_text`), checked on the K values themselves so the
//! checks do not depend on the display. Each expectation is what kdb+ q answers.
use qhost::kapi::kobj::*;
use qhost::kapi::KObj;
use qhost::q::eval_text;

fn ev(s: &str) -> KObj {
    match eval_text(s) {
        Ok(v) => v,
        Err(e) => panic!("`{s}` signalled '{}", e.0),
    }
}
fn long(s: &str) -> i64 {
    let v = ev(s);
    assert_eq!(v.t(), -KJ, "`{s}` type");
    v.get_long()
}
fn longs(s: &str) -> Vec<i64> {
    let v = ev(s);
    assert_eq!(v.t(), KJ, "`{s}` type");
    v.slice::<i64>().to_vec()
}
fn sym(s: &str) -> String {
    let v = ev(s);
    assert_eq!(v.t(), -KS, "`{s}` type");
    v.get_sym().to_string()
}
fn string(s: &str) -> String {
    let v = ev(s);
    assert_eq!(v.t(), KC, "`{s}` type");
    v.as_string()
}
fn qerr(s: &str) -> String {
    match eval_text(s) {
        Ok(v) => panic!("`{s}` answered {v:?}, expected an error"),
        Err(e) => e.0,
    }
}

#[test]
fn literals() {
    assert_eq!(longs("1 2 3"), vec![1, 2, 3]);
    assert_eq!(ev("1 2 3f").t(), KF);
    assert_eq!(ev("1 2.5").slice::<f64>(), &[1.0, 2.5]);
    assert_eq!(longs("1 -2"), vec![1, -2]);
    assert_eq!(ev("3h").get_short(), 3);
    assert_eq!(ev("4i").get_int(), 4);
    assert_eq!(ev("5j").get_long(), 5);
    assert_eq!(ev("1.5e").get_real(), 1.5);
    assert_eq!(ev("1e-3").get_float(), 0.001);
    assert_eq!(ev("1 2 3h").t(), KH);
    assert_eq!(long("0N"), NJ);
    assert_eq!(long("0W"), WJ);
    assert_eq!(long("-0W"), -WJ);
    assert_eq!(ev("0Ni").get_int(), NI);
    assert!(ev("0n").get_float().is_nan());
    assert!(ev("0Ne").get_real().is_nan());
    assert_eq!(ev("0w").get_float(), f64::INFINITY);
    assert_eq!(ev("-0w").get_float(), f64::NEG_INFINITY);
    assert_eq!(ev("1b").t(), -KB);
    assert_eq!(ev("101b").slice::<u8>(), &[1, 0, 1]);
    assert_eq!(ev("0x1f").get_byte(), 0x1f);
    assert_eq!(ev("0x0102").slice::<u8>(), &[1, 2]);
    assert_eq!(ev("\"a\"").t(), -KC);
    assert_eq!(string("\"a\\tb\\n\\\\\\\"\""), "a\tb\n\\\"");
    assert_eq!(ev("\"\\101\"").get_byte(), b'A');
    assert_eq!(sym("`abc"), "abc");
    assert_eq!(ev("`a`b`c").sym_list(), vec!["a", "b", "c"]);
    assert_eq!(sym("`:dir/file.txt"), ":dir/file.txt");
    assert_eq!(sym("`"), "");
    // temporal: days/ms/ns from 2000.01.01
    assert_eq!(ev("2026.01.01").get_int(), 9497);
    assert_eq!(ev("2000.01.01").t(), -KD);
    assert_eq!(ev("12:00:00.000").get_int(), 43_200_000);
    assert_eq!(ev("12:00:00").t(), -KV);
    assert_eq!(ev("12:00").t(), -KU);
    assert_eq!(ev("0D00:00:01").get_long(), 1_000_000_000);
    assert_eq!(
        ev("2000.01.02D00:00:00.000000001").get_long(),
        86_400_000_000_001
    );
    assert_eq!(ev("2000.03m").get_int(), 2);
    assert_eq!(ev("2000.01.01 2000.01.02").t(), KD);
    assert_eq!(ev("0Nd").get_int(), NI);
    assert_eq!(ev("()").t(), 0);
    assert_eq!(ev("()").len(), 0);
}

#[test]
fn lists_and_juxtaposition() {
    assert_eq!(longs("(1;2;3)"), vec![1, 2, 3]);
    let v = ev("(1;`a;\"b\")");
    assert_eq!((v.t(), v.len()), (0, 3));
    assert_eq!(ev("(1 2;3)").t(), 0);
    // `x -1` is x applied to -1 (an index), `(1 -1)` a vector
    assert_eq!(longs("(2 -1)"), vec![2, -1]);
    assert_eq!(long("{x}[7]"), 7);
    assert_eq!(long("{x} 7"), 7);
    assert_eq!(long("{x}{x} 7"), 7);
}

#[test]
fn lambdas_and_params() {
    assert_eq!(ev("{x}").t(), 100);
    assert_eq!(long("{[a;b] b}[1;2]"), 2);
    assert_eq!(long("{z}[1;2;3]"), 3);
    assert_eq!(long("{y}[1;2]"), 2);
    assert_eq!(long("{[]5}[]"), 5);
    // f[] passes ::
    assert!(qhost::q::values::is_identity(&ev("{x}[]")));
    // locals do not leak; globals by :: inside a lambda
    assert_eq!(qerr("{aa1:1}[]; aa1"), "aa1");
    assert_eq!(long("{bb1::4}[]; bb1"), 4);
    assert_eq!(long("cc1:3; {cc1:9; cc1}[]"), 9);
    assert_eq!(long("cc2:3; {cc2:9}[]; cc2"), 3);
    // return and signal
    assert_eq!(long("{:x; 9}[8]"), 8);
    assert_eq!(qerr("{'`boom}[]"), "boom");
    assert_eq!(qerr("'\"err\""), "err");
    assert_eq!(qerr("{'x}[\"custom text\"]"), "custom text");
    // recursion through .z.s
    assert_eq!(ev("{$[x;.z.s[0];`done]}[1]").get_sym(), "done");
    // too many arguments
    assert_eq!(qerr("{x}[1;2]"), "rank");
    assert_eq!(qerr("{[a;b] a}[1;2;3]"), "rank");
    assert_eq!(qerr("undefinedname"), "undefinedname");
}

#[test]
fn projections() {
    assert_eq!(ev("{[a;b;c] c}[1]").t(), 104);
    assert_eq!(long("{[a;b;c] c}[1][2][3]"), 3);
    assert_eq!(long("{[a;b;c] c}[1;;3][2]"), 3);
    assert_eq!(long("{[a;b;c] a}[;;3][1;2]"), 1);
    assert_eq!(long("{[a;b;c] b}[;;3][1][2]"), 2);
    assert_eq!(long("f1:{[a;b] a}[;2]; f1 5"), 5);
    assert_eq!(qerr("{[a;b] a}[;2][1;2]"), "rank");
    assert_eq!(qerr("{x}[;]"), "rank");
}

#[test]
fn control_words() {
    assert_eq!(sym("$[1b;`a;`b]"), "a");
    assert_eq!(sym("$[0b;`a;`b]"), "b");
    assert_eq!(sym("$[0b;`a;0b;`b;`c]"), "c");
    assert_eq!(sym("$[0b;`a;1b;`b;`c]"), "b");
    assert_eq!(sym("$[3;`a;`b]"), "a");
    // only the chosen branch runs
    assert_eq!(sym("$[1b;`a;'`no]"), "a");
    assert_eq!(long("r1:0; if[1b; r1:5]; r1"), 5);
    assert_eq!(long("r2:0; if[0b; r2:5]; r2"), 0);
    let d = ev("{r:`a; do[2; r:(r;`b)]; r}[]");
    // (`a;`b) collapses to a symbol vector, then ((`a`b);`b) stays general
    assert_eq!((d.t(), d.item(0).t(), d.item(1).t()), (0, KS, -KS));
    assert_eq!(sym("{r:`a; do[0; r:`b]; r}[]"), "a");
    assert_eq!(long("{n:0; b:1b; while[b; n:1; b:0b]; n}[]"), 1);
    assert_eq!(qerr("if[`a; 1]"), "type");
}

#[test]
fn adverbs_with_lambdas() {
    assert_eq!(longs("{7} each 1 2 3"), vec![7, 7, 7]);
    assert_eq!(longs("{x}'[1 2 3]"), vec![1, 2, 3]);
    assert_eq!(longs("{y}'[1 2;3 4]"), vec![3, 4]);
    assert_eq!(longs("{y}'[1;3 4]"), vec![3, 4]);
    assert_eq!(qerr("{y}'[1 2;3 4 5]"), "length");
    assert_eq!(longs("{z}'[1 2;3 4;5 6]"), vec![5, 6]);
    assert_eq!(longs("1 2 {y}/: 3 4"), vec![3, 4]);
    assert_eq!(ev("1 2 {y}/: 3 4").len(), 2);
    assert_eq!(longs("1 2 {[a;b] a}\\: 3 4"), vec![1, 2]);
    assert_eq!(qerr("1 2 {x}\\: 3 4"), "rank");
    // each-prior: f[item; previous], seeded or not
    assert_eq!(longs("5 {y}': 1 2 3"), vec![5, 1, 2]);
    assert_eq!(longs("{x}': 1 2 3"), vec![1, 2, 3]);
    // folds: f[acc;item]
    assert_eq!(long("{y}/[1 2 3]"), 3);
    assert_eq!(long("{[a;b] a}/[1 2 3]"), 1);
    assert_eq!(long("0 {y}/ 1 2 3"), 3);
    assert_eq!(longs("{y}\\[1 2 3]"), vec![1, 2, 3]);
    assert_eq!(longs("{[a;b] a}\\[1 2 3]"), vec![1, 1, 1]);
    assert_eq!(longs("9 {[a;b] a}\\ 1 2 3"), vec![9, 9, 9]);
    // n-ary fold
    assert_eq!(long("{[a;b;c] c}/[0;1 2;3 4]"), 4);
    // do-n
    assert_eq!(ev("3 {`z}/ 1").get_sym(), "z");
    assert_eq!(ev("2 {`z}\\ 1").len(), 3);
    assert_eq!(long("0 {`z}/ 1"), 1);
    // keywords
    assert_eq!(longs("{7} each 1 2"), vec![7, 7]);
    assert_eq!(longs("{7} peach 1 2"), vec![7, 7]);
    assert_eq!(long("{y} over 1 2 3"), 3);
    assert_eq!(longs("{y} scan 1 2 3"), vec![1, 2, 3]);
    assert_eq!(longs("{x} prior 1 2 3"), vec![1, 2, 3]);
    assert_eq!(longs("each[{7};1 2]"), vec![7, 7]);
}

#[test]
fn apply_and_trap() {
    assert_eq!(long("{x}@7"), 7);
    assert_eq!(long("{y}.(1;2)"), 2);
    assert_eq!(long("@[{x};5]"), 5);
    assert_eq!(long(".[{y};(1;2)]"), 2);
    assert_eq!(string("@[{'x};\"oops\";{x}]"), "oops");
    assert_eq!(sym("@[{'x};\"oops\";`caught]"), "caught");
    assert_eq!(string(".[{'y};(1;\"bad\");{x}]"), "bad");
    assert_eq!(string(".[{x};(1;2);{x}]"), "rank");
    assert_eq!(ev("'[{x};{y}]").t(), 105);
    assert_eq!(long("'[{x};{y}][1;2]"), 2);
}

#[test]
fn amend() {
    assert_eq!(longs("@[1 2 3;1;:;9]"), vec![1, 9, 3]);
    assert_eq!(longs("@[1 2 3;0 2;:;7 8]"), vec![7, 2, 8]);
    assert_eq!(longs("@[1 2 3;1;{10}]"), vec![1, 10, 3]);
    assert_eq!(longs("@[1 2 3;1;{y};5]"), vec![1, 5, 3]);
    assert_eq!(qerr("@[1 2 3;5;:;9]"), "index");
    assert_eq!(qerr("@[1 2 3;1;:;`a]"), "type");
    assert_eq!(qerr("@[1 2 3;0 1;:;7 8 9]"), "length");
    let v = ev(".[(1 2;3 4);1 0;:;9]");
    assert_eq!(v.item(1).slice::<i64>(), &[9, 4]);
    // a global named by a symbol is amended in place
    assert_eq!(sym("ga:1 2 3; @[`ga;1;:;0]"), "ga");
    assert_eq!(longs("ga2:1 2 3; @[`ga2;1;:;0]; ga2"), vec![1, 0, 3]);
    // indexed assignment
    assert_eq!(longs("ia:1 2 3; ia[0]:5; ia"), vec![5, 2, 3]);
    assert_eq!(longs("{v:1 2 3; v[2]:0; v}[]"), vec![1, 2, 0]);
}

#[test]
fn globals_value_set() {
    assert_eq!(sym("`gs1 set 42"), "gs1");
    assert_eq!(long("`gs2 set 42; gs2"), 42);
    assert_eq!(long("gs3:7; value `gs3"), 7);
    assert_eq!(long("gs4:7; get `gs4"), 7);
    assert_eq!(long("value \"{x}[3]\""), 3);
    assert_eq!(long(".t1.v:5; .t1.v"), 5);
    assert_eq!(long("value ({y};1;2)"), 2);
    assert_eq!(sym(".z.o"), "l64");
    assert_eq!(ev(".z.P").t(), -KP);
    assert_eq!(ev(".z.D").t(), -KD);
    assert_eq!(ev(".z.T").t(), -KT);
    assert_eq!(ev(".z.K").t(), -KF);
    assert_eq!(qerr("count:1"), "assign");
}

#[test]
fn qsql_without_verbs() {
    let t = ev("([]a:1 2 3;b:`x`y`x)");
    assert_eq!(t.t(), XT);
    assert_eq!(t.len(), 3);
    let s = ev("tq:([]a:1 2 3;b:`x`y`x); select b from tq");
    assert_eq!(s.t(), XT);
    assert_eq!(s.table_dict().dict_keys().sym_list(), vec!["b"]);
    assert_eq!(
        longs("tq:([]a:1 2 3;b:`x`y`x); exec a from tq"),
        vec![1, 2, 3]
    );
    let g = ev("tq:([]a:1 2 3;b:`x`y`x); select by b from tq");
    assert_eq!(g.t(), XD);
    assert_eq!(
        g.dict_keys().table_dict().dict_values().item(0).sym_list(),
        vec!["x", "y"]
    );
    assert_eq!(
        g.dict_values()
            .table_dict()
            .dict_values()
            .item(0)
            .slice::<i64>(),
        &[3, 2]
    );
    let u = ev("tq:([]a:1 2 3;b:`x`y`x); update c:a from tq");
    assert_eq!(u.table_dict().dict_keys().sym_list(), vec!["a", "b", "c"]);
    let d = ev("tq:([]a:1 2 3;b:`x`y`x); delete a from tq");
    assert_eq!(d.table_dict().dict_keys().sym_list(), vec!["b"]);
    assert_eq!(qerr("([]a:1 2;b:1 2 3)"), "length");
    let k = ev("([k:1 2]v:3 4)");
    assert_eq!((k.t(), k.dict_keys().t()), (XD, XT));
}

#[test]
fn deep_recursion_is_a_stack_error() {
    assert_eq!(qerr("f:{f x}; f 1"), "stack");
    assert_eq!(qerr("{.z.s x}1"), "stack");
    let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
    assert_eq!(qerr(&deep), "stack");
    // the trap catches it and the evaluator goes on
    assert_eq!(string("@[{.z.s x};1;{x}]"), "stack");
}

//! The evaluator through the qhost binary, as q's console shows results (`q(expr)` is what
//! `show` prints). Each expectation is what kdb+ q prints for the same expression.
mod common;
use common::{q, q_err};

#[test]
fn right_to_left() {
    assert_eq!(q("2*3+4"), "14");
    assert_eq!(q("10-2-3"), "11");
    assert_eq!(q("1+til 3"), "1 2 3");
    assert_eq!(q("-1+2"), "1");
    // `x-1` subtracts, `x -1` indexes with -1 (out of range: null)
    assert_eq!(q("x:1 2 3; x-1"), "0 1 2");
    assert_eq!(q("x:1 2 3; x -1"), "0N");
    assert_eq!(q("x:1 2 3; x 1"), "2");
    assert_eq!(q("x:1 2 3; x[1]"), "2");
    assert_eq!(q("(1 2 3) 0 2"), "1 3");
    assert_eq!(q("{x*2} 3 4"), "6 8");
    assert_eq!(q("a:2; b:a*3; b"), "6");
    assert_eq!(q("(1;2;3)"), "1 2 3");
    assert_eq!(q("(1 2;3 4)"), "1 2\n3 4");
}

#[test]
fn literals_display() {
    assert_eq!(q("1 2 3f"), "1 2 3f");
    assert_eq!(q("1 2.5"), "1 2.5");
    assert_eq!(q("101b"), "101b");
    assert_eq!(q("0x0102"), "0x0102");
    assert_eq!(q("`a`b"), "`a`b");
    assert_eq!(q("\"abc\""), "\"abc\"");
    assert_eq!(q("0N"), "0N");
    assert_eq!(q("2026.01.01"), "2026.01.01");
    assert_eq!(q("type 1e"), "-8h");
    assert_eq!(q("type 0Ni"), "-6h");
    assert_eq!(q("type 12:00"), "-17h");
    assert_eq!(q("type 0D00:00:01"), "-16h");
    assert_eq!(q("type 2026.01.01D12:00:00"), "-12h");
}

#[test]
fn lambdas_and_projections_display() {
    assert_eq!(q("{x+y}[1;2]"), "3");
    assert_eq!(q("{[a;b] a-b}[5;3]"), "2");
    assert_eq!(q("{x+y}"), "{x+y}");
    assert_eq!(q("f:{x+y}[1]; f 2"), "3");
    assert_eq!(q("f:{x+y+z}[;2;]; f[1;3]"), "6");
    assert_eq!(q("f:+[1]; f 2"), "3");
    assert_eq!(q("f:2+; f 3"), "5");
    assert_eq!(q("type {x}"), "100h");
    assert_eq!(q("type {x+y}[1]"), "104h");
    assert_eq!(q("f:{a:x*2; a+1}; f 3"), "7");
    // q has no closures: a lambda sees its own locals and globals only
    assert_eq!(q("fib::{$[x<2;x;fib[x-1]+fib[x-2]]}; fib 10"), "55");
    assert_eq!(q("{$[x<2;x;.z.s[x-1]+.z.s[x-2]]} 10"), "55");
}

#[test]
fn assignment_forms() {
    assert_eq!(q("a:1; a+:2; a"), "3");
    assert_eq!(q("a:1 2; a,:3; a"), "1 2 3");
    assert_eq!(q("x:1 2 3; x[1]:20; x"), "1 20 3");
    assert_eq!(q("x:1 2 3; x[1]+:10; x"), "1 12 3");
    assert_eq!(q("x:1 2 3; x[0 2]:9; x"), "9 2 9");
    assert_eq!(q("d:`a`b!1 2; d[`b]:5; d`b"), "5");
    assert_eq!(q("d:`a`b!1 2; d[`c]:3; d"), "a| 1\nb| 2\nc| 3");
    assert_eq!(q("m:(1 2;3 4); m[1;0]:9; m"), "1 2\n9 4");
    assert_eq!(q("gg::5; gg"), "5");
}

#[test]
fn control() {
    assert_eq!(q("$[1b;`yes;`no]"), "`yes");
    assert_eq!(q("$[0b;1;0b;2;3]"), "3");
    assert_eq!(q("r:0; do[5; r+:2]; r"), "10");
    assert_eq!(q("i:0; while[i<5; i+:1]; i"), "5");
    assert_eq!(q("r:`none; if[1>0; r:`set]; r"), "`set");
    assert_eq!(q("{if[x>0; :`pos]; `nonpos} 1"), "`pos");
    assert_eq!(q("{if[x>0; :`pos]; `nonpos} -1"), "`nonpos");
}

#[test]
fn adverbs_display() {
    assert_eq!(q("+/[1 2 3]"), "6");
    assert_eq!(q("+/ 1 2 3"), "6");
    assert_eq!(q("10 +/ 1 2 3"), "16");
    assert_eq!(q("+\\ 1 2 3"), "1 3 6");
    assert_eq!(q("{x+y}/[1 2 3]"), "6");
    assert_eq!(q("count each (1 2;3 4 5)"), "2 3");
    assert_eq!(q("1 2 ,' 3 4"), "1 3\n2 4");
    assert_eq!(q("1 2 ,\\: 3"), "1 3\n2 3");
    assert_eq!(q("1 ,/: 2 3"), "1 2\n1 3");
    assert_eq!(q(",/[(1 2;3 4)]"), "1 2 3 4");
    assert_eq!(q("{x+y+z}'[1 2;3 4;5 6]"), "9 12");
    assert_eq!(q("-':[1 4 9 16]"), "1 3 5 7");
    assert_eq!(q("10 -': 11 13"), "1 2");
    assert_eq!(q("3 {x*x}\\ 2"), "2 4 16 256");
    assert_eq!(q("3 {x*x}/ 2"), "256");
    assert_eq!(q("{x<100} {x*2}/ 1"), "128");
    assert_eq!(q("{x div 2}/[100]"), "0");
    assert_eq!(q("{x div 2}\\[100]"), "100 50 25 12 6 3 1 0");
    assert_eq!(q("{x+y*z}/[0;1 2;3 4]"), "11");
    assert_eq!(q("(+) over 1 2 3"), "6");
    assert_eq!(q("{x,y} scan 1 2 3"), "1\n1 2\n1 2 3");
    assert_eq!(q("{7}each `a`b!1 2"), "a| 7\nb| 7");
}

#[test]
fn apply_index_trap() {
    assert_eq!(q("{x+1} @ 2"), "3");
    assert_eq!(q("(+) . 1 2"), "3");
    assert_eq!(q(".[+;(1;2)]"), "3");
    assert_eq!(q("@[{1+x};`a;{\"caught \",x}]"), "\"caught type\"");
    assert_eq!(q(".[+;(1;`a);{x}]"), "\"type\"");
    assert_eq!(q("@[{'`custom};0;{x}]"), "\"custom\"");
    assert_eq!(q("@[1 2 3;1;+;10]"), "1 12 3");
    assert_eq!(q("@[1 2 3;1;neg]"), "1 -2 3");
    // a matrix shows with aligned columns (code.kx.com/phrases/shape prints 2 3 3#1+til 18 so)
    assert_eq!(q(".[(1 2;3 4);(1;0);*;10]"), "1  2\n30 4");
    assert_eq!(q("@[`a`b!1 2;`a;+;1]"), "a| 2\nb| 2");
    assert_eq!(q("v::1 2 3; @[`v;0;:;7]; v"), "7 2 3");
    assert_eq!(q("'[neg;+][1;2]"), "-3");
    assert_eq!(q("(1 2;3 4) . 1 0"), "3");
}

#[test]
fn keywords_needing_the_evaluator() {
    assert_eq!(q("value \"1+2\""), "3");
    assert_eq!(q("aa::7; value `aa"), "7");
    assert_eq!(q("`bb set 8; bb"), "8");
    assert_eq!(q("get `bb2 set 9"), "9");
    assert_eq!(q("value `a`b!1 2"), "1 2");
    assert_eq!(q("value (+;1;2)"), "3");
    assert_eq!(q("type system \"t 1+1\""), "-7h");
    assert_eq!(q("type .z.P"), "-12h");
    assert_eq!(q("type .z.D"), "-14h");
    assert_eq!(q(".Q.s 1 2"), "\"1 2\\n\"");
}

#[test]
fn qsql() {
    let t = "t:([]a:1 2 3;b:`x`y`x)";
    assert_eq!(q(&format!("{t}; t")), "a b\n---\n1 x\n2 y\n3 x");
    assert_eq!(q(&format!("{t}; select a from t where a>1")), "a\n-\n2\n3");
    assert_eq!(
        q(&format!("{t}; select a,b from t where b=`x, a>1")),
        "a b\n---\n3 x"
    );
    assert_eq!(
        q(&format!("{t}; select sum a by b from t")),
        "b| a\n-| -\nx| 4\ny| 2"
    );
    assert_eq!(q(&format!("{t}; exec a from t where b=`x")), "1 3");
    assert_eq!(
        q(&format!("{t}; update c:a*2 from t")),
        "a b c\n-----\n1 x 2\n2 y 4\n3 x 6"
    );
    assert_eq!(
        q(&format!("{t}; update a:0 from t where b=`y")),
        "a b\n---\n1 x\n0 y\n3 x"
    );
    assert_eq!(q(&format!("{t}; count select from t where a>5")), "0");
    assert_eq!(
        q(&format!("{t}; select n:count i by b from t")),
        "b| n\n-| -\nx| 2\ny| 1"
    );
    assert_eq!(
        q(&format!("{t}; delete from t where a=2")),
        "a b\n---\n1 x\n3 x"
    );
    assert_eq!(q(&format!("{t}; exec sum a from t")), "6");
}

#[test]
fn errors() {
    assert_eq!(q_err("1+`a"), "type");
    assert_eq!(q_err("1 2+1 2 3"), "length");
    assert_eq!(q_err("{x}[1;2]"), "rank");
    assert_eq!(q_err("undefined_name_here"), "undefined_name_here");
    assert_eq!(q_err("'`myerr"), "myerr");
    // unix sockets, TLS, fifos and files are not qhost's (q::ipc)
    assert_eq!(q_err("hopen`:unix://5000"), "nyi");
    assert_eq!(q_err("count:5"), "assign");
    assert_eq!(q_err("f:{f x}; f 1"), "stack");
}

/// q: each-left and each-right over a dictionary go by its values and keep its keys
/// (`d~\:x` is how scripts ask which values match).
#[test]
fn each_left_right_over_dictionaries_keep_keys() {
    assert_eq!(q("(`a`b`c!(`ok;`ok;1))~\\:`ok"), "a| 1\nb| 1\nc| 0");
    assert_eq!(q("10+/:`a`b!1 2"), "a| 11\nb| 12");
}

/// q: `exec c by k from t` is a dictionary from each group's key to its result; `update .. by`
/// computes per group and keeps the table's rows and order.
#[test]
fn qsql_exec_by_and_update_by() {
    let t = "t:([]a:1 2 3 4;b:`x`y`x`y;c:10 20 30 40)";
    assert_eq!(q(&format!("{t}; exec sum a by b from t")), "x| 4\ny| 6");
    assert_eq!(
        q(&format!("{t}; update s:sum a by b from t")),
        "a b c  s\n--------\n1 x 10 4\n2 y 20 6\n3 x 30 4\n4 y 40 6"
    );
    assert_eq!(
        q(&format!("{t}; exec r from update r:sums c by b from t")),
        "10 20 40 60"
    );
}

/// Locals are resolved to slots when a lambda is parsed (issue 32): each lambda reads its own
/// frame, a nested lambda its own (q has no closures: basics/function-notation.md), a query
/// inside a lambda sees columns first and then the lambda's locals (ref/select.md: a column
/// shadows a local of the same name), an unset local is its name's error, and a local named
/// like a control word is a local (the same expressions as before the change, as q answers).
#[test]
fn locals_by_slot() {
    assert_eq!(q("{a:1; {a:2; a}[] + a}[]"), "3");
    assert_eq!(q("{[x;y] z:x*y; z-x}[3;4]"), "9");
    assert_eq!(
        q("f:{[t] c:10; select a+c from t}; f ([]a:1 2)"),
        "a \n--\n11\n12"
    );
    assert_eq!(
        q("f:{[t] a:100; select a from t}; f ([]a:1 2)"),
        "a\n-\n1\n2"
    );
    assert_eq!(q("{[n] s:0; i:0; while[i<n; s+:i; i+:1]; s}[5]"), "10");
    assert_eq!(q_err("{if[x;b:1]; b}[0b]"), "b");
    assert_eq!(q("{[a;b] b::99; a+b}[10;20]"), "109");
}

/// basics/qsql.md, "Names in subphrases": "A name in a subphrase is resolved (in order) as the
/// name of 1. column or key name 2. local name in (or argument of) the encapsulating function
/// 3. global name in the current working namespace – not necessarily the space in which the
/// function was defined".
#[test]
fn qsql_names_column_then_local_then_global() {
    let t = "t::([]date:2020.01.01 2020.01.02;x:1 2;v:10 20)";
    // 1 before 2: a lambda's argument x is shadowed by t's column x (date=1 2: no row)
    assert_eq!(
        q(&format!(
            "{t}; count {{select from t where date=x}} 2020.01.01"
        )),
        "0"
    );
    assert_eq!(
        q(&format!("{t}; {{[v] select w:v from t}} 5")),
        "w \n--\n10\n20"
    );
    assert_eq!(q(&format!("{t}; {{[v] exec v from t}} 5")), "10 20");
    assert_eq!(
        q(&format!("{t}; {{[x] update y:x from t}} 7")),
        "date       x v  y\n-----------------\n2020.01.01 1 10 1\n2020.01.02 2 20 2"
    );
    assert_eq!(
        q(&format!("{t}; {{[x] delete from t where x=1}} 2")),
        "date       x v \n---------------\n2020.01.02 2 20"
    );
    assert_eq!(
        q(&format!("{t}; {{[x;y] select from t where x=y}}[1;2]")),
        "date       x v \n---------------\n2020.01.02 2 20"
    );
    // 2: an argument that names no column
    assert_eq!(
        q(&format!(
            "{t}; {{[d] select from t where date=d}} 2020.01.01"
        )),
        "date       x v \n---------------\n2020.01.01 1 10"
    );
    // 2 before 3: the argument d, not the global d
    assert_eq!(
        q(&format!(
            "{t}; d::2020.01.02; {{[d] select from t where date=d}} 2020.01.01"
        )),
        "date       x v \n---------------\n2020.01.01 1 10"
    );
    // 1 before 3: the column v, not the global v; 3: a global that names no column
    assert_eq!(q(&format!("{t}; v::100; exec v from t")), "10 20");
    assert_eq!(
        q(&format!("{t}; g::2; {{select from t where x=g}}[]")),
        "date       x v \n---------------\n2020.01.02 2 20"
    );
}

/// The virtual column `i` is no column or key name of the table and KX does not say whether a
/// local or argument named `i` shadows it: 'nyi where a template reads `i` in a lambda with one.
#[test]
fn qsql_local_named_i_is_nyi() {
    let t = "t::([]x:1 2)";
    assert_eq!(
        q_err(&format!("{t}; {{[i] select from t where i=1}} 0")),
        "nyi"
    );
    assert_eq!(q_err(&format!("{t}; {{[i] exec x+i from t}} 0")), "nyi");
    assert_eq!(q_err(&format!("{t}; {{[i] update y:i from t}} 0")), "nyi");
    // not read: fine; a real column i is a column name; no local i: the virtual column
    assert_eq!(q(&format!("{t}; {{[i] exec x from t}} 0")), "1 2");
    assert_eq!(q("{[i] exec i from ([]i:5 6)} 0"), "5 6");
    assert_eq!(q(&format!("{t}; exec i from t")), "0 1");
}

/// Functional forms (basics/funsql.md, "Call by name"): "Columns in a, b and c appear as
/// symbols"; a lambda passes its locals' values, not their names. A symbol that names no column
/// but a local of the calling lambda is 'nyi (KX does not say whether it can read the local).
#[test]
fn funsql_names_are_columns_values_from_locals() {
    let t = "t::([]x:1 2;v:10 20)";
    assert_eq!(
        q(&format!("{t}; {{[a] ?[t;enlist(=;`x;a);0b;()]}} 1")),
        "x v \n----\n1 10"
    );
    // `v is the column, not the argument v
    assert_eq!(q(&format!("{t}; {{[v] ?[t;();();`v]}} 5")), "10 20");
    // a global that names no column
    assert_eq!(
        q(&format!("{t}; a::2; ?[t;enlist(=;`x;`a);0b;()]")),
        "x v \n----\n2 20"
    );
    assert_eq!(
        q_err(&format!("{t}; {{[a] ?[t;enlist(=;`x;`a);0b;()]}} 1")),
        "nyi"
    );
    assert_eq!(
        q_err(&format!("{t}; {{[f] ?[t;();();(`f;(+;`v;0))]}}[neg]")),
        "nyi"
    );
}

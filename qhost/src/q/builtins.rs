//! The q keywords qhost knows by name: which the evaluator itself runs (they need to apply
//! functions or touch globals) and which are data verbs for `verbs::apply_prim`, with the
//! valence each has for projection and adverbs.
/// Names of q keywords that are dyadic and so used infix (`x in y`, `f each x`).
pub const INFIX_WORDS: &[&str] = &[
    "and", "or", "mod", "div", "in", "within", "like", "xbar", "xexp", "xlog", "cross", "except",
    "inter", "union", "sv", "vs", "cut", "sublist", "rotate", "set", "each", "over", "scan",
    "prior", "peach", "xasc", "xdesc", "xcol", "xcols", "xkey", "xgroup", "xprev", "lj", "ij",
    "uj", "pj", "ej", "aj", "asof", "bin", "binr", "ss", "mavg", "msum", "mcount", "mdev", "mmax",
    "mmin", "ema", "wavg", "wsum", "cor", "cov", "scov", "mmu", "lsq", "upsert", "insert", "fby",
    "dsave", "setenv",
];

/// Keywords the evaluator implements (eval::call_builtin).
pub const EVAL_WORDS: &[&str] = &[
    "value", "get", "set", "show", "system", "exit", "read0", "each", "over", "scan", "prior",
    "peach", "getenv", "setenv", "eval", "parse", "hopen", "hclose", "load", "read1", "tables",
    "views", "hcount", "hdel", "save", "fby",
];

/// Monadic keywords on data (verbs::apply_prim).
pub const MONADS: &[&str] = &[
    "abs",
    "acos",
    "all",
    "any",
    "asc",
    "asin",
    "atan",
    "avg",
    "avgs",
    "ceiling",
    "cols",
    "cos",
    "count",
    "deltas",
    "desc",
    "dev",
    "differ",
    "distinct",
    "enlist",
    "exp",
    "fills",
    "first",
    "flip",
    "floor",
    "group",
    "hsym",
    "iasc",
    "idesc",
    "inv",
    "key",
    "keys",
    "last",
    "log",
    "lower",
    "ltrim",
    "max",
    "maxs",
    "md5",
    "med",
    "meta",
    "min",
    "mins",
    "neg",
    "next",
    "not",
    "null",
    "prd",
    "prds",
    "prev",
    "rand",
    "rank",
    "ratios",
    "raze",
    "reciprocal",
    "reverse",
    "rtrim",
    "sdev",
    "signum",
    "sin",
    "sqrt",
    "string",
    "sum",
    "sums",
    "svar",
    "tan",
    "til",
    "trim",
    "type",
    "ungroup",
    "upper",
    "var",
    "where",
    "attr",
    "fkeys",
    "flip",
    "gtime",
    "ltime",
    "xcols",
    "ss",
    "sublist",
];

pub fn is_builtin(n: &str) -> bool {
    EVAL_WORDS.contains(&n) || MONADS.contains(&n) || INFIX_WORDS.contains(&n) || n == "ssr"
}

/// Whether a primitive name is a glyph verb (`+`, `<=`, `0:`...).
pub fn is_glyph(op: &str) -> bool {
    !op.is_empty()
        && !is_unary_form(op)
        && !op.as_bytes()[0].is_ascii_alphabetic()
        && !op.starts_with(".Q")
        && !op.starts_with(".z")
}

pub use super::verbs::is_unary_form;

/// How many arguments a primitive takes before it runs (fewer make a projection).
pub fn valence(op: &str) -> usize {
    if is_glyph(op) {
        return 2;
    }
    match op {
        "ssr" => 3,
        "enlist" | "'" => 1,
        ".Q.fmt" => 3,
        ".Q.f" => 2,
        "value" | "get" | "show" | "system" | "exit" | "read0" | "getenv" | "eval" | "parse"
        | "hopen" | "hclose" | "load" | "read1" | "tables" | "views" | "hcount" | "hdel"
        | "save" => 1,
        "setenv" => 2,
        _ if INFIX_WORDS.contains(&op) => 2,
        _ => 1,
    }
}

/// The most arguments a primitive takes: `@`/`.` amend with 4, `?` the vector conditional and
/// `ssr` 3, `enlist` and composition `'[f;g;..]` up to q's limit of 8.
pub fn max_args(op: &str) -> usize {
    match op {
        "@" | "." => 4,
        // ?[t;c;b;a] and ![t;c;b;a]: functional qSQL (basics/funsql.md)
        "?" => 6,
        "deltas" => 2,
        "!" => 4,
        "ssr" => 3,
        // `:[v;p1;r1;..]`, the pattern conditional (nyi), takes any count
        // `enlist` takes any number (ref/enlist.md: ten)
        "enlist" => 64,
        "'" | ":" => 8,
        _ => valence(op),
    }
}

//! What the parser and the evaluator ask of q's primitives by name, read from the one table
//! (`verbs::table`): keywords, infix keywords, those the evaluator runs, the arguments each
//! takes before it runs (projection, iterators) and at most.
pub use super::verbs::table::{by_evaluator, is_infix};

/// A keyword of q's that qhost knows (verbs::table): a name that is not a variable's.
pub fn is_builtin(n: &str) -> bool {
    super::verbs::table::is_keyword(n)
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
    super::verbs::table::find(op).map_or(1, |p| p.valence)
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

//! Primitive verbs and keywords on data: atomic arithmetic with q's conformability, structural
//! verbs, casts, searching, sorting, string keywords. One file per family; each family answers
//! `monad`/`dyad` with None for a name that is not its own, and this module dispatches on the
//! q name and the number of arguments.
pub mod aggregate;
pub mod arith;
pub mod atomic;
pub mod cast;
pub mod compare;
pub mod composite;
pub mod digest;
pub mod index;
pub mod joins;
pub mod linalg;
pub mod meta;
pub mod search_sort;
pub mod strings;
pub mod structure;
pub mod table;
pub mod types;
pub mod util;

use super::{display, enums, err, QResult};
use crate::kapi::kobj::{KI, KJ, KS, XD, XT};
use crate::kapi::KObj;

/// The monadic meaning of each primitive symbol (k's monads, as q evaluates `op x` / `op[x]`).
/// A glyph's unary form, the glyph then a colon (`#:` is count, `|:` reverse: basics/variadic.md,
/// basics/exposed-infrastructure.md); a keyword-like primitive of type 101.
pub fn is_unary_form(op: &str) -> bool {
    let b = op.as_bytes();
    b.len() == 2 && b[1] == b':' && b"+-*%&|^=<>~,#_$?@!.".contains(&b[0])
}

/// Apply primitive `op` (a verb like "+" or a keyword like "count") to its arguments.
/// `$[c;t;f]`, `@`/`.` apply and amend are the evaluator's; "?" with 3 arguments is the vector
/// conditional, "ssr" takes 3, "enlist" any number.
pub fn apply_prim(op: &str, args: Vec<KObj>) -> QResult {
    if op == "enlist" || (op == "," && args.len() == 1) {
        return Ok(structure::enlist(args));
    }
    if args.iter().any(enums::contains_enum) {
        return enum_prim(op, &args);
    }
    if is_unary_form(op) && args.len() != 1 {
        return Err(err("rank"));
    }
    match (op, args.len()) {
        ("@", 2) => return index::at(&args[0], &args[1]),
        (".", 2) => return index::dot(&args[0], &args[1]),
        (".Q.s", 1) | (".Q.s1", 1) if !display::showable(&args[0]) => return Err(err("nyi")),
        (".Q.s", 1) => return Ok(KObj::string(&display::show_text(&args[0]))),
        (".Q.s1", 1) => return Ok(KObj::string(&display::one_line(&args[0]))),
        (".Q.f", 2) | (".Q.fmt", 3) => return format_number(&args),
        _ => {}
    }
    match args.len() {
        1 => monad(unary_name(op), &args[0]),
        2 => dyad(op, &args[0], &args[1]),
        3 => match op {
            "?" => search_sort::vector_cond(&args[0], &args[1], &args[2]),
            "ssr" => strings::ssr(&args[0], &args[1], &args[2]),
            _ if is_prim(op) => Err(err("rank")),
            _ => Err(err("nyi")),
        },
        _ if is_prim(op) => Err(err("rank")),
        _ => Err(err("nyi")),
    }
}

/// A primitive given an enumeration (q::enums): what KX documents for them, and what only moves
/// values about (count, type, making a dictionary or table, taking columns); anything else 'nyi.
fn enum_prim(op: &str, args: &[KObj]) -> QResult {
    let x = &args[0];
    let name = if args.len() == 1 { unary_name(op) } else { op };
    match (name, args.len()) {
        ("count" | "type", 1) => monad(name, x),
        ("key", 1) if enums::is_enum(x) => enums::key(x),
        ("value", 1) if enums::is_enum(x) => enums::values(x),
        ("flip", 1) if x.t() == XD => monad("flip", x),
        ("cols", 1) if x.t() == XT => monad("cols", x),
        ("@", 2) => index::at(x, &args[1]),
        ("!", 2) if x.t() == KS && !enums::contains_enum(x) => dyad("!", x, &args[1]),
        ("#", 2) if matches!(x.t(), KS | -11) && args[1].t() == XT => dyad("#", x, &args[1]),
        ("$", 2) if enums::is_enum(&args[1]) => match (x.t(), x) {
            (-10, c) if c.get_byte() == b'i' => enums::cast(KI, &args[1]),
            (-10, c) if c.get_byte() == b'j' => enums::cast(KJ, &args[1]),
            (-11, s) if s.get_sym() == "int" => enums::cast(KI, &args[1]),
            (-11, s) if s.get_sym() == "long" => enums::cast(KJ, &args[1]),
            _ => Err(err("nyi")),
        },
        _ => Err(err("nyi")),
    }
}

/// The keyword a glyph's monadic form runs (`#x`, `#:` are `count`), else the name itself.
fn unary_name(op: &str) -> &str {
    let op = if is_unary_form(op) { &op[..1] } else { op };
    table::find(op).and_then(|p| p.unary).unwrap_or(op)
}

fn monad(op: &str, x: &KObj) -> QResult {
    if let Some(r) = table::find(op).and_then(|p| p.monad).and_then(|f| f(op, x)) {
        return r;
    }
    Err(err(if valence(op).is_some_and(|v| v.0 > 1) {
        "rank"
    } else {
        "nyi"
    }))
}

fn dyad(op: &str, x: &KObj, y: &KObj) -> QResult {
    if let Some(r) = table::find(op)
        .and_then(|p| p.dyad)
        .and_then(|f| f(op, x, y))
    {
        return r;
    }
    Err(err(if valence(op).is_some_and(|v| v.1 < 2) {
        "rank"
    } else {
        "nyi"
    }))
}

/// Whether `name` is a primitive this module applies.
pub fn is_prim(name: &str) -> bool {
    valence(name).is_some()
}

/// (fewest, most) arguments a primitive takes here (`table::arguments`).
pub fn valence(name: &str) -> Option<(usize, usize)> {
    table::arguments(name)
}

/// `.Q.f[d;x]` and `.Q.fmt[w;d;x]`: a number with d decimals (right-justified in w).
fn format_number(args: &[KObj]) -> QResult {
    let ints: Vec<usize> = args[..args.len() - 1]
        .iter()
        .map(|a| {
            util::int_atom(a)
                .filter(|&v| v >= 0)
                .map(|v| v as usize)
                .ok_or_else(util::type_err)
        })
        .collect::<Result<_, _>>()?;
    let x = &args[args.len() - 1];
    let v = util::fvals(x)
        .filter(|_| x.is_atom())
        .ok_or_else(util::type_err)?[0];
    Ok(KObj::string(&match ints[..] {
        [d] => display::fmt_fixed(d, v),
        [w, d] => display::fmt_width(w, d, v),
        _ => unreachable!(),
    }))
}

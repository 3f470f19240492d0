//! One table of q's primitives: every glyph and keyword qhost knows by name, with the arguments
//! it takes before it runs (fewer make a projection), what it does with one argument and with
//! two, and whether the evaluator runs it (it applies functions or touches globals: `value`,
//! `each`, `set`...). The parser (infix keywords), the evaluator (names, valence, projection) and
//! `apply_prim` (dispatch) all read this table; adding a primitive is one row.
//!
//! A monad or dyad is its family's function (one file per family), called with the primitive's
//! name: the family matches the name (and may look at the arguments, as `$` does for a matrix
//! product). A row without one answers 'nyi for that form (q has it, qhost does not), or 'rank
//! where q has no such form.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::{
    aggregate, arith, cast, compare, composite, digest, joins, linalg, meta, search_sort, strings,
    structure, types,
};
use crate::kapi::KObj;
use crate::q::QResult;

/// A family's monadic verbs by name (None: not this family's).
pub type Monad = fn(&str, &KObj) -> Option<QResult>;
/// A family's dyadic verbs by name (None: not this family's).
pub type Dyad = fn(&str, &KObj, &KObj) -> Option<QResult>;

pub struct Prim {
    pub name: &'static str,
    /// Arguments it takes before it runs; fewer make a projection.
    pub valence: usize,
    /// A glyph's monadic meaning, k's monad named by its keyword (`#x` is `count x`).
    pub unary: Option<&'static str>,
    pub monad: Option<Monad>,
    pub dyad: Option<Dyad>,
    /// Run by the evaluator (q::system::builtin), not by `apply_prim`.
    pub evaluator: bool,
}

/// A glyph: its monad by the keyword that names it (None: q's glyph has no monad qhost runs),
/// its dyad.
const fn g(name: &'static str, unary: Option<&'static str>, dyad: Dyad) -> Prim {
    Prim {
        name,
        valence: 2,
        unary,
        monad: None,
        dyad: Some(dyad),
        evaluator: false,
    }
}

/// A monadic keyword.
const fn m(name: &'static str, monad: Monad) -> Prim {
    Prim {
        name,
        valence: 1,
        unary: None,
        monad: Some(monad),
        dyad: None,
        evaluator: false,
    }
}

/// A dyadic keyword (used infix: `x div y`).
const fn d(name: &'static str, dyad: Dyad) -> Prim {
    Prim {
        name,
        valence: 2,
        unary: None,
        monad: None,
        dyad: Some(dyad),
        evaluator: false,
    }
}

/// A keyword the evaluator runs, with its valence.
const fn e(name: &'static str, valence: usize) -> Prim {
    Prim {
        name,
        valence,
        unary: None,
        monad: None,
        dyad: None,
        evaluator: true,
    }
}

/// A keyword of q that qhost does not run ('nyi), with its valence (2: used infix).
const fn n(name: &'static str, valence: usize) -> Prim {
    Prim {
        name,
        valence,
        unary: None,
        monad: None,
        dyad: None,
        evaluator: false,
    }
}

/// arith's dyads take its operator, found by name.
fn arith_dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    arith::Op::from_name(name).map(|o| arith::dyad(o, x, y))
}

/// `$`: a matrix product of float matrices (linalg), else a cast.
fn dollar(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    linalg::dyad(name, x, y).or_else(|| cast::dyad(name, x, y))
}

#[rustfmt::skip]
pub const PRIMS: &[Prim] = &[
    // glyphs (basics/variadic.md: each has a monadic and a dyadic form)
    g("+", Some("flip"), arith_dyad), g("-", Some("neg"), arith_dyad),
    g("*", Some("first"), arith_dyad), g("%", Some("reciprocal"), arith_dyad),
    g("&", Some("where"), arith_dyad), g("|", Some("reverse"), arith_dyad),
    g("^", Some("null"), structure::dyad), g("=", Some("group"), compare::dyad),
    g("<", Some("iasc"), compare::dyad), g(">", Some("idesc"), compare::dyad),
    g("<>", None, compare::dyad), g("<=", None, compare::dyad), g(">=", None, compare::dyad),
    g("~", Some("not"), compare::dyad), g(",", Some("enlist"), structure::dyad),
    g("#", Some("count"), structure::dyad), g("_", Some("floor"), structure::dyad),
    g("!", Some("key"), structure::dyad), g("$", Some("string"), dollar),
    g("?", Some("distinct"), search_sort::dyad),
    // `@` with one argument (`@:`) is type; its other forms are the evaluator's
    Prim { name: "@", valence: 2, unary: Some("type"), monad: None, dyad: None, evaluator: false },
    // arithmetic and maths
    m("neg", arith::monad), m("abs", arith::monad), m("signum", arith::monad),
    m("sqrt", arith::monad), m("exp", arith::monad), m("log", arith::monad),
    m("sin", arith::monad), m("cos", arith::monad), m("tan", arith::monad),
    m("asin", arith::monad), m("acos", arith::monad), m("atan", arith::monad),
    m("ceiling", arith::monad), m("floor", arith::monad), m("reciprocal", arith::monad),
    d("div", arith_dyad), d("mod", arith_dyad), d("xbar", arith_dyad), d("xexp", arith_dyad),
    d("xlog", arith_dyad), d("and", arith_dyad), d("or", arith_dyad),
    m("inv", linalg::monad), d("mmu", linalg::dyad),
    // types and comparison
    m("not", types::monad), m("null", types::monad), m("type", types::monad),
    d("within", compare::dyad),
    // structure
    m("count", structure::monad), m("first", structure::monad), m("last", structure::monad),
    m("reverse", structure::monad), m("til", structure::monad), m("where", structure::monad),
    m("flip", structure::monad), m("raze", structure::monad), m("distinct", structure::monad),
    m("key", structure::monad), m("cols", structure::monad), m("group", structure::monad),
    m("attr", structure::monad), m("keys", structure::monad), m("meta", meta::monad),
    d("in", structure::dyad), d("except", structure::dyad), d("inter", structure::dyad),
    d("union", structure::dyad), d("cross", structure::dyad), d("sublist", structure::dyad),
    d("cut", structure::dyad), d("rotate", structure::dyad), d("xkey", structure::dyad),
    d("xcol", structure::dyad), d("xcols", structure::dyad),
    // aggregation, running and moving
    m("sum", aggregate::monad), m("sums", aggregate::monad), m("prd", aggregate::monad),
    m("prds", aggregate::monad), m("max", aggregate::monad), m("maxs", aggregate::monad),
    m("min", aggregate::monad), m("mins", aggregate::monad), m("avg", aggregate::monad),
    m("avgs", aggregate::monad), m("dev", aggregate::monad), m("var", aggregate::monad),
    m("sdev", aggregate::monad), m("svar", aggregate::monad), m("med", aggregate::monad),
    m("deltas", aggregate::monad), m("ratios", aggregate::monad), m("differ", aggregate::monad),
    m("fills", aggregate::monad), m("all", aggregate::monad), m("any", aggregate::monad),
    m("prev", aggregate::monad), m("next", aggregate::monad),
    d("xprev", aggregate::dyad), d("wsum", aggregate::dyad), d("wavg", aggregate::dyad),
    d("cov", aggregate::dyad), d("cor", aggregate::dyad), d("mavg", aggregate::dyad),
    d("msum", aggregate::dyad), d("mmax", aggregate::dyad), d("mmin", aggregate::dyad),
    d("mcount", aggregate::dyad), d("mdev", composite::dyad), d("scov", composite::dyad),
    d("xrank", composite::dyad), d("ema", composite::dyad),
    // searching and sorting
    m("asc", search_sort::monad), m("desc", search_sort::monad), m("iasc", search_sort::monad),
    m("idesc", search_sort::monad), m("rand", search_sort::monad), m("rank", search_sort::monad),
    d("bin", search_sort::dyad), d("binr", search_sort::dyad), d("xasc", search_sort::dyad),
    d("xdesc", search_sort::dyad),
    // strings
    m("lower", strings::monad), m("upper", strings::monad), m("trim", strings::monad),
    m("ltrim", strings::monad), m("rtrim", strings::monad), m("string", strings::monad),
    m("hsym", strings::monad), m("md5", digest::monad),
    d("like", strings::dyad), d("ss", strings::dyad), d("vs", strings::dyad),
    d("sv", strings::dyad), d("lj", joins::dyad), d("ij", joins::dyad),
    // `enlist` takes any count and `ssr` three (apply_prim runs both)
    n("enlist", 1), n("ssr", 3), n(".Q.fmt", 3), n(".Q.f", 2),
    // the evaluator's: they apply functions, touch globals, files or the process
    Prim { monad: Some(structure::monad), ..e("value", 1) },
    e("get", 1), e("set", 2), e("show", 1), e("system", 1), e("exit", 1), e("read0", 1),
    e("read1", 1), e("each", 2), e("over", 2), e("scan", 2), e("prior", 2), e("peach", 2),
    e("getenv", 1), e("setenv", 2), e("eval", 1), e("parse", 1), e("hopen", 1),
    e("hclose", 1), e("load", 1), e("tables", 1), e("views", 1), e("hcount", 1), e("hdel", 1),
    e("save", 1), e("fby", 2),
    // q's keywords qhost names but does not run: 'nyi
    n("ungroup", 1), n("gtime", 1), n("ltime", 1), n("fkeys", 1),
    n("xgroup", 2), n("uj", 2), n("pj", 2), n("ej", 3), n("aj", 3),
    n("asof", 2), n("lsq", 2), n("upsert", 2),
    n("insert", 2), n("dsave", 2),
];

/// FNV-1a: names are short and ours, so a cheaper hash than std's SipHash (every primitive
/// applied looks its row up: `i+:1` in a loop of a million).
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// The rows by name: one-character glyphs by their byte, the rest hashed.
struct Index {
    glyphs: [Option<&'static Prim>; 128],
    names: HashMap<&'static str, &'static Prim, BuildHasherDefault<Fnv>>,
}

/// The row of a primitive by its name.
#[inline]
pub fn find(name: &str) -> Option<&'static Prim> {
    static INDEX: OnceLock<Index> = OnceLock::new();
    let ix = INDEX.get_or_init(|| {
        let mut glyphs = [None; 128];
        for p in PRIMS {
            if let [b] = p.name.as_bytes() {
                glyphs[*b as usize] = Some(p);
            }
        }
        Index {
            glyphs,
            names: PRIMS.iter().map(|p| (p.name, p)).collect(),
        }
    });
    match name.as_bytes() {
        [b] if *b < 128 => ix.glyphs[*b as usize],
        _ => ix.names.get(name).copied(),
    }
}

/// A keyword (a name, not a glyph) of the table.
pub fn is_keyword(name: &str) -> bool {
    name.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) && find(name).is_some()
}

/// A keyword used infix (`x in y`, `f each x`): the dyadic ones.
pub fn is_infix(name: &str) -> bool {
    is_keyword(name) && find(name).is_some_and(|p| p.valence == 2)
}

/// (fewest, most) arguments `apply_prim` takes for a primitive: glyphs (1,2), monadic keywords
/// (1,1), dyadic keywords (2,2), `ssr` (3,3), `enlist` (1,8), q's limit on arguments; None for
/// a primitive it does not run.
pub fn arguments(name: &str) -> Option<(usize, usize)> {
    let p = find(name)?;
    let glyph = !p.name.as_bytes()[0].is_ascii_alphabetic() && !p.name.starts_with('.');
    match (p.name, glyph, p.monad.is_some(), p.dyad.is_some()) {
        ("ssr", ..) => Some((3, 3)),
        ("enlist", ..) => Some((1, 8)),
        (_, true, _, true) => Some((1, 2)),
        (_, false, true, false) => Some((1, 1)),
        (_, false, false, true) => Some((2, 2)),
        _ => None,
    }
}

/// Run by the evaluator rather than `apply_prim`.
pub fn by_evaluator(name: &str) -> bool {
    find(name).is_some_and(|p| p.evaluator)
}

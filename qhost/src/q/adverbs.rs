//! Derived functions: each `'` (each, each-both, n-ary each), each-right `/:`, each-left `\:`,
//! each-prior `':`, over `/` and scan `\` (fold with and without seed, n-ary fold, converge,
//! do-n and while).
use super::builtins;
use super::values::{self, from_items, int_of, is_list, truthy};
use super::{err, QErr, QResult};
use crate::kapi::func::Func;
use crate::kapi::hooks::apply;
use crate::kapi::kobj::*;
use crate::kapi::KObj;

pub fn apply_derived(f: &KObj, adv: &str, args: Vec<KObj>) -> QResult {
    match adv {
        "'" if matches!(f.t(), KH | KI | KJ) => case(f, args),
        "'" => each(f, args),
        "/:" | "\\:" => {
            if args.len() != 2 {
                // a unary f with /: or \: is over/scan in k; not in the q subset
                return Err(err(if args.len() == 1 { "nyi" } else { "rank" }));
            }
            let (x, y) = (&args[0], &args[1]);
            // a dict on the iterated side goes by its values and the answer keeps its keys
            let side = if adv == "/:" { y } else { x };
            if side.t() == XD {
                let vals = side.dict_values();
                let args = if adv == "/:" {
                    vec![x.clone(), vals]
                } else {
                    vec![vals, y.clone()]
                };
                return Ok(KObj::dict(side.dict_keys(), apply_derived(f, adv, args)?));
            }
            if let Some(r) = each_side_arith(f, adv, x, y) {
                return r;
            }
            if adv == "/:" {
                if !iterable(y) {
                    return apply(f, vec![x.clone(), y.clone()]);
                }
                map(list_items(y), |yi| apply(f, vec![x.clone(), yi]))
            } else {
                if !iterable(x) {
                    return apply(f, vec![x.clone(), y.clone()]);
                }
                map(list_items(x), |xi| apply(f, vec![xi, y.clone()]))
            }
        }
        "':" => prior(f, args),
        "/" => over(f, args, false),
        _ => over(f, args, true),
    }
}

/// The arithmetic glyphs whose dyad is `verbs::arith::dyad` (the table's `arith_dyad`) and
/// which the evaluator's `call_prim` hands straight to `apply_prim`.
fn arith_glyph(f: &KObj) -> Option<crate::q::verbs::arith::Op> {
    match prim_op(f)? {
        op @ ("+" | "-" | "*" | "%" | "&" | "|") => crate::q::verbs::arith::Op::from_name(op),
        _ => None,
    }
}

/// Fast path of each-left `x f\: y` and each-right `x f/: y` for an arithmetic glyph f and
/// simple x and y (atoms or vectors of types 1..19: no enumeration, dictionary or table), the
/// iterated side a non-empty vector: what the generic path computes, `apply(f; xi; y)` for
/// each item, is `arith::dyad(op; xi; y)` (apply reaches it through `call_prim`, `apply_prim`
/// and the table), called here directly; the answers are joined as the generic path joins
/// them. A panic is 'nyi, as `call_prim`'s guard makes it. None: not this case.
fn each_side_arith(f: &KObj, adv: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    if !values::fast_paths() || !values::is_simple(x) || !values::is_simple(y) {
        return None;
    }
    let side = if adv == "/:" { y } else { x };
    if side.is_atom() || side.is_empty() {
        return None;
    }
    let op = arith_glyph(f)?;
    if let Err(e) = super::interrupt::check() {
        return Some(Err(e));
    }
    Some(super::error::guard(|| {
        let n = side.len();
        let mut out = Vec::with_capacity(n as usize);
        let mut it = side.elem(0);
        for i in 0..n {
            if i > 0 {
                it = next_elem(it, side, i);
            }
            out.push(if adv == "/:" {
                crate::q::verbs::arith::dyad(op, x, &it)?
            } else {
                crate::q::verbs::arith::dyad(op, &it, y)?
            });
        }
        Ok(from_items(out))
    }))
}

/// A data glyph whose application `apply(f; x; y)` is `apply_prim(op; x; y)` under
/// `call_prim`'s guard (apply_opt hands a primitive with its two arguments to `call_prim`, which
/// has no case of its own for these): each's fast paths call that directly (`-1_'x` is
/// `-1 _' x`, each-both with an atom). None: the fast paths are off, or f is not one of them.
fn data_glyph(f: &KObj) -> Option<&'static str> {
    if !values::fast_paths() {
        return None;
    }
    Some(match prim_op(f)? {
        "_" => "_",
        "#" => "#",
        "," => ",",
        "+" => "+",
        "-" => "-",
        "*" => "*",
        "%" => "%",
        "&" => "&",
        "|" => "|",
        "^" => "^",
        _ => return None,
    })
}

/// Fast path of `f each x` for f a projection of a data glyph with one of its two arguments
/// given (`-1_'x`, `1_'x`, `2#'x`, `,[;0]'x`) and x a vector or general list: the generic path
/// applies f to each item, which fills the projection's hole (`apply_proj`) and reaches
/// `call_prim`, which hands these glyphs straight to `apply_prim` under its guard; here that
/// call is made directly. None: not this case.
fn each_projected(f: &KObj, x: &KObj) -> Option<QResult> {
    if !values::fast_paths() || !(0..20).contains(&x.t()) || !f.is_func() || values::is_identity(f)
    {
        return None;
    }
    let Func::Proj { f: inner, args } = f.func_ref() else {
        return None;
    };
    let op = data_glyph(inner)?;
    // the given argument and where the item goes: `a op _` (a given first, its hole trailing
    // or written) or `op[;b]`
    let (given, first) = match args.as_slice() {
        [Some(a)] | [Some(a), None] => (a.clone(), false),
        [None, Some(b)] => (b.clone(), true),
        _ => return None,
    };
    if let Err(e) = super::interrupt::check() {
        return Some(Err(e));
    }
    Some(map(list_items(x), |xi| {
        let a = if first {
            vec![xi, given.clone()]
        } else {
            vec![given.clone(), xi]
        };
        super::error::guard(|| super::verbs::apply_prim(op, a))
    }))
}

/// Item i of simple vector v as an atom, written into `prev` (an atom of v's item type) when
/// nothing else holds it (q's reference count 0), else a new atom: the values are the same,
/// and an atom no one else sees is not told apart from a new one.
fn next_elem(prev: KObj, v: &KObj, i: i64) -> KObj {
    let t = v.t();
    if prev.refcount() != 0 || t == UU || prev.t() != -t {
        return v.elem(i);
    }
    let es = elem_size(t);
    // SAFETY: v is a simple vector of type t (not guid) with more than i items of es bytes;
    // prev is an atom of type -t, whose value is es bytes at its atom slot, owned here alone
    unsafe {
        std::ptr::copy_nonoverlapping(
            data::<u8>(v.as_ptr()).add(i as usize * es),
            atom::<u8>(prev.as_ptr()),
            es,
        );
    }
    prev
}

/// Case, `int'[a;b;..]` (ref/maps.md): item i of the answer is item i of argument int[i]; an
/// atom argument stands for itself at every place, a dictionary for its values (all of them with
/// the same keys in the same order, else 'domain); lists are as long as int ('length). Extra
/// arguments are allowed; an index past the arguments, or below 0, is 'nyi (not on the page).
fn case(f: &KObj, args: Vec<KObj>) -> QResult {
    let idx = values::ints_of(f).ok_or_else(|| err("type"))?;
    let n = idx.len() as i64;
    let keys: Vec<KObj> = args
        .iter()
        .filter(|a| a.t() == XD)
        .map(|a| a.dict_keys())
        .collect();
    let vals: Vec<KObj> = dict_values_of(&args);
    for v in &vals {
        if !v.is_atom() && v.len() != n {
            return Err(err("length"));
        }
    }
    if keys
        .windows(2)
        .any(|k| !crate::q::verbs::compare::matches(&k[0], &k[1]))
    {
        return Err(err("domain"));
    }
    let mut out = Vec::with_capacity(idx.len());
    for (i, &k) in idx.iter().enumerate() {
        let Some(a) = usize::try_from(k).ok().and_then(|k| vals.get(k)) else {
            return Err(err("nyi"));
        };
        out.push(if a.is_atom() {
            a.clone()
        } else {
            values::elem(a, i as i64)
        });
    }
    Ok(from_items(out))
}

/// Whether an iterator goes through x's items: lists, and tables (by rows, as q does).
fn iterable(x: &KObj) -> bool {
    is_list(x) || x.t() == XT
}

/// The items an iterator takes: a list's items, a table's rows (dictionaries).
fn list_items(x: &KObj) -> Vec<KObj> {
    if x.t() == XT {
        crate::q::values::rows_of(x)
    } else {
        values::list_items(x)
    }
}

fn map(items: Vec<KObj>, mut g: impl FnMut(KObj) -> QResult) -> QResult {
    let mut out = Vec::with_capacity(items.len());
    for it in items {
        out.push(g(it)?);
    }
    Ok(from_items(out))
}

/// `f each x`, `x f' y`, `f'[x;y;z]`: atoms extend, lists must match in count.
pub fn each(f: &KObj, args: Vec<KObj>) -> QResult {
    if args.len() == 1 {
        let x = &args[0];
        if x.t() == XD {
            let v = each(f, vec![x.dict_values()])?;
            return Ok(KObj::dict(x.dict_keys(), v));
        }
        if !iterable(x) {
            return apply(f, args);
        }
        if let Some(r) = each_projected(f, x) {
            return r;
        }
        return map(list_items(x), |xi| apply(f, vec![xi]));
    }
    // a dict among the arguments takes part by its values; the answer keeps its keys
    if let Some(d) = args.iter().find(|a| a.t() == XD).cloned() {
        let vals: Vec<KObj> = dict_values_of(&args);
        let r = each(f, vals)?;
        return Ok(KObj::dict(d.dict_keys(), r));
    }
    let mut n: Option<i64> = None;
    for a in &args {
        if iterable(a) {
            match n {
                None => n = Some(a.len()),
                Some(m) if m != a.len() => return Err(err("length")),
                _ => {}
            }
        }
    }
    let Some(n) = n else { return apply(f, args) };
    let cols: Vec<Option<Vec<KObj>>> = args
        .iter()
        .map(|a| {
            if iterable(a) {
                Some(list_items(a))
            } else {
                None
            }
        })
        .collect();
    // two arguments only: with more, apply's 'rank comes before apply_prim's enumeration check
    let direct = if args.len() == 2 { data_glyph(f) } else { None };
    if direct.is_some() {
        super::interrupt::check()?;
    }
    let mut out = Vec::with_capacity(n as usize);
    for i in 0..n as usize {
        let a: Vec<KObj> = cols
            .iter()
            .zip(args.iter())
            .map(|(c, a)| match c {
                Some(v) => v[i].clone(),
                None => a.clone(),
            })
            .collect();
        out.push(match direct {
            Some(op) => super::error::guard(|| super::verbs::apply_prim(op, a))?,
            None => apply(f, a)?,
        });
    }
    Ok(from_items(out))
}

/// `f': x`, `x f': y` (seed), and `f':` of a unary f (parallel each: the same as each here).
fn prior(f: &KObj, args: Vec<KObj>) -> QResult {
    if valence(f) == 1 && args.len() == 1 {
        return each(f, args);
    }
    let (seed, x) = match args.len() {
        1 => (None, args[0].clone()),
        2 => (Some(args[0].clone()), args[1].clone()),
        _ => return Err(err("rank")),
    };
    // a dictionary: through its values, keys kept (ref/maps.md `1950 -': `S`J`C!1952 1954 1960`)
    if x.t() == crate::kapi::XD {
        let mut a = vec![x.dict_values()];
        if let Some(s) = seed {
            a.insert(0, s);
        }
        return Ok(KObj::dict(x.dict_keys(), prior(f, a)?));
    }
    if !is_list(&x) {
        return match seed {
            Some(s) => apply(f, vec![x, s]),
            None => Ok(x),
        };
    }
    let items = values::list_items(&x);
    let mut out = Vec::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        let prev = if i == 0 {
            match &seed {
                Some(s) => s.clone(),
                None => {
                    out.push(first_prior(f, it)?);
                    continue;
                }
            }
        } else {
            items[i - 1].clone()
        };
        out.push(apply(f, vec![it.clone(), prev])?);
    }
    Ok(from_items(out))
}

/// The first item of an unseeded each-prior: for `-` and `+` (deltas, sums-like) the item
/// itself as q answers; for `~` and `=` (differ) false-like by comparing with null.
/// Any other function meets the first item with the null of its type (ref/maps.md
/// `{x+2*y}':[2 3 4]` is 0N 7 10; basics/comparison.md `(>=) prior inf` is 11111b).
fn first_prior(f: &KObj, x0: &KObj) -> QResult {
    if let Func::Prim { op } = f.func_ref() {
        if matches!(op.as_str(), "~" | "=") {
            return Ok(KObj::bool(false));
        }
        if matches!(op.as_str(), "-" | "+" | "*" | "%" | "," | "|" | "&") {
            return Ok(x0.clone());
        }
    }
    if !x0.is_atom() || !super::values::is_simple(x0) {
        return Err(err("nyi"));
    }
    apply(f, vec![x0.clone(), super::values::null_atom(-x0.t())])
}

fn prim_op(f: &KObj) -> Option<&str> {
    if !f.is_func() || super::values::is_identity(f) {
        return None;
    }
    match f.func_ref() {
        Func::Prim { op } => Some(op.as_str()),
        _ => None,
    }
}

/// q's match of two values, through the `~` verb.
fn matches(a: &KObj, b: &KObj) -> Result<bool, QErr> {
    let r = super::verbs::apply_prim("~", vec![a.clone(), b.clone()])?;
    Ok(truthy(&r).unwrap_or(false))
}

/// Over (`scan` collects every step).
fn over(f: &KObj, args: Vec<KObj>, scan: bool) -> QResult {
    // `a b\c` with float b and c: Scan's built-in for floats, {z+x*y}\[a;b;c]
    // (ref/accumulators.md "Alternative syntax")
    if scan && !f.is_func() && f.t() == KF && args.len() == 2 {
        let (a, c) = (&args[0], &args[1]);
        if a.t() == -KF && c.t() == KF && c.len() == f.len() {
            let (b, c) = (f.slice::<f64>(), c.slice::<f64>());
            let mut r = a.get_float();
            let out: Vec<f64> = b
                .iter()
                .zip(c)
                .map(|(bi, ci)| {
                    r = ci + r * bi;
                    r
                })
                .collect();
            return Ok(KObj::from_slice(KF, &out));
        }
    }
    let v = valence(f);
    // a function derived by over or scan is variadic: applied to one argument it is unary, so
    // over converges (ref/over.md `(,/)over n` razes to one string)
    let derived_fold = f.is_func()
        && !values::is_identity(f)
        && matches!(f.func_ref(), Func::Derived { adv, .. } if adv == "/" || adv == "\\");
    if v == 1 || (args.len() == 1 && derived_fold) {
        return unary_over(f, args, scan);
    }
    match args.len() {
        1 => {
            let x = &args[0];
            if x.t() == XD {
                // over a dictionary goes through its values; scan keeps the keys
                let r = over(f, vec![x.dict_values()], scan)?;
                return Ok(if scan {
                    KObj::dict(x.dict_keys(), r)
                } else {
                    r
                });
            }
            if !is_list(x) {
                return Ok(x.clone());
            }
            if !scan {
                // the keyword forms answer the empty cases with the right zero
                if let Some(k) = prim_op(f).and_then(|op| match op {
                    "+" => Some("sum"),
                    "*" => Some("prd"),
                    "|" => Some("max"),
                    "&" => Some("min"),
                    "," => Some("raze"),
                    _ => None,
                }) {
                    if x.t() > 0 || x.is_empty() {
                        if let Ok(r) = super::verbs::apply_prim(k, vec![x.clone()]) {
                            return Ok(r);
                        }
                    }
                }
            }
            let items = values::list_items(x);
            if items.is_empty() {
                // an empty list is not evaluated (ref/accumulators.md "Empty lists": `*\[0#0]`
                // is an atom, `{x*y}\[0#0]` a general list)
                return Ok(match prim_op(f) {
                    Some("*") if scan => KObj::long(1),
                    Some(_) if scan => return Err(err("nyi")),
                    Some(_) => x.clone(),
                    None => KObj::list(vec![]),
                });
            }
            // Join applied unary starts from its identity () (ref/accumulators.md "Unary
            // application": `(,\)2 3 4` begins ,2)
            let first = if prim_op(f) == Some(",") {
                apply(f, vec![KObj::list(vec![]), items[0].clone()])?
            } else {
                items[0].clone()
            };
            let mut acc = first;
            let mut out = vec![acc.clone()];
            for it in &items[1..] {
                acc = apply(f, vec![acc, it.clone()])?;
                if scan {
                    out.push(acc.clone());
                }
            }
            Ok(if scan { from_items(out) } else { acc })
        }
        2 => {
            let (s, y) = (&args[0], &args[1]);
            if y.t() == XD {
                // a dictionary is iterated by its values (ktorch's cct.q folds its parts in
                // with `f/[m;d]`); scan keeps the keys
                let r = over(f, vec![s.clone(), y.dict_values()], scan)?;
                return Ok(if scan {
                    KObj::dict(y.dict_keys(), r)
                } else {
                    r
                });
            }
            if !is_list(y) {
                let r = apply(f, vec![s.clone(), y.clone()])?;
                return Ok(if scan { from_items(vec![r]) } else { r });
            }
            let mut acc = s.clone();
            let mut out = Vec::new();
            for it in values::list_items(y) {
                acc = apply(f, vec![acc, it])?;
                if scan {
                    out.push(acc.clone());
                }
            }
            Ok(if scan { from_items(out) } else { acc })
        }
        _ => {
            // n-ary: f/[x;y;z] folds over the items of y and z together
            let mut n: Option<i64> = None;
            for a in &args[1..] {
                if is_list(a) {
                    match n {
                        None => n = Some(a.len()),
                        Some(m) if m != a.len() => return Err(err("length")),
                        _ => {}
                    }
                }
            }
            let n = n.unwrap_or(1);
            let mut acc = args[0].clone();
            let mut out = Vec::new();
            for i in 0..n {
                let mut a = vec![acc];
                for x in &args[1..] {
                    a.push(if is_list(x) {
                        values::elem(x, i)
                    } else {
                        x.clone()
                    });
                }
                acc = apply(f, a)?;
                if scan {
                    out.push(acc.clone());
                }
            }
            Ok(if scan { from_items(out) } else { acc })
        }
    }
}

/// Unary f: converge `f/x`, do `n f/x`, while `c f/x`.
fn unary_over(f: &KObj, args: Vec<KObj>, scan: bool) -> QResult {
    match args.len() {
        1 => {
            let x0 = args[0].clone();
            let mut cur = x0.clone();
            let mut out = vec![cur.clone()];
            loop {
                if !super::interrupt::stack_ok() {
                    return Err(err("stack"));
                }
                let next = apply(f, vec![cur.clone()])?;
                if matches(&next, &cur)? || matches(&next, &x0)? {
                    break;
                }
                cur = next;
                if scan {
                    out.push(cur.clone());
                }
            }
            Ok(if scan { from_items(out) } else { cur })
        }
        2 => {
            let (c, x) = (&args[0], &args[1]);
            let mut cur = x.clone();
            let mut out = vec![cur.clone()];
            if let (Some(n), false) = (int_of(c), c.is_func()) {
                if c.t() == -KB {
                    return Err(err("type"));
                }
                for _ in 0..n.max(0) {
                    cur = apply(f, vec![cur])?;
                    if scan {
                        out.push(cur.clone());
                    }
                }
            } else if c.is_func() {
                loop {
                    let t = apply(c, vec![cur.clone()])?;
                    if !truthy(&t).ok_or_else(|| err("type"))? {
                        break;
                    }
                    cur = apply(f, vec![cur])?;
                    if scan {
                        out.push(cur.clone());
                    }
                }
            } else {
                return Err(err("type"));
            }
            Ok(if scan { from_items(out) } else { cur })
        }
        _ => Err(err("rank")),
    }
}

/// How many arguments a function takes (1 for data, which is indexed).
pub fn valence(f: &KObj) -> usize {
    if !f.is_func() {
        return 1;
    }
    if values::is_identity(f) {
        return 1;
    }
    match f.func_ref() {
        Func::Dl { n, .. } => *n as usize,
        Func::Lambda(l) => l.params.len().max(1),
        Func::Prim { op } => builtins::valence(op),
        Func::Proj { f, args } => {
            let v = valence(f);
            let given = args.iter().filter(|a| a.is_some()).count();
            v.saturating_sub(given)
                .max(args.iter().filter(|a| a.is_none()).count())
        }
        Func::Comp { fs } => fs.last().map(valence).unwrap_or(1),
        Func::Derived { f, adv } => match adv.as_str() {
            "'" | "':" => valence(f).max(1),
            "/:" | "\\:" => 2,
            _ => valence(f).max(1),
        },
    }
}

/// The arguments with each dictionary replaced by its values (a dictionary takes part in each
/// by its values; the answer keeps its keys).
fn dict_values_of(args: &[KObj]) -> Vec<KObj> {
    args.iter()
        .map(|a| {
            if a.t() == XD {
                a.dict_values()
            } else {
                a.clone()
            }
        })
        .collect()
}

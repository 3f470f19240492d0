//! `?` (find, roll, deal, vector conditional), `bin`, sorting (asc desc iasc idesc) and `rand`.
//! Random numbers come from one seeded generator, so a run is repeatable (as q's default seed
//! makes it); the values differ from kdb+'s own generator.
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QResult};
use std::cmp::Ordering;
use std::sync::atomic::{AtomicU64, Ordering as AO};

pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    Some(match name {
        // `s# on the result, a general list's too (ref/asc.md `attr asc l` is `s); a vector
        // already in order gets it in place, seen by every reference to it (ref/asc.md: `asc b`
        // then `a` shows `s#0 1)
        "asc" => sort(x, false).map(|r| {
            // a table's (a keyed table's value table's) first column: parted, or sorted when it
            // is the only one (ref/asc.md: `meta asc ([]a:3 4 1;b:..)` a| j p, `meta asc([]a:3
            // 4 1)` a| j s); the sorted columns are new lists, so no other value sees this
            let t = if is_keyed(&r) {
                r.dict_values()
            } else {
                r.clone()
            };
            if t.t() == XT {
                let (_, cols) = table_cols(&t);
                if let Some(c) = cols.first() {
                    c.set_attr(if cols.len() > 1 { 3 } else { 1 });
                }
                return r;
            }
            if r.is_vector() && r.t() < 20 {
                if x.t() == r.t() && x.t() > 0 && super::compare::matches(x, &r) {
                    x.set_attr(1);
                    return x.clone();
                }
                r.set_attr(1);
            }
            r
        }),
        "desc" => sort(x, true),
        // a dictionary grades to its keys (ref/asc.md `iasc `a`b`c!2 3 1` is `c`a`b)
        "iasc" | "idesc" if x.t() == XD => grade(x, name == "idesc")
            .and_then(|v| super::index::at(&x.dict_keys(), &KObj::from_slice(KJ, &v))),
        "iasc" => grade(x, false).map(|v| KObj::from_slice(KJ, &v)),
        "idesc" => grade(x, true).map(|v| KObj::from_slice(KJ, &v)),
        "rand" => rand1(x),
        "rank" => grade(x, false).map(|g| {
            let mut r = vec![0i64; g.len()];
            for (k, &i) in g.iter().enumerate() {
                r[i as usize] = k as i64;
            }
            KObj::from_slice(KJ, &r)
        }),
        _ => return None,
    })
}

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    Some(match name {
        "?" => query(x, y),
        "bin" => bin(x, y, false),
        "binr" => bin(x, y, true),
        "xasc" | "xdesc" => sort_by(x, y, name == "xdesc"),
        _ => return None,
    })
}

/// The order of two items of a list (q's sort order: nulls first, then by value; symbols by
/// text; general lists item by item).
pub(crate) fn item_cmp(a: &KObj, b: &KObj) -> Ordering {
    if is_simple(a) && is_simple(b) && a.is_atom() && b.is_atom() {
        // atoms of different types sort by type number (ref/asc.md: "datatypes are sorted by
        // their type number")
        if a.t() != b.t() {
            return (-a.t()).cmp(&-b.t());
        }
        if let Ok((_, o)) = super::compare::orderings(a, b) {
            return o[0];
        }
        return a.t().cmp(&b.t());
    }
    // a table's rows (dictionaries) compare by their values, column by column: `iasc t` grades
    // by the first column, then the next within it (the parted first column KX's asc shows)
    if a.t() == XD && b.t() == XD {
        return item_cmp(&a.dict_values(), &b.dict_values());
    }
    let (ia, ib) = (rows_of(a), rows_of(b));
    for (p, q) in ia.iter().zip(ib.iter()) {
        let o = item_cmp(p, q);
        if o != Ordering::Equal {
            return o;
        }
    }
    ia.len().cmp(&ib.len())
}

/// Stable grade (indices in sorted order).
pub(crate) fn grade(x: &KObj, down: bool) -> Result<Vec<i64>, crate::q::QErr> {
    if x.is_atom() {
        return Err(err("rank"));
    }
    if x.t() == XD {
        return grade(&x.dict_values(), down);
    }
    let mut idx: Vec<i64> = (0..x.len()).collect();
    if let (true, Some(v)) = (x.t() > 0 && is_intlike(x.t()), ivals(x)) {
        idx.sort_by(|&i, &j| v[i as usize].cmp(&v[j as usize]));
    } else if let (true, Some(v)) = (matches!(x.t(), KE | KF | KZ), fvals(x)) {
        idx.sort_by(|&i, &j| super::compare::fcmp(v[i as usize], v[j as usize]));
    } else {
        let it = rows_of(x);
        idx.sort_by(|&i, &j| item_cmp(&it[i as usize], &it[j as usize]));
    }
    if down {
        // stable descending: equal items keep their order
        idx = stable_reverse(x, idx);
    }
    Ok(idx)
}

/// Reverse an ascending grade keeping runs of equal items in original order.
fn stable_reverse(x: &KObj, idx: Vec<i64>) -> Vec<i64> {
    let it = rows_of(x);
    let mut runs: Vec<Vec<i64>> = Vec::new();
    for i in idx {
        match runs.last_mut() {
            Some(r) if item_cmp(&it[r[0] as usize], &it[i as usize]) == Ordering::Equal => {
                r.push(i)
            }
            _ => runs.push(vec![i]),
        }
    }
    runs.into_iter().rev().flatten().collect()
}

fn sort(x: &KObj, down: bool) -> QResult {
    if x.t() == XD {
        let g = grade(&x.dict_values(), down)?;
        return Ok(take_rows(x, &g));
    }
    let g = grade(x, down)?;
    Ok(take_rows(x, &g))
}

/// `x ? y`: find in a list, or roll/deal with an integer count on the left.
fn query(x: &KObj, y: &KObj) -> QResult {
    // Enum Extend `` `foo?`a`b `` (ref/enum-extend.md): nyi
    if x.t() == -KS && (y.t() == KS || y.t() == -KS) {
        return Err(nyi());
    }
    if x.is_vector() || x.t() == XD {
        if x.t() == XD {
            // d?v: the key of the first value v
            let i = find(&x.dict_values(), y);
            return super::index::at(&x.dict_keys(), &i);
        }
        return Ok(find(x, y));
    }
    if let Some(n) = int_atom(x) {
        return roll(n, y);
    }
    Err(type_err())
}

/// Index of y (or each item of y) in list x; its count when absent.
fn find(x: &KObj, y: &KObj) -> KObj {
    if y.is_atom() || (x.t() == 0 && super::structure::member_set(x).contains_key(&hkey(y))) {
        let w = super::structure::enlist(vec![y.clone()]);
        return KObj::long(super::structure::find_indices(x, &w)[0]);
    }
    if y.t() == 0 {
        return from_items(y.items().iter().map(|i| find(x, i)).collect());
    }
    KObj::from_slice(KJ, &super::structure::find_indices(x, y))
}

static SEED: AtomicU64 = AtomicU64::new(0x2545_F491_4F6C_DD1D);

/// `\S n`: seed the generator.
pub fn set_seed(n: i64) {
    SEED.store(n as u64 ^ 0x2545_F491_4F6C_DD1D, AO::SeqCst);
}

/// splitmix64: the next pseudo-random 64 bits.
fn next_u64() -> u64 {
    let s = SEED
        .fetch_add(0x9E37_79B9_7F4A_7C15, AO::SeqCst)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn below(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        next_u64() % n
    }
}

fn unit() -> f64 {
    (next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// `n ? y`: n random items of list y, longs below y, floats below y; negative n deals
/// (distinct picks); `0N?list` shuffles.
fn roll(n: i64, y: &KObj) -> QResult {
    if n == NJ {
        if y.is_atom() {
            return Err(type_err());
        }
        return roll(-y.len(), y);
    }
    let deal = n < 0;
    let n = n.unsigned_abs() as usize;
    let pool = if y.is_atom() {
        int_atom(y).map(|m| m.max(0) as u64)
    } else {
        Some(y.len() as u64)
    };
    if y.is_atom() && matches!(-y.t(), KE | KF) {
        if deal {
            return Err(err("domain"));
        }
        let m = fvals(y).unwrap()[0];
        let v: Vec<f64> = (0..n).map(|_| unit() * m).collect();
        return Ok(build_f(-y.t(), false, &v));
    }
    let m = pool.ok_or_else(type_err)?;
    let picks: Vec<i64> = if deal {
        if n as u64 > m {
            return Err(err("length"));
        }
        // partial Fisher-Yates over 0..m
        let mut all: Vec<i64> = (0..m as i64).collect();
        for i in 0..n {
            let j = i + below(m - i as u64) as usize;
            all.swap(i, j);
        }
        all.truncate(n);
        all
    } else {
        (0..n).map(|_| below(m) as i64).collect()
    };
    if y.is_atom() {
        return Ok(build_i(
            if y.t() == -KJ { KJ } else { -y.t() },
            false,
            &picks,
        ));
    }
    Ok(take_rows(y, &picks))
}

fn rand1(x: &KObj) -> QResult {
    if x.is_atom() {
        let r = roll(1, x)?;
        return Ok(elem(&r, 0));
    }
    if x.is_empty() {
        return Err(err("length"));
    }
    let i = below(x.len() as u64) as i64;
    super::index::at(x, &KObj::long(i))
}

/// `?[c;a;b]`: items of a where c is true, else of b (atoms repeat).
pub fn vector_cond(c: &KObj, a: &KObj, b: &KObj) -> QResult {
    if c.t() != KB && c.t() != -KB {
        return Err(type_err());
    }
    let n = c.len();
    for v in [a, b] {
        if !v.is_atom() && v.len() != n {
            return Err(err("length"));
        }
    }
    let pick = |v: &KObj, i: i64| if v.is_atom() { v.clone() } else { elem(v, i) };
    if c.is_atom() {
        return Ok(if c.get_bool() { a.clone() } else { b.clone() });
    }
    let cv = c.slice::<u8>();
    Ok(from_items(
        (0..n)
            .map(|i| {
                if cv[i as usize] != 0 {
                    pick(a, i)
                } else {
                    pick(b, i)
                }
            })
            .collect(),
    ))
}

/// `x bin y`: index of the last item of sorted x not above y (-1 when none); binr: first item
/// not below y.
fn bin(x: &KObj, y: &KObj, right: bool) -> QResult {
    // a dictionary with sorted values: the keys at the value's places (null below the first,
    // ref/bin.md); tables and keyed tables search rows by columns: nyi
    if x.t() == XD && !is_keyed(x) {
        let r = bin(&x.dict_values(), y, right)?;
        return super::index::at(&x.dict_keys(), &r);
    }
    if x.t() == XT || x.t() == XD || y.t() == XT || y.t() == XD {
        return Err(nyi());
    }
    let xs = rows_of(x);
    let one = |v: &KObj| -> i64 {
        if right {
            xs.iter()
                .position(|a| item_cmp(a, v) != Ordering::Less)
                .unwrap_or(xs.len()) as i64
        } else {
            xs.iter()
                .rposition(|a| item_cmp(a, v) != Ordering::Greater)
                .map(|i| i as i64)
                .unwrap_or(-1)
        }
    };
    if y.is_atom() {
        return Ok(KObj::long(one(y)));
    }
    Ok(KObj::from_slice(
        KJ,
        &rows_of(y).iter().map(one).collect::<Vec<_>>(),
    ))
}

/// `` `c xasc t ``: a table's rows sorted by columns (the first named the major key).
fn sort_by(cols: &KObj, t: &KObj, down: bool) -> QResult {
    if t.t() != XT {
        return Err(nyi());
    }
    let names = sym_texts(cols).ok_or_else(type_err)?;
    let mut idx: Vec<i64> = (0..t.len()).collect();
    // stable sorts from the minor key to the major one
    for name in names.iter().rev() {
        let c = super::index::at(t, &KObj::sym(name))?;
        let col = take_rows(&c, &idx);
        let g = grade(&col, down)?;
        idx = g.iter().map(|&k| idx[k as usize]).collect();
    }
    let r = take_rows(t, &idx);
    // `x xasc t` sorts the first column named (ref/meta.md: after `sym xasc`trade, sym| s s);
    // take_rows made every column anew
    if !down {
        if let Some(first) = names.first() {
            super::index::at(&r, &KObj::sym(first))?.set_attr(1);
        }
    }
    Ok(r)
}

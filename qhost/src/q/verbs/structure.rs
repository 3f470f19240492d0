//! Structural verbs: , # _ ! ^ and enlist count first last reverse rotate til where flip raze
//! sublist cut except inter union distinct key value cols group in cross.
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QResult};
use std::collections::HashMap;

pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    Some(match name {
        "count" => Ok(KObj::long(if x.is_func() { 1 } else { x.len() })),
        "first" => Ok(first(x)),
        "last" => Ok(last(x)),
        "reverse" => Ok(reverse(x)),
        "til" => til(x),
        "where" => where_(x),
        "flip" => flip(x),
        "raze" => raze(x),
        "distinct" => distinct(x),
        "key" => key(x),
        "value" => match x.t() {
            XD => Ok(x.dict_values()),
            _ => Err(nyi()),
        },
        "cols" => cols(x),
        "group" => group(x),
        "attr" => Ok(KObj::sym(match x.attr() {
            1 => "s",
            2 => "u",
            3 => "p",
            4 => "g",
            _ => "",
        })),
        "keys" => match x.t() {
            XD if is_keyed(x) => cols(&x.dict_keys()),
            XT => Ok(KObj::vector(KS, 0)),
            _ => Err(type_err()),
        },
        _ => return None,
    })
}

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    Some(match name {
        "," => join(x, y),
        "#" => take(x, y),
        "_" => drop(x, y),
        "!" => bang(x, y),
        "^" => fill(x, y),
        "rotate" => rotate(x, y),
        "sublist" => sublist(x, y),
        "cut" => cut(x, y),
        "except" => {
            let ys = member_set(y);
            Ok(select(x, |k| !ys.contains_key(k)))
        }
        // dictionaries meet by their values (ref/inter.md `x inter y` on two dictionaries)
        "inter" if x.t() == XD && y.t() == XD && !is_keyed(x) && !is_keyed(y) => {
            let ys = member_set(&y.dict_values());
            Ok(select(&x.dict_values(), |k| ys.contains_key(k)))
        }
        "inter" => {
            let ys = member_set(y);
            Ok(select(x, |k| ys.contains_key(k)))
        }
        "union" => join(x, y).and_then(|j| distinct(&j)),
        "in" => in_(x, y),
        "cross" => cross(x, y),
        "xkey" => xkey(x, y),
        "xcol" => xcol(x, y),
        "xcols" => xcols(x, y),
        _ => return None,
    })
}

/// `enlist`: one argument makes a one-item list (typed for an atom); more make a list.
pub fn enlist(args: Vec<KObj>) -> KObj {
    if args.len() == 1 && args[0].t() == XD {
        // enlist of a dictionary with symbol keys is a one-row table
        let d = &args[0];
        if d.dict_keys().t() == KS {
            let cols = items(&d.dict_values())
                .iter()
                .map(|v| from_items(vec![v.clone()]))
                .collect();
            return make_table(d.dict_keys(), cols);
        }
    }
    if args.iter().all(|a| a.t() < 0) {
        from_items(args)
    } else {
        KObj::list(args)
    }
}

fn first(x: &KObj) -> KObj {
    match x.t() {
        XD => first(&x.dict_values()),
        XT => rows_of(&take_rows(x, &[0])).remove(0),
        _ if x.is_vector() => {
            if !x.is_empty() {
                elem(x, 0)
            } else if x.t() == 0 {
                KObj::identity()
            } else {
                null_atom(x.t())
            }
        }
        _ => x.clone(),
    }
}

fn last(x: &KObj) -> KObj {
    match x.t() {
        XD => last(&x.dict_values()),
        XT => rows_of(&take_rows(x, &[x.len() - 1])).remove(0),
        _ if x.is_vector() && !x.is_empty() => elem(x, x.len() - 1),
        _ => first(x),
    }
}

fn reverse(x: &KObj) -> KObj {
    if x.is_atom() || x.is_func() {
        return x.clone();
    }
    let idx: Vec<i64> = (0..x.len()).rev().collect();
    take_rows(x, &idx)
}

fn til(x: &KObj) -> QResult {
    match int_atom(x) {
        Some(n) if n >= 0 => Ok(KObj::from_slice(KJ, &(0..n).collect::<Vec<i64>>())),
        Some(_) => Err(err("domain")),
        None => Err(type_err()),
    }
}

/// `where`: indices of true booleans, each index repeated by an integer count; on a
/// dictionary its keys.
fn where_(x: &KObj) -> QResult {
    if x.t() == XD {
        let w = where_(&x.dict_values())?;
        return Ok(rows(&x.dict_keys(), w.slice::<i64>()));
    }
    let v = match x.t() {
        KB | KG | KH | KI | KJ => ivals(x).unwrap(),
        t if t < 0 && matches!(-t, KB | KH | KI | KJ) => ivals(x).unwrap(),
        0 if x.is_empty() => vec![],
        _ => return Err(type_err()),
    };
    let mut out = Vec::new();
    for (i, &c) in v.iter().enumerate() {
        if c < 0 {
            return Err(err("domain"));
        }
        out.extend(std::iter::repeat_n(i as i64, c as usize));
    }
    Ok(KObj::from_slice(KJ, &out))
}

/// `flip`: a column dictionary to a table, a table to its dictionary, a list of lists
/// transposed (atoms repeat).
fn flip(x: &KObj) -> QResult {
    match x.t() {
        XT => Ok(x.table_dict()),
        XD => {
            let k = x.dict_keys();
            if k.t() != KS {
                return Err(type_err());
            }
            let vals = items(&x.dict_values());
            let n = vals
                .iter()
                .find(|v| !v.is_atom())
                .map(|v| v.len())
                .unwrap_or(1);
            if vals.iter().any(|v| !v.is_atom() && v.len() != n) {
                return Err(len_err());
            }
            let cols = vals
                .into_iter()
                .map(|v| {
                    if v.is_atom() {
                        super::util::fill(&v, n)
                    } else {
                        v
                    }
                })
                .collect();
            Ok(make_table(k, cols))
        }
        0 => {
            let rows = x.items();
            let n = rows
                .iter()
                .find(|v| !v.is_atom())
                .map(|v| v.len())
                .unwrap_or(0);
            if rows.iter().any(|v| !v.is_atom() && v.len() != n) {
                return Err(len_err());
            }
            let out = (0..n)
                .map(|j| {
                    from_items(
                        rows.iter()
                            .map(|r| if r.is_atom() { r.clone() } else { elem(r, j) })
                            .collect(),
                    )
                })
                .collect();
            Ok(KObj::list(out))
        }
        _ => Err(err("rank")),
    }
}

fn raze(x: &KObj) -> QResult {
    match x.t() {
        0 => {
            let it = x.items();
            if it.is_empty() {
                return Ok(x.clone());
            }
            if let Some(v) = raze_vectors(&it) {
                return Ok(v);
            }
            let mut acc = it[0].clone();
            if acc.is_atom() {
                acc = from_items(vec![acc]);
            }
            for i in &it[1..] {
                acc = join(&acc, i)?;
            }
            Ok(acc)
        }
        XD => raze(&x.dict_values()),
        t if t < 0 => Ok(from_items(vec![x.clone()])),
        _ => Ok(x.clone()),
    }
}

/// `raze` of simple vectors all of one type (1-19), as q's `,/` gives them: their items end to end
/// in one vector of that type. One copy instead of a join per item (a join per item copies the
/// growing result again each time: `raze 1_'x` of char.q's 200 x 128 batch took 250 us).
fn raze_vectors(it: &[KObj]) -> Option<KObj> {
    let t = it[0].t();
    if !(1..20).contains(&t) || it.iter().any(|x| x.t() != t) {
        return None;
    }
    let es = elem_size(t);
    let n: i64 = it.iter().map(|x| x.len()).sum();
    let out = KObj::vector(t, n);
    let mut at = 0usize;
    for x in it {
        let bytes = x.len() as usize * es;
        // SAFETY: x is a simple vector of type t with len() items of es bytes each, and out was
        // made for the n items of all of them; the regions are distinct allocations.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data::<u8>(x.as_ptr()),
                data::<u8>(out.as_ptr()).add(at),
                bytes,
            );
        }
        at += bytes;
    }
    Some(out)
}

/// Indices of first occurrences, in order.
fn first_indices(x: &KObj) -> Vec<i64> {
    let mut seen = HashMap::new();
    let mut out = Vec::new();
    for (i, r) in rows_of(x).iter().enumerate() {
        if seen.insert(hkey(r), ()).is_none() {
            out.push(i as i64);
        }
    }
    out
}

pub fn distinct(x: &KObj) -> QResult {
    if x.is_atom() || x.t() == XD {
        return Err(type_err());
    }
    let idx = first_indices(x);
    Ok(take_rows(x, &idx))
}

fn key(x: &KObj) -> QResult {
    match x.t() {
        XD => Ok(x.dict_keys()),
        _ if int_atom(x).is_some() => til(x),
        _ => Err(nyi()),
    }
}

fn cols(x: &KObj) -> QResult {
    match x.t() {
        XT => Ok(x.table_dict().dict_keys()),
        XD if is_keyed(x) => join(&cols(&x.dict_keys())?, &cols(&x.dict_values())?),
        _ => Err(type_err()),
    }
}

/// `group`: distinct items to the indices where each occurs.
fn group(x: &KObj) -> QResult {
    if !x.is_vector() {
        return Err(type_err());
    }
    let mut order: Vec<i64> = Vec::new();
    let mut at: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut idx: Vec<Vec<i64>> = Vec::new();
    for (i, r) in items(x).iter().enumerate() {
        let k = hkey(r);
        let slot = *at.entry(k).or_insert_with(|| {
            order.push(i as i64);
            idx.push(vec![]);
            idx.len() - 1
        });
        idx[slot].push(i as i64);
    }
    let vals = idx.iter().map(|v| KObj::from_slice(KJ, v)).collect();
    Ok(KObj::dict(rows(x, &order), KObj::list(vals)))
}

/// `x , y`: dictionaries merge (y's values win), tables of the same columns append, lists and
/// atoms concatenate (a typed vector when every item is an atom of one type).
pub fn join(x: &KObj, y: &KObj) -> QResult {
    let (tx, ty) = (x.t(), y.t());
    if tx == XD && ty == XD {
        // keyed tables join as records: y's rows upsert x's by key (ref/join.md, ref/coalesce.md
        // `(kt1^kt2) ~ kt1,kt2`)
        let keyed = |d: &KObj| d.dict_keys().t() == XT;
        if keyed(x) != keyed(y) {
            return Err(nyi());
        }
        // keyed tables with other key or value columns (an upsert of some columns) are nyi
        if keyed(x)
            && !(super::compare::matches(
                &table_cols(&x.dict_keys()).0,
                &table_cols(&y.dict_keys()).0,
            ) && super::compare::matches(
                &table_cols(&x.dict_values()).0,
                &table_cols(&y.dict_values()).0,
            ))
        {
            return Err(nyi());
        }
        let its = |v: &KObj| if v.t() == XT { rows_of(v) } else { items(v) };
        let (mut keys, mut vals) = (its(&x.dict_keys()), its(&x.dict_values()));
        let mut at: HashMap<Vec<u8>, usize> =
            keys.iter().enumerate().map(|(i, k)| (hkey(k), i)).collect();
        for (k, v) in its(&y.dict_keys()).into_iter().zip(its(&y.dict_values())) {
            match at.get(&hkey(&k)) {
                Some(&i) => vals[i] = v,
                None => {
                    at.insert(hkey(&k), keys.len());
                    keys.push(k);
                    vals.push(v);
                }
            }
        }
        return Ok(KObj::dict(from_items(keys), from_items(vals)));
    }
    if tx == XT && ty == XT {
        let (nx, cx) = table_cols(x);
        let (ny, cy) = table_cols(y);
        if !super::compare::matches(&nx, &ny) {
            return Err(err("mismatch"));
        }
        let cols = cx
            .iter()
            .zip(cy.iter())
            .map(|(a, b)| join(a, b))
            .collect::<Result<_, _>>()?;
        return Ok(make_table(nx, cols));
    }
    if tx == XT || ty == XT || tx == XD || ty == XD {
        return Err(nyi());
    }
    // same base type: copy the bytes
    if tx.abs() == ty.abs() && is_simple(x) && is_simple(y) {
        let t = tx.abs();
        let (nx, ny) = (x.len(), y.len());
        let out = KObj::vector(t, nx + ny);
        let es = elem_size(t);
        let src = |v: &KObj| unsafe {
            if v.is_atom() {
                if t == UU {
                    data::<u8>(v.as_ptr())
                } else {
                    atom::<u8>(v.as_ptr())
                }
            } else {
                data::<u8>(v.as_ptr())
            }
        };
        unsafe {
            std::ptr::copy_nonoverlapping(src(x), data::<u8>(out.as_ptr()), es * nx as usize);
            std::ptr::copy_nonoverlapping(
                src(y),
                data::<u8>(out.as_ptr()).add(es * nx as usize),
                es * ny as usize,
            );
        }
        return Ok(out);
    }
    let mut v = items(x);
    v.extend(items(y));
    Ok(from_items(v))
}

/// `x # y`: take with repetition (negative from the end), reshape by a shape vector, pick
/// keys of a dictionary or columns of a table.
fn take(x: &KObj, y: &KObj) -> QResult {
    if let Some(n) = int_atom(x) {
        if n == NJ {
            return Err(nyi());
        }
        let base = if y.is_atom() || y.is_func() {
            from_items(vec![y.clone()])
        } else {
            y.clone()
        };
        let c = base.len();
        let idx: Vec<i64> = if c == 0 {
            vec![0; n.unsigned_abs() as usize] // nulls, as indexing past the end
        } else if n >= 0 {
            (0..n).map(|i| i % c).collect()
        } else {
            let m = -n;
            (0..m).map(|i| (c - m % c + i).rem_euclid(c)).collect()
        };
        if c == 0 && base.t() == 0 {
            return Ok(KObj::list(vec![]));
        }
        return Ok(take_rows(&base, &idx));
    }
    if let Some(a) = attribute(x, y) {
        return a;
    }
    if let Some(names) = sym_texts(x) {
        return match y.t() {
            XD => {
                let kx = if x.is_atom() {
                    from_items(vec![x.clone()])
                } else {
                    x.clone()
                };
                let found = find_indices(&y.dict_keys(), &kx);
                Ok(KObj::dict(kx, rows(&y.dict_values(), &found)))
            }
            XT => {
                let (n, c) = table_cols(y);
                let have = n.sym_list();
                let mut cols = Vec::new();
                for s in &names {
                    match have.iter().position(|h| h == s) {
                        Some(i) => cols.push(c[i].clone()),
                        None => return Err(err(s)),
                    }
                }
                Ok(make_table(KObj::syms(&names), cols))
            }
            _ => Err(type_err()),
        };
    }
    if let Some(shape) = int_list(x) {
        if shape.len() == 2 && shape.iter().filter(|&&d| d == NJ).count() == 1 && !y.is_atom() {
            return reshape_null(shape[0], shape[1], y);
        }
        if shape.len() < 2 || shape.iter().any(|&d| d < 0) {
            return Err(nyi());
        }
        let flat = take(&KObj::long(shape.iter().product()), y)?;
        return Ok(reshape(&flat, &shape));
    }
    Err(type_err())
}

/// `0N c#y` and `r 0N#y` (code.kx.com/q/ref/take "0N"): all of y's items in rows; with c
/// columns the rows are c long and the last holds what is left (`0N 3#til 10` ends `,9`);
/// with r rows each row is `count[y] div r` long and the last takes the remainder.
fn reshape_null(r: i64, c: i64, y: &KObj) -> QResult {
    let n = y.len();
    let fixed = if r == NJ { c } else { r };
    if fixed < 0 {
        return Err(err("domain"));
    }
    let starts: Vec<i64> = if r == NJ {
        if c == 0 {
            return Err(err("domain"));
        }
        (0..n).step_by(c as usize).collect()
    } else {
        let w = if r == 0 { 0 } else { n / r };
        (0..r).map(|i| i * w).collect()
    };
    let mut out = Vec::with_capacity(starts.len());
    for (k, &b) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(n);
        out.push(rows(y, &(b..e).collect::<Vec<_>>()));
    }
    Ok(KObj::list(out))
}

/// Nest the items of `flat` (exactly the product of `shape` of them) as `shape`.
fn reshape(flat: &KObj, shape: &[i64]) -> KObj {
    if shape.len() == 1 {
        return flat.clone();
    }
    let inner: i64 = shape[1..].iter().product();
    KObj::list(
        (0..shape[0])
            .map(|i| {
                reshape(
                    &rows(flat, &(i * inner..(i + 1) * inner).collect::<Vec<_>>()),
                    &shape[1..],
                )
            })
            .collect(),
    )
}

/// `` `s#y `` `` `u#y `` `` `p#y `` `` `g#y `` set an attribute on a list; `` `#y `` removes it.
/// `s requires ascending items ('s-fail otherwise), `u distinct ones ('u-fail).
fn attribute(x: &KObj, y: &KObj) -> Option<QResult> {
    if x.t() != -KS || y.is_atom() {
        return None;
    }
    // attributes on dictionaries and tables (step dictionaries, ref/apply.md; keyed tables,
    // ref/set-attribute.md) are nyi
    if matches!(y.t(), XD | XT) {
        return matches!(x.get_sym(), "" | "s" | "u" | "p" | "g").then(|| Err(err("nyi")));
    }
    let code = match x.get_sym() {
        "" => 0,
        "s" => 1,
        "u" => 2,
        "p" => 3,
        "g" => 4,
        _ => return None,
    };
    let items = items(y);
    let ordered = items
        .windows(2)
        .all(|w| super::search_sort::item_cmp(&w[0], &w[1]) != std::cmp::Ordering::Greater);
    if code == 1 && !ordered {
        return Some(Err(err("s-fail")));
    }
    if code == 2 && distinct(y).map_or(true, |d| d.len() != y.len()) {
        return Some(Err(err("u-fail")));
    }
    let r = from_items(items);
    let r = if r.t() == y.t() { r } else { y.clone() };
    r.set_attr(code);
    Some(Ok(r))
}

/// `x _ y`: drop n items (from the end when negative), cut at ascending indices, remove an
/// item by index (`list _ i`), remove keys from a dictionary.
fn drop(x: &KObj, y: &KObj) -> QResult {
    if let Some(n) = int_atom(x) {
        if y.is_atom() {
            return Err(type_err());
        }
        let c = y.len();
        if fast_paths() && (0..20).contains(&y.t()) {
            // a vector or general list: the items kept are one run, copied at once
            let (lo, hi) = if n >= 0 {
                (n.min(c), c)
            } else {
                (0, (c.saturating_add(n)).max(0))
            };
            return Ok(row_range(y, lo, hi));
        }
        let idx: Vec<i64> = if n >= 0 {
            (n.min(c)..c).collect()
        } else {
            (0..(c + n).max(0)).collect()
        };
        return Ok(take_rows(y, &idx));
    }
    if x.t() == XD {
        // a dictionary drops one key on the right; a list of keys there is 'type (ref/drop.md
        // `(`a`b`c!1 2 3) _ `a`b`)
        if !y.is_atom() {
            return Err(type_err());
        }
        return drop_keys(x, &from_items(vec![y.clone()]));
    }
    // a vector of column names drops a table's columns (ref/drop.md `` `a`b _ t ``; an atom
    // there is 'type)
    if y.t() == XT && (x.t() == -KS || x.t() == KS) {
        if x.is_atom() {
            return Err(type_err());
        }
        let gone = x.sym_list();
        let (names, cols) = table_cols(y);
        let keep: Vec<usize> = (0..cols.len())
            .filter(|&i| !gone.contains(&names.sym_list()[i]))
            .collect();
        let kept_names: Vec<&str> = keep.iter().map(|&i| names.sym_list()[i]).collect();
        return Ok(make_table(
            KObj::syms(&kept_names),
            keep.iter().map(|&i| cols[i].clone()).collect(),
        ));
    }
    if y.t() == XD && (x.is_atom() || x.t() == KS) {
        // keys on the left: one or a list (ref/drop.md `` `a`b _ `a`b`c!1 2 3 ``)
        return drop_keys(
            y,
            &if x.is_atom() {
                from_items(vec![x.clone()])
            } else {
                x.clone()
            },
        );
    }
    drop_rest(x, y)
}

fn drop_keys(x: &KObj, keys: &KObj) -> QResult {
    {
        let keys = keys.clone();
        let gone = member_set(&keys);
        let kept: Vec<i64> = rows_of(&x.dict_keys())
            .iter()
            .enumerate()
            .filter(|(_, k)| !gone.contains_key(&hkey(k)))
            .map(|(i, _)| i as i64)
            .collect();
        Ok(take_rows(x, &kept))
    }
}

fn drop_rest(x: &KObj, y: &KObj) -> QResult {
    if x.is_vector() {
        if let Some(i) = int_atom(y) {
            let kept: Vec<i64> = (0..x.len()).filter(|&j| j != i).collect();
            return Ok(take_rows(x, &kept));
        }
    }
    if let Some(cuts) = int_list(x) {
        return cut_at(&cuts, y);
    }
    Err(type_err())
}

/// Cut y at ascending indices.
fn cut_at(cuts: &[i64], y: &KObj) -> QResult {
    let c = y.len();
    if cuts.windows(2).any(|w| w[0] > w[1]) || cuts.iter().any(|&i| i < 0 || i > c) {
        return Err(err("domain"));
    }
    let parts = (0..cuts.len())
        .map(|k| {
            let end = if k + 1 < cuts.len() { cuts[k + 1] } else { c };
            take_rows(y, &(cuts[k]..end).collect::<Vec<_>>())
        })
        .collect();
    Ok(KObj::list(parts))
}

/// `x ! y`: a dictionary from keys and values, or `n!table` keying its first n columns.
fn bang(x: &KObj, y: &KObj) -> QResult {
    // a symbol atom on the left enumerates (ref/enumeration.md `` `x!1 2 3 ``): nyi
    if x.t() == -KS {
        return Err(nyi());
    }
    if let (Some(n), XT) = (int_atom(x), y.t()) {
        let (names, cols) = table_cols(y);
        let n = n as usize;
        if n == 0 {
            return Ok(y.clone());
        }
        if n > cols.len() {
            return Err(len_err());
        }
        let nm = names.sym_list();
        let kt = make_table(KObj::syms(&nm[..n]), cols[..n].to_vec());
        let vt = make_table(KObj::syms(&nm[n..]), cols[n..].to_vec());
        return Ok(KObj::dict(kt, vt));
    }
    if let (Some(0), true) = (int_atom(x), is_keyed(y)) {
        let (kn, kc) = table_cols(&y.dict_keys());
        let (vn, vc) = table_cols(&y.dict_values());
        let names = join(&kn, &vn)?;
        return Ok(make_table(names, kc.into_iter().chain(vc).collect()));
    }
    if x.is_atom() && y.is_atom() {
        return Ok(KObj::dict(
            from_items(vec![x.clone()]),
            from_items(vec![y.clone()]),
        ));
    }
    if y.t() == 0 && y.is_empty() && !x.is_empty() && x.is_vector() {
        // `keys!()`: real q accepts it (ktorch's cct.q builds `` `inp`tok`pos`enc`dec!() ``
        // and then assigns every key); KX documents only lists of one count, so what q holds
        // before a key is assigned is not known: the generic null here (README lists it)
        return Ok(KObj::dict(
            x.clone(),
            from_items(vec![KObj::identity(); x.len() as usize]),
        ));
    }
    if x.len() != y.len() {
        return Err(len_err());
    }
    if !x.is_vector() && x.t() != XT || !(y.is_vector() || y.t() == XT) {
        return Err(type_err());
    }
    Ok(KObj::dict(x.clone(), y.clone()))
}

/// `x ^ y`: y with its nulls filled from x (atom or conforming list).
/// ref/fill.md's table of result types: row x's type, column y's ('type where it has `.`).
fn fill_type(x: i8, y: i8) -> Option<i8> {
    const COLS: &[u8] = b"bgxhijefcspmdznuvt";
    const ROWS: [&[u8]; 18] = [
        b"b.xhijefc.pmdznuvt",
        b".g................",
        b"x.xhijefc.pmdznuvt",
        b"h.hhijefc.pmdznuvt",
        b"i.iiijefc.pmdznuvt",
        b"j.jjjjefc.pmdznuvt",
        b"e.eeeeefc.pmdznuvt",
        b"f.ffffffc.pmdznuvt",
        b"c.ccccccc.pmdznuvt",
        b".........s........",
        b"p.ppppppp.ppppnuvt",
        b"m.mmmmmmm.pmd.....",
        b"d.ddddddd.pddz....",
        b"z.zzzzzzz.p.zznuvt",
        b"n.nnnnnnn.n..nnnnn",
        b"u.uuuuuuu.u..unuvt",
        b"v.vvvvvvv.v..vnvvt",
        b"t.ttttttt.t..tnttt",
    ];
    let letter = |t: i8| COLS.iter().position(|&k| type_of_letter(k) == Some(t));
    let c = ROWS[letter(x)?][letter(y)?];
    if c == b'.' {
        return None;
    }
    type_of_letter(c)
}

fn fill(x: &KObj, y: &KObj) -> QResult {
    super::atomic::atomic2(x, y, &|a, b| {
        let n = conform(a, b)?;
        let m = n.unwrap_or(1);
        // the result type is KX's Fill table (ref/fill.md "Domain and range"): both sides in it
        let rt = fill_type(a.t().abs(), b.t().abs()).ok_or_else(type_err)?;
        let a = if a.t().abs() == rt {
            a.clone()
        } else {
            super::cast::to_type(rt, a)?
        };
        let b = &if b.t().abs() == rt {
            b.clone()
        } else {
            super::cast::to_type(rt, b)?
        };
        let out: Vec<KObj> = (0..m)
            .map(|i| {
                let bi = if b.is_atom() {
                    b.clone()
                } else {
                    elem(b, i as i64)
                };
                let ai = if a.is_atom() {
                    a.clone()
                } else {
                    elem(&a, i as i64)
                };
                if is_null_at(&bi, 0) {
                    ai
                } else {
                    bi
                }
            })
            .collect();
        Ok(if n.is_none() {
            out.into_iter().next().unwrap()
        } else {
            from_items(out)
        })
    })
}

fn rotate(x: &KObj, y: &KObj) -> QResult {
    let n = int_atom(x).ok_or_else(type_err)?;
    if y.is_atom() {
        return Ok(y.clone());
    }
    let c = y.len();
    if c == 0 {
        return Ok(y.clone());
    }
    let idx: Vec<i64> = (0..c).map(|i| (i + n).rem_euclid(c)).collect();
    Ok(take_rows(y, &idx))
}

/// `n sublist y` (first n, or last n when negative; no repetition) or `(start;n) sublist y`.
fn sublist(x: &KObj, y: &KObj) -> QResult {
    let c = y.len();
    let idx: Vec<i64> = if let Some(n) = int_atom(x) {
        if n >= 0 {
            (0..n.min(c)).collect()
        } else {
            ((c + n).max(0)..c).collect()
        }
    } else if let Some(v) = int_list(x).filter(|v| v.len() == 2) {
        let s = v[0].clamp(0, c);
        (s..(s + v[1].max(0)).min(c)).collect()
    } else {
        return Err(type_err());
    };
    Ok(take_rows(y, &idx))
}

fn cut(x: &KObj, y: &KObj) -> QResult {
    if let Some(n) = int_atom(x) {
        if n <= 0 {
            return Err(err("domain"));
        }
        let cuts: Vec<i64> = (0..y.len()).step_by(n as usize).collect();
        return cut_at(&cuts, y);
    }
    drop(x, y)
}

/// Keys of the items of a list (an atom counts as one item).
pub fn member_set(y: &KObj) -> HashMap<Vec<u8>, usize> {
    let mut m = HashMap::new();
    for (i, r) in rows_of(y).iter().enumerate() {
        m.entry(hkey(r)).or_insert(i);
    }
    m
}

/// Items of x whose key passes `keep`.
fn select(x: &KObj, keep: impl Fn(&Vec<u8>) -> bool) -> KObj {
    let base = if x.is_atom() {
        from_items(vec![x.clone()])
    } else {
        x.clone()
    };
    let idx: Vec<i64> = rows_of(&base)
        .iter()
        .enumerate()
        .filter(|(_, r)| keep(&hkey(r)))
        .map(|(i, _)| i as i64)
        .collect();
    take_rows(&base, &idx)
}

/// Index in `list` of each item of `what` (count of list when absent).
pub fn find_indices(list: &KObj, what: &KObj) -> Vec<i64> {
    if fast_paths() && list.t() == KS && (what.t() == KS || what.t() == -KS) {
        // symbols are interned: the same text is the same pointer, and a symbol's hkey is its
        // pointer, so the first index of the same pointer is member_set's (issue 31: `x`e`ep`)
        let syms = list.slice::<*const libc::c_char>();
        let n = list.len();
        let one = [what.get_sym_ptr()];
        let probe = if what.t() == KS {
            what.slice::<*const libc::c_char>()
        } else {
            &one[..]
        };
        if syms.len() <= 32 {
            return probe
                .iter()
                .map(|p| syms.iter().position(|s| s == p).map_or(n, |i| i as i64))
                .collect();
        }
        let mut first = HashMap::with_capacity(syms.len());
        for (i, s) in syms.iter().enumerate() {
            first.entry(*s).or_insert(i as i64);
        }
        return probe
            .iter()
            .map(|p| first.get(p).copied().unwrap_or(n))
            .collect();
    }
    let m = member_set(list);
    let n = list.len();
    rows_of(what)
        .iter()
        .map(|r| m.get(&hkey(r)).map(|&i| i as i64).unwrap_or(n))
        .collect()
}

/// `x in y`: membership of x (an atom) or of each item of x.
fn in_(x: &KObj, y: &KObj) -> QResult {
    // a dictionary: its values, keys kept (left-atomic; gpt/char.q's `where p in syms`)
    if x.t() == XD && !is_keyed(x) {
        return Ok(KObj::dict(x.dict_keys(), in_(&x.dict_values(), y)?));
    }
    // y a general list: Find looks for objects one rank below y's (ref/find.md "Rank-sensitive";
    // ref/in.md): x of that rank is one item (`1 2 in (1 2;9)` is 1b), x of a higher rank goes
    // item by item (`1 2 in (9;(1 2;3 4))` is 00b), x of a lower rank is never found
    // (`3 in (1 2;3)` is 0b)
    if y.t() == 0 {
        let (r, rx) = (list_rank(y), list_rank(x));
        if rx + 1 == r {
            let k = hkey(x);
            return Ok(KObj::bool(y.items().iter().any(|v| hkey(v) == k)));
        }
        if rx + 1 < r {
            return Ok(KObj::bool(false));
        }
        return Ok(from_items(
            rows_of(x)
                .iter()
                .map(|v| in_(v, y))
                .collect::<Result<_, _>>()?,
        ));
    }
    if (y.t() > 0 && y.t() < 20) || y.is_atom() {
        // y an atom or a vector: left-atomic (ref/in.md `("abc";("def";"ghi");"jkl")in "bed"`)
        if x.t() == 0 {
            return Ok(from_items(
                x.items()
                    .iter()
                    .map(|v| in_(v, y))
                    .collect::<Result<_, _>>()?,
            ));
        }
        // another type is compared only against an atom or a 1-item list (ref/in.md "Mixed
        // argument types": `1 2. in 2#2` is 'type)
        if x.t() > 0 && x.t() < 20 && x.t() != y.t().abs() && !(y.is_atom() || y.len() == 1) {
            return Err(type_err());
        }
    }
    let y = &if y.is_atom() {
        enlist(vec![y.clone()])
    } else {
        y.clone()
    };
    let m = member_set(y);
    let probe = |v: &KObj| -> KObj {
        // an item of another numeric width is compared as y's type, as q converts it
        let v = if y.is_vector() && y.t() > 0 && v.t() < 0 && v.t() != -y.t() {
            super::cast::to_type(y.t(), v).unwrap_or_else(|_| v.clone())
        } else {
            v.clone()
        };
        KObj::bool(m.contains_key(&hkey(&v)))
    };
    if x.is_atom() {
        return Ok(probe(x));
    }
    Ok(from_items(rows_of(x).iter().map(probe).collect()))
}

/// Rank as Find counts it (ref/find.md): an atom 0, a list one more than its first item's.
fn list_rank(x: &KObj) -> usize {
    if x.is_atom() || x.t() >= 98 {
        0
    } else if x.t() > 0 || x.is_empty() {
        1
    } else {
        1 + list_rank(&x.item(0))
    }
}

/// `x cross y`: every item of x joined with every item of y.
fn cross(x: &KObj, y: &KObj) -> QResult {
    let (a, b) = (rows_of(x), rows_of(y));
    let mut out = Vec::with_capacity(a.len() * b.len());
    for i in &a {
        for j in &b {
            out.push(join(i, j)?);
        }
    }
    // rows of two tables join into records: a table (ref/cross.md)
    Ok(if x.t() == XT && y.t() == XT {
        from_items(out)
    } else {
        KObj::list(out)
    })
}

/// `` `a xkey t ``: t keyed on the named columns (moved to the front).
fn xkey(k: &KObj, t: &KObj) -> QResult {
    let t = if is_keyed(t) {
        bang(&KObj::long(0), t)?
    } else {
        t.clone()
    };
    if t.t() != XT {
        return Err(type_err());
    }
    let names = sym_texts(k).ok_or_else(type_err)?;
    let (n, c) = table_cols(&t);
    let have = n.sym_list();
    let mut order: Vec<usize> = Vec::new();
    for s in &names {
        order.push(have.iter().position(|h| h == s).ok_or_else(|| err(s))?);
    }
    let rest: Vec<usize> = (0..have.len()).filter(|i| !order.contains(i)).collect();
    order.extend(rest);
    let t2 = make_table(
        KObj::syms(&order.iter().map(|&i| have[i]).collect::<Vec<_>>()),
        order.iter().map(|&i| c[i].clone()).collect(),
    );
    bang(&KObj::long(names.len() as i64), &t2)
}

/// `` `a`b xcol t ``: rename the first columns.
fn xcol(k: &KObj, t: &KObj) -> QResult {
    if t.t() != XT {
        return Err(nyi());
    }
    let new = sym_texts(k).ok_or_else(type_err)?;
    let (n, c) = table_cols(t);
    let mut names: Vec<&str> = n.sym_list();
    if new.len() > names.len() {
        return Err(len_err());
    }
    names[..new.len()].copy_from_slice(&new);
    Ok(make_table(KObj::syms(&names), c))
}

/// `` `c`d xcols t `` (code.kx.com/q/ref/cols): the named columns first, then the others in
/// their order; a keyed table or a name that is not a column is 'nyi.
fn xcols(k: &KObj, t: &KObj) -> QResult {
    if t.t() != XT {
        return Err(nyi());
    }
    let first: Vec<String> = if k.t() == -KS {
        vec![k.get_sym().to_string()]
    } else if k.t() == KS {
        k.sym_list().iter().map(|s| s.to_string()).collect()
    } else {
        return Err(type_err());
    };
    let (names, cols) = table_cols(t);
    let names: Vec<String> = names.sym_list().iter().map(|s| s.to_string()).collect();
    if first.iter().any(|f| !names.contains(f)) {
        return Err(nyi());
    }
    let order: Vec<usize> = first
        .iter()
        .map(|f| names.iter().position(|n| n == f).unwrap())
        .chain((0..names.len()).filter(|i| !first.contains(&names[*i])))
        .collect();
    let nn: Vec<String> = order.iter().map(|&i| names[i].clone()).collect();
    Ok(make_table(
        KObj::syms(&nn),
        order.iter().map(|&i| cols[i].clone()).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn take_drop() {
        let v = KObj::from_slice(KJ, &[1i64, 2, 3]);
        let r = take(&KObj::long(5), &v).unwrap();
        assert_eq!(r.slice::<i64>(), &[1, 2, 3, 1, 2]);
        let r = take(&KObj::long(-2), &v).unwrap();
        assert_eq!(r.slice::<i64>(), &[2, 3]);
        let r = drop(&KObj::long(1), &v).unwrap();
        assert_eq!(r.slice::<i64>(), &[2, 3]);
        let r = join(&KObj::long(0), &v).unwrap();
        assert_eq!(r.slice::<i64>(), &[0, 1, 2, 3]);
        let r = distinct(&KObj::from_slice(KJ, &[1i64, 1, 2])).unwrap();
        assert_eq!(r.slice::<i64>(), &[1, 2]);
    }
}

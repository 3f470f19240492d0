//! How an atomic verb reaches its atoms: through general lists (item by item, 'length when
//! two lists differ in count), dictionaries (on values; two dictionaries on the union of their
//! keys) and tables (column by column). The kernels (`leaf`) only ever see atoms and typed
//! vectors, which they process whole.
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::QResult;

pub type Leaf1<'a> = &'a dyn Fn(&KObj) -> QResult;
pub type Leaf2<'a> = &'a dyn Fn(&KObj, &KObj) -> QResult;

/// A monadic atomic verb.
pub fn atomic1(x: &KObj, leaf: Leaf1) -> QResult {
    match x.t() {
        0 => Ok(from_items(
            x.items()
                .iter()
                .map(|i| atomic1(i, leaf))
                .collect::<Result<_, _>>()?,
        )),
        XD => Ok(KObj::dict(x.dict_keys(), atomic1(&x.dict_values(), leaf)?)),
        XT => {
            let (names, cols) = table_cols(x);
            let cols = cols
                .iter()
                .map(|c| atomic1(c, leaf))
                .collect::<Result<_, _>>()?;
            Ok(make_table(names, cols))
        }
        _ if is_simple(x) => leaf(x),
        _ => Err(type_err()),
    }
}

/// A dyadic atomic verb.
pub fn atomic2(x: &KObj, y: &KObj, leaf: Leaf2) -> QResult {
    let (tx, ty) = (x.t(), y.t());
    if tx == XD || ty == XD {
        return dict2(x, y, leaf);
    }
    if tx == XT || ty == XT {
        return table2(x, y, leaf);
    }
    if tx == 0 || ty == 0 {
        let lx = x.is_vector();
        let ly = y.is_vector();
        if lx && ly && x.len() != y.len() {
            return Err(len_err());
        }
        let n = if lx { x.len() } else { y.len() };
        let pick = |v: &KObj, is_list: bool, i: i64| if is_list { elem(v, i) } else { v.clone() };
        let out = (0..n)
            .map(|i| atomic2(&pick(x, lx, i), &pick(y, ly, i), leaf))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(from_items(out));
    }
    if is_simple(x) && is_simple(y) {
        return leaf(x, y);
    }
    Err(type_err())
}

/// Dictionary with anything: on the values; two dictionaries on the union of keys, where a key
/// in only one keeps its value.
fn dict2(x: &KObj, y: &KObj, leaf: Leaf2) -> QResult {
    match (x.t() == XD, y.t() == XD) {
        (true, false) => Ok(KObj::dict(
            x.dict_keys(),
            atomic2(&x.dict_values(), y, leaf)?,
        )),
        (false, true) => Ok(KObj::dict(
            y.dict_keys(),
            atomic2(x, &y.dict_values(), leaf)?,
        )),
        _ => {
            // keyed tables go row by row: keys match as records (ref/add.md `k+k`, ref/greater.md
            // `a|b` on keyed tables "upserting y into x")
            let its = |v: &KObj| if v.t() == XT { rows_of(v) } else { items(v) };
            let (kx, vx) = (its(&x.dict_keys()), its(&x.dict_values()));
            let (ky, vy) = (its(&y.dict_keys()), its(&y.dict_values()));
            if (x.dict_keys().t() == XT) != (y.dict_keys().t() == XT) {
                return Err(nyi());
            }
            let mut keys = kx.clone();
            let mut vals = vx.clone();
            for (k, v) in ky.iter().zip(vy.iter()) {
                match keys.iter().position(|a| super::compare::matches(a, k)) {
                    Some(i) => vals[i] = atomic2(&vals[i], v, leaf)?,
                    None => {
                        keys.push(k.clone());
                        vals.push(v.clone());
                    }
                }
            }
            Ok(KObj::dict(from_items(keys), from_items(vals)))
        }
    }
}

/// Table with an atom or list: column by column; two tables of the same columns pairwise.
fn table2(x: &KObj, y: &KObj, leaf: Leaf2) -> QResult {
    match (x.t() == XT, y.t() == XT) {
        (true, true) => {
            let (nx, cx) = table_cols(x);
            let (ny, cy) = table_cols(y);
            if !super::compare::matches(&nx, &ny) {
                return Err(nyi());
            }
            if x.len() != y.len() {
                return Err(len_err());
            }
            let cols = cx.iter().zip(cy.iter()).map(|(a, b)| atomic2(a, b, leaf));
            Ok(make_table(nx, cols.collect::<Result<_, _>>()?))
        }
        (true, false) if y.is_atom() => {
            let (n, c) = table_cols(x);
            Ok(make_table(
                n,
                c.iter()
                    .map(|a| atomic2(a, y, leaf))
                    .collect::<Result<_, _>>()?,
            ))
        }
        (false, true) if x.is_atom() => {
            let (n, c) = table_cols(y);
            Ok(make_table(
                n,
                c.iter()
                    .map(|b| atomic2(x, b, leaf))
                    .collect::<Result<_, _>>()?,
            ))
        }
        _ => Err(nyi()),
    }
}

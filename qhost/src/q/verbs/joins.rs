//! Keyed joins: `x lj y` (ref/lj.md) and `x ij y` (ref/ij.md), x a table, y a keyed table
//! whose key columns are columns of x. Each row of x is looked up by its key columns in y (the
//! first row of y with that key); a match joins y's value columns to the row, common columns
//! replaced from y, nulls of y included (V3.0's rule). With lj an unmatched row keeps its own
//! columns and gets nulls in y's new ones; ij keeps matched rows only. A keyed x is joined as
//! its flat table and keyed again. What KX's pages do not show answers 'nyi: x by name (4.1's
//! in-place form), a key column missing from x, a common column of another type in x than in y,
//! a new column of general values left unmatched.
use std::collections::HashMap;

use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::values::{from_items, hkey, is_keyed, items, make_table, null_atom, table_cols};
use crate::q::QResult;

pub fn dyad(name: &str, x: &KObj, y: &KObj) -> Option<QResult> {
    match name {
        "lj" => Some(join(x, y, false)),
        "ij" => Some(join(x, y, true)),
        _ => None,
    }
}

fn join(x: &KObj, y: &KObj, inner: bool) -> QResult {
    // lj of the general empty list is x (ref/lj.md)
    if !inner && y.t() == 0 && y.is_empty() {
        return Ok(x.clone());
    }
    if x.t() == -KS {
        return Err(nyi());
    }
    // y must be a keyed table (ref/lj.md "Changes in V4.0": `x lj y` of a simple table is 'type)
    if !is_keyed(y) {
        return Err(type_err());
    }
    if is_keyed(x) {
        let n = KObj::long(table_cols(&x.dict_keys()).1.len() as i64);
        let flat = super::apply_prim("!", vec![KObj::long(0), x.clone()])?;
        let r = join(&flat, y, inner)?;
        return super::apply_prim("!", vec![n, r]);
    }
    if x.t() != XT {
        return Err(type_err());
    }
    let (xn, xcols) = table_cols(x);
    let (kn, kcols) = table_cols(&y.dict_keys());
    let (vn, vcols) = table_cols(&y.dict_values());
    let names_of =
        |n: &KObj| -> Vec<String> { n.sym_list().iter().map(|s| s.to_string()).collect() };
    let (xn, kn, vn) = (names_of(&xn), names_of(&kn), names_of(&vn));
    let col_of = |name: &str| xn.iter().position(|n| n == name);
    // x's key columns, in y's key order
    let xkeys = kn
        .iter()
        .map(|k| col_of(k).map(|i| items(&xcols[i])))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(nyi)?;
    let ykeys: Vec<Vec<KObj>> = kcols.iter().map(items).collect();
    let rows_y = ykeys.first().map_or(0, Vec::len);
    let rows_x = xkeys.first().map_or(0, Vec::len);
    let key = |cols: &[Vec<KObj>], r: usize| -> Vec<u8> {
        cols.iter().flat_map(|c| hkey(&c[r])).collect()
    };
    let mut first: HashMap<Vec<u8>, usize> = HashMap::with_capacity(rows_y);
    for r in 0..rows_y {
        first.entry(key(&ykeys, r)).or_insert(r);
    }
    let found: Vec<Option<usize>> = (0..rows_x)
        .map(|r| first.get(&key(&xkeys, r)).copied())
        .collect();
    let keep: Vec<usize> = (0..rows_x)
        .filter(|&r| !inner || found[r].is_some())
        .collect();
    let vitems: Vec<Vec<KObj>> = vcols.iter().map(items).collect();
    let mut names = xn.clone();
    let mut cols = Vec::with_capacity(xn.len() + vn.len());
    for (i, c) in xcols.iter().enumerate() {
        let own = items(c);
        let col = match vn.iter().position(|v| *v == xn[i]) {
            // x's and y's columns of other types: what the mixed column is, KX's pages do not
            // show (their examples join columns of one type)
            Some(v) if c.t() != vcols[v].t() => return Err(nyi()),
            // no rows: the column's type
            Some(_) if keep.is_empty() => rows(c, &[]),
            // a common column: y's value where matched
            Some(v) => from_items(
                keep.iter()
                    .map(|&r| match found[r] {
                        Some(j) => vitems[v][j].clone(),
                        None => own[r].clone(),
                    })
                    .collect(),
            ),
            None => rows(c, &keep.iter().map(|&r| r as i64).collect::<Vec<_>>()),
        };
        cols.push(col);
    }
    for (v, name) in vn.iter().enumerate() {
        if xn.contains(name) {
            continue;
        }
        let t = vcols[v].t();
        let unmatched = keep.iter().any(|&r| found[r].is_none());
        if unmatched && t <= 0 {
            // the null of a column of general values is not shown on KX's pages
            return Err(nyi());
        }
        let col = keep
            .iter()
            .map(|&r| match found[r] {
                Some(j) => vitems[v][j].clone(),
                None => null_atom(t),
            })
            .collect::<Vec<_>>();
        let col = if col.is_empty() {
            rows(&vcols[v], &[])
        } else {
            from_items(col)
        };
        names.push(name.clone());
        cols.push(col);
    }
    Ok(make_table(KObj::syms(&names), cols))
}

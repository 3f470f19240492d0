//! Indexing data by data: `x@i` (lists by int atom/vector/nested list, dictionaries by key or
//! keys, tables by row or column name) and `x . (i;j;..)` at depth, `::` meaning all.
//! Out of range indices and missing keys give nulls, as q does.
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::{err, QResult};

/// `x @ i`.
pub fn at(x: &KObj, i: &KObj) -> QResult {
    if is_identity(i) {
        return Ok(x.clone());
    }
    if crate::q::enums::is_enum(x) {
        return crate::q::enums::index(x, i, at);
    }
    if crate::q::enums::contains_enum(i) {
        return Err(err("nyi"));
    }
    match x.t() {
        XD => dict_at(x, i),
        XT => table_at(x, i),
        t if (0..XT).contains(&t) => list_at(x, i),
        _ => Err(type_err()),
    }
}

/// A list by index atom, vector, or nested list of indices (result shaped like the index).
fn list_at(x: &KObj, i: &KObj) -> QResult {
    if i.t() == KB {
        // booleans index as 0 and 1 (issue 19: boolean indexing)
        return Ok(rows(x, &ivals(i).unwrap()));
    }
    if let Some(k) = int_atom(i) {
        return Ok(if (0..x.len()).contains(&k) {
            elem(x, k)
        } else if x.t() == 0 {
            list_null(x)
        } else {
            null_atom(x.t())
        });
    }
    match i.t() {
        // long indices as they are (ivals would copy them unchanged)
        KJ if fast_paths() => Ok(rows(x, i.slice::<i64>())),
        KH | KI | KJ => Ok(rows(x, &ivals(i).unwrap())),
        0 => Ok(from_items(
            i.items()
                .iter()
                .map(|j| list_at(x, j))
                .collect::<Result<_, _>>()?,
        )),
        XD => Ok(KObj::dict(i.dict_keys(), list_at(x, &i.dict_values())?)),
        _ => Err(type_err()),
    }
}

/// A dictionary by a key (its value, or the null of the values' type) or a list of keys.
fn dict_at(d: &KObj, k: &KObj) -> QResult {
    let keys = d.dict_keys();
    let vals = d.dict_values();
    if keys.t() == XT {
        // keyed table: by a dictionary row or a table of keys
        let (_, kcols) = table_cols(&keys);
        let one_row = k.t() == XD || (k.is_atom() && kcols.len() == 1);
        let idx = if k.t() != XD && k.t() != XT && kcols.len() == 1 {
            // a single key column: look the value(s) up in it
            let probe = if k.is_atom() {
                super::structure::enlist(vec![k.clone()])
            } else {
                k.clone()
            };
            super::structure::find_indices(&kcols[0], &probe)
        } else {
            let rowk = if k.t() == XD {
                super::structure::enlist(vec![k.clone()])
            } else {
                k.clone()
            };
            super::structure::find_indices(&keys, &rowk)
        };
        let r = take_rows(&vals, &idx);
        return Ok(if one_row {
            super::util::rows_of(&r).remove(0)
        } else {
            r
        });
    }
    if fast_paths() && keys.t() == KS && k.t() == -KS {
        // a symbol among symbol keys: the first that is the same interned symbol, as
        // member_set's first index of the same text
        let p = k.get_sym_ptr();
        let i = keys
            .slice::<*const libc::c_char>()
            .iter()
            .position(|&s| s == p)
            .map_or(keys.len(), |i| i as i64);
        return at(&vals, &KObj::long(i));
    }
    let m = super::structure::member_set(&keys);
    if k.is_atom() || (keys.t() == 0 && m.contains_key(&hkey(k))) {
        let i = m.get(&hkey(k)).map(|&i| i as i64).unwrap_or(keys.len());
        return at(&vals, &KObj::long(i));
    }
    if k.t() == 0 {
        return Ok(from_items(
            k.items()
                .iter()
                .map(|j| dict_at(d, j))
                .collect::<Result<_, _>>()?,
        ));
    }
    let idx = super::structure::find_indices(&keys, k);
    Ok(take_rows(&vals, &idx))
}

/// A table by row (a dictionary), rows (a table), column name (the column) or names.
fn table_at(x: &KObj, i: &KObj) -> QResult {
    if let Some(names) = sym_texts(i) {
        let (n, cols) = table_cols(x);
        let have = n.sym_list();
        let col = |s: &str| {
            have.iter()
                .position(|h| *h == s)
                .map(|p| cols[p].clone())
                .ok_or_else(|| err(s))
        };
        return if i.is_atom() {
            col(names[0])
        } else {
            Ok(KObj::list(
                names.iter().map(|s| col(s)).collect::<Result<_, _>>()?,
            ))
        };
    }
    if let Some(k) = int_atom(i) {
        let r = take_rows(x, &[k]);
        return Ok(rows_of(&r).remove(0));
    }
    match i.t() {
        KH | KI | KJ => Ok(take_rows(x, &ivals(i).unwrap())),
        _ => Err(type_err()),
    }
}

/// `x . idx`: index at depth; `::` at a level takes all items there.
pub fn dot(x: &KObj, idx: &KObj) -> QResult {
    let path = if idx.t() == 0 {
        idx.items()
    } else {
        items(idx)
    };
    depth(x, &path)
}

fn depth(x: &KObj, path: &[KObj]) -> QResult {
    let Some((i, rest)) = path.split_first() else {
        return Ok(x.clone());
    };
    if rest.is_empty() {
        return at(x, i);
    }
    if is_identity(i) {
        if x.t() == XT {
            // t[::;`c]: the column(s)
            return depth(x, &rest[..1]).and_then(|c| depth(&c, &rest[1..]));
        }
        if x.t() == XD {
            return Ok(KObj::dict(x.dict_keys(), depth(&x.dict_values(), path)?));
        }
        let parts = rows_of(x)
            .iter()
            .map(|r| depth(r, rest))
            .collect::<Result<_, _>>()?;
        return Ok(from_items(parts));
    }
    if x.t() == XT && rest.len() == 1 {
        // t[rows;cols]: columns first, then rows
        let c = at(x, &rest[0])?;
        return if rest[0].is_atom() {
            at(&c, i)
        } else {
            Ok(from_items(
                c.items()
                    .iter()
                    .map(|cc| at(cc, i))
                    .collect::<Result<_, _>>()?,
            ))
        };
    }
    if !i.is_atom() && x.t() != XD && (i.t() == 0 || matches!(i.t(), KH | KI | KJ)) {
        let parts = items(i)
            .iter()
            .map(|j| at(x, j).and_then(|r| depth(&r, rest)))
            .collect::<Result<_, _>>()?;
        return Ok(from_items(parts));
    }
    depth(&at(x, i)?, rest)
}

//! Small structural helpers the evaluator needs on K values (items of a list, building a list
//! back from items, picking rows). Verbs proper live in `verbs`; these are the evaluator's own
//! plumbing for adverbs, amend and qSQL.
use crate::kapi::kobj::*;
use crate::kapi::KObj;

pub use crate::q::verbs::util::elem;

/// Whether x is a list (vector or general list) as adverbs iterate it.
pub fn is_list(x: &KObj) -> bool {
    x.is_vector()
}

/// The items of a list (atoms for a typed vector).
pub fn items(x: &KObj) -> Vec<KObj> {
    if x.t() == 0 {
        return x.items();
    }
    (0..x.len()).map(|i| elem(x, i)).collect()
}

/// A list from items as q builds results: atoms all of one type make a typed vector, anything
/// else a general list.
pub fn from_items(v: Vec<KObj>) -> KObj {
    if v.is_empty() {
        return KObj::list(v);
    }
    let t = v[0].t();
    if t < 0 && t > -20 && v.iter().all(|x| x.t() == t) {
        let vt = -t;
        let out = KObj::vector(vt, v.len() as i64);
        let es = elem_size(vt);
        for (k, a) in v.iter().enumerate() {
            unsafe {
                let dst = data::<u8>(out.as_ptr()).add(k * es);
                if vt == UU {
                    std::ptr::copy_nonoverlapping(data::<u8>(a.as_ptr()), dst, 16);
                } else {
                    std::ptr::copy_nonoverlapping(atom::<u8>(a.as_ptr()), dst, es);
                }
            }
        }
        return out;
    }
    if let Some(t) = crate::q::verbs::util::dicts_as_table(&v) {
        return t;
    }
    KObj::list(v)
}

/// Rows `idx` of a list, keeping its type (indices must be in range).
pub fn rows(x: &KObj, idx: &[i64]) -> KObj {
    let t = x.t();
    if t == XT {
        return crate::q::verbs::util::take_rows(x, idx);
    }
    if t == 0 {
        return KObj::list(idx.iter().map(|&i| x.item(i)).collect());
    }
    let es = elem_size(t);
    let out = KObj::vector(t, idx.len() as i64);
    for (k, &i) in idx.iter().enumerate() {
        unsafe {
            std::ptr::copy_nonoverlapping(
                data::<u8>(x.as_ptr()).add(i as usize * es),
                data::<u8>(out.as_ptr()).add(k * es),
                es,
            )
        }
    }
    out
}

/// An integer atom's value (boolean, byte, short, int, long), None for anything else.
pub fn int_of(x: &KObj) -> Option<i64> {
    Some(match x.t() {
        t if t == -KB => x.get_bool() as i64,
        t if t == -KG => x.get_byte() as i64,
        t if t == -KH => x.get_short() as i64,
        t if t == -KI => {
            let v = x.get_int();
            if v == NI {
                NJ
            } else {
                v as i64
            }
        }
        t if t == -KJ => x.get_long(),
        _ => return None,
    })
}

/// An integer vector's values (boolean..long), None for other types.
pub fn ints_of(x: &KObj) -> Option<Vec<i64>> {
    Some(match x.t() {
        KB => x.slice::<u8>().iter().map(|&v| v as i64).collect(),
        KG => x.slice::<u8>().iter().map(|&v| v as i64).collect(),
        KH => x.slice::<i16>().iter().map(|&v| v as i64).collect(),
        KI => x.slice::<i32>().iter().map(|&v| v as i64).collect(),
        KJ => x.slice::<i64>().to_vec(),
        _ => return None,
    })
}

/// q's truth of a condition atom: non-zero (any numeric or temporal atom, char, byte).
pub fn truthy(x: &KObj) -> Option<bool> {
    Some(match x.t() {
        t if t == -KB || t == -KG || t == -KC => x.get_byte() != 0,
        t if t == -KH => x.get_short() != 0,
        t if t == -KI || t == -KM || t == -KD || t == -KU || t == -KV || t == -KT => {
            x.get_int() != 0
        }
        t if t == -KJ || t == -KP || t == -KN => x.get_long() != 0,
        t if t == -KE => x.get_real() != 0.0,
        t if t == -KF || t == -KZ => x.get_float() != 0.0,
        _ => return None,
    })
}

/// Whether x is the generic null `::`.
pub fn is_identity(x: &KObj) -> bool {
    x.t() == 101 && unsafe { (*atom::<*const u8>(x.as_ptr())).is_null() }
}

/// Column names and column values of a table (simple, unkeyed).
pub fn table_parts(t: &KObj) -> (Vec<&'static str>, Vec<KObj>) {
    let d = t.table_dict();
    (d.dict_keys().sym_list(), d.dict_values().items())
}

/// A table from column names and columns.
pub fn make_table(names: &[String], cols: Vec<KObj>) -> KObj {
    KObj::table(KObj::dict(KObj::syms(names), KObj::list(cols)))
}

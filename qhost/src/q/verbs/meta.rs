//! `meta` (ref/meta.md): a table's columns keyed by name `c`, with `t` the type's letter (lower
//! case for a vector, upper case for a list of vectors: "only the first item in each column is
//! examined", blank for an empty list), `f` the foreign key and `a` the attribute. A keyed
//! table lists its key columns first. Enumerated columns (a foreign key), general columns whose
//! first item is not a vector, and anything but a table are 'nyi.
use super::util::*;
use crate::kapi::kobj::*;
use crate::kapi::KObj;
use crate::q::QResult;

/// `.Q.t`: the letter of each base type by its number (ref/dotq.md).
pub const TYPE_LETTERS: &[u8; 20] = b" bg xhijefcspmdznuvt";

pub fn monad(name: &str, x: &KObj) -> Option<QResult> {
    (name == "meta").then(|| meta(x))
}

fn meta(x: &KObj) -> QResult {
    let tables: Vec<KObj> = match x.t() {
        XT => vec![x.clone()],
        XD if is_keyed(x) => vec![x.dict_keys(), x.dict_values()],
        _ => return Err(nyi()),
    };
    let (mut names, mut letters, mut attrs) = (Vec::new(), Vec::new(), Vec::new());
    for t in &tables {
        let (n, cols) = table_cols(t);
        names.extend(n.sym_list());
        for c in &cols {
            letters.push(letter(c)?);
            attrs.push(match c.attr() {
                1 => "s",
                2 => "u",
                3 => "p",
                4 => "g",
                _ => "",
            });
        }
    }
    let keys = make_table(KObj::syms(&["c"]), vec![KObj::syms(&names)]);
    let vals = make_table(
        KObj::syms(&["t", "f", "a"]),
        vec![
            KObj::from_slice(KC, &letters),
            KObj::syms(&vec![""; names.len()]),
            KObj::syms(&attrs),
        ],
    );
    Ok(KObj::dict(keys, vals))
}

/// The type letter of a column.
fn letter(c: &KObj) -> Result<u8, crate::q::QErr> {
    match c.t() {
        t @ 1..=19 if t != 3 => Ok(TYPE_LETTERS[t as usize]),
        0 if c.is_empty() => Ok(b' '),
        0 => match c.item(0).t() {
            t @ 1..=19 if t != 3 => Ok(TYPE_LETTERS[t as usize].to_ascii_uppercase()),
            _ => Err(nyi()),
        },
        _ => Err(nyi()),
    }
}

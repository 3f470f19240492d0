//! Enumerations (KX: ref/enumerate.md, ref/enum-extend.md, ref/enumeration.md,
//! basics/enumerations.md, basics/datatypes.md "Enumerated types"): `` `d$y ``, `` `d?y ``,
//! `` `d!i ``, `key`, `value`, `"i"$e`, indexing, display, and IPC/`-8!` sending the symbols.
//!
//! An enumeration is a vector of type 20 (an atom -20), as kdb+ lays it out since 3.0: each item
//! the long index of its symbol in the domain, a global symbol list named when it was made. The
//! domain's name rides in the object's two internal bytes (`m`, `a`, which qhost's allocator
//! does not use): an id into this module's table of names. A type-20 object from elsewhere (a C
//! extension's ktn(20,n)) has id 0, no known domain: anything but what the C API reads answers
//! 'nyi.
//!
//! What is not listed above answers 'nyi on an enumeration (verbs::apply_prim asks
//! `contains_enum` first): arithmetic, comparison, joins, qSQL on enumerated columns. The domain is
//! read through `RESOLVE` (the evaluator's globals, set at start), since values sit below it.
use std::sync::{Mutex, OnceLock};

use super::{err, QErr, QResult};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

/// The type of an enumeration of a variable (datatypes.md: "type 20h is reserved for `xxx$").
pub const ENUM: i8 = 20;

/// The value of a global by name (the evaluator's `get_global`, set at start).
pub static RESOLVE: OnceLock<fn(&str) -> Option<KObj>> = OnceLock::new();

static DOMAINS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Whether x is an enumeration (atom or vector, types 20..76).
pub fn is_enum(x: &KObj) -> bool {
    (20..=76).contains(&x.t().unsigned_abs())
}

/// Whether x is an enumeration or holds one (a table's or dictionary's columns, a list's items).
pub fn contains_enum(x: &KObj) -> bool {
    match x.t() {
        XT => contains_enum(&x.table_dict()),
        XD => contains_enum(&x.dict_keys()) || contains_enum(&x.dict_values()),
        0 if crate::q::values::fast_paths() => (0..x.len()).any(|i| {
            // an item of a simple type (atom or vector, types 1..19) is no enumeration: its
            // type read in place, without a new reference to it (issue 31: `raze 1_'x`)
            // SAFETY: a general list holds len() non-null K pointers
            let t = unsafe { (**data::<K>(x.as_ptr()).add(i as usize)).t };
            !(t != 0 && (-19..=19).contains(&t)) && contains_enum(&x.item(i))
        }),
        0 => x.items().iter().any(contains_enum),
        _ => is_enum(x),
    }
}

fn domain_id(name: &str) -> u16 {
    let mut d = DOMAINS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = d.iter().position(|n| n == name) {
        return i as u16 + 1;
    }
    d.push(name.to_string());
    d.len() as u16
}

/// The name of x's domain (None: made outside qhost's interpreter).
pub fn domain(x: &KObj) -> Option<String> {
    let p = x.as_ptr();
    let id = unsafe { ((*p).m as u8 as u16) | (((*p).a as u8 as u16) << 8) };
    if id == 0 {
        return None;
    }
    let d = DOMAINS.lock().unwrap_or_else(|e| e.into_inner());
    d.get(id as usize - 1).cloned()
}

/// An enumeration of domain `name`: a vector of `idx`, or an atom when `atom`.
pub fn make(name: &str, idx: &[i64], atom: bool) -> KObj {
    let x = if atom {
        let a = KObj::from_raw(alloc(-ENUM, 0)).unwrap();
        unsafe { *crate::kapi::kobj::atom::<i64>(a.as_ptr()) = idx[0] };
        a
    } else {
        KObj::from_slice(ENUM, idx)
    };
    let id = domain_id(name);
    unsafe {
        (*x.as_ptr()).m = (id & 0xff) as u8 as i8;
        (*x.as_ptr()).a = (id >> 8) as u8 as i8;
    }
    x
}

/// The indices of an enumeration.
pub fn indices(x: &KObj) -> Vec<i64> {
    if x.is_atom() {
        vec![unsafe { *crate::kapi::kobj::atom::<i64>(x.as_ptr()) }]
    } else {
        // KObj::slice reads types 0..19 only; an enumeration holds longs
        x.slice_mut::<i64>().to_vec()
    }
}

fn domain_list(name: &str) -> Result<KObj, QErr> {
    let d = RESOLVE
        .get()
        .and_then(|f| f(name))
        .ok_or_else(|| err(name))?;
    if d.t() != KS {
        return Err(err("type"));
    }
    Ok(d)
}

/// Symbols of y (an atom or a vector), with whether y is an atom.
fn symbols(y: &KObj) -> Result<(Vec<*const libc::c_char>, bool), QErr> {
    match y.t() {
        t if t == -KS => Ok((vec![y.get_sym_ptr()], true)),
        KS => Ok((y.slice::<*const libc::c_char>().to_vec(), false)),
        _ => Err(err("type")),
    }
}

fn positions(d: &KObj) -> std::collections::HashMap<*const libc::c_char, i64> {
    let mut m = std::collections::HashMap::new();
    for (i, s) in d.slice::<*const libc::c_char>().iter().enumerate() {
        m.entry(*s).or_insert(i as i64);
    }
    m
}

/// `` `d$y `` (enumerate.md): y's symbols as indices into d; 'cast where one is not in d.
/// Attributes are not kept.
pub fn enumerate(name: &str, y: &KObj) -> QResult {
    let d = domain_list(name)?;
    let (syms, atom) = symbols(y)?;
    let at = positions(&d);
    let idx: Vec<i64> = syms
        .iter()
        .map(|s| at.get(s).copied().ok_or_else(|| err("cast")))
        .collect::<Result<_, _>>()?;
    Ok(make(name, &idx, atom))
}

/// `` `d?y `` (enum-extend.md): d with y's missing symbols appended (the new d, to be assigned),
/// and y enumerated against it, keeping y's attribute.
pub fn extend(name: &str, y: &KObj) -> Result<(KObj, KObj), QErr> {
    let d = domain_list(name)?;
    let (syms, atom) = symbols(y)?;
    let mut at = positions(&d);
    let mut all: Vec<*const libc::c_char> = d.slice::<*const libc::c_char>().to_vec();
    let mut idx = Vec::with_capacity(syms.len());
    for s in syms {
        let i = *at.entry(s).or_insert_with(|| {
            all.push(s);
            all.len() as i64 - 1
        });
        idx.push(i);
    }
    let nd = KObj::from_slice(KS, &all);
    nd.set_attr(d.attr());
    let e = make(name, &idx, atom);
    if !atom {
        e.set_attr(y.attr());
    }
    Ok((nd, e))
}

/// `` `d!i `` (enumeration.md): indices (int or long) in `til count d` as an enumeration of d.
pub fn from_indices(name: &str, i: &KObj) -> QResult {
    let d = domain_list(name)?;
    let idx: Vec<i64> = match i.t() {
        KI => i.slice::<i32>().iter().map(|&v| v as i64).collect(),
        KJ => i.slice::<i64>().to_vec(),
        t if t == -KI => vec![i.get_int() as i64],
        t if t == -KJ => vec![i.get_long()],
        _ => return Err(err("type")),
    };
    // out of the domain: KX documents none, so qhost gives none
    if idx.iter().any(|&v| !(0..d.len()).contains(&v)) {
        return Err(err("nyi"));
    }
    Ok(make(name, &idx, i.is_atom()))
}

/// `value e`: e's symbols, looked up in its domain now (enumerate.md: changing d changes them).
pub fn values(x: &KObj) -> QResult {
    let name = domain(x).ok_or_else(|| err("nyi"))?;
    let d = domain_list(&name)?;
    let ds = d.slice::<*const libc::c_char>();
    let syms: Vec<*const libc::c_char> = indices(x)
        .iter()
        .map(|&i| {
            usize::try_from(i)
                .ok()
                .and_then(|i| ds.get(i).copied())
                .ok_or_else(|| err("nyi"))
        })
        .collect::<Result<_, _>>()?;
    if x.is_atom() {
        return Ok(KObj::sym_ptr(syms[0]));
    }
    Ok(KObj::from_slice(KS, &syms))
}

/// `key e`: the domain's name.
pub fn key(x: &KObj) -> QResult {
    Ok(KObj::sym(&domain(x).ok_or_else(|| err("nyi"))?))
}

/// `"i"$e`, `"j"$e` (enumerate.md shows `"i"$`): the indices.
pub fn cast(t: i8, x: &KObj) -> QResult {
    let idx = indices(x);
    match (t, x.is_atom()) {
        (KI, true) => Ok(KObj::int(idx[0] as i32)),
        (KI, false) => Ok(KObj::from_slice(
            KI,
            &idx.iter().map(|&v| v as i32).collect::<Vec<_>>(),
        )),
        (KJ, true) => Ok(KObj::long(idx[0])),
        (KJ, false) => Ok(KObj::from_slice(KJ, &idx)),
        _ => Err(err("nyi")),
    }
}

/// `e i`: indexing keeps the enumeration (an index out of range is q's long null).
pub fn index(x: &KObj, i: &KObj, at: impl Fn(&KObj, &KObj) -> QResult) -> QResult {
    let name = domain(x).ok_or_else(|| err("nyi"))?;
    let longs = if x.is_atom() {
        return Err(err("type"));
    } else {
        KObj::from_slice(KJ, &indices(x))
    };
    let r = at(&longs, i)?;
    match r.t() {
        KJ => Ok(make(&name, r.slice::<i64>(), false)),
        t if t == -KJ => Ok(make(&name, &[r.get_long()], true)),
        _ => Err(err("nyi")),
    }
}

/// x with every enumeration replaced by its symbols (IPC and `-8!` send values: ipc.md,
/// "Enumerations are automatically converted to values before sending"; capiref b9 mode 3,
/// "unenumerate"); x itself when it holds none.
pub fn unenumerate(x: &KObj) -> QResult {
    if !contains_enum(x) {
        return Ok(x.clone());
    }
    match x.t() {
        XT => {
            let d = unenumerate(&x.table_dict())?;
            let t = KObj::table(d);
            t.set_attr(x.attr());
            Ok(t)
        }
        XD => Ok(KObj::dict(
            unenumerate(&x.dict_keys())?,
            unenumerate(&x.dict_values())?,
        )),
        0 => Ok(KObj::list(
            x.items()
                .iter()
                .map(unenumerate)
                .collect::<Result<_, _>>()?,
        )),
        _ => {
            let v = values(x)?;
            if !x.is_atom() {
                v.set_attr(x.attr());
            }
            Ok(v)
        }
    }
}

//! Making q values. Each returns a new reference that the caller passes on to q.
use std::ffi::CString;

use super::{native, qtype, Owned, K};

pub fn long(j: i64) -> K {
    unsafe { native::kj(j) }
}
pub fn float(f: f64) -> K {
    unsafe { native::kf(f) }
}
pub fn boolean(b: bool) -> K {
    unsafe { native::kb(b as i32) }
}
/// The generic null `::` (what a function with nothing to return gives q). KX's recipe: `ka(101)`
/// then the value byte set to 0; q's memory pool does not zero new atoms, and a type-101 atom
/// with another value byte is some other unary primitive.
pub fn null() -> K {
    let x = unsafe { native::ka(101) };
    unsafe { (*x).value.byte = 0 };
    x
}
/// An interned symbol pointer (q never frees symbols).
pub fn intern(s: &str) -> *mut libc::c_char {
    let c = CString::new(s.replace('\0', " ")).unwrap_or_default();
    unsafe { native::ss(c.as_ptr() as *mut _) }
}
pub fn symbol(s: &str) -> K {
    unsafe { native::ks(intern(s)) }
}
pub fn symbols(v: &[&str]) -> K {
    let x = unsafe { native::ktn(qtype::SYMBOL_LIST as i32, v.len() as i64) };
    let d = unsafe { std::slice::from_raw_parts_mut(data::<*mut libc::c_char>(x), v.len()) };
    for (slot, s) in d.iter_mut().zip(v) {
        *slot = intern(s);
    }
    x
}
/// A q string (char vector).
pub fn string(s: &str) -> K {
    let x = unsafe { native::ktn(qtype::STRING as i32, s.len() as i64) };
    unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), data::<u8>(x), s.len()) };
    x
}
/// A one-item general list taking ownership of `x` (a handle's form, `enlist id`), made in place:
/// no Vec on the path every new object takes.
pub fn enlist(x: K) -> K {
    let l = unsafe { native::ktn(0, 1) };
    unsafe { *data::<K>(l) = x };
    l
}
/// A general list taking ownership of `items`.
pub fn list(items: Vec<K>) -> K {
    let x = unsafe { native::ktn(0, items.len() as i64) };
    let d = unsafe { std::slice::from_raw_parts_mut(data::<K>(x), items.len()) };
    d.copy_from_slice(&items);
    x
}
/// A dictionary of symbol keys to values (owned): a simple list when all values are atoms of
/// one type, as q makes `` `a`b!(1;2) ``, else a general list.
pub fn dict(keys: &[&str], values: Vec<K>) -> K {
    unsafe { native::xD(symbols(keys), uniform(values)) }
}

/// A list of `items` (owned): a simple list when all are atoms of one basic type (boolean, byte,
/// short, int, long, real, float, char, symbol), else a general list, as q itself would hold it.
pub fn uniform(items: Vec<K>) -> K {
    let t = items.first().map_or(0, |x| super::read::ktype(*x));
    let width = match t {
        -1 | -4 | -10 => 1,
        -5 => 2,
        -6 | -8 => 4,
        -7 | -9 | -11 => 8,
        _ => 0,
    };
    if width == 0 || items.iter().any(|x| super::read::ktype(*x) != t) {
        return list(items);
    }
    let v = unsafe { native::ktn(-t as i32, items.len() as i64) };
    for (i, x) in items.iter().enumerate() {
        unsafe {
            std::ptr::copy_nonoverlapping(
                (*x as *const u8).add(8),
                data::<u8>(v).add(i * width),
                width,
            );
            native::r0(*x);
        }
    }
    v
}
pub use super::read::data;
/// Each item of a simple list as an atom, in a new general list (a general list is returned
/// with a new reference as is).
pub fn explode(x: K) -> K {
    let t = super::read::ktype(x);
    if t == 0 {
        return unsafe { native::r1(x) };
    }
    if !(1..=19).contains(&t) {
        // an atom, dictionary, table or function: a one-item list of it (as `count` says 1;
        // its header's bytes are no item count)
        return list(vec![unsafe { native::r1(x) }]);
    }
    let n = super::read::len(x) as usize;
    let size = match t {
        1 | 4 | 10 => 1,
        5 => 2,
        6 | 8 | 13 | 14 | 17 | 18 | 19 => 4,
        _ => 8,
    };
    let items = (0..n)
        .map(|i| unsafe {
            let a = native::ka(-(t as i32));
            std::ptr::copy_nonoverlapping(data::<u8>(x).add(i * size), (a as *mut u8).add(8), size);
            a
        })
        .collect();
    list(items)
}
/// A general list of fallible items: on the first error, the items made so far are dropped
/// (owned: released), so a failing call leaks nothing.
pub fn try_list(items: impl IntoIterator<Item = anyhow::Result<K>>) -> anyhow::Result<K> {
    try_vec(items).map(list)
}
/// Fallible K values collected, each owned until all are made: on the first error those made
/// so far are released (a plain `collect::<Result<Vec<K>>>` of raw K's leaks them).
pub fn try_vec(items: impl IntoIterator<Item = anyhow::Result<K>>) -> anyhow::Result<Vec<K>> {
    let made = items
        .into_iter()
        .map(|r| r.map(Owned::new))
        .collect::<anyhow::Result<Vec<Owned>>>()?;
    Ok(made.into_iter().map(Owned::into_raw).collect())
}
/// A new reference to a borrowed value (an argument), to return it to q or put it in a list
/// that owns its items.
pub fn share(x: K) -> K {
    Owned::share(x).into_raw()
}
/// A general list of borrowed values, each with a new reference (the list owns them).
pub fn list_of(items: &[K]) -> K {
    list(items.iter().map(|x| Owned::share(*x).into_raw()).collect())
}
/// A dictionary of `keys` and `values` (both owned, taken by the dictionary: k.h `xD`).
pub fn dict_of(keys: K, values: K) -> K {
    unsafe { native::xD(keys, values) }
}
/// An empty dictionary, `()!()`.
pub fn empty_dict() -> K {
    dict_of(symbols(&[]), list(vec![]))
}
/// A table from its column dictionary (owned, taken: k.h `xT`).
pub fn table_of(d: K) -> K {
    unsafe { native::xT(d) }
}
/// An atom of q type `t` (negative) holding `bytes` (its value's width).
pub fn atom(t: i8, bytes: &[u8]) -> K {
    let a = unsafe { native::ka(t as i32) };
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), (a as *mut u8).add(8), bytes.len()) };
    a
}
/// A simple list of q type `t` with `n` items, uninitialised: the caller fills its `data`.
pub fn vector(t: i8, n: i64) -> K {
    unsafe { native::ktn(t as i32, n) }
}
/// A C function of `arity` arguments as a q function (k.h `dl`).
pub fn function(f: *const libc::c_void, arity: i64) -> K {
    unsafe { native::dl(f as *const _, arity) }
}
/// `x` through q's own serialisation (`-9!-8!x`, k.h `b9`/`d9`): the canonical form q would
/// hold. The error says which step failed.
pub fn reserialized(x: K) -> Result<K, Failed> {
    let b = unsafe { native::b9(-1, x) };
    if b.is_null() {
        return Err(Failed::Serialize);
    }
    let b = Owned::new(b);
    let z = unsafe { native::d9(b.k()) };
    if z.is_null() {
        return Err(Failed::Deserialize);
    }
    Ok(z)
}
/// Which step of `reserialized` failed.
pub enum Failed {
    Serialize,
    Deserialize,
}
/// A char atom.
pub fn char(c: u8) -> K {
    unsafe { native::kc(c as i32) }
}
/// A long vector.
pub fn floats(v: &[f64]) -> K {
    let k = unsafe { native::ktn(9, v.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut(data::<f64>(k), v.len()) }.copy_from_slice(v);
    k
}
pub fn longs(v: &[i64]) -> K {
    let x = unsafe { native::ktn(qtype::LONG_LIST as i32, v.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut(data::<i64>(x), v.len()) }.copy_from_slice(v);
    x
}
/// A boolean vector.
pub fn booleans(v: &[bool]) -> K {
    let x = unsafe { native::ktn(qtype::BOOL_LIST as i32, v.len() as i64) };
    let d = unsafe { std::slice::from_raw_parts_mut(data::<u8>(x), v.len()) };
    for (slot, b) in d.iter_mut().zip(v) {
        *slot = *b as u8;
    }
    x
}
/// A char vector from bytes.
pub fn chars(v: &[u8]) -> K {
    let x = unsafe { native::ktn(qtype::STRING as i32, v.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut(data::<u8>(x), v.len()) }.copy_from_slice(v);
    x
}
/// A table from column names and (owned) columns of equal length.
pub fn table(cols: &[&str], values: Vec<K>) -> K {
    unsafe { native::xT(dict(cols, values)) }
}

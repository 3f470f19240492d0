//! Reading q arguments. Arguments are borrowed: nothing here changes reference counts.
use super::{qtype, K};

/// Pointer to a vector's data (k.h: offset 16).
///
/// # Safety
/// `x` is a live q value (a list, for the pointer to mean its items).
pub unsafe fn data<T>(x: K) -> *mut T {
    (x as *mut u8).add(16) as *mut T
}

/// k.h header fields (kdbplus keeps some private): type at byte 2, length at offset 8.
pub fn ktype(x: K) -> i8 {
    unsafe { *(x as *const i8).add(2) }
}
/// q's `count`: a list's length, 1 for an atom or function, a table's rows. (The header's `n` is
/// only a count for lists: in an atom the same bytes are its value, in a table the dictionary's
/// pointer, so reading it raw made a symbol atom "count" like a pointer: a 700 TB allocation
/// that Rust aborts on, found by ktorch-fuzz.)
pub fn len(x: K) -> i64 {
    let n = |y: K| unsafe { *((y as *const u8).add(8) as *const i64) };
    match ktype(x) {
        t if !(0..100).contains(&t) => 1,
        98 => {
            // a table's header holds its column dictionary: rows are the first column's length
            let d = unsafe { *((x as *const u8).add(8) as *const K) };
            match dict_parts(d) {
                Some((_, v)) if ktype(v) == 0 && n(v) > 0 => len(unsafe { *data::<K>(v) }),
                _ => 0,
            }
        }
        _ => n(x),
    }
}
/// `::` or `()` (an empty general list): ktorch's "no argument".
pub fn is_nil(x: K) -> bool {
    let t = ktype(x);
    t == 101 || (t == 0 && len(x) == 0)
}
pub fn is_unset(x: K) -> bool {
    ktype(x) == 101
}
/// A symbol atom's text. `'static` is honest here: q interns symbols (`ss`) and never frees them.
pub fn symbol(x: K) -> Option<&'static str> {
    if ktype(x) != qtype::SYMBOL_ATOM {
        return None;
    }
    let p = unsafe { *((x as *const u8).add(8) as *const *const libc::c_char) };
    Some(cstr(p))
}
/// A long-like atom (boolean, byte, short, int, long) as i64.
pub fn long(x: K) -> Option<i64> {
    let v = unsafe { (x as *const u8).add(8) };
    unsafe {
        match ktype(x) {
            -1 | -4 => Some(*v as i64),
            -5 => Some(*(v as *const i16) as i64),
            -6 => Some(*(v as *const i32) as i64),
            -7 => Some(*(v as *const i64)),
            _ => None,
        }
    }
}
pub fn boolean(x: K) -> Option<bool> {
    if ktype(x) == -1 {
        long(x).map(|v| v != 0)
    } else {
        None
    }
}
/// Items of a general list (borrowed pointers); None for other types. The slice borrows `x`:
/// it lives no longer than the K it was read from (the call's argument, or an `Owned`).
pub fn items(x: &K) -> Option<&[K]> {
    let x = *x;
    if ktype(x) != 0 {
        return None;
    }
    Some(unsafe { std::slice::from_raw_parts(data::<K>(x), len(x) as usize) })
}
/// Symbols of a symbol vector (interned: `'static`, as in `symbol`).
pub fn symbols(x: K) -> Option<Vec<&'static str>> {
    if ktype(x) != qtype::SYMBOL_LIST {
        return None;
    }
    let p = unsafe { std::slice::from_raw_parts(data::<*const libc::c_char>(x), len(x) as usize) };
    Some(p.iter().map(|s| cstr(*s)).collect())
}
fn cstr(p: *const libc::c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    unsafe { std::ffi::CStr::from_ptr(p) }
        .to_str()
        .unwrap_or("")
}
/// A long, int or short vector as i64s (None for other types).
pub fn longs(x: K) -> Option<Vec<i64>> {
    let n = len(x) as usize;
    unsafe {
        match ktype(x) {
            7 => Some(std::slice::from_raw_parts(data::<i64>(x), n).to_vec()),
            6 => Some(
                std::slice::from_raw_parts(data::<i32>(x), n)
                    .iter()
                    .map(|v| *v as i64)
                    .collect(),
            ),
            5 => Some(
                std::slice::from_raw_parts(data::<i16>(x), n)
                    .iter()
                    .map(|v| *v as i64)
                    .collect(),
            ),
            _ => None,
        }
    }
}
/// A float vector as f64s (None for other types).
pub fn floats(x: K) -> Option<Vec<f64>> {
    (ktype(x) == 9)
        .then(|| unsafe { std::slice::from_raw_parts(data::<f64>(x), len(x) as usize).to_vec() })
}
/// Keys and values of a q dictionary (type 99), borrowed.
pub fn dict_parts(x: K) -> Option<(K, K)> {
    if ktype(x) != 99 {
        return None;
    }
    let kv = unsafe { std::slice::from_raw_parts(data::<K>(x), 2) };
    Some((kv[0], kv[1]))
}

/// A string (char vector or char atom) as text.
pub fn string(x: K) -> Option<String> {
    match ktype(x) {
        10 => Some(
            String::from_utf8_lossy(unsafe {
                std::slice::from_raw_parts(data::<u8>(x), len(x) as usize)
            })
            .into_owned(),
        ),
        -10 => Some((unsafe { *(x as *const u8).add(8) } as char).to_string()),
        _ => None,
    }
}

/// The text of a q error object (type -128: its message where a symbol's pointer would be);
/// None for any other value.
pub fn error_text(e: K) -> Option<String> {
    if ktype(e) != -128 {
        return None;
    }
    let p = unsafe { *((e as *const u8).add(8) as *const *const libc::c_char) };
    if p.is_null() {
        return Some("unknown q error".into());
    }
    Some(
        unsafe { std::ffi::CStr::from_ptr(p) }
            .to_string_lossy()
            .into_owned(),
    )
}
/// A real atom's value.
pub fn real(x: K) -> Option<f32> {
    (ktype(x) == -8).then(|| unsafe { *((x as *const u8).add(8) as *const f32) })
}
/// A float atom's value.
pub fn float(x: K) -> Option<f64> {
    (ktype(x) == -9).then(|| unsafe { *((x as *const u8).add(8) as *const f64) })
}
/// A table's column dictionary (k.h: a table's header holds it at offset 8), borrowed.
pub fn table_dict(x: K) -> Option<K> {
    (ktype(x) == 98).then(|| unsafe { *((x as *const u8).add(8) as *const K) })
}
/// A simple list's data bytes (`len` items of `width` bytes each, symbols' pointers included),
/// borrowed: `width` must be the width of the list's type (from.rs's `width`).
pub fn vector_bytes(x: &K, width: usize) -> &[u8] {
    unsafe { std::slice::from_raw_parts(data::<u8>(*x), len(*x) as usize * width) }
}

/// q's name of a type as ktorch words its conversion errors: `long scalar`, `float list`,
/// `enumeration`, `table`, ... (the empty list's type 0 is `list list`).
pub fn type_name(t: i8) -> String {
    const NAMES: [&str; 20] = [
        "list",
        "boolean",
        "guid",
        "",
        "byte",
        "short",
        "int",
        "long",
        "real",
        "float",
        "char",
        "symbol",
        "timestamp",
        "month",
        "date",
        "datetime",
        "timespan",
        "minute",
        "second",
        "time",
    ];
    match t {
        98 => "table".into(),
        99 => "dictionary".into(),
        100..=112 => "function".into(),
        -19..=-1 => format!("{} scalar", NAMES[t.unsigned_abs() as usize]),
        20..=76 => "enumeration".into(),
        0..=19 => format!("{} list", NAMES[t as usize]),
        _ => format!("type {t}h"),
    }
}

/// What q data `x` is (`long scalar`, `float list`, `general list`, `null`, ...).
pub fn describe(x: K) -> String {
    let t = ktype(x);
    let name = match t.unsigned_abs() {
        0 => return "general list".to_string(),
        1 => "boolean",
        2 => "guid",
        4 => "byte",
        5 => "short",
        6 => "int",
        7 => "long",
        8 => "real",
        9 => "float",
        10 => "char",
        11 => "symbol",
        12 => "timestamp",
        13 => "month",
        14 => "date",
        15 => "datetime",
        16 => "timespan",
        17 => "minute",
        18 => "second",
        19 => "time",
        98 => return "table".to_string(),
        99 => return "dictionary".to_string(),
        101 if t == 101 => return "null".to_string(),
        _ => return format!("type {t}h"),
    };
    format!("{name} {}", if t < 0 { "scalar" } else { "list" })
}

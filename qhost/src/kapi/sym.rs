//! Symbol interning (k.h `ss`/`sn`): one NUL-terminated copy per distinct text, never freed, so
//! symbols compare by pointer exactly as in q.

use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::Mutex;

use once_cell::sync::Lazy;

struct Table(HashMap<Vec<u8>, usize>);

static TABLE: Lazy<Mutex<Table>> = Lazy::new(|| Mutex::new(Table(HashMap::new())));

/// The interned pointer for `text` (which must not contain NUL; text after one is dropped).
pub fn intern(text: &[u8]) -> *const libc::c_char {
    let text = match text.iter().position(|&b| b == 0) {
        Some(i) => &text[..i],
        None => text,
    };
    let mut t = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&p) = t.0.get(text) {
        return p as *const libc::c_char;
    }
    let mut owned = text.to_vec();
    owned.push(0);
    let p = Box::leak(owned.into_boxed_slice()).as_ptr() as usize;
    t.0.insert(text.to_vec(), p);
    p as *const libc::c_char
}

/// Text of an interned (or any NUL-terminated) symbol pointer; "" for null.
// Its callers pass symbols of q values (k.h's contract: interned by `ss`, or NUL-terminated C
// strings an extension hands over), as every k.h function trusts the K it is given.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn text(p: *const libc::c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // Interned symbols live for the whole process.
    let c = unsafe { CStr::from_ptr(p) };
    std::str::from_utf8(c.to_bytes()).unwrap_or("")
}

/// How many symbols are interned, and the bytes their texts take (each with its NUL): what
/// q reports as `.Q.w[]`'s syms and symw (q's own symw also counts its table's overhead).
pub fn stats() -> (usize, usize) {
    let t = TABLE.lock().unwrap_or_else(|e| e.into_inner());
    (t.0.len(), t.0.keys().map(|k| k.len() + 1).sum())
}

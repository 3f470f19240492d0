//! Calling back into q (k.h's `k`, `dot`, `ee`): a q function by name, or a function value
//! applied to owned arguments. The result is owned; None where q gave no result (a null K).
//! A q error comes back as an error object (`read::error_text` gives its text).
use std::ffi::CStr;

use super::{native, Owned, K};

/// Apply the q function value `f` (borrowed) to `args` (owned), catching a q error (`ee`).
pub fn apply(f: K, args: Vec<Owned>) -> Option<Owned> {
    let args = Owned::new(super::make::list(
        args.into_iter().map(Owned::into_raw).collect(),
    ));
    // SAFETY: `f` and the argument list are live q values; `dot` borrows both and returns a new
    // reference (or an error object) that `ee` passes on.
    owned(unsafe { native::ee(native::dot(f, args.k())) })
}

/// Call the q function named `name` with `args` (owned: `k` takes each over; at most eight, q's
/// limit on a function's arguments).
pub fn named(name: &CStr, args: Vec<Owned>) -> Option<Owned> {
    let a: Vec<K> = args.into_iter().map(Owned::into_raw).collect();
    let end = std::ptr::null_mut::<std::ffi::c_void>();
    let n = name.as_ptr();
    // SAFETY: `name` is nul-terminated and outlives the call; each argument is a reference
    // that `k` takes over, and the arguments end with the null pointer k.h requires.
    let r = unsafe {
        match a.as_slice() {
            [] => native::k(0, n, end),
            [x] => native::k(0, n, *x, end),
            [x, y] => native::k(0, n, *x, *y, end),
            [x, y, z] => native::k(0, n, *x, *y, *z, end),
            [x, y, z, u] => native::k(0, n, *x, *y, *z, *u, end),
            [x, y, z, u, v] => native::k(0, n, *x, *y, *z, *u, *v, end),
            [x, y, z, u, v, w] => native::k(0, n, *x, *y, *z, *u, *v, *w, end),
            [x, y, z, u, v, w, a] => native::k(0, n, *x, *y, *z, *u, *v, *w, *a, end),
            [x, y, z, u, v, w, a, b] => native::k(0, n, *x, *y, *z, *u, *v, *w, *a, *b, end),
            _ => {
                // more than q allows: the arguments are released, the call is not made
                a.into_iter().for_each(|x| drop(Owned::new(x)));
                return None;
            }
        }
    };
    owned(r)
}

fn owned(r: K) -> Option<Owned> {
    (!r.is_null()).then(|| Owned::new(r))
}

//! Calling back into q (k.h's `k`, `dot`, `ee`): a q function by name, or a function value
//! applied to owned arguments. The result is owned; None where q gave no result (a null K).
//! A q error comes back as an error object (`read::error_text` gives its text).
use std::ffi::CStr;

use super::{native, Owned, K};

/// Apply the q function value `f` (borrowed) to `args` (owned), catching a q error (`ee`).
pub fn apply(f: K, args: Vec<Owned>) -> Option<Owned> {
    let args = Owned::new(super::make::list(args.into_iter().map(Owned::into_raw).collect()));
    // SAFETY: `f` and the argument list are live q values; `dot` borrows both and returns a new
    // reference (or an error object) that `ee` passes on.
    owned(unsafe { native::ee(native::dot(f, args.k())) })
}

/// Call the q function named `name` with `args` (owned, at most three: `k` takes each over).
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
            _ => panic!("k: at most three arguments"),
        }
    };
    owned(r)
}

fn owned(r: K) -> Option<Owned> {
    (!r.is_null()).then(|| Owned::new(r))
}

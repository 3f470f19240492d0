//! An owning q value: one reference held by Rust. Dropping it releases the reference (`r0`),
//! cloning takes another (`r1`), and `into_raw` hands the reference on (to q as a result, or
//! into a list that takes ownership). Values made and dropped on an error path, on a panic
//! (unwinding runs `Drop`) or at the end of a scope are released by construction, where manual
//! `r0` calls leaked on every early return that missed one.
use super::{native, read, K};

pub struct Owned(K);

impl Owned {
    /// Own `made`, a new reference: what every `make::` function and k.h constructor returns,
    /// and what q's `k`/`dot` calls give back. (A borrowed argument is shared with `share`.)
    pub fn new(made: K) -> Owned {
        Owned(made)
    }
    /// A new reference to a value that is only borrowed (an argument of the call).
    pub fn share(x: K) -> Owned {
        // SAFETY: `x` is a live q value (the k layer's contract for every K it is handed);
        // r1 only increments its reference count.
        Owned(unsafe { native::r1(x) })
    }
    /// The value, borrowed for as long as this owner lives.
    pub fn k(&self) -> K {
        self.0
    }
    /// Hand the reference on (to q as the call's result, or into a list that owns its items).
    pub fn into_raw(self) -> K {
        let k = self.0;
        std::mem::forget(self);
        k
    }
    /// Items of a general list, borrowed from this owner.
    pub fn items(&self) -> Option<&[K]> {
        read::items(&self.0)
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: `self.0` is a reference this owner holds (taken in `new` or `share`) and
            // gives up exactly once.
            unsafe { native::r0(self.0) };
        }
    }
}

impl Clone for Owned {
    fn clone(&self) -> Owned {
        Owned::share(self.0)
    }
}

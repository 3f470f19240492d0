//! What a function object (K types 100..112) holds. Owned by the evaluator; `kapi` only needs
//! the `Dl` variant (functions from shared libraries, made by `dl` and `2:`).
pub enum Func {
    /// A C function from a shared library, type 112: called with `n` K arguments.
    Dl { ptr: *const libc::c_void, n: i64 },
}

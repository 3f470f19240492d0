//! The value plumbing every verb family shares lives in `q::values`, below the verbs (the C API
//! and the console form use it too); the families import it from here as they always have.
pub use crate::q::values::*;

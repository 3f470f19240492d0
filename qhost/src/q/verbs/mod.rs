//! Primitive verbs and keywords on data: atomic arithmetic with q's conformability, structural
//! verbs, casts, searching, sorting, string keywords.
use super::{err, QResult};
use crate::kapi::KObj;

/// Apply primitive `op` (a verb like "+" or a keyword like "count") to its arguments.
pub fn apply_prim(_op: &str, _args: Vec<KObj>) -> QResult {
    Err(err("nyi"))
}

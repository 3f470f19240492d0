//! The q language subset: lexing, parsing, evaluation, verbs, adverbs and display.
pub mod display;
pub mod error;
pub mod func;
pub mod verbs;

pub use error::{err, QErr, QResult};

use crate::kapi::KObj;

/// Evaluate q source text in the global context (k(0,"text") and `value"text"`).
pub fn eval_text(_src: &str) -> QResult {
    Err(err("nyi"))
}

/// Apply a function (or index data) with arguments: `f . args` (k(0,"f",args..), dot).
pub fn apply(_f: &KObj, _args: Vec<KObj>) -> QResult {
    Err(err("nyi"))
}

//! The q language subset: lexing, parsing, evaluation, verbs, adverbs and display.
pub mod adverbs;
pub mod amend;
pub mod binfile;
pub mod builtins;
pub mod constants;
pub mod display;
pub mod enums;
pub mod error;
pub mod eval;
pub mod funsql;
pub mod globals;
pub mod interrupt;
pub mod ipc;
pub mod lexer;
pub mod literal;
pub mod memstats;
pub mod parser;
pub mod peach;
pub mod reserved;
pub mod serve;
pub mod session;
pub mod system;
pub mod textfile;
pub mod values;
pub mod verbs;

pub use error::{err, QErr, QResult};

/// Evaluate q source text in the global context (k(0,"text") and `value"text"`).
pub use eval::eval_text;

/// Apply a function (or index data) with arguments: `f . args` (k(0,"f",args..), dot).
pub use eval::apply;

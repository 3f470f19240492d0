//! q errors: a signalled error carries q's name for it ('type 'length 'rank 'domain 'value 'nyi,
//! or any text from `'x` or an extension's krr). Here, beside the K objects, so that the C API
//! and the interpreter share it with no import going up (q::error re-exports it).
use crate::kapi::KObj;

#[derive(Clone, Debug, PartialEq)]
pub struct QErr(pub String);

pub type QResult = Result<KObj, QErr>;

impl QErr {
    pub fn new(s: impl Into<String>) -> QErr {
        QErr(s.into())
    }
}

impl std::fmt::Display for QErr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}", self.0)
    }
}

/// Shorthand: `Err(err("type"))`.
pub fn err(s: &str) -> QErr {
    QErr(s.to_string())
}

/// q's `exit n` and `\\`: unwind the interpreter's stack first, so that every value a running
/// function holds is released before the leak check; `main` catches this and calls `exit`
/// (`resume_unwind` runs no panic hook, so nothing is printed). Here so that the C API knows
/// it in a callback's unwinding without the interpreter.
pub struct ExitRequest(pub i32);

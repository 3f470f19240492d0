//! What the layers below the evaluator ask of it: evaluate text, apply a function, compile an
//! expression to run again (`\t`), and leave the process. The C API (`k`, `dot`, IPC's lambdas),
//! the iterators, amend, qSQL, peach and the main loop call these; the evaluator installs them
//! at start-up (`q::eval::install`), so that nothing below it imports it (issue 32's one-way
//! layers, as src/k/hooks.rs does for ktorch).
use std::sync::OnceLock;

use super::error::{err, QErr, QResult};
use super::KObj;

/// An expression parsed once, to evaluate again and again (`\t:n expr`).
pub type Compiled = Box<dyn Fn() -> QResult>;

pub struct Hooks {
    /// Evaluate q text in the global context (`k(0,"text")`, `value"text"`, a script's line).
    pub eval_text: fn(&str) -> QResult,
    /// Apply a function or index data with arguments (`f . args`).
    pub apply: fn(&KObj, Vec<KObj>) -> QResult,
    /// Parse an expression once for repeated evaluation.
    pub compile: fn(&str) -> Result<Compiled, QErr>,
    /// Flush, drop every global, run the leak check when asked, and leave with the code.
    pub exit: fn(i32) -> !,
}

static HOOKS: OnceLock<Hooks> = OnceLock::new();

/// Before `install` (a test that uses only the C API): no interpreter to call.
static NONE: Hooks = Hooks {
    eval_text: |_| Err(err("nyi")),
    apply: |_, _| Err(err("nyi")),
    compile: |_| Err(err("nyi")),
    exit: |c| std::process::exit(c),
};

/// Install the interpreter's entry points (once per process; later calls change nothing).
pub fn install(h: Hooks) {
    let _ = HOOKS.set(h);
}

fn hooks() -> &'static Hooks {
    HOOKS.get().unwrap_or(&NONE)
}

/// Evaluate q text at top level.
pub fn eval_text(text: &str) -> QResult {
    (hooks().eval_text)(text)
}

/// Apply f to arguments (`f . args`).
#[inline]
pub fn apply(f: &KObj, args: Vec<KObj>) -> QResult {
    (hooks().apply)(f, args)
}

/// An expression parsed once (`\t:n`).
pub fn compile(text: &str) -> Result<Compiled, QErr> {
    (hooks().compile)(text)
}

/// Leave the process with `code` (after `exit`/`\\` unwound the interpreter).
pub fn exit(code: i32) -> ! {
    (hooks().exit)(code)
}

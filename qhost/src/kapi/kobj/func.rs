//! What a function object (K types 100..112) holds: boxed at offset 8, dropped with the object.
//! Here with the K objects, so that the C API (`dl`, `2:`, `r0`) and the console form know
//! function objects without the interpreter: a lambda's code is an opaque payload that the
//! parser makes and the evaluator runs (issue 32's one-way layers).
// Arc: lambdas are shared with peach's secondary threads
use std::any::Any;
use std::sync::Arc as Rc;

use super::KObj;

/// Type codes of function objects, as q numbers them.
pub const T_LAMBDA: i8 = 100;
pub const T_UNARY: i8 = 101;
pub const T_BINARY: i8 = 102;
pub const T_PROJ: i8 = 104;
pub const T_COMP: i8 = 105;
pub const T_DL: i8 = 112;

/// A lambda: its text (what q displays), its parameters, and the code the evaluator runs
/// (made by the parser, opaque below it).
#[derive(Debug)]
pub struct Lambda {
    pub text: String,
    pub params: Vec<String>,
    pub code: Box<dyn Any>,
}

pub enum Func {
    /// A C function from a shared library, type 112: called with `n` K arguments.
    Dl { ptr: *const libc::c_void, n: i64 },
    /// `{..}`, type 100.
    Lambda(Rc<Lambda>),
    /// A primitive verb (`+`, type 102) or keyword (`count`, type 101) by its q name.
    Prim { op: String },
    /// `f[a;]`, type 104: given arguments, None where elided.
    Proj { f: KObj, args: Vec<Option<KObj>> },
    /// `'[f;g]` / `f g@`, type 105: apply the last to the arguments, then the rest in turn.
    Comp { fs: Vec<KObj> },
    /// `f'` `f/` `f\` `f':` `f/:` `f\:`, types 106..111.
    Derived { f: KObj, adv: String },
}

/// The K type of a derived function by its adverb.
pub fn adverb_type(adv: &str) -> i8 {
    match adv {
        "'" => 106,
        "/" => 107,
        "\\" => 108,
        "':" => 109,
        "/:" => 110,
        _ => 111,
    }
}

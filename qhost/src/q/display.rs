//! How q prints values: the console form (`show`, REPL, `0N!`, `.Q.s`) and `string`.
use crate::kapi::KObj;

/// The console text of `x` as q shows it (one or more lines, each ending in a newline).
pub fn show_text(_x: &KObj) -> String {
    String::from("nyi\n")
}

//! The k ABI in one place: kdb+ types (from kdbplus, k.h layout), making q values (`make`),
//! reading q arguments (`read`), the one extraction trait of
//! typed arguments (`from`: `FromQ`, argument lists read from the end), typed q functions (`qfn`:
//! the `qfn!` macro, `IntoQ`), owned values (`Owned`), calls back into q (`call`), which thread
//! may call q (`thread`), the guard every exported function runs inside (`guard`), and the log and
//! settings it reaches through functions installed at load (`hooks`).
// The k ABI layer: every unsafe block here reads or writes a q value within the layout k.h
// gives its type (checked first), or calls k.h with values it owns; every K this layer is handed
// is a live q value (q's contract for arguments, and for values made here). That invariant,
// stated once, stands for the SAFETY comment the rest of the crate needs on each block.
#![allow(clippy::undocumented_unsafe_blocks)]
// K is k.h's pointer to a q value, so every function here that takes one "might dereference a
// raw pointer": the invariant above (a live q value) is what makes that sound. Marking them all
// `unsafe` would hand the invariant to every caller instead of stating it once, here.
#![allow(clippy::not_unsafe_ptr_arg_deref)]
pub mod call;
pub mod data;
pub mod from;
pub mod guard;
pub mod hooks;
pub mod interrupt;
pub mod make;
pub mod nested;
mod owned;
pub mod qfn;
pub mod read;
pub mod thread;

pub use kdbplus::api::native;
pub use kdbplus::api::K;
pub use kdbplus::qtype;
pub use owned::Owned;

/// What a q-callable function body returns: a new K reference, or an error that the guard turns
/// into a q error naming the function.
pub type KResult = anyhow::Result<K>;

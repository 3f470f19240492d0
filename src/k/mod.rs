//! The k ABI in one place: kdb+ types (from kdbplus, k.h layout), making q values (`make`),
//! reading q arguments (`read`), which thread may call q (`thread`), the guard every exported function runs inside (`guard`), and the log and settings it reaches
//! through functions installed at load (`hooks`).
pub mod guard;
pub mod hooks;
pub mod interrupt;
pub mod make;
pub mod read;
pub mod thread;

pub use kdbplus::api::native;
pub use kdbplus::api::K;
pub use kdbplus::qtype;

/// What a q-callable function body returns: a new K reference, or an error that the guard turns
/// into a q error naming the function.
pub type KResult = anyhow::Result<K>;

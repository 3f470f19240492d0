//! The kdb+ C API as q offers it to a shared library: the K object and its memory (`kobj`),
//! symbol interning (`sym`), the exported k.h functions (`exports`, with the variadic `knk`/`k`
//! in `shim.c`), and loading libraries with `2:` (`dynload`).
pub mod dynload;
pub mod error;
pub mod exports;
pub mod hooks;
pub mod kobj;
pub mod strict;
pub mod sym;
pub mod threads;

pub use kobj::*;

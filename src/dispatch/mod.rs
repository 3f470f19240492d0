//! The q functions that take objects of several classes (a tensor or a model, a module or an
//! optimizer or a model, any object): each reads the class of its argument and calls down into
//! the domain that owns it. This layer is the only one that knows every domain; the domains
//! below it never call upward (docs/architecture.md).
//!
//! Files: `data` (`batch`, `restore`, `shuffle`), `train` (`backward`, `step`), `forward`
//! (`forward`, `nforward`, `eforward`, `evaluate`, `kforward`), `state` (`state`, `module`, `opt`),
//! `info` (`str`, `ptr`, `ref`, `dtype`, `device`, `ktype`, `gradflag`, `parmtypes`), `help`
//! (`help`, `options`), `counts` (`size`, `elements`, `bytes`), `objects` (`free`, `obj`,
//! `tensorcount`, `class`, `mapped`, `resolve`). Each is a typed q function (`qfn!`) whose kind
//! says the classes it takes: `route` has the kinds they share ([`route::Routed`]: the classes
//! answered here, and the domain function's own kind for the rest).
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod counts;
pub mod data;
pub mod forward;
pub mod help;
pub mod info;
pub mod objects;
pub mod route;
pub mod state;
pub mod train;

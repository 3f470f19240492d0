//! ktorch: PyTorch for q/kdb+. q loads this library with `2:` and gets every function from the
//! `fns` dictionary (see `fns.rs`, the one table of q names).
//!
//! Layout: `k` is the kdb+ ABI (the only caller of k.h: owned values, values in and out, calls
//! into q, the guard), `cxx` the C++ shim's boundary (every entry point of src/cxx/*.cpp, its
//! last error, `check`), `fns` the table of q names, and one
//! module per domain: `session` (version/config/setting), `registry` (the handles) and
//! `objects` (free/obj), `tensor`, `math`, `device`, `nn` (modules), `loss`, `io` (images and files).
pub mod cxx;
pub mod device;
pub mod exports;
pub mod dist;
pub mod fns;
pub mod io;
pub mod k;
pub mod loss;
pub mod math;
pub mod model;
pub mod nn;
pub mod optim;
pub mod objects;
pub mod registry;
pub mod session;
pub mod tensor;

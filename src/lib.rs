//! ktorch: PyTorch for q/kdb+. q loads this library with `2:` and gets every function from the
//! `fns` dictionary (see `fns.rs`, the one table of q names).
//!
//! Layout: `k` is the kdb+ ABI (values in and out, the guard), `fns` the table of q names, and one
//! module per domain: `session` (version/config/setting), `registry` (the handles) and
//! `objects` (free/obj), `tensor`, `math`, `device`, `nn` (modules), `loss`, `io` (images and files).
pub mod device;
pub mod dispatch;
pub mod dist;
pub mod exports;
pub mod fns;
pub mod io;
pub mod k;
pub mod loss;
pub mod math;
pub mod model;
pub mod nn;
pub mod optim;
pub mod registry;
pub mod session;
pub mod tensor;

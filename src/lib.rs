//! ktorch: PyTorch for q/kdb+. q loads this library with `2:` and gets every function from the
//! `fns` dictionary (see `fns.rs`, the one table of q names).
//!
//! Layout, in layer order (each module imports only those before it: docs/architecture.md,
//! checked by tests/layers.rs): `k` the kdb+ ABI (the only caller of k.h: owned values, values in
//! and out, calls into q, the guard), `cxx` the C++ shim's boundary (every entry point of
//! src/cxx/*.cpp, its last error, `check`), `registry` (the handles), `session`
//! (version/config/setting/log), then one module per domain: `device`, `tensor`, `dist`
//! (collectives), `math`, `nn` (modules), `loss`, `optim`, `io` (images and files), `model`;
//! `dispatch` the q functions that take several classes (free/obj among them), `fns` the table of
//! q names, `exports` the C entry points.
pub mod cxx;
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

//! The session: versions, libtorch's build configuration, session-wide settings, the log.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k; the one
// `unsafe impl Send` (log/route.rs) is allowed where it stands
#![deny(unsafe_code)]
pub mod config;
pub mod log;
pub mod precision;
pub mod profile;
pub mod seed;
pub mod setting;
pub mod version;

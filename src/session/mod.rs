//! The session: versions, libtorch's build configuration, and session-wide settings.
pub mod config;
pub mod ffi;
pub mod seed;
pub mod setting;
pub mod version;

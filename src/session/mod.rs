//! The session: versions, libtorch's build configuration, and session-wide settings.
pub mod config;
pub mod seed;
pub mod ffi;
pub mod setting;
pub mod version;

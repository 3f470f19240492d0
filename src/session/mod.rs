//! The session: versions, libtorch's build configuration, session-wide settings, the log.
pub mod config;
pub mod log;
pub mod precision;
pub mod profile;
pub mod seed;
pub mod setting;
pub mod version;

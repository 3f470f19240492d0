//! qhost: a q-compatible host for kdb+ shared libraries (see README.md in this folder).
pub mod kapi;
pub mod q;

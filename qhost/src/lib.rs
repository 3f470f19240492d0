//! qhost: a q-compatible host for kdb+ shared libraries (see README.md in this folder).
// Lambdas and qSQL nodes are in `Arc`s (aliased `Rc` in parser/func/eval) so that peach's
// secondary threads can share them; peach's own invariant (the main thread waits, reference
// counts are atomic meanwhile) makes that sound although the nodes are not Send/Sync.
#![allow(clippy::arc_with_non_send_sync)]
pub mod kapi;
pub mod q;

//! Helpers shared by the integration tests.

/// The package folder of the checkout being tested. Cargo sets CARGO_MANIFEST_DIR when it runs a
/// test, so read it then: the compile-time value goes stale when a shared target dir (CI's cache)
/// holds a binary built from a clone at another path.
pub fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
}

//! Helpers shared by the integration tests.

/// The package folder of the checkout being tested. Cargo sets CARGO_MANIFEST_DIR when it runs a
/// test, so read it then: the compile-time value goes stale when a shared target dir (CI's cache)
/// holds a binary built from a clone at another path.
#[allow(dead_code)] // not every test crate that shares this module uses each helper
pub fn manifest_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
}

/// The folder of the release binaries (qhost, ktorch.so): the test executable lives in deps/
/// below it.
#[allow(dead_code)] // not every test crate that shares this module uses each helper
pub fn bin_dir() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// The virtualenv's python, as the Makefile sets it up ($VIRTUAL_ENV), else its default place.
#[allow(dead_code)] // as bin_dir
pub fn python() -> std::path::PathBuf {
    match std::env::var_os("VIRTUAL_ENV") {
        Some(v) => std::path::PathBuf::from(v).join("bin/python"),
        None => std::path::PathBuf::from(std::env::var("HOME").unwrap())
            .join(".cache/ktorch/torch-2.11.0/bin/python"),
    }
}

/// Call q function `name` of ktorch's table with one argument, as q would: the exported
/// function, its answer (or q error) read through qhost's k.h.
#[allow(dead_code)] // as bin_dir
pub fn call(name: &str, x: &qhost::kapi::KObj) -> Result<qhost::kapi::KObj, String> {
    let e = ktorch::fns::TABLE
        .iter()
        .find(|e| e.name == name)
        .expect("function in fns");
    let f = e.one().expect("one argument");
    let r = f(x.as_ptr() as kdbplus::api::K);
    qhost::kapi::exports::result_of(r as qhost::kapi::K).map_err(|e| e.0)
}

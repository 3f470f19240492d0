//! `config`: libtorch's build configuration and parallel settings, as ktorch: `config()` returns
//! the lines as a list of strings, `config[]` prints them to stderr.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use anyhow::anyhow;

use crate::k::{make, read, KResult, K};

/// The text of at::show_config() followed by at::get_parallel_info().
pub fn text() -> anyhow::Result<String> {
    let cfg =
        crate::cxx::session::show_config().ok_or_else(|| anyhow!("libtorch show_config failed"))?;
    let par = crate::cxx::session::parallel_info()
        .ok_or_else(|| anyhow!("libtorch parallel info failed"))?;
    Ok(format!("{cfg}{par}"))
}

pub fn config(x: K) -> KResult {
    let t = text()?;
    if read::is_unset(x) {
        eprint!("{t}");
        return Ok(make::null());
    }
    if !read::is_nil(x) {
        anyhow::bail!("expected () for a list of strings or :: to print");
    }
    Ok(make::list(t.lines().map(make::string).collect()))
}

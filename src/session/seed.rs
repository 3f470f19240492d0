//! `seed n`: seed libtorch's random generators (CPU and every CUDA device), as torch.manual_seed.
use anyhow::anyhow;

use crate::k::{make, read, KResult, K};

pub fn seed(x: K) -> KResult {
    let n = read::long(x)
        .filter(|_| read::ktype(x) != -1)
        .ok_or_else(|| anyhow!("expects a long seed"))?;
    // not tch::manual_seed: its C++ exception (a broken CUDA context) is not caught
    if unsafe { ktorch_manual_seed(n) } != 0 {
        return Err(super::ffi::shim_error());
    }
    Ok(make::null())
}

extern "C" {
    fn ktorch_manual_seed(seed: i64) -> libc::c_int;
}

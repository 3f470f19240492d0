//! `seed n`: seed libtorch's random generators (CPU and every CUDA device), as torch.manual_seed.
use anyhow::anyhow;

use crate::cxx::ktorch_manual_seed;
use crate::k::{make, read, KResult, K};

pub fn seed(x: K) -> KResult {
    let n = read::long(x)
        .filter(|_| read::ktype(x) != -1)
        .ok_or_else(|| anyhow!("expects a long seed"))?;
    // not tch::manual_seed: its C++ exception (a broken CUDA context) is not caught
    // SAFETY: a src/cxx entry point on plain values; it catches every C++ exception (attempt.h).
    crate::cxx::check(unsafe { ktorch_manual_seed(n) })?;
    Ok(make::null())
}

//! `seed n`: seed libtorch's random generators (CPU and every CUDA device), as torch.manual_seed.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use anyhow::anyhow;

use crate::k::from::{FromQ, Whole};
use crate::k::{make, read, KResult, K};

pub fn seed(x: K) -> KResult {
    let n = Whole::of(x)
        .map(|w| w.0)
        .filter(|_| read::ktype(x) != -1)
        .ok_or_else(|| anyhow!("expected a long seed"))?;
    // not tch::manual_seed: its C++ exception (a broken CUDA context) is not caught
    crate::cxx::session::manual_seed(n)?;
    Ok(make::null())
}

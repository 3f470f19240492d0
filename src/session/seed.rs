//! `seed n`: seed libtorch's random generators (CPU and every CUDA device), as torch.manual_seed.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use anyhow::{anyhow, Result};

use crate::k::from::{FromQ, Whole};
use crate::k::{read, K};

/// A seed: any integral atom but a boolean, else ktorch's `expected a long seed`.
pub struct Seed(pub i64);

impl FromQ for Seed {
    const TYPE: &'static str = "a long seed";
    fn read(x: K) -> Result<Option<Seed>> {
        Ok(Whole::of(x)
            .filter(|_| read::ktype(x) != -1)
            .map(|w| Seed(w.0)))
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected a long seed")
    }
}

crate::qfn! {
    pub fn seed(n: Seed) -> Result<()> {
        // not tch::manual_seed: its C++ exception (a broken CUDA context) is not caught
        crate::cxx::session::manual_seed(n.0)
    }
}

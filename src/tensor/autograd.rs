//! Gradients: `backward x` runs backpropagation from a scalar tensor; `grad x` returns the
//! gradient accumulated in a leaf tensor as q data (null when there is none yet).
use anyhow::bail;

use super::convert;
use crate::k::{make, KResult, K};
use crate::registry;

pub fn backward(x: K) -> KResult {
    let t = registry::tensor(x)?;
    if !t.requires_grad() {
        bail!("tensor does not require gradients");
    }
    t.f_backward()?;
    Ok(make::null())
}

pub fn grad(x: K) -> KResult {
    let t = registry::tensor(x)?;
    let g = t.f_grad()?;
    if !g.defined() {
        return Ok(make::null());
    }
    convert::to_q(&g)
}

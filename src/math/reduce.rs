//! Reductions: `mean x`.
use crate::k::{KResult, K};
use crate::tensor::{arg, result};

pub fn mean(x: K) -> KResult {
    let (t, h) = arg(x)?;
    let t = if t.is_floating_point() || t.is_complex() { t } else { t.f_to_kind(tch::Kind::Float)? };
    result(t.f_mean(None)?, h)
}

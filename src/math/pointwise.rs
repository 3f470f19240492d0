//! Pointwise binary math: `add(x;y)`, `mul(x;y)`, `Div(x;y)` (ktorch capitalises q keywords), broadcasting as
//! PyTorch does.
use tch::Tensor;

use crate::k::{KResult, K};
use crate::tensor::{arg, args, result};

/// Apply binary `f` to the two arguments of `(x;y)`.
fn binary(x: K, f: fn(&Tensor, &Tensor) -> Result<Tensor, tch::TchError>) -> KResult {
    let [a, b] = args(x, 2..=2, "(x;y)")? else { unreachable!() };
    let (a, ha) = arg(*a)?;
    let (b, hb) = arg(*b)?;
    result(f(&a, &b)?, ha || hb)
}

pub fn add(x: K) -> KResult {
    binary(x, |a, b| a.f_add(b))
}
pub fn mul(x: K) -> KResult {
    binary(x, |a, b| a.f_mul(b))
}
pub fn div(x: K) -> KResult {
    binary(x, |a, b| a.f_div(b))
}

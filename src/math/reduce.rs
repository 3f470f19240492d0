//! Reductions over all elements: `mean x`, `Sum x` (ktorch capitalises q keywords).
use tch::{Kind, Tensor};

use crate::k::{KResult, K};
use crate::tensor::{arg, result};

fn reduce(x: K, f: fn(&Tensor) -> Result<Tensor, tch::TchError>) -> KResult {
    let (t, h) = arg(x)?;
    result(f(&t)?, h)
}

pub fn mean(x: K) -> KResult {
    // libtorch averages floating point only; integers are averaged as float, as ktorch does.
    reduce(x, |t| if t.is_floating_point() || t.is_complex() { t.f_mean(None) } else { t.f_mean(Kind::Float) })
}
pub fn sum(x: K) -> KResult {
    reduce(x, |t| t.f_sum(None))
}

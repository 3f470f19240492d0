//! Pointwise binary math: `mul(x;y)`.
use crate::k::{KResult, K};
use crate::tensor::{arg, args, result};

pub fn mul(x: K) -> KResult {
    let [a, b] = args(x, 2..=2, "(x;y)")? else { unreachable!() };
    let (a, ha) = arg(*a)?;
    let (b, hb) = arg(*b)?;
    result(a.f_mul(&b)?, ha || hb)
}

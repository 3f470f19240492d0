//! Matrix products: `matmul(x;y)` with PyTorch's broadcasting rules.
use crate::k::{KResult, K};
use crate::tensor::{arg, args, result};

pub fn matmul(x: K) -> KResult {
    let [a, b] = args(x, 2..=2, "(x;y)")? else { unreachable!() };
    let (a, ha) = arg(*a)?;
    let (b, hb) = arg(*b)?;
    result(a.f_matmul(&b)?, ha || hb)
}

//! `windows(input;size)`, `windows(input;size;step)`: sequence windows for recurrent and attention
//! models (issue 33), every `size` consecutive rows of `input` (its first dimension, time order)
//! starting each `step` rows (default 1), as one tensor of windows by `size` by the rest of
//! `input`'s shape: PyTorch's `input.unfold(0,size,step).movedim(-1,1)`, a view of `input`'s
//! storage with no second copy. Given a tensor handle, a handle to the view; given q data, q data
//! (docs/tensorop.md). Windows of a table sorted by sym then time that stay within one sym are
//! those starting where the sym `size-1` rows on is the same: `where(neg[n-1]_s)=(n-1)_s`
//! (docs/tables.md).
use anyhow::bail;

use super::{arg, result};
use crate::k::from::{self, FromQ};
use crate::k::{KResult, K};

pub fn windows(x: K) -> KResult {
    let usage = "(input;size) or (input;size;step)";
    let v = from::items(&x, 2..=3, usage)?;
    let Some(n) = i64::of(v[1]) else {
        bail!("expected {usage} with size a long")
    };
    let step = match v.get(2) {
        Some(s) => match i64::of(*s) {
            Some(s) => s,
            None => bail!("expected {usage} with step a long"),
        },
        None => 1,
    };
    if n < 1 || step < 1 {
        bail!("size and step must be positive, given {n} and {step}");
    }
    let (t, h) = arg(v[0])?;
    if t.dim() == 0 {
        bail!("input is a scalar: windows run along its first dimension");
    }
    let rows = t.size()[0];
    if n > rows {
        bail!("size {n} is more than the {rows} rows of the input");
    }
    let w = t.f_unfold(0, n, step)?.f_movedim([-1i64], [1i64])?;
    result(w, h)
}

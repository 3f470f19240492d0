//! `windows(input;size)`, `windows(input;size;step)`: sequence windows for recurrent and attention
//! models (issue 33), every `size` consecutive rows of `input` (its first dimension, time order)
//! starting each `step` rows (default 1), as one tensor of windows by `size` by the rest of
//! `input`'s shape: PyTorch's `input.unfold(0,size,step).movedim(-1,1)`, a view of `input`'s
//! storage with no second copy. Given a tensor handle, a handle to the view; given q data, q data
//! (docs/tensorop.md). Windows of a table sorted by sym then time that stay within one sym are
//! those starting where the sym `size-1` rows on is the same: `where(neg[n-1]_s)=(n-1)_s`
//! (docs/tables.md).
use anyhow::bail;

use super::opargs::Input;
use super::result;
use crate::k::from::{self, FromQ};
use crate::k::{KResult, K};

/// `windows`' `(input;size)` or `(input;size;step)`: size and step checked (longs, positive)
/// before the input is read.
pub struct Windowing {
    input: Input,
    size: i64,
    step: i64,
}

impl FromQ for Windowing {
    const TYPE: &'static str = "(input;size) or (input;size;step)";
    /// Every value is the list or an error.
    fn read(x: K) -> anyhow::Result<Option<Windowing>> {
        let usage = Self::TYPE;
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
        let input = Input::from_q(v[0], "input")?;
        Ok(Some(Windowing {
            input,
            size: n,
            step,
        }))
    }
}

crate::qfn! {
    /// `windows(input;size;step)`: the windows as one tensor (a view for a tensor handle).
    pub fn windows(x: Windowing) -> KResult {
        let Windowing {
            input: Input { t, handle },
            size: n,
            step,
        } = x;
        if t.dim() == 0 {
            bail!("input is a scalar: windows run along its first dimension");
        }
        let rows = t.size()[0];
        if n > rows {
            bail!("size {n} is more than the {rows} rows of the input");
        }
        let w = t.f_unfold(0, n, step)?.f_movedim([-1i64], [1i64])?;
        result(w, handle)
    }
}

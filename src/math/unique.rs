//! `unique(x;dim;sorted;indices;counts)` and `uniquec(x;dim;indices;counts)` (math-reduce.rst):
//! the unique elements (or the first of each run of equal ones), with the inverse indices and
//! the counts when their flags are set. The dimension is optional (a long; `0N` for none), the
//! flags are read in order after it. One result: an array or a tensor; several: q arrays or a
//! vector handle.
use anyhow::bail;
use tch::Tensor;

use super::forms::{array, several};
use crate::k::from::{self, FromQ};
use crate::k::{KResult, K};
use crate::registry;
use crate::tensor::opargs::describe;
use crate::tensor::{arg, result};

/// Input, whether from a handle, the dimension and the `n` flags (`defaults` when not given).
fn uargs(
    x: K,
    defaults: &[bool],
    usage: &str,
) -> anyhow::Result<(Tensor, bool, Option<i64>, Vec<bool>)> {
    let mut flags = defaults.to_vec();
    if registry::is_handle(x) {
        return Ok((arg(x)?.0, true, None, flags));
    }
    if let Some(t) = array(x) {
        return Ok((t, false, None, flags));
    }
    let Some(v) = from::list(&x) else {
        bail!("not implemented for {}, expected {usage}", describe(x))
    };
    if v.len() < 2 {
        bail!("expected {usage}");
    }
    let dim = i64::of(v[1]);
    let rest = &v[if dim.is_some() { 2 } else { 1 }..];
    if rest.len() > flags.len() {
        bail!(
            "expected up to {} args, {usage}, given {}",
            flags.len() + 2,
            v.len()
        );
    }
    for (i, f) in rest.iter().enumerate() {
        match bool::of(*f) {
            Some(b) => flags[i] = b,
            None => bail!(
                "unrecognized arg(s), expected {usage}, given {} for a flag",
                describe(*f)
            ),
        }
    }
    let (t, h) = arg(v[0])?;
    Ok((t, h, dim.filter(|d| *d != i64::MIN), flags))
}

/// Values alone, or with indices and/or counts as flagged.
fn uresult((v, i, c): (Tensor, Tensor, Tensor), indices: bool, counts: bool, h: bool) -> KResult {
    match (indices, counts) {
        (false, false) => result(v, h),
        (true, false) => several(vec![v, i], h, None),
        (false, true) => several(vec![v, c], h, None),
        (true, true) => several(vec![v, i, c], h, None),
    }
}

/// The arguments of `unique` (`U`: `(input;dim;sorted;indices;counts)`) or `uniquec` (not `U`:
/// `(input;dim;indices;counts)`): the input alone, or a list with an optional dimension (`0N`
/// for none) and the flags in order, defaults for those not given.
pub struct UniqueArgs<const U: bool> {
    t: Tensor,
    handle: bool,
    dim: Option<i64>,
    flags: Vec<bool>,
}

impl<const U: bool> FromQ for UniqueArgs<U> {
    const TYPE: &'static str = if U {
        "(input;dim;sorted;indices;counts)"
    } else {
        "(input;dim;indices;counts)"
    };
    /// Every value is a form or an error.
    fn read(x: K) -> anyhow::Result<Option<UniqueArgs<U>>> {
        let defaults: &[bool] = if U {
            &[true, false, false]
        } else {
            &[false, false]
        };
        let (t, handle, dim, flags) = uargs(x, defaults, Self::TYPE)?;
        Ok(Some(UniqueArgs {
            t,
            handle,
            dim,
            flags,
        }))
    }
}

crate::qfn! {
    /// `unique(x;dim;sorted;indices;counts)`: the unique elements.
    pub fn unique(x: UniqueArgs<true>) -> KResult {
        let (t, f) = (x.t, x.flags);
        let r = match x.dim {
            Some(d) => t.f_unique_dim(d, f[0], f[1], f[2])?,
            None => t.f_internal_unique2(f[0], f[1], f[2])?,
        };
        uresult(r, f[1], f[2], x.handle)
    }

    /// `uniquec(x;dim;indices;counts)`: the first of each run of equal elements.
    pub fn uniquec(x: UniqueArgs<false>) -> KResult {
        let f = x.flags;
        uresult(x.t.f_unique_consecutive(f[0], f[1], x.dim)?, f[0], f[1], x.handle)
    }
}

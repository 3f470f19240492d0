//! Random sampling (math-random.rst): `bernoulli` draws 0 or 1 with the probabilities given,
//! `multinomial` draws indices with the weights of each row.
use anyhow::bail;

use super::forms::{copy_into, finish_op as finish, op, ToTensor};
use crate::k::from;
use crate::k::{make, KResult, K};
use crate::tensor::opargs::{self, describe};
use crate::tensor::{arg, result};

/// `bernoulli x` (an array or a tensor of probabilities), `bernoulli(x;output)`: 0s and 1s of the
/// input's shape (and dtype; an output tensor may be of any dtype, e.g. boolean).
pub fn bernoulli(x: K) -> KResult {
    if let Some(v) = from::list(&x).filter(|v| v.len() > 1 && opargs::is_tensor(v[1])) {
        if v.len() != 2 {
            bail!("expected args of (x;output), but {} args given", v.len());
        }
        let (t, _) = arg(v[0])?;
        let _ = copy_into(&crate::registry::tensor(v[1])?, &t.f_bernoulli()?)?;
        return Ok(make::null());
    }
    let (t, h) = arg(x)?;
    result(t.f_bernoulli()?, h)
}

/// `multinomial(x;n;replace;output)`: `n` (default 1) indices drawn from each row's weights, with
/// replacement if flagged (default false); with no `n`, one index per row without a trailing
/// dimension of 1.
pub fn multinomial(x: K) -> KResult {
    if crate::k::read::ktype(x) < 0 {
        bail!("not implemented for {}", describe(x));
    }
    let a = op::<(i64, bool), (ToTensor,)>(x, "(input;n;replaceflag;output)")?;
    let (n, b) = (a.opts.0, a.opts.1.unwrap_or(false));
    let m = n.unwrap_or(1);
    finish(
        &a,
        |x| {
            let r = x.f_multinomial(m, b)?;
            if n.is_none() {
                r.f_squeeze()
            } else {
                Ok(r)
            }
        },
        |x, o| {
            let r = x.f_multinomial_out(o, m, b)?;
            if n.is_none() {
                o.shallow_clone().f_squeeze_()
            } else {
                Ok(r)
            }
        },
    )
}

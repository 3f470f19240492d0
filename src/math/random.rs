//! Random sampling (math-random.rst): `bernoulli` draws 0 or 1 with the probabilities given,
//! `multinomial` draws indices with the weights of each row.
use anyhow::{bail, Result};
use tch::Tensor;

use super::forms::{copy_into, finish_op as finish, usage, Op, OpCall, ToTensor, Usage};
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::tensor::opargs::{self, describe};
use crate::tensor::{arg, result};

/// `bernoulli`'s arguments: `x` (an array or a tensor of probabilities), or `(x;output)`.
pub struct BernoulliArgs {
    t: Tensor,
    handle: bool,
    out: Option<Tensor>,
}

impl FromQ for BernoulliArgs {
    const TYPE: &'static str = "x or (x;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<BernoulliArgs>> {
        if let Some(v) = from::list(&x).filter(|v| v.len() > 1 && opargs::is_tensor(v[1])) {
            if v.len() != 2 {
                bail!("expected args of (x;output), but {} args given", v.len());
            }
            let (t, handle) = arg(v[0])?;
            let out = crate::registry::tensor(v[1])?;
            return Ok(Some(BernoulliArgs {
                t,
                handle,
                out: Some(out),
            }));
        }
        let (t, handle) = arg(x)?;
        Ok(Some(BernoulliArgs {
            t,
            handle,
            out: None,
        }))
    }
}

usage! {
    MultinomialUsage = "(input;n;replaceflag;output)";
}

/// `multinomial`'s arguments: `op`'s form (`x` or `(x;n;replaceflag;output)`), a q atom refused.
pub struct MultinomialArgs(Op<(Option<i64>, Option<bool>)>);

impl FromQ for MultinomialArgs {
    const TYPE: &'static str = MultinomialUsage::USAGE;
    fn read(x: K) -> Result<Option<MultinomialArgs>> {
        if crate::k::read::ktype(x) < 0 {
            bail!("not implemented for {}", describe(x));
        }
        let a = OpCall::<(i64, bool), (ToTensor,), MultinomialUsage>::from_q(x, "x")?.0;
        Ok(Some(MultinomialArgs(a)))
    }
}

crate::qfn! {
    /// `bernoulli x`, `bernoulli(x;output)`: 0s and 1s of the input's shape (and dtype; an output
    /// tensor may be of any dtype, e.g. boolean).
    pub fn bernoulli(x: BernoulliArgs) -> KResult {
        match x.out {
            Some(o) => {
                let _ = copy_into(&o, &x.t.f_bernoulli()?)?;
                Ok(make::null())
            }
            None => result(x.t.f_bernoulli()?, x.handle),
        }
    }

    /// `multinomial(x;n;replace;output)`: `n` (default 1) indices drawn from each row's weights,
    /// with replacement if flagged (default false); with no `n`, one index per row without a
    /// trailing dimension of 1.
    pub fn multinomial(x: MultinomialArgs) -> KResult {
        let a = x.0;
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
}

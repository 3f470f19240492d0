//! Filling from probability distributions (kmath.cpp's `kprob`): `normal`, `uniform`, `cauchy`,
//! `exponential`, `geometric`, `lognormal`, `random`, each with 0-2 numeric options (PyTorch's
//! `Tensor.normal_(mean,std)`, `uniform_(from,to)`, `cauchy_(median,sigma)`,
//! `exponential_(lambd)`, `geometric_(p)`, `log_normal_(mean,std)`, `random_(to)` or
//! `random_(from,to)`), and PyTorch's defaults where an option is left out.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::{array, handle_list, num, shared};
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::registry;
use crate::tensor::opargs::{self, describe};

#[derive(Clone, Copy, PartialEq)]
#[repr(usize)]
enum Dist {
    Cauchy,
    Exponential,
    Geometric,
    Lognormal,
    Normal,
    Random,
    Uniform,
}

/// Every distribution, by its place in `Dist` (`Prob`'s index).
const DISTS: [Dist; 7] = [
    Dist::Cauchy,
    Dist::Exponential,
    Dist::Geometric,
    Dist::Lognormal,
    Dist::Normal,
    Dist::Random,
    Dist::Uniform,
];

/// Read the target and options as ktorch: `h`, `(h;a;b)`, `(h;picks;a;b)` (picks when the 2nd
/// argument is a symbol, symbols, a long list, or when 4 arguments are given: a single index
/// given with fewer options must be enlisted), q data, or `(data;a;b)`.
/// A fill from distribution `DISTS[D]`: the target and the options' values, checked.
pub struct Prob<const D: usize> {
    target: super::Target,
    vals: Vec<f64>,
}

impl<const D: usize> FromQ for Prob<D> {
    const TYPE: &'static str = "a tensor, vector, dictionary, module or q data and options";
    /// Every value is the call or an error.
    fn read(x: K) -> Result<Option<Prob<D>>> {
        let d = DISTS[D];
        let (target, opts) = if registry::is_handle(x) {
            (shared(x, None)?, &[][..])
        } else if let Some(v) = handle_list(&x) {
            // `enlist h` has no second item (the fuzzer found `normal enlist h` indexing past it)
            let t = v.get(1).map_or(0, |y| read::ktype(*y));
            if v.len() > 1 && (t == -11 || t == 11 || t == 7 || v.len() > 3) {
                (shared(v[0], Some(v[1]))?, &v[2..])
            } else {
                (shared(v[0], None)?, &v[1..])
            }
        } else if let Some(t) = opargs::array(x) {
            (super::Target::Array(t), &[][..])
        } else {
            match from::list(&x) {
                Some(v) if !v.is_empty() => (array(v[0])?, &v[1..]),
                _ => bail!("not implemented for {}", describe(x)),
            }
        };
        if opts.len() > 2 {
            bail!("expected 1-2 args, {} given", opts.len());
        }
        let vals = opts
            .iter()
            .enumerate()
            .map(|(i, a)| {
                num(*a).ok_or_else(|| {
                    anyhow!(
                        "expected long/double for option {}, given {}",
                        i + 1,
                        describe(*a)
                    )
                })
            })
            .collect::<Result<Vec<f64>>>()?;
        if d == Dist::Random
            && !opts
                .iter()
                .all(|a| matches!(read::ktype(*a), -1 | -4 | -5 | -6 | -7))
        {
            bail!("requires integers for low & high limits");
        }
        if d == Dist::Geometric && vals.len() != 1 {
            bail!(
                "requires a single probability argument, {} args supplied",
                vals.len()
            );
        }
        if d == Dist::Exponential && vals.len() > 1 {
            bail!("expected single rate argument, given {} args", vals.len());
        }
        Ok(Some(Prob { target, vals }))
    }
}

/// Fill `t` from distribution `d` with options `v` (PyTorch's defaults for those left out).
fn draw(t: &mut Tensor, d: Dist, v: &[f64]) -> Result<()> {
    let a = |i: usize, def: f64| v.get(i).copied().unwrap_or(def);
    let _ = match d {
        Dist::Cauchy => t.f_cauchy_(a(0, 0.0), a(1, 1.0))?,
        Dist::Exponential => t.f_exponential_(a(0, 1.0))?,
        Dist::Geometric => t.f_geometric_(v[0])?,
        Dist::Lognormal => t.f_log_normal_(a(0, 1.0), a(1, 2.0))?,
        Dist::Normal => t.f_normal_(a(0, 0.0), a(1, 1.0))?,
        Dist::Uniform => t.f_uniform_(a(0, 0.0), a(1, 1.0))?,
        Dist::Random => match v {
            [] => t.f_random_()?,
            [to] => t.f_random_to_(*to as i64)?,
            [from, to] => t.f_random_from_(*from as i64, Some(*to as i64))?,
            _ => unreachable!("checked above"),
        },
    };
    Ok(())
}

crate::qfn! {
    /// `cauchy x`, `cauchy(x;median;sigma)`.
    pub fn cauchy(x: Prob<{ Dist::Cauchy as usize }>) -> KResult {
        prob(x)
    }
    /// `exponential x`, `exponential(x;lambda)`.
    pub fn exponential(x: Prob<{ Dist::Exponential as usize }>) -> KResult {
        prob(x)
    }
    /// `geometric(x;p)`.
    pub fn geometric(x: Prob<{ Dist::Geometric as usize }>) -> KResult {
        prob(x)
    }
    /// `lognormal x`, `lognormal(x;mean;std)`.
    pub fn lognormal(x: Prob<{ Dist::Lognormal as usize }>) -> KResult {
        prob(x)
    }
    /// `normal x`, `normal(x;mean;std)`.
    pub fn normal(x: Prob<{ Dist::Normal as usize }>) -> KResult {
        prob(x)
    }
    /// `random x`, `random(x;to)`, `random(x;from;to)`.
    pub fn random(x: Prob<{ Dist::Random as usize }>) -> KResult {
        prob(x)
    }
    /// `uniform x`, `uniform(x;from;to)`.
    pub fn uniform(x: Prob<{ Dist::Uniform as usize }>) -> KResult {
        prob(x)
    }
}

/// The fill.
fn prob<const D: usize>(x: Prob<D>) -> KResult {
    let d = DISTS[D];
    x.target.fill(|t| draw(t, d, &x.vals))
}

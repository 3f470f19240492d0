//! Distances (knn.cpp's `distance` and `pdist`): `pairwise(x;y)`, `pairwise(x;y;p;eps;keepdim)`,
//! `similar(x;y)`, `similar(x;y;dim;eps)` with the options of the modules of the same name
//! (positional, then by name), and `pdist x`, `pdist(x;p)`. Tensors in, a tensor out (any of the
//! inputs a handle), else q data.
use anyhow::{anyhow, bail, Result};

use crate::k::from::{self, FromQ, Number as Num};
use crate::k::{KResult, K};
use crate::nn::{layers, spec, Module, Run};
use crate::tensor::opargs::describe;
use crate::tensor::result;

pub fn pairwise(x: K) -> KResult {
    two("pairwise", x)
}
pub fn similar(x: K) -> KResult {
    two("similar", x)
}

/// The two-input layer `name` run on (x;y) with the options that follow.
fn two(name: &str, x: K) -> KResult {
    let v = match from::list(&x) {
        Some(v) if v.len() >= 2 => v,
        _ => bail!("expected (x;y) or (x;y;options..), given {}", describe(x)),
    };
    let (ts, h) = crate::math::pointwise::inputs(&v[..2])?;
    let m = with_options(name, &v[2..])?;
    let r = m.forward(&Run::new(false), &ts)?.tensor(name)?;
    result(r, h)
}

/// A module of layer `name` from positional options and, last, name-value pairs.
fn with_options(name: &str, args: &[K]) -> Result<Module> {
    let l = layers::find(name).ok_or_else(|| anyhow!("no layer `{name}"))?;
    let (pos, named) = match args.last() {
        Some(last) => match spec::pairs(*last)? {
            Some(p) => (&args[..args.len() - 1], p),
            None => (args, spec::Pairs::default()),
        },
        None => (args, spec::Pairs::default()),
    };
    Module::new(l, None, spec::options(l, pos, &named)?)
}

/// `pdist x`, `pdist(x;p)`: the p-norm distances between the rows of a matrix (p default 2).
pub fn pdist(x: K) -> KResult {
    let (t, h, args) = super::input(&x)?;
    let p = match args {
        [] => 2.0,
        [p] => match Num::of(*p) {
            Some(Num::Float(f)) => f,
            Some(Num::Int(j)) => j as f64,
            None => bail!("p: expected a number, given {}", describe(*p)),
        },
        _ => bail!("expected x or (x;p), given {}", describe(x)),
    };
    result(t.f_pdist(p)?, h)
}

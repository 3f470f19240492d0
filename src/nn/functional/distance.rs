//! Distances (knn.cpp's `distance` and `pdist`): `pairwise(x;y)`, `pairwise(x;y;p;eps;keepdim)`,
//! `similar(x;y)`, `similar(x;y;dim;eps)` with the options of the modules of the same name
//! (positional, then by name), and `pdist x`, `pdist(x;p)`. Tensors in, a tensor out (any of the
//! inputs a handle), else q data.
use std::marker::PhantomData;

use anyhow::{bail, Result};
use tch::Tensor;

use super::{layer_of, module_of, Named};
use crate::k::from::{self, FromQ, Number as Num};
use crate::k::{KResult, K};
use crate::nn::{Module, Run};
use crate::tensor::opargs::{describe, Input};
use crate::tensor::result;

/// The two-input layer `L` on `(x;y)` with the layer's options after them.
pub struct Distance<L: Named> {
    inputs: Vec<Tensor>,
    handle: bool,
    module: Module,
    _layer: PhantomData<L>,
}

impl<L: Named> FromQ for Distance<L> {
    const TYPE: &'static str = "two inputs and the layer's options";
    /// Every value is a call or an error.
    fn read(x: K) -> Result<Option<Distance<L>>> {
        let l = layer_of::<L>()?;
        let v = match from::list(&x) {
            Some(v) if v.len() >= 2 => v,
            _ => bail!("expected (x;y) or (x;y;options..), given {}", describe(x)),
        };
        let (inputs, handle) = crate::math::pointwise::inputs(&v[..2])?;
        Ok(Some(Distance {
            inputs,
            handle,
            module: module_of(l, &v[2..])?,
            _layer: PhantomData,
        }))
    }
}

impl<L: Named> Distance<L> {
    /// The distance of the inputs (evaluation mode).
    pub fn run(self) -> KResult {
        let r = self
            .module
            .forward(&Run::new(false), &self.inputs)?
            .tensor(L::NAME)?;
        result(r, self.handle)
    }
}

super::by_layer! { Distance: pairwise, similar }

/// `pdist x`, `pdist(x;p)`: the input (alone, or first) and p, any number (a boolean or an
/// integer made a double), default 2.
pub struct Pdist {
    input: Input,
    p: f64,
}

impl FromQ for Pdist {
    const TYPE: &'static str = "x or (x;p)";
    /// Every value is a call or an error.
    fn read(x: K) -> Result<Option<Pdist>> {
        let (t, handle, args) = super::input(&x)?;
        let p = match args {
            [] => 2.0,
            [p] => match Num::of(*p) {
                Some(Num::Float(f)) => f,
                Some(Num::Int(j)) => j as f64,
                None => return Err(from::expected("p", Num::TYPE, *p)),
            },
            _ => bail!("expected x or (x;p), given {}", describe(x)),
        };
        Ok(Some(Pdist {
            input: Input { t, handle },
            p,
        }))
    }
}

crate::qfn! {
    /// `pdist x`, `pdist(x;p)`: the p-norm distances between the rows of a matrix (p default 2).
    pub fn pdist(x: Pdist) -> KResult {
        result(x.input.t.f_pdist(x.p)?, x.input.handle)
    }
}

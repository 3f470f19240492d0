//! Gradients, as ktorch: `backward x` back-propagates from tensor `x` (a scalar, or with a
//! gradient `backward(x;g)`), keeping the graph for another pass with `` `retain ``, or building
//! it for higher derivatives with `` `create ``: `backward(x;`retain)`, `backward(x;g;`create)`.
//! `grad x` the gradient accumulated in a leaf tensor as q data (null when there is none yet);
//! `zerograd x` zeroes and `nograd x` drops the gradients of a tensor, vector or dictionary.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::opargs::Stored;
use super::{convert, options::Options};
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::registry;

pub use crate::cxx::tensor::{add_alpha_, addcdiv_, addcmul_};

/// ktorch's graph symbols: (retain_graph, create_graph).
fn graph_flags(s: &str) -> anyhow::Result<(bool, bool)> {
    Ok(match s {
        "free" => (false, false),
        "retain" => (true, false),
        "create" => (true, true),
        "createfree" => (false, true),
        _ => {
            bail!("unrecognized backward option `{s}, expected `free`retain`create or `createfree")
        }
    })
}

/// `backward`'s `t`, `(t;g)`, `(t;s)` or `(t;g;s)`: the tensor, its gradient (made the tensor's
/// dtype and device; a scalar stands for every element, as in ktorch) and the graph flags of
/// symbol `s` (retain_graph, create_graph).
pub struct Backward {
    t: Tensor,
    g: Option<Tensor>,
    retain: bool,
    create: bool,
}

impl FromQ for Backward {
    const TYPE: &'static str =
        "tensor, (tensor;gradient), (tensor;`retain) or (tensor;gradient;`retain)";
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<Backward>> {
        let (h, rest) = if registry::is_handle(x) {
            (x, &[][..])
        } else {
            let items = from::list(&x)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| anyhow!("expected {}", Self::TYPE))?;
            (items[0], &items[1..])
        };
        let t = registry::tensor(h)?;
        let (rest, (retain, create)) = match rest.split_last() {
            Some((s, r)) if <&str>::of(*s).is_some() => {
                (r, graph_flags(<&str>::of(*s).unwrap_or(""))?)
            }
            _ => (rest, (false, false)),
        };
        let g = match rest {
            [] => None,
            [g] => {
                let (g, _) = super::arg(*g)?;
                let g = Options {
                    kind: Some(t.kind()),
                    device: Some(t.device()),
                    ..Options::default()
                }
                .apply(g)?;
                // A scalar gradient stands for every element, as in ktorch.
                Some(if g.dim() == 0 && t.dim() > 0 {
                    g.f_expand_as(&t)?.f_contiguous()?
                } else {
                    g
                })
            }
            _ => bail!("unexpected arg(s), expected (t;s), (t;g) or (t;g;s) with t-tensor, g-tensor, s-sym, e.g. `retain"),
        };
        Ok(Some(Backward {
            t,
            g,
            retain,
            create,
        }))
    }
}

crate::qfn! {
    /// `backward` of a tensor (a model's: dispatch/train.rs).
    pub fn backward(x: Backward) -> KResult {
        let Backward {
            t,
            g,
            retain,
            create,
        } = x;
        if !t.defined() {
            bail!("tensor is undefined");
        }
        if !t.requires_grad() {
            bail!("tensor does not require gradients");
        }
        crate::cxx::tensor::backward(&t, g.as_ref(), retain, create)?;
        Ok(make::null())
    }
}

crate::qfn! {
    /// `grad x`: the gradient accumulated in a leaf tensor as q data (null when there is none).
    pub fn grad(x: Stored) -> KResult {
        let g = x.0.f_grad()?;
        if !g.defined() {
            return Ok(make::null());
        }
        convert::to_q(&g)
    }
}

/// The tensors whose gradients `zerograd` and `nograd` reset: a tensor's, a vector's or
/// dictionary's, a module's or model's parameters (as the registry gives them).
pub struct Grads(Vec<Tensor>);

impl FromQ for Grads {
    const TYPE: &'static str = "a tensor, vector, dictionary, module or model";
    /// Every value is the tensors or the registry's error.
    fn read(x: K) -> anyhow::Result<Option<Grads>> {
        registry::grad_tensors(x).map(|ts| Some(Grads(ts)))
    }
}

/// Zero the gradients of `ts` (`none`: drop them, as PyTorch's `zero_grad(set_to_none=True)`).
pub fn reset_grads<T: std::borrow::Borrow<Tensor>>(ts: &[T], none: bool) -> anyhow::Result<()> {
    for t in ts.iter().map(|t| t.borrow()).filter(|t| t.defined()) {
        crate::cxx::tensor::reset_grad(t, none)?;
    }
    Ok(())
}

/// Backward from a scalar loss, libtorch's errors caught in the shim.
pub fn backward_of(t: &Tensor) -> anyhow::Result<()> {
    crate::cxx::tensor::backward(t, None, false, false)
}

crate::qfn! {
    /// `zerograd x`: the gradients zeroed.
    pub fn zerograd(x: Grads) -> KResult {
        reset_grads(&x.0, false)?;
        Ok(make::null())
    }

    /// `nograd x`: the gradients dropped (PyTorch's `zero_grad(set_to_none=True)`).
    pub fn nograd(x: Grads) -> KResult {
        reset_grads(&x.0, true)?;
        Ok(make::null())
    }
}

//! Containers: `sequential` and `seqnest` run their children in order; `callback` calls a q
//! function (see `callback.rs`).
use anyhow::Result;
use tch::Tensor;

use super::{container, opt, Def, Layer, Out, Run, Ty};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    // as libtorch's Sequential, every input goes to the first child, which checks its count
    // (a `seqjoin` first takes two: ktorch's mnist/cgan.q)
    Layer {
        adopt: any_child,
        ..container("sequential", "torch.nn.Sequential", &[], (1, 8), sequential)
    },
    Layer {
        adopt: any_child,
        ..container("seqnest", "knn.SeqNest", &[], (1, 8), sequential)
    },
    Layer {
        init: super::callback::init,
        ..container(
            "callback",
            "knn.Callback",
            &[
                opt("fn", Ty::Str, Def::Sym("")),
                opt("in", Ty::Syms(&["tensor"]), Def::Syms(&["tensor"])),
                opt("out", Ty::Sym(&["tensor"]), Def::Sym("tensor")),
            ],
            (1, 3),
            super::callback::forward,
        )
    },
];

/// A `sequential` or `seqnest` holds its children as libtorch's type-erased AnyModule, which
/// ktorch cannot make of a Sequential (its forward is a template: nest with `seqnest`) nor of a
/// container without a forward (knn.cpp's `anymodule`, with its words).
fn any_child(_: &Module, c: &Module) -> Result<Option<String>> {
    match c.layer.name {
        "sequential" => anyhow::bail!(
            "sequential: unable to create type-erased module, forward method uses template"
        ),
        n @ ("moduledict" | "modulelist" | "parmdict") => {
            anyhow::bail!("{n}: unable to create type-erased module, no forward method defined")
        }
        _ => Ok(None),
    }
}

/// Each child in turn on the previous one's output.
pub fn sequential(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    sequential_upto(m, run, x, m.children.len())
}

/// The first `n` children in turn (a `residual` that runs its block's last `drop` itself).
pub fn sequential_upto(m: &Module, run: &Run, x: &[Tensor], n: usize) -> Result<Out> {
    sequential_span(m, run, x, 0, n)
}

/// Children `from` to `to` (not included) in turn, on x (a `residual` that runs its block's
/// first layer norm and last `drop` itself).
pub fn sequential_span(m: &Module, run: &Run, x: &[Tensor], from: usize, to: usize) -> Result<Out> {
    let mut y = Out::Tensors(x.iter().map(Tensor::shallow_clone).collect());
    for (_, c) in m.children.iter().take(to).skip(from) {
        y = c.forward(run, &y.into_vec())?;
    }
    Ok(match y {
        Out::Tensors(mut v) if v.len() == 1 => Out::Tensor(v.remove(0)),
        y => y,
    })
}

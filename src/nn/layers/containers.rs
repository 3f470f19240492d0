//! Containers: `sequential` and `seqnest` run their children in order; `callback` calls a q
//! function (see `nn::callback`).
use anyhow::Result;
use tch::Tensor;

use super::{container, opt, Def, Layer, Out, Run, Ty};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    // as libtorch's Sequential, every input goes to the first child, which checks its count
    // (a `seqjoin` first takes two: ktorch's mnist/cgan.q)
    container("sequential", "torch.nn.Sequential", &[], (1, 8), sequential),
    container("seqnest", "knn::SeqNest", &[], (1, 8), sequential),
    Layer {
        init: crate::nn::callback::init,
        ..container(
            "callback",
            "knn::Callback",
            &[
                opt("fn", Ty::Str, Def::Sym("")),
                opt("in", Ty::Syms(&["tensor"]), Def::Syms(&["tensor"])),
                opt("out", Ty::Sym(&["tensor"]), Def::Sym("tensor")),
            ],
            (1, 3),
            crate::nn::callback::forward,
        )
    },
];

/// Each child in turn on the previous one's output.
pub fn sequential(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let mut y = Out::Tensors(x.iter().map(Tensor::shallow_clone).collect());
    for (_, c) in &m.children {
        y = c.forward(run, &y.into_vec())?;
    }
    Ok(match y {
        Out::Tensors(mut v) if v.len() == 1 => Out::Tensor(v.remove(0)),
        y => y,
    })
}

//! Activations (ktorch's knn/act.cpp; PyTorch's torch.nn activation modules). Options follow
//! ktorch's names and positional order: `(`elu;alpha;inplace)`, `(`leakyrelu;slope;inplace)`,
//! `(`hardtanh;min;max;inplace)`, `(`threshold;threshold;value;inplace)`, `(`prelu;in;init)`.
//! gelu, relu, sigmoid, softmax, logsoftmax and tanh are in `basic`.
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::cxx::{act, Act};
use super::{flag, float, float_req, layer, long, long_or, Layer, Run};
use crate::nn::Module;

const INPLACE: super::Opt = flag("inplace", false);

pub static LAYERS: &[Layer] = &[
    layer(
        "celu",
        "torch.nn.CELU",
        &[float("alpha", 1.0), INPLACE],
        |m, _, x| act(Act::Celu, x, m.float("alpha"), 0.0, m.flag("inplace")),
    ),
    layer(
        "elu",
        "torch.nn.ELU",
        &[float("alpha", 1.0), INPLACE],
        |m, _, x| act(Act::Elu, x, m.float("alpha"), 0.0, m.flag("inplace")),
    ),
    layer("glu", "torch.nn.GLU", &[long_or("dim", -1)], |m, _, x| {
        Ok(x.f_glu(m.long("dim"))?)
    }),
    layer(
        "hardshrink",
        "torch.nn.Hardshrink",
        &[float("lambda", 0.5)],
        |m, _, x| act(Act::Hardshrink, x, m.float("lambda"), 0.0, false),
    ),
    Layer {
        init: hardtanh_init,
        ..layer(
            "hardtanh",
            "torch.nn.Hardtanh",
            &[float("min", -1.0), float("max", 1.0), INPLACE],
            |m, _, x| {
                act(
                    Act::Hardtanh,
                    x,
                    m.float("min"),
                    m.float("max"),
                    m.flag("inplace"),
                )
            },
        )
    },
    layer(
        "leakyrelu",
        "torch.nn.LeakyReLU",
        &[float("slope", 0.01), INPLACE],
        |m, _, x| act(Act::LeakyRelu, x, m.float("slope"), 0.0, m.flag("inplace")),
    ),
    layer("logsigmoid", "torch.nn.LogSigmoid", &[], |_, _, x| {
        Ok(x.f_log_sigmoid()?)
    }),
    layer("mish", "torch.nn.Mish", &[], |_, _, x| Ok(x.f_mish()?)),
    Layer {
        init: prelu_init,
        ..layer(
            "prelu",
            "torch.nn.PReLU",
            &[long_or("in", 1), float("init", 0.25)],
            |m, _, x| Ok(x.f_prelu(m.parm("weight")?)?),
        )
    },
    layer("relu6", "torch.nn.ReLU6", &[INPLACE], |m, _, x| {
        Ok(if m.flag("inplace") {
            x.shallow_clone().f_relu6_()?
        } else {
            x.f_relu6()?
        })
    }),
    Layer {
        init: rrelu_init,
        ..layer(
            "rrelu",
            "torch.nn.RReLU",
            &[
                float("lower", 1.0 / 8.0),
                float("upper", 1.0 / 3.0),
                INPLACE,
            ],
            rrelu,
        )
    },
    layer("selu", "torch.nn.SELU", &[INPLACE], |m, _, x| {
        Ok(if m.flag("inplace") {
            x.shallow_clone().f_selu_()?
        } else {
            x.f_selu()?
        })
    }),
    layer("silu", "torch.nn.SiLU", &[], |_, _, x| Ok(x.f_silu()?)),
    layer("softmax2d", "torch.nn.Softmax2d", &[], softmax2d),
    layer("softmin", "torch.nn.Softmin", &[long("dim")], |m, _, x| {
        Ok(x.f_neg()?.f_softmax(m.long("dim"), None::<Kind>)?)
    }),
    layer(
        "softplus",
        "torch.nn.Softplus",
        &[float("beta", 1.0), float("threshold", 20.0)],
        |m, _, x| {
            act(
                Act::Softplus,
                x,
                m.float("beta"),
                m.float("threshold"),
                false,
            )
        },
    ),
    layer(
        "softshrink",
        "torch.nn.Softshrink",
        &[float("lambda", 0.5)],
        |m, _, x| act(Act::Softshrink, x, m.float("lambda"), 0.0, false),
    ),
    // x / (1 + |x|), as PyTorch's own Python definition
    layer("softsign", "torch.nn.Softsign", &[], |_, _, x| {
        Ok(x.f_div(&x.f_abs()?.f_add_scalar(1.0)?)?)
    }),
    layer("tanhshrink", "torch.nn.Tanhshrink", &[], |_, _, x| {
        Ok(x.f_sub(&x.f_tanh()?)?)
    }),
    layer(
        "threshold",
        "torch.nn.Threshold",
        &[float_req("threshold"), float_req("value"), INPLACE],
        |m, _, x| {
            let (t, v) = (m.float("threshold"), m.float("value"));
            Ok(if m.flag("inplace") {
                x.shallow_clone().f_threshold_(t, v)?
            } else {
                x.f_threshold(t, v)?
            })
        },
    ),
];

fn hardtanh_init(m: &mut Module) -> Result<()> {
    let (lo, hi) = (m.float("min"), m.float("max"));
    if lo >= hi {
        bail!("hardtanh: max value ({hi}) must be greater than min value ({lo})");
    }
    Ok(())
}

/// PyTorch's PReLU: `in` slopes (1, or one per channel), each set to `init`.
fn prelu_init(m: &mut Module) -> Result<()> {
    let n = m.long("in");
    if n < 1 {
        bail!("prelu: number of parameters must be positive, given {n}");
    }
    m.add_parm("weight", super::filled(&[n], m.float("init"))?);
    Ok(())
}

fn rrelu_init(m: &mut Module) -> Result<()> {
    let (lo, hi) = (m.float("lower"), m.float("upper"));
    if lo > hi {
        bail!("rrelu: lower bound ({lo}) must not exceed upper bound ({hi})");
    }
    Ok(())
}

/// Random slopes on (lower, upper) for negative inputs in training, their mean in evaluation.
fn rrelu(m: &Module, r: &Run, x: &Tensor) -> Result<Tensor> {
    let op = Act::Rrelu {
        training: r.training,
    };
    act(op, x, m.float("lower"), m.float("upper"), m.flag("inplace"))
}

/// Softmax over the channels of (channels, height, width) or (batch, channels, height, width).
fn softmax2d(_: &Module, _: &Run, x: &Tensor) -> Result<Tensor> {
    let d = x.dim();
    if d != 3 && d != 4 {
        bail!("softmax2d: expected input to be 3D or 4D, got {d}D instead");
    }
    Ok(x.f_softmax(-3, None::<Kind>)?)
}

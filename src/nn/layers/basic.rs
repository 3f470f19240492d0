//! The first layers: linear, dropout, flatten and a few activations.
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::{flag, float, layer, long, long_or, uniform, Layer};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    Layer {
        init: linear_init,
        ..layer(
            "linear",
            "torch.nn.Linear",
            &[long("in"), long("out"), flag("bias", true)],
            linear,
        )
    },
    Layer {
        init: drop_init,
        ..layer(
            "drop",
            "torch.nn.Dropout",
            &[float("p", 0.5), flag("inplace", false)],
            drop,
        )
    },
    layer(
        "flatten",
        "torch.nn.Flatten",
        &[long_or("start", 1), long_or("end", -1)],
        |m, _, x| Ok(x.f_flatten(m.long("start"), m.long("end"))?),
    ),
    layer(
        "gelu",
        "torch.nn.GELU",
        &[],
        |_, _, x| Ok(x.f_gelu("none")?),
    ),
    layer("identity", "torch.nn.Identity", &[], |_, _, x| {
        Ok(x.shallow_clone())
    }),
    layer(
        "logsoftmax",
        "torch.nn.LogSoftmax",
        &[long("dim")],
        |m, _, x| Ok(x.f_log_softmax(m.long("dim"), None::<Kind>)?),
    ),
    layer(
        "relu",
        "torch.nn.ReLU",
        &[flag("inplace", false)],
        |m, _, x| {
            Ok(if m.flag("inplace") {
                x.shallow_clone().f_relu_()?
            } else {
                x.f_relu()?
            })
        },
    ),
    layer("sigmoid", "torch.nn.Sigmoid", &[], |_, _, x| {
        Ok(x.f_sigmoid()?)
    }),
    layer("softmax", "torch.nn.Softmax", &[long("dim")], |m, _, x| {
        Ok(x.f_softmax(m.long("dim"), None::<Kind>)?)
    }),
    layer("tanh", "torch.nn.Tanh", &[], |_, _, x| Ok(x.f_tanh()?)),
];

/// PyTorch's Linear initialisation: kaiming uniform with a=√5 for the weight, which comes to
/// U(-1/√in, 1/√in), and the same bound for the bias.
fn linear_init(m: &mut Module) -> Result<()> {
    let (i, n) = (m.long("in"), m.long("out"));
    if i <= 0 {
        bail!("linear: positive input size required");
    }
    if n <= 0 {
        bail!("linear: positive output size required");
    }
    let bound = 1.0 / (i as f64).sqrt();
    m.add_parm("weight", uniform(&[n, i], bound)?);
    if m.flag("bias") {
        m.add_parm("bias", uniform(&[n], bound)?);
    }
    Ok(())
}

fn linear(m: &Module, _: &super::Run, x: &Tensor) -> Result<Tensor> {
    use crate::nn::precast;
    Ok(x.f_linear(&precast::parm(m, "weight")?, precast::parm_opt(m, "bias"))?)
}

fn drop_init(m: &mut Module) -> Result<()> {
    let p = m.float("p");
    if !(0.0..=1.0).contains(&p) {
        bail!("drop: dropout probability has to be between 0 and 1, but got {p}");
    }
    Ok(())
}

fn drop(m: &Module, r: &super::Run, x: &Tensor) -> Result<Tensor> {
    let p = m.float("p");
    Ok(if m.flag("inplace") {
        x.shallow_clone().f_dropout_(p, r.training)?
    } else {
        x.f_dropout(p, r.training)?
    })
}

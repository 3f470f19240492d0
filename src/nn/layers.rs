//! The layer table: one entry per module type, with ktorch's name, PyTorch's name, its options
//! (ktorch's option names, types and defaults, in positional order), how its parameters are made
//! and its forward calculation. Adding a type is one entry here plus its forward function.
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::Module;
use crate::tensor::options::default_kind;

/// An option value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    Long(i64),
    Bool(bool),
    Float(f64),
}

/// The type an option's value must have.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ty {
    Long,
    Bool,
    Float,
}

/// One option: name, type and default (None: the definition must give it).
pub struct Opt {
    pub name: &'static str,
    pub ty: Ty,
    pub default: Option<Val>,
}

const fn long(name: &'static str) -> Opt {
    Opt { name, ty: Ty::Long, default: None }
}
const fn long_or(name: &'static str, d: i64) -> Opt {
    Opt { name, ty: Ty::Long, default: Some(Val::Long(d)) }
}
const fn flag(name: &'static str, d: bool) -> Opt {
    Opt { name, ty: Ty::Bool, default: Some(Val::Bool(d)) }
}
const fn float(name: &'static str, d: f64) -> Opt {
    Opt { name, ty: Ty::Float, default: Some(Val::Float(d)) }
}

pub type Parms = Vec<(&'static str, Tensor)>;
pub type Forward = fn(&Module, &Tensor) -> Result<Tensor>;

/// A module type.
pub struct Layer {
    /// ktorch's name, e.g. `linear`.
    pub name: &'static str,
    /// PyTorch's class, as ktorch's `help` shows it.
    pub pytorch: &'static str,
    /// A container: its children are given in the definition, and it runs them in order.
    pub container: bool,
    pub opts: &'static [Opt],
    /// Check the options and make the parameters (randomly initialised as PyTorch does).
    pub init: fn(&[Val]) -> Result<Parms>,
    pub forward: Forward,
}

fn no_parms(_: &[Val]) -> Result<Parms> {
    Ok(vec![])
}

const fn layer(name: &'static str, pytorch: &'static str, opts: &'static [Opt], forward: Forward) -> Layer {
    Layer { name, pytorch, container: false, opts, init: no_parms, forward }
}

const fn container(name: &'static str, pytorch: &'static str) -> Layer {
    Layer { name, pytorch, container: true, opts: &[], init: no_parms, forward: sequential }
}

pub static LAYERS: &[Layer] = &[
    container("sequential", "torch.nn.Sequential"),
    container("seqnest", "torch.nn.Sequential"),
    Layer { init: linear_init, ..layer("linear", "torch.nn.Linear", &[long("in"), long("out"), flag("bias", true)], linear) },
    Layer { init: drop_init, ..layer("drop", "torch.nn.Dropout", &[float("p", 0.5), flag("inplace", false)], drop) },
    layer("flatten", "torch.nn.Flatten", &[long_or("start", 1), long_or("end", -1)], |m, x| Ok(x.f_flatten(m.long(0), m.long(1))?)),
    layer("gelu", "torch.nn.GELU", &[], |_, x| Ok(x.f_gelu("none")?)),
    layer("identity", "torch.nn.Identity", &[], |_, x| Ok(x.shallow_clone())),
    layer("logsoftmax", "torch.nn.LogSoftmax", &[long("dim")], |m, x| Ok(x.f_log_softmax(m.long(0), None::<Kind>)?)),
    layer("relu", "torch.nn.ReLU", &[flag("inplace", false)], |m, x| Ok(if m.flag(0) { x.shallow_clone().f_relu_()? } else { x.f_relu()? })),
    layer("sigmoid", "torch.nn.Sigmoid", &[], |_, x| Ok(x.f_sigmoid()?)),
    layer("softmax", "torch.nn.Softmax", &[long("dim")], |m, x| Ok(x.f_softmax(m.long(0), None::<Kind>)?)),
    layer("tanh", "torch.nn.Tanh", &[], |_, x| Ok(x.f_tanh()?)),
];

/// The layer of a ktorch module name.
pub fn find(name: &str) -> Option<&'static Layer> {
    LAYERS.iter().find(|l| l.name == name)
}

/// A container's forward: each child in turn on the previous one's output.
fn sequential(m: &Module, x: &Tensor) -> Result<Tensor> {
    let mut y = x.shallow_clone();
    for (_, c) in &m.children {
        y = (c.layer.forward)(c, &y)?;
    }
    Ok(y)
}

/// A new leaf parameter: uniform on (-bound, bound), requiring gradients.
fn uniform(size: &[i64], bound: f64) -> Result<Tensor> {
    let mut t = Tensor::f_empty(size, (default_kind(), tch::Device::Cpu))?;
    let _ = tch::no_grad(|| t.f_uniform_(-bound, bound))?;
    Ok(t.f_set_requires_grad(true)?)
}

/// PyTorch's Linear initialisation: kaiming uniform with a=√5 for the weight, which comes to
/// U(-1/√in, 1/√in), and the same bound for the bias.
fn linear_init(o: &[Val]) -> Result<Parms> {
    let (Val::Long(i), Val::Long(n), Val::Bool(b)) = (o[0], o[1], o[2]) else { unreachable!() };
    if i <= 0 {
        bail!("linear: positive input size required");
    }
    if n <= 0 {
        bail!("linear: positive output size required");
    }
    let bound = 1.0 / (i as f64).sqrt();
    let mut p = vec![("weight", uniform(&[n, i], bound)?)];
    if b {
        p.push(("bias", uniform(&[n], bound)?));
    }
    Ok(p)
}

fn linear(m: &Module, x: &Tensor) -> Result<Tensor> {
    let w = m.parm("weight").expect("linear weight");
    Ok(x.f_linear(w, m.parm("bias"))?)
}

fn drop_init(o: &[Val]) -> Result<Parms> {
    let Val::Float(p) = o[0] else { unreachable!() };
    if !(0.0..=1.0).contains(&p) {
        bail!("drop: dropout probability has to be between 0 and 1, but got {p}");
    }
    Ok(vec![])
}

fn drop(m: &Module, x: &Tensor) -> Result<Tensor> {
    let (p, train) = (m.float(0), m.training);
    Ok(if m.flag(1) { x.shallow_clone().f_dropout_(p, train)? } else { x.f_dropout(p, train)? })
}

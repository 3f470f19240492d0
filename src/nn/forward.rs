//! Forward calculations of a module (kmodel.cpp's `qforward`), read and run: `forward(m;x)` in
//! training mode with gradients, `nforward` training mode without gradients, `eforward`
//! evaluation mode without gradients, each returning a tensor (a vector for several outputs);
//! `evaluate` as `eforward` but returning q data; `kforward` inside a callback, with the mode of
//! the call it is in. The q functions, which also take a model, are in dispatch/forward.rs.
//! Forms: `(m;x)`, `(m;x;y..)` for modules of several inputs, `(m;`child;x..)` to run a child.
//! Inputs are tensor handles, vector handles (their tensors in order) or q data (made tensors on
//! the device of the module). `training m` and `training(m;flag)` query and set the flag.
use anyhow::{bail, Result};
use tch::Tensor;

use super::api::{has_module, is_module, modref};
use super::layers::callback::{current_mode, with_mode};
use super::{Out, Run};
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::{convert, opargs::describe};

/// How a forward call runs: training mode, and gradients on/off (None: as they are).
#[derive(Clone, Copy)]
pub struct Mode {
    train: Option<bool>,
    grad: Option<bool>,
}

/// `forward`: training mode with gradients.
pub const FORWARD: Mode = Mode {
    train: Some(true),
    grad: Some(true),
};
/// `nforward`: training mode without gradients.
pub const NFORWARD: Mode = Mode {
    train: Some(true),
    grad: Some(false),
};
/// `eforward` and `evaluate`: evaluation mode without gradients.
pub const EFORWARD: Mode = Mode {
    train: Some(false),
    grad: Some(false),
};
/// `kforward`, inside a callback: the training mode and gradients of the call it is in (outside
/// one, the module's own flag and the current gradient mode).
pub const KFORWARD: Mode = Mode {
    train: None,
    grad: None,
};

impl Mode {
    /// Training mode (as it is: true).
    pub fn training(&self) -> bool {
        self.train.unwrap_or(true)
    }
}

/// A forward call read from its q arguments, ready to run on any thread: the module (the
/// handle's, or the child named), its inputs as tensors and the mode. Holds no K value.
pub struct Call {
    module: super::ModRef,
    inputs: Vec<Tensor>,
    mode: Mode,
}

impl Call {
    pub fn new(module: super::ModRef, inputs: Vec<Tensor>, mode: Mode) -> Call {
        Call {
            module,
            inputs,
            mode,
        }
    }

    /// The module the call runs (its tree's root is what an async call lends).
    pub fn module(&self) -> &super::ModRef {
        &self.module
    }

    pub fn run(self) -> Result<Out> {
        go(&self.module, self.module.get(), self.inputs, self.mode)
    }
}

/// Read the arguments of a forward call of a module (on the q thread: they may be q data or
/// handles); a model's is `model::api::prepare_forward`.
pub fn prepare(x: K, mode: Mode) -> Result<Call> {
    // a handle alone that is not a model: say what it is (stale, or its class)
    if registry::is_handle(x) {
        match registry::class_of(x) {
            Some(c) if c != registry::Class::Module => {
                bail!("expected a model, or a module and inputs, given {c}")
            }
            None => bail!("stale pointer"),
            _ => {}
        }
    }
    let v = match from::list(&x) {
        // a model's module runs as well (ktorch's forward on models)
        Some(v) if v.len() >= 2 && has_module(v[0]) => v,
        // a handle first that is no module: stale, or of another class
        Some(v) if !v.is_empty() && registry::is_handle(v[0]) => match registry::class_of(v[0]) {
            Some(c) if c != registry::Class::Module && c != registry::Class::Model => {
                bail!("expected a module or model, given {c}")
            }
            None => bail!("stale pointer"),
            _ => bail!("requires a module and at least one input"),
        },
        _ => bail!("requires a module and at least one input"),
    };
    let h = modref(v[0])?;
    let (child, rest) = match <&str>::of(v[1]) {
        Some(s) => (Some(s), &v[2..]),
        None => (None, &v[1..]),
    };
    let module = match child {
        Some(s) => super::ModRef::inside(h.root(), h.get().find(Ok(s))?),
        None => h,
    };
    if rest.is_empty() {
        bail!("requires a module and at least one input");
    }
    let mut inputs = vec![];
    for (i, a) in rest.iter().enumerate() {
        match registry::class_of(*a) {
            Some(registry::Class::Tensor) => inputs.push(registry::tensor(*a)?),
            Some(registry::Class::Vector) => inputs.extend(registry::tensors(*a)?),
            Some(c) => bail!("input[{i}]: expected tensor, vector or array, given {c}"),
            None if registry::is_handle(*a) => bail!("input[{i}]: stale pointer"),
            // a list of handles (and arrays): each an input, as kmodel.cpp's modelarg
            None if crate::tensor::side::holds_handle(*a) => {
                let s = crate::tensor::side::side(&[*a], module.get().device())
                    .map_err(|e| anyhow::anyhow!("input[{i}]: {e}"))?;
                inputs.extend(s.cloned());
            }
            None => inputs.push(
                convert::to_tensor_on(*a, Some(module.get().device()))
                    .map_err(|e| anyhow::anyhow!("input[{i}], {}: {e}", describe(*a)))?,
            ),
        }
    }
    Ok(Call {
        module,
        inputs,
        mode,
    })
}

/// Run module `m` of tree `h` on the inputs in the given mode: inputs are moved to the device of
/// the module's parameters; a module without any runs where its inputs are.
fn go(h: &super::ModRef, m: &super::Module, inputs: Vec<Tensor>, mode: Mode) -> Result<Out> {
    let placed = m.placed();
    let device = super::Module::run_device(placed, &inputs);
    let placed = placed.is_some();
    let inputs = inputs
        .into_iter()
        .map(|t| {
            if placed && t.defined() && t.device() != device {
                t.f_to_device(device)
            } else {
                Ok(t)
            }
        })
        .collect::<Result<Vec<Tensor>, _>>()?;
    let training = mode
        .train
        .or(current_mode())
        .unwrap_or_else(|| m.training());
    let r = Run {
        training,
        root: Some(h.root().clone()),
    };
    // under the session's autocast (setting`autocast) when the module is on CUDA
    let call = || {
        crate::session::precision::autocast_scope(device, || {
            crate::nn::precast::scope(m, device, || with_mode(training, || m.forward(&r, &inputs)))
        })
    };
    match mode.grad {
        Some(true) => tch::with_grad(call),
        Some(false) => tch::no_grad(call),
        None => call(),
    }
}

/// A forward result as a handle: a tensor, or a vector of several.
pub fn handle(o: Out) -> K {
    match o {
        Out::Tensor(t) => registry::add(Obj::Tensor(t)),
        Out::Tensors(v) => registry::add(Obj::Vector(v)),
        Out::Dict(v) => registry::add(Obj::Dict(v)),
    }
}

/// A forward result as q data (`evaluate`): an array, or a list of several.
pub fn qdata(o: Out) -> KResult {
    match o {
        Out::Tensor(t) => convert::to_q(&t),
        Out::Tensors(v) => make::try_list(v.iter().map(convert::to_q)),
        Out::Dict(v) => {
            let keys: Vec<&str> = v.iter().map(|(k, _)| k.as_str()).collect();
            Ok(make::dict(
                &keys,
                make::try_vec(v.iter().map(|(_, t)| convert::to_q(t)))?,
            ))
        }
    }
}

/// `training m`: the flag; `training(m;flag)`: set it (null).
/// `training`'s forms: a module (its mode) or `(module;flag)` (set it).
pub enum TrainingCall {
    Get(K),
    Set(K, bool),
}

impl FromQ for TrainingCall {
    const TYPE: &'static str = "module and optional flag";
    fn read(x: K) -> Result<Option<TrainingCall>> {
        if is_module(x) {
            return Ok(Some(TrainingCall::Get(x)));
        }
        Ok(match from::list(&x) {
            Some([m, f]) if is_module(*m) => bool::of(*f).map(|f| TrainingCall::Set(*m, f)),
            _ => None,
        })
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow::anyhow!("unrecognized arg(s), expected module and optional flag")
    }
}

crate::qfn! {
    /// `training m`: whether the module is in training mode; `training(m;flag)`: set it.
    pub fn training(x: TrainingCall) -> KResult {
        match x {
            TrainingCall::Get(m) => Ok(make::boolean(modref(m)?.get().training())),
            TrainingCall::Set(m, f) => {
                modref(m)?.get().train(f);
                Ok(make::null())
            }
        }
    }
}

//! Forward calculations (kmodel.cpp's `qforward`): `forward(m;x)` in training mode with
//! gradients, `nforward` training mode without gradients, `eforward` evaluation mode without
//! gradients, each returning a tensor; `evaluate` as `eforward` but returning q data. The input
//! is a tensor handle or q data (made a tensor on the device of the module's first parameter).
//! The module's training flag is set for the call and restored after. `training m` and
//! `training(m;flag)` query and set the flag.
use anyhow::{bail, Result};
use tch::Tensor;

use super::api::{is_module, module_of};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::{convert, opargs::describe};

/// Run module `x[0]` on input `x[1]`: training mode `train`, gradients `grad`.
fn run(x: K, train: bool, grad: bool) -> Result<Tensor> {
    let v = match read::items(x) {
        Some(v) if v.len() >= 2 && is_module(v[0]) && !registry::is_handle(x) => v,
        _ => bail!("requires a module and at least one input"),
    };
    if v.len() > 2 {
        bail!("modules with more than one input are not implemented yet, given {} inputs", v.len() - 1);
    }
    // the input first: the registry is locked while the module runs
    let input = if registry::is_handle(v[1]) {
        registry::tensor(v[1])?
    } else {
        convert::to_tensor(v[1]).map_err(|e| anyhow::anyhow!("unrecognized arg, {}: {e}", describe(v[1])))?
    };
    registry::with(v[0], |o| {
        let m = module_of(o)?;
        let x = if input.device() != m.device() { input.f_to_device(m.device())? } else { input };
        let was = m.training;
        if was != train {
            m.train(train);
        }
        let r = if grad { tch::with_grad(|| (m.layer.forward)(m, &x)) } else { tch::no_grad(|| (m.layer.forward)(m, &x)) };
        if was != train {
            m.train(was);
        }
        r
    })
}

pub fn forward(x: K) -> KResult {
    Ok(registry::add(Obj::Tensor(run(x, true, true)?)))
}

pub fn nforward(x: K) -> KResult {
    Ok(registry::add(Obj::Tensor(run(x, true, false)?)))
}

pub fn eforward(x: K) -> KResult {
    Ok(registry::add(Obj::Tensor(run(x, false, false)?)))
}

pub fn evaluate(x: K) -> KResult {
    convert::to_q(&run(x, false, false)?)
}

/// `training m`: the flag; `training(m;flag)`: set it (null).
pub fn training(x: K) -> KResult {
    if is_module(x) {
        return registry::with(x, |o| Ok(make::boolean(module_of(o)?.training)));
    }
    match read::items(x) {
        Some([m, f]) if is_module(*m) && read::boolean(*f).is_some() => {
            let b = read::boolean(*f).unwrap();
            registry::with(*m, |o| {
                module_of(o)?.train(b);
                Ok(make::null())
            })
        }
        _ => bail!("unrecognized arg(s), expects module and optional flag"),
    }
}

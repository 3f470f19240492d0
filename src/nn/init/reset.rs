//! `reset`: for a module, its parameters and buffers as at creation (each layer's own init, run
//! on a new module of the same options, copied into the existing tensors); for a tensor,
//! ktorch's form that moves its view of the storage: `reset(t;offset)`, `reset(t;offset;sizes)`,
//! `reset(t;offset;sizes;strides)`.
use anyhow::{anyhow, bail, Result};

use super::handle_list;
use crate::k::from::FromQ;
use crate::k::K;
use crate::nn::api::{is_module, modref};
use crate::nn::Module;
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

/// `reset`'s forms: a module, `(module;child name/index)`, or `(tensor;offset;sizes;strides)`
/// (its items as given: `strides` reads them).
pub enum ResetCall {
    Module(K),
    Child(crate::nn::ModRef, Result<&'static str, i64>),
    Strides(Vec<K>),
}

impl FromQ for ResetCall {
    const TYPE: &'static str = "a module, (module;child), or (tensor;offset;sizes;strides)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<ResetCall>> {
        if is_module(x) {
            return Ok(Some(ResetCall::Module(x)));
        }
        let Some(v) = handle_list(&x) else {
            bail!(
                "expected a module, (module;child), or (tensor;offset;sizes;strides), given {}",
                describe(x)
            )
        };
        if is_module(v[0]) {
            let [m, k] = v else {
                bail!(
                    "expected a module or (module;child name/index), given {} args",
                    v.len()
                )
            };
            let key = match (<&str>::of(*k), i64::of(*k)) {
                (Some(s), _) => Ok(s),
                (None, Some(j)) => Err(j),
                _ => bail!("expected child name or index, given {}", describe(*k)),
            };
            return Ok(Some(ResetCall::Child(modref(*m)?, key)));
        }
        Ok(Some(ResetCall::Strides(v.to_vec())))
    }
}

crate::qfn! {
    /// `reset m`, `reset(m;child)`: parameters and buffers initialised again as when made;
    /// `reset(t;offset;sizes;strides)`: a tensor's view changed.
    pub fn reset(x: ResetCall) -> Result<()> {
        match x {
            ResetCall::Module(m) => reinit(modref(m)?.get()),
            ResetCall::Child(r, key) => reinit(r.get().find(key)?),
            ResetCall::Strides(v) => strides(&v),
        }
    }
}

/// Each module of the tree gets the values a new module of its layer and options would have.
fn reinit(m: &Module) -> Result<()> {
    let _nograd = tch::no_grad_guard();
    for (_, c) in m.named_modules() {
        if c.parms.is_empty() && c.buffers.is_empty() {
            continue; // nothing to reset, and no init to run for nothing
        }
        let fresh = Module::new(c.layer, None, c.opts.clone())?;
        let pairs = c.parms.iter().zip(&fresh.parms);
        for ((name, t), (_, new)) in pairs.chain(c.buffers.iter().zip(&fresh.buffers)) {
            t.shallow_clone()
                .f_copy_(new)
                .map_err(|e| anyhow!("{}: unable to reset `{name}: {e}", c.layer.name))?;
        }
    }
    Ok(())
}

/// ktorch's tensor `reset`: a new offset, sizes (contiguous strides unless given) and strides
/// into the same storage (libtorch checks the storage is large enough).
fn strides(v: &[K]) -> Result<()> {
    if !(2..=4).contains(&v.len()) {
        bail!(
            "up to 4 arguments expected, (tensor;offset;sizes;strides), but {} given",
            v.len()
        );
    }
    let offset = i64::of(v[1]).ok_or_else(|| {
        anyhow!(
            "offset (long) expected as 2nd argument, given {}",
            describe(v[1])
        )
    })?;
    let size = v.get(2).map(|s| {
        Vec::<i64>::of(*s)
            .ok_or_else(|| anyhow!("size(s) expected as 3rd argument, given {}", describe(*s)))
    });
    let stride = v.get(3).map(|s| {
        Vec::<i64>::of(*s)
            .ok_or_else(|| anyhow!("stride(s) expected as 4th argument, given {}", describe(*s)))
    });
    registry::with(v[0], |o| {
        let Obj::Tensor(t) = o else {
            bail!(
                "tensor expected as 1st of at least two arguments, given {}",
                o.class()
            )
        };
        let size = match size {
            Some(s) => s?,
            None => t.size(),
        };
        let stride = match stride {
            Some(s) => s?,
            None if v.len() == 2 => t.stride(),
            None => contiguous(&size),
        };
        let _ = t.f_as_strided_(size.as_slice(), stride.as_slice(), offset)?;
        Ok(())
    })
}

fn contiguous(size: &[i64]) -> Vec<i64> {
    let mut s = vec![1; size.len()];
    for i in (0..size.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * size[i + 1].max(1);
    }
    s
}

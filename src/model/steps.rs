//! A model's steps one at a time (train.rst "Training steps"), for loops written in q:
//! `backward m` / `backward(m;x;y)` (forward, loss and backward on the training data or on x;y:
//! the loss as a q scalar), `step m` (the optimizer's step), `backstep m` / `backstep(m;x;y)`
//! (gradients zeroed, then backward and step), and gradient clipping of any object's parameters:
//! `clip(obj;max)`, `clip(obj;max;p)`, `clip(obj;max;group flag)`, `clip(obj;max;p;flag)` (the
//! total norm before clipping; per optimizer group with the flag) and `clipv(obj;value)`.
use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

use super::data::side;
use super::run::clip_norm;
use super::run::forward_loss;
use super::scaler::Scaler;
use super::{is_model, of, ModelArg};
use crate::device::Handle;
use crate::k::from::{self, FromQ, Number as Num};
use crate::k::{make, KResult, K};
use crate::loss::object::Loss;
use crate::nn::ModRef;
use crate::nn::Run;
use crate::optim::Optimizer;
use crate::registry;
use crate::tensor::autograd::{backward_of, reset_grads};
use crate::tensor::{convert, opargs::describe};

/// The inputs and targets of a step: x;y given, or the training data (its current batch).
fn step_data(m: &super::Model, xy: Option<(K, K)>) -> Result<(Vec<Tensor>, Vec<Tensor>)> {
    match xy {
        Some((x, y)) => {
            let dev = m.module.get().device();
            let xs = side(&[x], dev).map_err(|e| anyhow!("inputs: {e}"))?;
            let ys = side(&[y], dev).map_err(|e| anyhow!("targets: {e}"))?;
            Ok((xs.cloned(), ys.cloned()))
        }
        None if m.data.size < 0 => bail!("no training data defined"),
        None => Ok((m.data.x.cloned(), m.data.y.cloned())),
    }
}

/// Forward and loss on x;y in training mode with gradients, then backward (of the loss times
/// the scale, with a gradient scaler): the loss tensor.
fn loss_backward(
    module: &ModRef,
    loss: &Loss,
    scaler: Option<&mut Scaler>,
    x: &[Tensor],
    y: &[Tensor],
) -> Result<Tensor> {
    Ok(loss_backward_read(module, loss, scaler, x, y, false)?.0)
}

/// A CUDA loss on its way to the host: copied as soon as the forward pass has computed it (into
/// pinned memory, behind an event), so that reading it waits for the forward pass only, not for
/// the backward pass queued after it: the GPU keeps the backward pass's work while q goes on.
pub struct EarlyLoss {
    host: Tensor,
    done: crate::device::event::Event,
}

impl EarlyLoss {
    fn start(l: &Tensor) -> Result<Option<EarlyLoss>> {
        let Device::Cuda(d) = l.device() else {
            return Ok(None);
        };
        // capturing a CUDA graph: no host copy may be recorded (graph.rs runs the step so)
        if crate::device::capture::capturing() {
            return Ok(None);
        }
        let host = l
            .f_detach()?
            .f_to_device_(Device::Cpu, l.kind(), true, false)?;
        let done = crate::device::event::Event::new(false)?;
        done.record(&crate::device::stream::Stream::current(d)?)?;
        Ok(Some(EarlyLoss { host, done }))
    }

    /// The loss on the host, once the copy is done.
    fn read(self) -> Result<Tensor> {
        self.done.sync()?;
        Ok(self.host)
    }
}

/// `loss_backward`, and with `early` the loss's copy to the host started between the forward
/// and the backward pass (`EarlyLoss`).
fn loss_backward_read(
    module: &ModRef,
    loss: &Loss,
    scaler: Option<&mut Scaler>,
    x: &[Tensor],
    y: &[Tensor],
    early: bool,
) -> Result<(Tensor, Option<EarlyLoss>)> {
    let run = Run {
        training: true,
        root: Some(module.root().clone()),
    };
    tch::with_grad(|| -> Result<(Tensor, Option<EarlyLoss>)> {
        let (_, l) = forward_loss(module.get(), &run, loss, x, y)?;
        let e = if early { EarlyLoss::start(&l)? } else { None };
        match scaler {
            Some(s) => backward_of(&s.scale(&l)?)?,
            None => backward_of(&l)?,
        }
        Ok((l, e))
    })
}

/// The model and optional inputs/targets of `backward`/`backstep`: `m` or `(m;x;y)` (x and y
/// read by `step_data` on the module's device).
pub struct StepCall {
    m: ModelArg,
    xy: Option<(K, K)>,
}

impl FromQ for StepCall {
    const TYPE: &'static str = "model, or (model;inputs;targets)";
    fn read(x: K) -> Result<Option<StepCall>> {
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(StepCall { m, xy: None }));
        }
        Ok(match from::list(&x) {
            Some([m, a, b]) => ModelArg::of(*m).map(|m| StepCall {
                m,
                xy: Some((*a, *b)),
            }),
            _ => None,
        })
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expected model, or (model;inputs;targets), given {}",
            describe(x)
        )
    }
}

crate::qfn! {
    /// `backward` on a model (called from dispatch::train::backward).
    pub fn backward(call: StepCall) -> KResult {
        let StepCall { m: h, xy } = call;
        let l = registry::lease(h.0, |o| {
            let m = of(o)?;
            let (x, y) = step_data(m, xy)?;
            let super::Model {
                module,
                loss,
                dist,
                scaler,
                ..
            } = m;
            crate::model::dist::synced(dist, module, || {
                loss_backward_read(module, loss, scaler.as_mut(), &x, &y, true)
            })
        })?;
        match l {
            (_, Some(early)) => convert::to_q(&early.read()?),
            (l, None) => convert::to_q(&l.f_detach()?),
        }
    }
}

pub fn is_model_call(x: K) -> bool {
    is_model(x) || matches!(from::list(&x), Some([m, _, _]) if is_model(*m))
}

crate::qfn! {
    /// `step m`: with a gradient scaler, GradScaler's step and update (scaler.rs).
    pub fn step(m: ModelArg) -> Result<()> {
        crate::k::interrupt::scope(|| {
            registry::lease(m.0, |o| {
                let m = of(o)?;
                match m.scaler.as_mut() {
                    Some(s) => s.step(&mut m.opt),
                    None => crate::model::dist::step(&mut m.dist, &m.module, &mut m.opt),
                }
            })
        })
    }

    /// `backstep m`, `backstep(m;x;y)`: forward, loss, backward and the optimizer's step; answers
    /// the loss.
    pub fn backstep(call: StepCall) -> KResult {
        let StepCall { m: h, xy } = call;
        // an LBFGS step iterates: Ctrl-C ends it between iterations (k::interrupt)
        let l = crate::k::interrupt::scope(|| {
            registry::lease(h.0, |o| {
                let m = of(o)?;
                let (x, y) = step_data(m, xy)?;
                let parms: Vec<Tensor> = m.opt.shared_parameters();
                let super::Model {
                    module,
                    loss,
                    opt,
                    dist,
                    scaler,
                    ..
                } = m;
                if let Some(s) = scaler {
                    if opt.kind.closure.is_some() {
                        bail!("gradscale: not for {}, whose step evaluates the loss more than once (as GradScaler, which takes no closure)", opt.kind.name);
                    }
                    reset_grads(&parms, true)?;
                    let l = crate::model::dist::synced(dist, module, || {
                        loss_backward(module, loss, Some(&mut *s), &x, &y)
                    })?;
                    s.step(opt)?;
                    return Ok(l);
                }
                if crate::model::dist::sharded(dist) {
                    // its optimizer takes no closure (LBFGS is refused): backward, then its step
                    reset_grads(&parms, true)?;
                    let l = crate::model::dist::synced(dist, module, || {
                        loss_backward(module, loss, None, &x, &y)
                    })?;
                    crate::model::dist::step(dist, module, opt)?;
                    return Ok(l);
                }
                opt.step_with(&mut || {
                    reset_grads(&parms, true)?;
                    crate::model::dist::synced(dist, module, || {
                        loss_backward(module, loss, None, &x, &y)
                    })
                })
            })
        })?;
        convert::to_q(&l.f_detach()?)
    }
}

fn num(x: K, what: &str) -> Result<f64> {
    match Num::of(x) {
        Some(Num::Int(i)) => Ok(i as f64),
        Some(Num::Float(f)) => Ok(f),
        None => bail!("{what}: expected a number, given {}", describe(x)),
    }
}

/// The parameters of an object, by optimizer group when it has them. A model's gradients are
/// unscaled first where it has a gradient scaler (GradScaler's `unscale_` before clipping).
fn groups(h: K) -> Result<Vec<Vec<Tensor>>> {
    Ok(groups_sharded(h)?.0)
}

/// `groups`, and whether the object is a model whose optimizer state is sharded across the ranks
/// (each rank holds its shard's gradients: a norm is taken across the ranks).
fn groups_sharded(h: K) -> Result<(Vec<Vec<Tensor>>, bool)> {
    let sharded = registry::with(h, |o| {
        Ok(o.get_mut::<super::Model>()
            .is_some_and(|m| crate::model::dist::sharded(&m.dist)))
    })?;
    let gs = registry::with(h, |o| {
        if let Some(m) = o.get_mut::<super::Model>() {
            if let Some(s) = m.scaler.as_mut() {
                let parms: Vec<Tensor> = m.opt.shared_parameters();
                s.unscale(&parms)?;
            }
        }
        let opt = o.part::<Optimizer>();
        Ok(match opt {
            Some(z) => z
                .groups
                .iter()
                .map(|g| g.parms.iter().map(|p| p.t.shallow_clone()).collect())
                .collect(),
            None => vec![o
                .tensors()
                .into_iter()
                .filter(|t| t.requires_grad())
                .map(|t| t.shallow_clone())
                .collect()],
        })
    })?;
    Ok((gs, sharded))
}

/// `clip`'s arguments: the object (a module, model or optimizer, or tensors), the max norm, the
/// norm type (default 2) and whether to clip each optimizer group on its own (default false),
/// the last two in either order.
pub struct ClipCall {
    h: K,
    max: f64,
    p: f64,
    group: bool,
}

impl FromQ for ClipCall {
    const TYPE: &'static str = "(object;max norm), (object;max;norm type), (object;max;group flag) or (object;max;norm type;group flag)";
    /// Every value is the call or an error.
    fn read(x: K) -> Result<Option<ClipCall>> {
        let v = from::list(&x)
            .filter(|v| (2..=4).contains(&v.len()) && registry::is_handle(v[0]))
            .ok_or_else(|| anyhow!("expected {}", Self::TYPE))?;
        let max = num(v[1], "max norm")?;
        let (mut p, mut group) = (2.0, false);
        for a in &v[2..] {
            match bool::of(*a) {
                Some(b) => group = b,
                None => p = num(*a, "norm type")?,
            }
        }
        Ok(Some(ClipCall {
            h: v[0],
            max,
            p,
            group,
        }))
    }
}

crate::qfn! {
    /// `clip(obj;max)`, `(obj;max;p)`, `(obj;max;flag)`, `(obj;max;p;flag)`: the total gradient
    /// norm before clipping (one per group with the flag).
    pub fn clip(call: ClipCall) -> KResult {
        let ClipCall { h, max, p, group } = call;
        let (gs, sharded) = groups_sharded(h)?;
        if sharded {
            let gs = if group {
                gs
            } else {
                vec![gs.into_iter().flatten().collect()]
            };
            let norms = crate::model::dist::clip_across(&gs, max, p)?;
            if !crate::session::setting::clipread() {
                return Ok(make::null());
            }
            let v = Vec::<f64>::try_from(norms.f_to_device(Device::Cpu)?)?;
            return Ok(if group {
                make::floats(&v)
            } else {
                make::float(v[0])
            });
        }
        // `setting`clipread,0b`: clip on the device, answer null, no wait for the GPU
        if !crate::session::setting::clipread() {
            if group {
                for g in &gs {
                    let _norm = clip_norm(g, max, p)?;
                }
            } else {
                let _norm = clip_norm(&gs.into_iter().flatten().collect::<Vec<_>>(), max, p)?;
            }
            return Ok(make::null());
        }
        // the norm is read: a synchronising model's collectives first, within the group's timeout
        registry::with(h, |o| match o.get_mut::<super::Model>() {
            Some(m) => crate::model::dist::settle(&m.dist),
            None => Ok(()),
        })?;
        if group {
            let norms = gs
                .iter()
                .map(|g| {
                    clip_norm(g, max, p)?
                        .f_double_value(&[])
                        .map_err(Into::into)
                })
                .collect::<Result<Vec<f64>>>()?;
            return Ok(make::floats(&norms));
        }
        let all: Vec<Tensor> = gs.into_iter().flatten().collect();
        Ok(make::float(clip_norm(&all, max, p)?.f_double_value(&[])?))
    }
}

/// `clipv`'s value: any numeric atom, as a float.
pub struct ClipValue(f64);

impl FromQ for ClipValue {
    const TYPE: &'static str = "a number";
    fn read(x: K) -> Result<Option<ClipValue>> {
        Ok(Num::of(x).map(|n| {
            ClipValue(match n {
                Num::Int(i) => i as f64,
                Num::Float(f) => f,
            })
        }))
    }
    /// ktorch's words, `clip value: expected a number, given ..`
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("clip value: expected a number, given {}", describe(x))
    }
}

crate::qfn! {
    /// `clipv(obj;value)`: every gradient clamped to -value..value; answers a float null.
    pub fn clipv(object: Handle, value: ClipValue) -> Result<f64> as "(object;value)" {
        let c = value.0;
        for t in groups(object.k())?.into_iter().flatten() {
            let g = t.grad();
            if g.defined() {
                let _ = g.shallow_clone().f_clamp_(-c, c)?;
            }
        }
    // ktorch answers a float null (kmodel.cpp's kclip: clipping by value has no norm to give)
        Ok(f64::NAN)
    }
}

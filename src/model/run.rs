//! The epoch loops (train.rst "Running calculations"): `run` trains through the training data
//! once, batch by batch (zero gradients, forward, loss, backward, clip, optimizer step), `testrun`
//! evaluates the test data (evaluation mode, no gradients). Both report the metrics of the
//! settings: the mean batch loss, each batch's loss, the percentage of correct predictions
//! (arg max of the output along dim 1 against class targets), the predictions, the outputs.
//! Losses and counts stay tensors until the epoch ends: no device sync per batch.
use anyhow::{anyhow, bail, Result};
use tch::{Kind, Tensor};

use super::{Data, Model, Settings};
use crate::k::{make, KResult, K};
use crate::loss::object::Loss;
use crate::nn::{Module, Run};
use crate::registry::{self, Obj};
use crate::tensor::autograd::{backward_of, reset_grads};
use crate::tensor::convert;

/// What one epoch gathered.
#[derive(Default)]
pub struct Epoch {
    pub losses: Vec<Tensor>,
    pub correct: Option<Tensor>,
    pub samples: i64,
    pub predict: Vec<Tensor>,
    pub output: Vec<Tensor>,
    /// Target elements compared (`matches`: kmodel.cpp matches counts the target's numel).
    pub compared: i64,
    /// Each batch's hidden state and cell state (the module's second and third outputs).
    pub hidden: Vec<Tensor>,
    pub hiddencell: Vec<Tensor>,
    /// Batches of the whole pass when several tasks share the data: the `loss` metric is this
    /// task's batch losses summed over all the pass's batches (kmodel.cpp getmetrics); 0: a mean.
    pub batches: i64,
}

impl Epoch {
    /// One batch's loss (none where a test pass asks for no loss metric), sample count and the
    /// metrics asked for: correct predictions (arg max along the last dim against class targets),
    /// predictions, outputs. Kept as tensors: no sync.
    pub(crate) fn record(
        &mut self,
        out: &Tensor,
        l: Option<&Tensor>,
        yb: &[Tensor],
        samples: i64,
        metrics: &[&str],
    ) -> Result<()> {
        let want = |k: &str| metrics.contains(&k);
        if let Some(l) = l {
            self.losses.push(l.f_detach()?);
        }
        self.samples += samples;
        if want("accuracy") || want("matches") || want("predict") {
            let p = out.f_detach()?.f_argmax(-1, false)?;
            if want("accuracy") || want("matches") {
                let y = yb.first().ok_or_else(|| anyhow!("accuracy: no targets"))?;
                self.compared += y.numel() as i64;
                let c = p
                    .f_eq_tensor(&y.f_to_device(p.device())?)?
                    .f_sum(Kind::Int64)?;
                self.correct = Some(match self.correct.take() {
                    Some(a) => a.f_add(&c)?,
                    None => c,
                });
            }
            if want("predict") {
                self.predict.push(p);
            }
        }
        if want("output") {
            self.output.push(out.f_detach()?);
        }
        Ok(())
    }

    /// The hidden state (`hidden`: the second output) and cell state (`hiddencell`: the third)
    /// of a batch's outputs when the metrics ask for them (kmodel.cpp `hidden`).
    pub(crate) fn record_hidden(&mut self, outs: &[Tensor], metrics: &[&str]) -> Result<()> {
        for (k, i) in [("hidden", 1), ("hiddencell", 2)] {
            if metrics.contains(&k) {
                let t = outs.get(i).ok_or_else(|| {
                    anyhow!(
                        "metric: unable to retrieve {k} from vector of tensors with {} element(s)",
                        outs.len()
                    )
                })?;
                let v = if k == "hidden" {
                    &mut self.hidden
                } else {
                    &mut self.hiddencell
                };
                v.push(t.f_detach()?);
            }
        }
        Ok(())
    }
}

/// One pass of this rank alone through the training (`training`) or test data, batch by batch
/// from where batching stands (as ktorch: a pass begun with `batch m` goes on from there),
/// showing progress on `bar` (a data source's pass: model/source.rs), or on a display of its own
/// when `progress` is on (model/progress.rs). On an error the data is left at full size. A
/// synchronising model's training pass is dist.rs's; pass.rs chooses.
pub fn local_epoch(
    m: &mut Model,
    training: bool,
    bar: Option<&mut super::progress::Bar>,
) -> Result<Epoch> {
    let s = if training {
        m.train.clone()
    } else {
        m.test.clone()
    };
    let Model {
        module,
        loss,
        opt,
        data,
        testdata,
        scaler,
        ..
    } = m;
    let d = if training { data } else { testdata };
    if d.size < 0 {
        bail!(
            "no {} data defined",
            if training { "training" } else { "test" }
        );
    }
    let root = module.root().clone();
    let module = module.get();
    let run = Run {
        training,
        root: Some(root),
    };
    let parms: Vec<Tensor> = opt.shared_parameters();
    let groups: Vec<Vec<Tensor>> = opt
        .groups
        .iter()
        .map(|g| g.parms.iter().map(|p| p.t.shallow_clone()).collect())
        .collect();
    let mut e = Epoch {
        batches: if s.tasks > 1 { d.batches(&s) } else { 0 },
        ..Epoch::default()
    };
    // a test pass computes the loss only when a metric needs it (kmodel.cpp's testloop and
    // lossflag): test data may have no targets, as mnist/gan.q's generator with metric `output
    let need_loss = training || s.metrics.iter().any(|k| matches!(*k, "loss" | "batchloss"));
    // the outputs of the previous batch of this pass, for the `hidden` setting
    let mut prev: Option<Vec<Tensor>> = None;
    let mut own = match bar {
        Some(_) => None,
        None => super::progress::Bar::start(
            if training { "run" } else { "testrun" },
            Some(d.batches(&s) - d.batch.max(-1) - 1),
        ),
    };
    let mut bar = bar.or(own.as_mut());
    let mut batch = |d: &Data| -> Result<Option<Tensor>> {
        let (mut xb, yb) = (d.x.cloned(), d.y.cloned());
        if s.hidden {
            if let Some(p) = prev.take() {
                xb = hidden_state(xb, p)?;
            }
        }
        let forward_loss = || forward_loss(module, &run, loss, &xb, &yb);
        let (outs, l) = if training {
            let (o, l) = train_batch(
                module,
                &run,
                loss,
                opt,
                scaler.as_mut(),
                &s,
                &parms,
                &groups,
                &xb,
                &yb,
            )?;
            (o, Some(l))
        } else if need_loss {
            let (o, l) = tch::no_grad(forward_loss)?;
            (o, Some(l))
        } else {
            (tch::no_grad(|| forward_only(module, &run, &xb))?, None)
        };
        let out = outs[0].shallow_clone();
        e.record_hidden(&outs, &s.metrics)?;
        if s.hidden {
            prev = Some(outs);
        }
        e.record(&out, l.as_ref(), &yb, d.current(), &s.metrics)?;
        Ok(l)
    };
    // CUDA class targets (ce, nll) are checked per call, a synchronization each; `run` checks
    // every batch of the first epoch on new data, and later epochs only their first batch (to
    // see the class count is the same), trusting the rest of the data checked before.
    let _ = crate::loss::calc::classes_seen();
    let trust = d.checked;
    let mut seen = None;
    let mut last: Option<Tensor> = None;
    let r = (|| -> Result<()> {
        let mut first = true;
        while d.next(&s, training)? {
            // Ctrl-C ends the pass here, between batches (the data goes back to full size below)
            crate::k::interrupt::check()?;
            if !first && trust.is_some() && seen == trust {
                last = crate::tensor::known::trusted(|| batch(d))?;
                if let Some(b) = bar.as_deref_mut() {
                    b.tick(last.as_ref());
                }
                continue;
            }
            last = batch(d)?;
            if let Some(b) = bar.as_deref_mut() {
                b.tick(last.as_ref());
            }
            if first {
                seen = crate::loss::calc::classes_seen();
                first = false;
            }
        }
        Ok(())
    })();
    if r.is_ok() {
        d.checked = seen;
    }
    if let Some(b) = own.as_mut() {
        b.finish(last.as_ref());
    }
    if r.is_err() {
        let _ = d.fullsize();
    }
    r?;
    Ok(e)
}

/// The inputs of a batch with the `hidden` setting (kmodel.cpp's `hiddenstate`): the batch's
/// one input, then the hidden state (and cell state) the previous batch's forward gave after its
/// output.
fn hidden_state(x: Vec<Tensor>, prev: Vec<Tensor>) -> Result<Vec<Tensor>> {
    if x.len() != 1 {
        bail!("unable to retrieve hidden state from {} inputs", x.len());
    }
    match prev.len() {
        2 | 3 => Ok(x.into_iter().chain(prev.into_iter().skip(1)).collect()),
        n => bail!("unable to retrieve hidden state from {n}-element vector of output(s)"),
    }
}

/// One training step on a batch: gradients dropped, forward, loss, backward, clipping as the
/// settings say, the optimizer's step. Answers the outputs and the loss. Also what a CUDA graph
/// of a training step records (model/graph.rs), so both run the same step. With a gradient
/// scaler (`gradscale`, scaler.rs): backward on the scaled loss, gradients unscaled before
/// clipping, the step skipped after an overflow and the scale updated.
#[allow(clippy::too_many_arguments)]
pub(crate) fn train_batch(
    module: &Module,
    run: &Run,
    loss: &Loss,
    opt: &mut crate::optim::Optimizer,
    scaler: Option<&mut super::scaler::Scaler>,
    s: &Settings,
    parms: &[Tensor],
    groups: &[Vec<Tensor>],
    xb: &[Tensor],
    yb: &[Tensor],
) -> Result<(Vec<Tensor>, Tensor)> {
    if let Some(sc) = scaler {
        if opt.kind.closure.is_some() {
            bail!("gradscale: not for {}, whose step evaluates the loss more than once (as GradScaler, which takes no closure)", opt.kind.name);
        }
        reset_grads(parms, true)?;
        let (out, l) = tch::with_grad(|| -> Result<(Vec<Tensor>, Tensor)> {
            let (out, l) = forward_loss(module, run, loss, xb, yb)?;
            backward_of(&sc.scale(&l)?)?;
            Ok((out, l))
        })?;
        if s.sync {
            crate::device::sync_device(l.device())?;
        }
        if s.clipvalue.is_some() || s.clipnorm.is_some() {
            sc.unscale(parms)?;
        }
        clip(s, parms, groups)?;
        sc.step(opt)?;
        return Ok((out, l));
    }
    // the optimizer may evaluate more than once (LBFGS): metrics use the first output
    let mut first: Option<Vec<Tensor>> = None;
    let l = opt.step_with(&mut || {
        reset_grads(parms, true)?;
        let (out, l) = tch::with_grad(|| -> Result<(Vec<Tensor>, Tensor)> {
            let (out, l) = forward_loss(module, run, loss, xb, yb)?;
            backward_of(&l)?;
            Ok((out, l))
        })?;
        if s.sync {
            crate::device::sync_device(l.device())?;
        }
        clip(s, parms, groups)?;
        first.get_or_insert(out);
        Ok(l)
    })?;
    Ok((
        first.ok_or_else(|| anyhow!("optimizer step made no evaluation"))?,
        l,
    ))
}

/// The module's outputs for inputs `x` and the loss of the first against targets `y`: a module
/// giving several tensors (an `lstm`'s output and hidden state, a `recur`'s) is trained on its
/// output, the first (kloss.cpp's `lossinput`). Under the session's autocast (setting`autocast)
/// when the module is on CUDA.
pub(crate) fn forward_loss(
    module: &Module,
    run: &Run,
    loss: &Loss,
    x: &[Tensor],
    y: &[Tensor],
) -> Result<(Vec<Tensor>, Tensor)> {
    let device = module.device_for(x);
    crate::session::precision::autocast_scope(device, || {
        let out = crate::nn::precast::scope(module, device, || module.forward(run, x))?.into_vec();
        let first = out.first().ok_or_else(|| {
            anyhow!(
                "{}: unable to retrieve model output from empty vector of tensors",
                module.layer.name
            )
        })?;
        let l = loss.output(first.shallow_clone(), y)?;
        Ok((out, l))
    })
}

/// The module's outputs for inputs `x`, no loss (a test pass whose metrics need none); under the
/// session's autocast as forward_loss.
fn forward_only(module: &Module, run: &Run, x: &[Tensor]) -> Result<Vec<Tensor>> {
    let device = module.device_for(x);
    crate::session::precision::autocast_scope(device, || {
        let out = crate::nn::precast::scope(module, device, || module.forward(run, x))?.into_vec();
        if out.is_empty() {
            bail!(
                "{}: unable to retrieve model output from empty vector of tensors",
                module.layer.name
            );
        }
        Ok(out)
    })
}

/// Gradient clipping by value, then by norm (all parameters, or each optimizer group).
pub(crate) fn clip(s: &Settings, parms: &[Tensor], groups: &[Vec<Tensor>]) -> Result<()> {
    if let Some(v) = s.clipvalue {
        for p in parms {
            let g = p.grad();
            if g.defined() {
                let _ = g.shallow_clone().f_clamp_(-v, v)?;
            }
        }
    }
    if let Some((max, p)) = s.clipnorm {
        if s.clipgroup {
            for g in groups {
                let _ = clip_norm(g, max, p)?;
            }
        } else {
            let _ = clip_norm(parms, max, p)?;
        }
    }
    Ok(())
}

/// PyTorch's clip_grad_norm_: scale all gradients by max/(total norm + 1e-6) when above max;
/// answers the total norm.
pub fn clip_norm(parms: &[Tensor], max: f64, p: f64) -> Result<Tensor> {
    let grads: Vec<Tensor> = parms
        .iter()
        .map(|t| t.grad())
        .filter(|g| g.defined())
        .collect();
    if grads.is_empty() {
        return Ok(Tensor::f_zeros([], (Kind::Float, tch::Device::Cpu))?);
    }
    // CUDA gradients of one device and type: PyTorch's multi-tensor path (two launches)
    if grads[0].device().is_cuda()
        && grads.iter().all(|g| {
            g.device() == grads[0].device() && g.kind() == grads[0].kind() && !g.is_sparse()
        })
    {
        return crate::optim::fused::clip_norm(&grads, max, p);
    }
    let norms = grads
        .iter()
        .map(|g| g.f_norm_scalaropt_dim(p, &[] as &[i64], false))
        .collect::<Result<Vec<_>, _>>()?;
    let total = if p.is_infinite() {
        Tensor::f_stack(&norms, 0)?.f_amax(&[] as &[i64], false)?
    } else {
        Tensor::f_stack(&norms, 0)?.f_norm_scalaropt_dim(p, &[] as &[i64], false)?
    };
    let coef = total
        .f_add_scalar(1e-6)?
        .f_reciprocal()?
        .f_mul_scalar(max)?
        .f_clamp_max(1.0)?;
    for g in grads {
        let _ = g.shallow_clone().f_mul_(&coef)?;
    }
    Ok(total)
}

/// The metrics of an epoch in the form the settings ask for.
pub fn results(e: Epoch, s: &Settings) -> KResult {
    let mut vals: Vec<Tensor> = vec![];
    for k in &s.metrics {
        vals.push(match *k {
            "loss" => {
                if e.losses.is_empty() {
                    bail!("no batches");
                }
                let l = Tensor::f_stack(&e.losses, 0)?;
                if e.batches > 0 {
                    l.f_sum(None)?.f_div_scalar(e.batches as f64)?
                } else {
                    l.f_mean(None)?
                }
            }
            "batchloss" => Tensor::f_stack(&e.losses, 0)?,
            "accuracy" => {
                let c = e.correct.as_ref().ok_or_else(|| anyhow!("no batches"))?;
                c.f_to_kind(Kind::Double)?
                    .f_mul_scalar(100.0 / e.samples.max(1) as f64)?
            }
            // correct predictions and target elements compared (kmodel.cpp matches, summed)
            "matches" => {
                let c = e.correct.as_ref().ok_or_else(|| anyhow!("no batches"))?;
                let c = c.f_to_device(tch::Device::Cpu)?.int64_value(&[]);
                Tensor::from_slice(&[c, e.compared])
            }
            "predict" => Tensor::f_cat(&e.predict, 0)?,
            "output" => Tensor::f_cat(&e.output, 0)?,
            // each batch's state joined along the first dimension (kmodel.cpp getmetrics: cat)
            "hidden" | "hiddencell" => {
                let v = if *k == "hidden" {
                    &e.hidden
                } else {
                    &e.hiddencell
                };
                if v.is_empty() {
                    bail!("{k}: no batches");
                }
                if v[0].dim() > 0 {
                    Tensor::f_cat(v, 0)?
                } else {
                    Tensor::f_stack(v, 0)?
                }
            }
            _ => unreachable!(),
        });
    }
    let ks: Vec<K> = if s.tensor {
        vals.into_iter()
            .map(|t| registry::add(Obj::Tensor(t)))
            .collect()
    } else {
        make::try_vec(
            vals.iter()
                .map(|t| convert::to_q(&t.f_to_device(tch::Device::Cpu)?)),
        )?
    };
    Ok(if s.dictionary {
        make::dict(&s.metrics, ks)
    } else if ks.len() == 1 {
        ks.into_iter().next().unwrap()
    } else {
        make::list(ks)
    })
}

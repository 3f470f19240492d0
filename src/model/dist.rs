//! A model that trains in step with the other ranks of the process group (PyTorch's
//! DistributedDataParallel): `distmodel m` broadcasts rank 0's parameters and buffers to every
//! rank, and from then on the model's `run`
//! - takes this rank's shard of the training data: with n samples and w ranks, each pass orders
//!   the samples (in order, or shuffled when the `shuffle` training option is set, by a
//!   permutation every rank draws alike from the model's seed and the pass number), and rank r
//!   takes every w-th sample from the r-th: n div w samples each (the remainder is left out, as
//!   DistributedSampler with drop_last), batched by the training options;
//! - broadcasts rank 0's buffers before each forward (DDP's default broadcast_buffers: batchnorm
//!   running statistics are rank 0's);
//! - averages the gradients across the ranks after each backward, before clipping and the
//!   optimizer's step, in buckets of up to 25 MiB (DDP's bucket_cap_mb) started together and
//!   then waited for (no overlap with the backward pass itself);
//! - reports the loss averaged across ranks (each batch's, and the mean), the accuracy over all
//!   ranks' samples; predictions and outputs are this rank's own samples.
//! `backward` and `backstep` on the model do the same broadcast and averaging around their one
//! forward and backward (before_forward, after_backward); `testrun` is unchanged: every rank
//! evaluates all its test data with the same parameters.
//!
//! Forms: `distmodel m` (seed 0), `distmodel(m;seed)`, `distmodel(m;0b)` (back to training
//! alone; 1b is the same as `distmodel m`).
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use crate::dist::collect::{allreduce_tensors, broadcast_tensors};
use crate::dist::group::{self, Group};
use crate::k::{make, read, KResult, K};
use super::api::{is_model, of};
use super::run::{clip, forward_loss, Epoch};
use super::Model;
use crate::nn::Run;
use crate::registry;
use crate::tensor::autograd::{backward_of, reset_grads};
use crate::tensor::batch::count;
use crate::tensor::opargs::describe;

/// DDP's default bucket size for gradients.
const BUCKET_BYTES: i64 = 25 << 20;

/// A synchronising model's state: the seed of its shuffles and the passes run so far.
pub struct Sync {
    pub seed: u64,
    pub passes: u64,
}

pub fn distmodel(x: K) -> KResult {
    let usage = "expecting model, (model;seed) or (model;flag)";
    let (h, arg) = if is_model(x) {
        (x, None)
    } else {
        match read::items(x) {
            Some([m, a]) if read::ktype(x) == 0 && is_model(*m) => (*m, Some(*a)),
            _ => bail!("{usage}, given {}", describe(x)),
        }
    };
    let seed = match arg {
        None => Some(0),
        Some(a) if read::ktype(a) == -1 => read::boolean(a).unwrap().then_some(0),
        Some(a) if matches!(read::ktype(a), -5 | -6 | -7) => {
            let s = read::long(a).unwrap();
            if s < 0 {
                bail!("seed: expected a non-negative number, given {s}");
            }
            Some(s as u64)
        }
        Some(a) => bail!("{usage}: seed as a whole number or flag as a boolean, given {}", describe(a)),
    };
    registry::lease(h, |o| {
        let m = of(o)?;
        match seed {
            None => m.dist = None,
            Some(seed) => {
                group::with(|g| {
                    let module = m.module.get();
                    let ts: Vec<Tensor> = module.named_parameters().into_iter().chain(module.named_buffers()).map(|(_, t)| t.shallow_clone()).collect();
                    comm_check(g, &ts)?;
                    broadcast_tensors(g, &ts, 0)
                })?;
                m.dist = Some(Sync { seed, passes: 0 });
            }
        }
        Ok(())
    })?;
    Ok(make::null())
}

/// The tensors a backend can carry: CPU for gloo, CUDA for nccl.
fn comm_check(g: &Group, ts: &[Tensor]) -> Result<()> {
    for t in ts {
        match (g.backend, t.device()) {
            ("gloo", Device::Cpu) => {}
            ("nccl", Device::Cuda(_)) => {}
            (b, d) => bail!("the {b} backend cannot carry the model's tensors on {d:?}: gloo needs the model on the CPU, nccl on CUDA"),
        }
    }
    Ok(())
}

/// The device of metrics sent across ranks.
fn comm_device(g: &Group, like: &Tensor) -> Device {
    if g.backend == "gloo" {
        Device::Cpu
    } else {
        like.device()
    }
}

/// A permutation of 0..n from (seed, pass): splitmix64 driving Fisher-Yates, the same on every
/// rank and machine (it does not touch libtorch's generators, so `seed` in q does not move it).
pub fn permutation(n: usize, seed: u64, pass: u64) -> Vec<i64> {
    let mut s = seed ^ pass.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut v: Vec<i64> = (0..n as i64).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

/// This rank's samples of a pass: every size-th of the order, from the rank-th.
pub fn shard(n: i64, rank: i64, size: i64, order: &[i64]) -> Vec<i64> {
    (0..n / size).map(|i| order[(rank + size * i) as usize]).collect()
}

/// Average the gradients of parms across the ranks, in buckets (same kind and device, up to
/// BUCKET_BYTES, in reverse order as DDP fills them), all started at once, then written back.
fn average_grads(g: &Group, parms: &[Tensor]) -> Result<()> {
    let mut grads = vec![];
    for (i, p) in parms.iter().enumerate() {
        let gr = p.grad();
        if !gr.defined() {
            bail!("parameter {i} has no gradient after backward: every rank must use every parameter (as DDP without find_unused_parameters)");
        }
        grads.push(gr);
    }
    let mut buckets: Vec<Vec<Tensor>> = vec![];
    let mut bytes = 0;
    for gr in grads.into_iter().rev() {
        let b = gr.numel() as i64 * gr.kind().elt_size_in_bytes() as i64;
        let fits = buckets.last().is_some_and(|l: &Vec<Tensor>| l[0].kind() == gr.kind() && l[0].device() == gr.device() && bytes + b <= BUCKET_BYTES);
        if fits {
            bytes += b;
            buckets.last_mut().unwrap().push(gr);
        } else {
            bytes = b;
            buckets.push(vec![gr]);
        }
    }
    let flats: Vec<Tensor> = buckets.iter().map(|l| Tensor::f_cat(&l.iter().map(|t| t.f_reshape([-1])).collect::<Result<Vec<_>, _>>()?, 0)).collect::<Result<_, _>>()?;
    allreduce_tensors(g, &flats, 1)?;
    for (l, f) in buckets.iter().zip(&flats) {
        let mut off = 0;
        for t in l {
            let n = t.numel() as i64;
            let _ = t.shallow_clone().f_copy_(&f.f_narrow(0, off, n)?.f_view_as(t)?)?;
            off += n;
        }
    }
    Ok(())
}

/// For `backward` and `backstep` on a model (steps.rs): when it synchronises, rank 0's buffers
/// before the forward pass.
pub fn before_forward(sync: &Option<Sync>, module: &crate::nn::ModRef) -> Result<()> {
    if sync.is_none() {
        return Ok(());
    }
    let buffers: Vec<Tensor> = module.get().named_buffers().into_iter().map(|(_, t)| t.shallow_clone()).collect();
    if buffers.is_empty() {
        return Ok(());
    }
    group::with(|g| {
        comm_check(g, &buffers)?;
        tch::no_grad(|| broadcast_tensors(g, &buffers, 0))
    })
}

/// For `backward` and `backstep` on a model: when it synchronises, the gradients averaged
/// across the ranks after the backward pass (as DDP's backward does).
pub fn after_backward(sync: &Option<Sync>, module: &crate::nn::ModRef) -> Result<()> {
    if sync.is_none() {
        return Ok(());
    }
    let parms: Vec<Tensor> = module.get().named_parameters().into_iter().map(|(_, t)| t.shallow_clone()).filter(|t| t.requires_grad()).collect();
    group::with(|g| {
        comm_check(g, &parms)?;
        tch::no_grad(|| average_grads(g, &parms))
    })
}

/// One training pass of a synchronising model over this rank's shard (see the module's notes).
pub fn epoch(m: &mut Model) -> Result<Epoch> {
    let s = m.train.clone();
    let sync = m.dist.as_mut().ok_or_else(|| anyhow!("model is not synchronising"))?;
    let (seed, pass) = (sync.seed, sync.passes);
    let Model { module, loss, opt, data, .. } = m;
    if data.size < 0 {
        bail!("no training data defined");
    }
    let n = data.fullsize()?;
    group::with(|g| {
        let per = n / g.size;
        if per == 0 {
            bail!("{n} training sample(s) cannot be shared by {} ranks", g.size);
        }
        let order = if s.shuffle { permutation(n as usize, seed, pass) } else { (0..n).collect() };
        let rows = shard(n, g.rank, g.size, &order);
        let width = s.batchsize.min(per);
        let batches = count(width, per, s.droplast);
        let (xs, ys) = (data.x.cloned(), data.y.cloned());
        let root = module.root().clone();
        let module = module.get();
        let run = Run { training: true, root: Some(root) };
        let parms: Vec<Tensor> = module.named_parameters().into_iter().map(|(_, t)| t.shallow_clone()).filter(|t| t.requires_grad()).collect();
        let buffers: Vec<Tensor> = module.named_buffers().into_iter().map(|(_, t)| t.shallow_clone()).collect();
        comm_check(g, &parms)?;
        comm_check(g, &buffers)?;
        let groups: Vec<Vec<Tensor>> = opt.groups.iter().map(|gr| gr.parms.iter().map(|p| p.t.shallow_clone()).collect()).collect();
        let mut e = Epoch::default();
        for b in 0..batches {
            let r = &rows[(b * width) as usize..((b + 1) * width).min(per) as usize];
            let idx = Tensor::from_slice(r);
            let pick = |ts: &[Tensor]| ts.iter().map(|t| t.f_index_select(0, &idx.f_to_device(t.device())?)).collect::<Result<Vec<_>, _>>();
            let (xb, yb) = (pick(&xs)?, pick(&ys)?);
            if !buffers.is_empty() {
                tch::no_grad(|| broadcast_tensors(g, &buffers, 0))?;
            }
            let mut first: Option<Tensor> = None;
            let l = opt.step_with(&mut || {
                reset_grads(&parms, true)?;
                let (out, l) = tch::with_grad(|| -> Result<(Tensor, Tensor)> {
                    let (out, l) = forward_loss(module, &run, loss, &xb, &yb)?;
                    // a module of several outputs is trained (and scored) on the first
                    let out = out.into_iter().next().ok_or_else(|| anyhow!("forward gave no tensor"))?;
                    backward_of(&l)?;
                    Ok((out, l))
                })?;
                tch::no_grad(|| average_grads(g, &parms))?;
                clip(&s, &parms, &groups)?;
                first.get_or_insert(out);
                Ok(l)
            })?;
            let out = first.ok_or_else(|| anyhow!("optimizer step made no evaluation"))?;
            e.record(&out, &l, &yb, r.len() as i64, &s.metrics)?;
        }
        // metrics across ranks: losses averaged batch by batch, correct counts and samples summed
        if let Some(l0) = e.losses.first() {
            let dev = comm_device(g, l0);
            let l = Tensor::f_stack(&e.losses, 0)?.f_to_device(dev)?;
            allreduce_tensors(g, std::slice::from_ref(&l), 1)?;
            e.losses = l.f_unbind(0)?;
            let c = match &e.correct {
                Some(c) => c.f_to_device(dev)?,
                None => Tensor::f_zeros([], (Kind::Int64, dev))?,
            };
            let samples = Tensor::f_full([], e.samples, (Kind::Int64, dev))?;
            let both = Tensor::f_stack(&[c, samples], 0)?;
            allreduce_tensors(g, std::slice::from_ref(&both), 0)?;
            if e.correct.is_some() {
                e.correct = Some(both.f_get(0)?);
            }
            e.samples = both.f_int64_value(&[1])?;
        }
        Ok(e)
    })
    .inspect(|_| {
        if let Some(s) = m.dist.as_mut() {
            s.passes += 1;
        }
    })
}

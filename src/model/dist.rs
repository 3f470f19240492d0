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
//! - averages the gradients across the ranks, before clipping and the optimizer's step, in
//!   buckets of up to 25 MiB (DDP's bucket_cap_mb): by default each bucket's all-reduce starts
//!   during the backward pass as soon as its gradients are accumulated (DDP's overlap, through
//!   hooks on the gradient accumulators: src/cxx/dist_reducer.cpp) and all are waited for after
//!   it; option `overlap` 0b sends every bucket after the backward pass instead;
//! - reports the loss averaged across ranks (each batch's, and the mean), the accuracy over all
//!   ranks' samples; predictions and outputs are this rank's own samples.
//!
//! `backward` and `backstep` on the model do the same broadcast and averaging around their one
//! forward and backward (`synced`); `testrun` is unchanged: every rank evaluates all its test
//! data with the same parameters.
//!
//! Forms: `distmodel m` (seed 0), `distmodel(m;seed)`, `distmodel(m;0b)` (back to training
//! alone; 1b is the same as `distmodel m`), `distmodel(m;names;values)` with options `seed`,
//! `overlap` (1b), `bucket` (MiB, 25), `first` (the first bucket's MiB, as `bucket`: DDP's
//! first_bucket_bytes_cap), `views` (0b: DDP's gradient_as_bucket_view), `buffers` (1b: DDP's
//! broadcast_buffers), `compress` (`none, `bf16 or `fp16: DDP's compression hooks) and `shard`
//! (0b: the optimizer's state sharded across the ranks, model/shard.rs).
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use super::run::{clip, forward_loss, Epoch};
use super::shard::{self, Plan};
use super::Model;
use super::{is_model, of};
use crate::cxx::dist::Reducer;
use crate::dist::collect::{allreduce_tensors, broadcast_tensors};
use crate::dist::group::{self, Group};
use crate::k::from::{self, FromQ, Number as Num, Whole};
use crate::k::{make, read, Owned, K};
use crate::nn::Run;
use crate::optim::Optimizer;
use crate::registry;
use crate::tensor::autograd::{backward_of, reset_grads};
use crate::tensor::batch::count;
use crate::tensor::opargs::describe;

/// DDP's default bucket size for gradients (bucket_cap_mb 25).
const BUCKET_MIB: f64 = 25.0;

/// A synchronising model's state: the seed of its shuffles and the passes run so far, its
/// options, and the reducer of its gradients when they are averaged during the backward pass.
pub struct Sync {
    pub seed: u64,
    pub passes: u64,
    /// Buckets' all-reduce started during the backward pass (DDP), or all after it.
    pub overlap: bool,
    pub bucket_bytes: i64,
    /// The first bucket's size limit (DDP's first_bucket_bytes_cap), None: `bucket_bytes`.
    pub first_bytes: Option<i64>,
    /// Gradients as views of the buckets, no copy in and out (DDP's gradient_as_bucket_view).
    pub views: bool,
    /// Rank 0's buffers broadcast before each forward pass (DDP's broadcast_buffers).
    pub buffers: bool,
    /// Optimizer state sharded across the ranks (model/shard.rs): gradients reduce-scattered,
    /// each rank stepping its own parameters, parameters all-gathered after the step.
    pub shard: bool,
    /// The type gradients travel in (DDP's bf16 and fp16 compression hooks), None: their own.
    pub compress: Option<Kind>,
    reducer: Option<Reducer>,
    plan: Option<Plan>,
}

impl Sync {
    /// The first bucket's size limit in bytes.
    fn first(&self) -> i64 {
        self.first_bytes.unwrap_or(self.bucket_bytes)
    }

    fn new(seed: u64) -> Sync {
        Sync {
            seed,
            passes: 0,
            overlap: true,
            bucket_bytes: (BUCKET_MIB * 1048576.0) as i64,
            first_bytes: None,
            views: false,
            buffers: true,
            shard: false,
            compress: None,
            reducer: None,
            plan: None,
        }
    }
}

/// A bucket size given in MiB, as bytes.
fn mib(name: &str, x: K) -> Result<i64> {
    let mib = match Num::of(x) {
        Some(Num::Int(i)) if read::ktype(x) < 0 => i as f64,
        Some(Num::Float(f)) if read::ktype(x) < 0 => f,
        _ => bail!("{name}: expected MiB as a number, given {}", describe(x)),
    };
    if !(mib > 0.0 && mib <= 65536.0) {
        bail!("{name}: expected MiB, more than 0 and at most 65536, given {mib}");
    }
    Ok(((mib * 1048576.0) as i64).max(1))
}

/// The options of `distmodel(m;names;values)` over the defaults.
fn options(names: K, values: K) -> Result<Sync> {
    let one = read::ktype(names) == -11;
    let names = Vec::<&str>::of(names)
        .or_else(|| <&str>::of(names).map(|s| vec![s]))
        .ok_or_else(|| {
            anyhow!(
                "option names expected as symbols, given {}",
                describe(names)
            )
        })?;
    let e = Owned::new(if one {
        make::list_of(&[values])
    } else {
        make::explode(values)
    });
    let r = (|| {
        let items = e.items().unwrap_or(&[]);
        if items.len() != names.len() {
            bail!(
                "{} option name(s) but {} value(s)",
                names.len(),
                items.len()
            );
        }
        let mut s = Sync::new(0);
        for (n, x) in names.iter().zip(items) {
            let x = *x;
            let flag = || {
                bool::of(x)
                    .filter(|_| read::ktype(x) == -1)
                    .ok_or_else(|| anyhow!("{n}: expected a boolean, given {}", describe(x)))
            };
            match *n {
                "seed" => {
                    let v = Whole::of(x).map(|w| w.0).filter(|v| matches!(read::ktype(x), -7..=-5) && *v >= 0);
                    s.seed = v.ok_or_else(|| {
                        anyhow!(
                            "seed: expected a non-negative whole number, given {}",
                            describe(x)
                        )
                    })? as u64;
                }
                "overlap" => s.overlap = flag()?,
                "views" => s.views = flag()?,
                "shard" => s.shard = flag()?,
                "compress" => {
                    let c = <&str>::of(x).filter(|_| read::ktype(x) == -11);
                    s.compress = match c {
                        Some("none") => None,
                        Some("bf16") => Some(Kind::BFloat16),
                        Some("fp16") => Some(Kind::Half),
                        _ => bail!(
                            "compress: expected `none, `bf16 or `fp16, given {}",
                            describe(x)
                        ),
                    };
                }
                "buffers" => s.buffers = flag()?,
                "bucket" => s.bucket_bytes = mib(n, x)?,
                "first" => s.first_bytes = Some(mib(n, x)?),
                _ => bail!("unrecognized option `{n}, expecting `seed`overlap`bucket`first`views`buffers`shard`compress"),
            }
        }
        // options that would be silently ignored: an error instead
        if s.views && (!s.overlap || s.shard) {
            bail!("views: the gradients are views of the buckets of the backward pass: not with overlap 0b or shard 1b");
        }
        if s.first_bytes.is_some() && s.shard {
            bail!("first: a sharded model's buckets are cut per rank, with no first bucket: not with shard 1b");
        }
        Ok(s)
    })();
    r
}

/// `distmodel`'s forms, read: `distmodel m` (synchronised, seed 0), `distmodel(m;seed)`,
/// `distmodel(m;flag)` (on, or off: None), `distmodel(m;names;values)` (options).
pub struct Distributed {
    m: super::ModelArg,
    sync: Option<Sync>,
}

impl FromQ for Distributed {
    const TYPE: &'static str = "model, (model;seed), (model;flag) or (model;names;values)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Distributed>> {
        let usage = "expecting model, (model;seed), (model;flag) or (model;names;values)";
        let (h, sync) = if is_model(x) {
            (x, Some(Sync::new(0)))
        } else {
            match from::list(&x) {
                Some([m, a]) if read::ktype(x) == 0 && is_model(*m) => {
                    let a = *a;
                    let sync = match read::ktype(a) {
                        -1 => bool::of(a).unwrap().then(|| Sync::new(0)),
                        -7..=-5 => {
                            let s = Whole::of(a).map(|w| w.0).unwrap();
                            if s < 0 {
                                bail!("seed: expected a non-negative number, given {s}");
                            }
                            Some(Sync::new(s as u64))
                        }
                        _ => bail!(
                            "{usage}: seed as a whole number or flag as a boolean, given {}",
                            describe(a)
                        ),
                    };
                    (*m, sync)
                }
                Some([m, n, v]) if read::ktype(x) == 0 && is_model(*m) => {
                    (*m, Some(options(*n, *v)?))
                }
                _ => bail!("{usage}, given {}", describe(x)),
            }
        };
        Ok(Some(Distributed {
            m: super::ModelArg(h),
            sync,
        }))
    }
}

crate::qfn! {
    /// `distmodel`'s forms (`Distributed`): the model's gradients averaged across the ranks of
    /// the process group at each step, its parameters and buffers first made rank 0's; or not.
    pub fn distmodel(call: Distributed) -> Result<()> {
        let Distributed { m: h, sync } = call;
        registry::lease(h.0, |o| {
            let m = of(o)?;
            if sync.as_ref().is_some_and(|s| s.shard) {
                if m.opt.kind.closure.is_some() {
                    bail!("shard: not for {}, whose step evaluates the loss over every parameter (it has no state per parameter to shard)", m.opt.kind.name);
                }
                if m.scaler.is_some() {
                    bail!("shard: not with a gradient scaler (gradscale)");
                }
            }
            match sync {
                None => m.dist = None,
                Some(sync) => {
                    group::with(|g| {
                        let module = m.module.get();
                        let ts: Vec<Tensor> = module
                            .named_parameters()
                            .into_iter()
                            .chain(module.named_buffers())
                            .map(|(_, t)| t.shallow_clone())
                            .collect();
                        comm_check(g, &ts)?;
                        broadcast_tensors(g, &ts, 0)
                    })?;
                    m.dist = Some(sync);
                }
            }
            Ok(())
        })
    }
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
    (0..n / size)
        .map(|i| order[(rank + size * i) as usize])
        .collect()
}

/// Average the gradients of parms across the ranks after the backward pass, in buckets (same
/// kind and device, up to `cap` bytes, in reverse order as DDP fills them), all started at once,
/// then written back: the path without overlap (option `overlap` 0b). With `compress` (bf16 or
/// fp16) each bucket travels in that type, divided by the number of ranks before the sum across
/// them (DDP's bf16_compress_hook and fp16_compress_hook), and is cast back into the gradients.
fn average_grads(
    g: &Group,
    parms: &[Tensor],
    (cap, first): (i64, i64),
    compress: Option<Kind>,
) -> Result<()> {
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
        let fits = buckets.last().is_some_and(|l: &Vec<Tensor>| {
            l[0].kind() == gr.kind()
                && l[0].device() == gr.device()
                && bytes + b <= if buckets.len() == 1 { first } else { cap }
        });
        if fits {
            bytes += b;
            buckets.last_mut().unwrap().push(gr);
        } else {
            bytes = b;
            buckets.push(vec![gr]);
        }
    }
    let flats: Vec<Tensor> = buckets
        .iter()
        .map(|l| {
            Tensor::f_cat(
                &l.iter()
                    .map(|t| t.f_reshape([-1]))
                    .collect::<Result<Vec<_>, _>>()?,
                0,
            )
        })
        .collect::<Result<_, _>>()?;
    let flats = match compress {
        Some(k) => {
            let c = flats
                .iter()
                .map(|f| f.f_to_kind(k)?.f_div_scalar_(g.size as f64))
                .collect::<Result<Vec<_>, _>>()?;
            allreduce_tensors(g, &c, 0)?;
            c
        }
        None => {
            allreduce_tensors(g, &flats, 1)?;
            flats
        }
    };
    for (l, f) in buckets.iter().zip(&flats) {
        let mut off = 0;
        for t in l {
            let n = t.numel() as i64;
            t.shallow_clone()
                .f_copy_(&f.f_narrow(0, off, n)?.f_view_as(t)?)?;
            off += n;
        }
    }
    Ok(())
}

/// One forward and backward pass `f` of a synchronising model, on the group: rank 0's buffers
/// first (option `buffers`), then the gradients averaged across the ranks, bucket by bucket
/// during the backward pass (the reducer's hooks, option `overlap`) or all after it.
fn forward_backward<T>(
    g: &Group,
    sync: &mut Sync,
    parms: &[Tensor],
    buffers: &[Tensor],
    f: impl FnOnce() -> Result<T>,
) -> Result<T> {
    if sync.buffers && !buffers.is_empty() {
        tch::no_grad(|| broadcast_tensors(g, buffers, 0))?;
    }
    if sync.shard {
        let plan = Plan::refresh(&mut sync.plan, g, parms, sync.bucket_bytes);
        // gradients accumulate as unsharded (the previous average plus this pass's): the shard's
        // are put aside, this pass's alone reduce-scattered, then the two added
        let kept = shard::take_grads(g, plan, parms)?;
        let r = f()?;
        shard::reduce_grads(g, plan, parms, sync.compress)?;
        shard::add_grads(parms, kept)?;
        return Ok(r);
    }
    if !sync.overlap {
        let r = f()?;
        let caps = (sync.bucket_bytes, sync.first());
        tch::no_grad(|| average_grads(g, parms, caps, sync.compress))?;
        return Ok(r);
    }
    if sync.reducer.is_none() {
        let r = Reducer::new(
            parms,
            sync.bucket_bytes,
            sync.first(),
            sync.views,
            sync.compress,
        )?;
        sync.reducer = Some(r);
    }
    // the shim's reducer (hooks on the parameters' gradient accumulators), freed with the setting
    let red = sync.reducer.as_ref().unwrap();
    red.prepare(g.pg(), parms)?;
    let r = f();
    // always disarmed after, whatever the backward pass gave
    let done = red.finish(r.is_ok());
    let r = r?;
    done?;
    Ok(r)
}

/// The parameters that take gradients and the buffers of a module.
fn parms_buffers(module: &crate::nn::ModRef) -> (Vec<Tensor>, Vec<Tensor>) {
    let m = module.get();
    let parms = m
        .named_parameters()
        .into_iter()
        .map(|(_, t)| t.shallow_clone())
        .filter(|t| t.requires_grad())
        .collect();
    let buffers = m
        .named_buffers()
        .into_iter()
        .map(|(_, t)| t.shallow_clone())
        .collect();
    (parms, buffers)
}

/// The training options' clipping (`clipvalue`, `clipnorm`, `clipgroup`) of a sharded model,
/// whose ranks each hold their own shard's gradients: the norm is taken across the ranks.
fn clip_sharded(
    g: &Group,
    s: &super::settings::Settings,
    parms: &[Tensor],
    groups: &[Vec<Tensor>],
) -> Result<()> {
    if let Some(v) = s.clipvalue {
        for gr in parms.iter().map(|p| p.grad()).filter(|t| t.defined()) {
            let _ = gr.shallow_clone().f_clamp_(-v, v)?;
        }
    }
    if let Some((max, p)) = s.clipnorm {
        let all = [parms.iter().map(Tensor::shallow_clone).collect()];
        let _ = shard::clip_norms(g, if s.clipgroup { groups } else { &all }, max, p)?;
    }
    Ok(())
}

/// Whether a model's optimizer state is sharded across the ranks (`distmodel` option `shard`).
pub fn sharded(sync: &Option<Sync>) -> bool {
    sync.as_ref().is_some_and(|s| s.shard)
}

/// The optimizer's step of a model (`step`, `backstep`): when its state is sharded, each rank
/// steps its own shard (LAMB given the global gradient norm across the ranks), then the
/// parameters are all-gathered; otherwise the optimizer's step alone.
pub fn step(
    sync: &mut Option<Sync>,
    module: &crate::nn::ModRef,
    opt: &mut Optimizer,
) -> Result<()> {
    let Some(sync) = sync.as_mut().filter(|s| s.shard) else {
        return opt.step();
    };
    let (parms, _) = parms_buffers(module);
    group::with(|g| {
        comm_check(g, &parms)?;
        shard_step(g, sync, opt, &parms)
    })
}

/// A sharded model's step on the group (see `step`).
fn shard_step(g: &Group, sync: &mut Sync, opt: &mut Optimizer, parms: &[Tensor]) -> Result<()> {
    if opt.kind.name == "lamb" && !opt.groups.is_empty() && opt.settings(0).flag("globalnorm") {
        opt.global_sq = Some(shard::square_sum(g, &opt.shared_parameters())?);
    }
    opt.step()?;
    let plan = Plan::refresh(&mut sync.plan, g, parms, sync.bucket_bytes);
    shard::gather_parms(g, plan, parms)
}

/// Before a value of a synchronising model is read back on the host: the collectives its last
/// backward pass left to the GPU waited for within the group's timeout (a dead peer's error here,
/// not a wait without end in the read); none when the group has ended.
pub fn settle(sync: &Option<Sync>) -> Result<()> {
    let Some(r) = sync.as_ref().and_then(|s| s.reducer.as_ref()) else {
        return Ok(());
    };
    match group::with(|g| r.settle(Some(g.pg()))) {
        Err(e) if e.to_string().starts_with("no process group") => r.settle(None),
        r => r,
    }
}

/// `clip(m;max..)` of a sharded model: the norms across the ranks of each group's gradients
/// (float64), each rank's own gradients scaled.
pub fn clip_across(groups: &[Vec<Tensor>], max: f64, p: f64) -> Result<Tensor> {
    group::with(|g| shard::clip_norms(g, groups, max, p))
}

/// For `backward` and `backstep` on a model (steps.rs): `f` (its forward and backward pass) as
/// is, or, when the model synchronises, with rank 0's buffers before it and the gradients
/// averaged across the ranks (during and after the backward pass, as DDP's backward does).
pub fn synced<T>(
    sync: &mut Option<Sync>,
    module: &crate::nn::ModRef,
    f: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let Some(sync) = sync.as_mut() else {
        return f();
    };
    let (parms, buffers) = parms_buffers(module);
    group::with(|g| {
        comm_check(g, &parms)?;
        comm_check(g, &buffers)?;
        forward_backward(g, sync, &parms, &buffers, f)
    })
}

/// One training pass of a synchronising model over this rank's shard (see the module's notes).
pub fn epoch(m: &mut Model) -> Result<Epoch> {
    let s = m.train.clone();
    let Model {
        module,
        loss,
        opt,
        data,
        dist,
        ..
    } = m;
    let sync = dist
        .as_mut()
        .ok_or_else(|| anyhow!("model is not synchronising"))?;
    let (seed, pass) = (sync.seed, sync.passes);
    if data.size < 0 {
        bail!("no training data defined");
    }
    let n = data.fullsize()?;
    group::with(|g| {
        let per = n / g.size;
        if per == 0 {
            bail!(
                "{n} training sample(s) cannot be shared by {} ranks",
                g.size
            );
        }
        let order = if s.shuffle {
            permutation(n as usize, seed, pass)
        } else {
            (0..n).collect()
        };
        let rows = shard(n, g.rank, g.size, &order);
        let width = s.batchsize.min(per);
        let batches = count(width, per, s.droplast);
        let (xs, ys) = (data.x.cloned(), data.y.cloned());
        let root = module.root().clone();
        let (parms, buffers) = parms_buffers(module);
        let module = module.get();
        let run = Run {
            training: true,
            root: Some(root),
        };
        comm_check(g, &parms)?;
        comm_check(g, &buffers)?;
        let groups: Vec<Vec<Tensor>> = opt
            .groups
            .iter()
            .map(|gr| gr.parms.iter().map(|p| p.t.shallow_clone()).collect())
            .collect();
        let mut e = Epoch::default();
        for b in 0..batches {
            let r = &rows[(b * width) as usize..((b + 1) * width).min(per) as usize];
            let idx = Tensor::from_slice(r);
            let pick = |ts: &[Tensor]| {
                ts.iter()
                    .map(|t| t.f_index_select(0, &idx.f_to_device(t.device())?))
                    .collect::<Result<Vec<_>, _>>()
            };
            let (xb, yb) = (pick(&xs)?, pick(&ys)?);
            let mut first: Option<Tensor> = None;
            let sharded = sync.shard;
            let mut pass = || -> Result<Tensor> {
                // with gradients as views of the buckets, zeroed in place: the backward pass
                // accumulates into the views (set to none, each would be copied into its view)
                reset_grads(&parms, !(sync.views && sync.overlap && !sync.shard))?;
                let (out, l) = forward_backward(g, sync, &parms, &buffers, || {
                    tch::with_grad(|| -> Result<(Tensor, Tensor)> {
                        let (out, l) = forward_loss(module, &run, loss, &xb, &yb)?;
                        // a module of several outputs is trained (and scored) on the first
                        let out = out
                            .into_iter()
                            .next()
                            .ok_or_else(|| anyhow!("forward gave no tensor"))?;
                        backward_of(&l)?;
                        Ok((out, l))
                    })
                })?;
                if sharded {
                    clip_sharded(g, &s, &parms, &groups)?;
                } else {
                    clip(&s, &parms, &groups)?;
                }
                first.get_or_insert(out);
                Ok(l)
            };
            // a sharded model's optimizer takes no closure (LBFGS is refused)
            let l = if sharded {
                let l = pass()?;
                shard_step(g, sync, opt, &parms)?;
                l
            } else {
                opt.step_with(&mut pass)?
            };
            let out = first.ok_or_else(|| anyhow!("optimizer step made no evaluation"))?;
            e.record(&out, Some(&l), &yb, r.len() as i64, &s.metrics)?;
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

//! Sharded optimizer state for a synchronising model (`distmodel` option `shard`; ZeRO as
//! PyTorch's ZeroRedundancyOptimizer): every rank still holds the whole model and computes every
//! gradient, but each parameter has one owner rank, and only the owner keeps its optimizer state
//! and steps it.
//!
//! - The parameters are partitioned across the ranks balanced by size, as
//!   ZeroRedundancyOptimizer's `_partition_parameters`: largest first (ties in parameter order),
//!   each to the rank with the fewest bytes so far (the first such rank).
//! - After the backward pass the gradients are **reduce-scattered** (not all-reduced): each bucket
//!   is laid out rank by rank (the owner's gradients, then zeros up to the bucket's longest
//!   share), so one reduce-scatter leaves every rank exactly the average of its own shard. The
//!   owned gradients take the averages; the others are freed (none): a rank holds the gradients
//!   of its shard only, and the optimizer, which skips parameters without a gradient, steps only
//!   those and makes state for those alone (about 1/N of the bytes).
//! - Clipping by norm takes the norm across the shards: each rank's partial (sum of p-th powers,
//!   or the largest magnitude for p inf) is all-reduced, then each rank scales its own gradients.
//! - After the optimizer's step the parameters are **all-gathered** in the same buckets: each
//!   rank sends its shard, and writes every other rank's into its copy of the model.
//!
//! A bucket holds, for each rank, a run of its owned parameters of one type and device of up to
//! `bucket / ranks` bytes (at least one parameter), so a collective carries about `bucket` bytes.
//! The reduce-scatter runs after the backward pass (not overlapped with it).
use anyhow::{bail, Result};
use tch::{Device, Kind, Tensor};

use crate::dist::collect::{allreduce_tensors, gather_one, scatter_one};
use crate::dist::group::Group;
use crate::tensor::autograd::reset_grads;

/// A bucket: for each rank the indices of the parameters of its shard in it (in parameter order)
/// and the elements of the longest share (every share padded to it).
struct Bucket {
    parts: Vec<Vec<usize>>,
    len: i64,
    kind: Kind,
    device: Device,
}

/// The partition of a model's parameters and its buckets, made for one set of parameter tensors
/// (`key`) and number of ranks, and made again when either changes (the module moved or
/// changed).
pub struct Plan {
    key: Vec<(usize, i64, Kind)>,
    ranks: i64,
    /// The owner rank of each parameter.
    pub owner: Vec<i64>,
    buckets: Vec<Bucket>,
}

fn bytes(t: &Tensor) -> i64 {
    t.numel() as i64 * t.kind().elt_size_in_bytes() as i64
}

fn key(parms: &[Tensor]) -> Vec<(usize, i64, Kind)> {
    parms
        .iter()
        .map(|t| (t.data_ptr() as usize, t.numel() as i64, t.kind()))
        .collect()
}

/// ZeroRedundancyOptimizer's partition: largest parameters first (a stable sort: ties keep the
/// parameters' order), each to the first rank of fewest bytes so far.
pub fn partition(sizes: &[i64], ranks: usize) -> Vec<i64> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by(|a, b| sizes[*b].cmp(&sizes[*a]));
    let mut total = vec![0i64; ranks];
    let mut owner = vec![0i64; sizes.len()];
    for i in order {
        let r = (0..ranks).min_by_key(|r| (total[*r], *r)).unwrap();
        owner[i] = r as i64;
        total[r] += sizes[i];
    }
    owner
}

impl Plan {
    fn new(parms: &[Tensor], ranks: i64, cap: i64) -> Plan {
        let w = ranks as usize;
        let sizes: Vec<i64> = parms.iter().map(bytes).collect();
        let owner = partition(&sizes, w);
        // each type and device apart (a bucket is one flat tensor), in order of first appearance
        let mut classes: Vec<(Kind, Device)> = vec![];
        for t in parms {
            if !classes.contains(&(t.kind(), t.device())) {
                classes.push((t.kind(), t.device()));
            }
        }
        let share = (cap / ranks).max(1);
        let mut buckets = vec![];
        for (kind, device) in classes {
            // each rank's owned parameters of the class, cut into runs of up to `share` bytes
            let runs: Vec<Vec<Vec<usize>>> = (0..w)
                .map(|r| {
                    let mut runs: Vec<Vec<usize>> = vec![];
                    let mut filled = 0;
                    for (i, t) in parms.iter().enumerate() {
                        if owner[i] != r as i64 || t.kind() != kind || t.device() != device {
                            continue;
                        }
                        let b = sizes[i];
                        match runs.last_mut() {
                            Some(run) if filled + b <= share => {
                                run.push(i);
                                filled += b;
                            }
                            _ => {
                                runs.push(vec![i]);
                                filled = b;
                            }
                        }
                    }
                    runs
                })
                .collect();
            let count = runs.iter().map(Vec::len).max().unwrap_or(0);
            for k in 0..count {
                let parts: Vec<Vec<usize>> = runs
                    .iter()
                    .map(|r| r.get(k).cloned().unwrap_or_default())
                    .collect();
                let len = parts
                    .iter()
                    .map(|p| p.iter().map(|i| parms[*i].numel() as i64).sum::<i64>())
                    .max()
                    .unwrap_or(0);
                if len > 0 {
                    buckets.push(Bucket {
                        parts,
                        len,
                        kind,
                        device,
                    });
                }
            }
        }
        Plan {
            key: key(parms),
            ranks,
            owner,
            buckets,
        }
    }

    /// The plan for these parameters on g's ranks: `plan` as it is, or made again.
    pub fn refresh<'a>(
        plan: &'a mut Option<Plan>,
        g: &Group,
        parms: &[Tensor],
        cap: i64,
    ) -> &'a Plan {
        let stale = plan
            .as_ref()
            .is_none_or(|p| p.ranks != g.size || p.key != key(parms));
        if stale {
            *plan = Some(Plan::new(parms, g.size, cap));
        }
        plan.as_ref().unwrap()
    }

    /// Whether parameter i is this rank's.
    pub fn mine(&self, g: &Group, i: usize) -> bool {
        self.owner[i] == g.rank
    }
}

/// One flat tensor of a share: the tensors' values end to end, then zeros up to `len` elements.
fn flat_share(ts: &[Tensor], len: i64, kind: Kind, device: Device) -> Result<Tensor> {
    let mut v: Vec<Tensor> = ts
        .iter()
        .map(|t| t.f_reshape([-1]))
        .collect::<Result<_, _>>()?;
    let n: i64 = ts.iter().map(|t| t.numel() as i64).sum();
    if n < len {
        v.push(Tensor::f_zeros([len - n], (kind, device))?);
    }
    Ok(Tensor::f_cat(&v, 0)?)
}

/// Copy consecutive slices of `flat` into the tensors.
fn unflatten(flat: &Tensor, ts: &[Tensor]) -> Result<()> {
    let mut off = 0;
    for t in ts {
        let n = t.numel() as i64;
        t.shallow_clone()
            .f_copy_(&flat.f_narrow(0, off, n)?.f_view_as(t)?)?;
        off += n;
    }
    Ok(())
}

/// After the backward pass: each bucket's gradients reduce-scattered so that every rank holds
/// the average of its shard's gradients; the others' gradients are freed. With `compress` (bf16
/// or fp16), each bucket is cast to that type and divided by the number of ranks before a sum
/// across them, then cast back (DDP's bf16_compress_hook and fp16_compress_hook).
pub fn reduce_grads(
    g: &Group,
    plan: &Plan,
    parms: &[Tensor],
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
    tch::no_grad(|| -> Result<()> {
        for b in &plan.buckets {
            let shares: Vec<Tensor> = b
                .parts
                .iter()
                .map(|part| {
                    let ts: Vec<Tensor> = part.iter().map(|i| grads[*i].shallow_clone()).collect();
                    flat_share(&ts, b.len, b.kind, b.device)
                })
                .collect::<Result<_>>()?;
            let flat = Tensor::f_cat(&shares, 0)?;
            let mine = match compress {
                Some(k) => {
                    let c = flat.f_to_kind(k)?.f_div_scalar_(g.size as f64)?;
                    scatter_one(g, &c, 0)?
                }
                None => scatter_one(g, &flat, 1)?,
            };
            let own: Vec<Tensor> = b.parts[g.rank as usize]
                .iter()
                .map(|i| grads[*i].shallow_clone())
                .collect();
            unflatten(&mine, &own)?;
        }
        Ok(())
    })?;
    let others: Vec<&Tensor> = parms
        .iter()
        .enumerate()
        .filter(|(i, _)| !plan.mine(g, *i))
        .map(|(_, t)| t)
        .collect();
    reset_grads(&others, true)
}

/// Before a backward pass: the gradients this rank's shard already has (a second backward pass
/// before a step accumulates onto them), each with its parameter's index; every gradient freed,
/// so the backward pass makes this pass's alone. The other ranks' parameters' gradients are
/// dropped: only the owner keeps a shard's gradients.
pub fn take_grads(g: &Group, plan: &Plan, parms: &[Tensor]) -> Result<Vec<(usize, Tensor)>> {
    let kept = parms
        .iter()
        .enumerate()
        .filter(|(i, _)| plan.mine(g, *i))
        .map(|(i, t)| (i, t.grad()))
        .filter(|(_, gr)| gr.defined())
        .collect();
    reset_grads(parms, true)?;
    Ok(kept)
}

/// After the reduce-scatter: the gradients `take_grads` put aside added back.
pub fn add_grads(parms: &[Tensor], kept: Vec<(usize, Tensor)>) -> Result<()> {
    tch::no_grad(|| -> Result<()> {
        for (i, old) in kept {
            let _ = parms[i].grad().f_add_(&old)?;
        }
        Ok(())
    })
}

/// After the optimizer's step: every rank's shard of the parameters all-gathered in the same
/// buckets, so that every rank holds the same parameters.
pub fn gather_parms(g: &Group, plan: &Plan, parms: &[Tensor]) -> Result<()> {
    tch::no_grad(|| -> Result<()> {
        for b in &plan.buckets {
            let own: Vec<Tensor> = b.parts[g.rank as usize]
                .iter()
                .map(|i| parms[*i].shallow_clone())
                .collect();
            let all = gather_one(g, &flat_share(&own, b.len, b.kind, b.device)?)?;
            for (r, part) in b.parts.iter().enumerate() {
                if r as i64 == g.rank || part.is_empty() {
                    continue;
                }
                let ts: Vec<Tensor> = part.iter().map(|i| parms[*i].shallow_clone()).collect();
                unflatten(&all.f_get(r as i64)?, &ts)?;
            }
        }
        Ok(())
    })
}

/// The device of a tensor sent across ranks: the CPU for gloo, the parameters' for nccl.
fn comm_device(g: &Group, parms: &[Tensor]) -> Device {
    match (g.backend, parms.first()) {
        ("nccl", Some(t)) => t.device(),
        _ => Device::Cpu,
    }
}

/// The sum of the squares of every gradient across the ranks (LAMB's global norm, squared), in
/// the parameters' type and on their device.
pub fn square_sum(g: &Group, parms: &[Tensor]) -> Result<Tensor> {
    let Some(first) = parms.first() else {
        bail!("no parameters");
    };
    let (kind, dev) = (first.kind(), comm_device(g, parms));
    tch::no_grad(|| -> Result<Tensor> {
        let mut sq = Tensor::f_zeros([], (kind, dev))?;
        for gr in parms.iter().map(|t| t.grad()).filter(|t| t.defined()) {
            let s = gr.f_pow_tensor_scalar(2)?.f_sum(gr.kind())?;
            sq = sq.f_add(&s.f_to_device(dev)?)?;
        }
        allreduce_tensors(g, std::slice::from_ref(&sq), 0)?;
        Ok(sq.f_to_device(first.device())?)
    })
}

/// PyTorch's clip_grad_norm_ across the shards, for each group of parameters: the total p-norm of
/// the group's gradients on every rank (each rank's partial all-reduced), each rank's own
/// gradients scaled by max/(total + 1e-6) when above max. Answers the totals (float64, one a
/// group, on the device the ranks talk through).
pub fn clip_norms(g: &Group, groups: &[Vec<Tensor>], max: f64, p: f64) -> Result<Tensor> {
    let all: Vec<Tensor> = groups.iter().flatten().map(Tensor::shallow_clone).collect();
    let dev = comm_device(g, &all);
    let inf = p.is_infinite();
    tch::no_grad(|| -> Result<Tensor> {
        let partials = groups
            .iter()
            .map(|ps| -> Result<Tensor> {
                let grads: Vec<Tensor> = ps
                    .iter()
                    .map(|t| t.grad())
                    .filter(|t| t.defined())
                    .collect();
                if grads.is_empty() {
                    return Ok(Tensor::f_zeros([], (Kind::Double, dev))?);
                }
                let norms = grads
                    .iter()
                    .map(|gr| gr.f_norm_scalaropt_dim(p, &[] as &[i64], false))
                    .collect::<Result<Vec<_>, _>>()?;
                let s = Tensor::f_stack(&norms, 0)?.f_to_kind(Kind::Double)?;
                let part = if inf {
                    s.f_amax(&[] as &[i64], false)?
                } else {
                    s.f_pow_tensor_scalar(p)?.f_sum(None)?
                };
                Ok(part.f_to_device(dev)?)
            })
            .collect::<Result<Vec<_>>>()?;
        let v = Tensor::f_stack(&partials, 0)?;
        // op 0 sum, 4 max (collect::OPS)
        allreduce_tensors(g, std::slice::from_ref(&v), if inf { 4 } else { 0 })?;
        let totals = if inf {
            v
        } else {
            v.f_pow_tensor_scalar(1.0 / p)?
        };
        // on the device: no wait for the GPU here
        let coefs = totals
            .f_add_scalar(1e-6)?
            .f_reciprocal()?
            .f_mul_scalar(max)?
            .f_clamp_max(1.0)?;
        for (i, ps) in groups.iter().enumerate() {
            let c = coefs.f_get(i as i64)?;
            for gr in ps.iter().map(|t| t.grad()).filter(|t| t.defined()) {
                let _ = gr.shallow_clone().f_mul_(&c.f_to_device(gr.device())?)?;
            }
        }
        Ok(totals)
    })
}

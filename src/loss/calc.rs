//! The loss calculations: libtorch's own loss functions through tch where tch has them, tensor
//! operations (differentiable as they are) for `multimargin` and `multisoft`, which tch lacks.
//! Each takes the input tensors in the order of the q form and the options read for the call.
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::args::{Opts, Red};

pub type Calc = fn(&[Tensor], &Opts) -> Result<Tensor>;

/// Apply a reduction to unreduced losses (for the losses computed here).
fn reduce(l: Tensor, r: Red) -> Result<Tensor> {
    Ok(match r {
        Red::None => l,
        Red::Sum => l.f_sum(None::<Kind>)?,
        Red::Mean | Red::BatchMean => l.f_mean(None::<Kind>)?,
    })
}

pub fn bce(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    // batch weights (a third input) broadcast to the target's shape, as libtorch's functional form
    let w = match t.get(2) {
        Some(w) => Some(w.f_expand_as(&t[1])?),
        None => None,
    };
    Ok(t[0].f_binary_cross_entropy(&t[1], w, o.reduce.tch())?)
}

/// bcelogit1 (input;target) and bcelogit2 (input;target;batch weight); the `weight` option is
/// libtorch's `pos_weight`, a weight for each class.
pub fn bcelogits(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    let pos = o.tensor("weight", &t[0])?;
    Ok(t[0].f_binary_cross_entropy_with_logits(&t[1], t.get(2), pos.as_ref(), o.reduce.tch())?)
}

/// On CUDA a class index out of range is a device-side assert, which ends the process's CUDA
/// context (every later CUDA call fails; libtorch's allocator has crashed after one: found by
/// ktorch-fuzz --cuda). So class targets of a CUDA input are checked first: one
/// synchronization, unless their range is known on the host (q data sent in this call,
/// tensor::known) or they come from data checked before (`run`). Not on the CPU, where
/// libtorch's own check is an error, and not while a CUDA graph records (no synchronizing then:
/// `graph` checks in its eager warm-up steps, and `replay` checks new targets against the class
/// count seen then, `classes_seen`).
fn check_classes(x: &Tensor, y: &Tensor, ignore: i64) -> Result<()> {
    if !x.device().is_cuda() || y.is_floating_point() || y.numel() == 0 {
        return Ok(());
    }
    let classes = if x.dim() == 1 {
        x.size()[0]
    } else {
        x.size()[1]
    };
    CLASSES.with(|c| c.set(Some((classes, ignore))));
    if crate::device::capture::capturing() || crate::tensor::known::is_trusted() {
        return Ok(());
    }
    targets_within(y, classes, ignore)
}

/// Every target a class index below `classes`, or `ignore`.
pub fn targets_within(y: &Tensor, classes: i64, ignore: i64) -> Result<()> {
    if let Some(v) = crate::tensor::known::first_outside(y, 0, classes, Some(ignore))? {
        bail!("target {v} is not a class index for {classes} classes");
    }
    Ok(())
}

thread_local! {
    /// The class count and ignore index of this thread's last CUDA class-target check.
    static CLASSES: std::cell::Cell<Option<(i64, i64)>> = const { std::cell::Cell::new(None) };
}

/// Take the class count and ignore index the last check saw (cleared).
pub fn classes_seen() -> Option<(i64, i64)> {
    CLASSES.with(|c| c.take())
}

pub fn ce(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    check_classes(&t[0], &t[1], o.long("ignore", -100))?;
    let w = o.tensor("weight", &t[0])?;
    Ok(t[0].f_cross_entropy_loss(
        &t[1],
        w,
        o.reduce.tch(),
        o.long("ignore", -100),
        o.double("smoothing", 0.0),
    )?)
}

pub fn cosineloss(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(Tensor::f_cosine_embedding_loss(
        &t[0],
        &t[1],
        &t[2],
        o.double("margin", 0.0),
        o.reduce.tch(),
    )?)
}

/// libtorch's CPU ctc_loss indexes the log-probabilities by target class and the targets by
/// the lengths without checking them (a target of 999999 was a segfault, found by ktorch-fuzz):
/// each length in range, and each target read (the first `length` of each row, or of the
/// concatenated list) a class index other than blank.
fn check_ctc(t: &[Tensor], blank: i64) -> Result<()> {
    let host = |x: &Tensor| -> Result<Vec<i64>> {
        let x = x
            .f_to_device(tch::Device::Cpu)?
            .f_to_kind(Kind::Int64)?
            .f_flatten(0, -1)?;
        Ok(Vec::<i64>::try_from(&x)?)
    };
    let (lp, tg) = (t[0].size(), t[1].size());
    if lp.len() < 2 || lp.len() > 3 {
        bail!(
            "input must be (time;batch;classes) or (time;classes) log-probabilities, given {}-d",
            lp.len()
        );
    }
    let (steps, classes) = (lp[0], lp[lp.len() - 1]);
    let (xl, yl, y) = (host(&t[2])?, host(&t[3])?, host(&t[1])?);
    if let Some(n) = xl.iter().find(|n| **n < 0 || **n > steps) {
        bail!("input length {n} out of range 0..{steps}");
    }
    let rows: Vec<&[i64]> = if tg.len() == 2 {
        // padded (batch;max target length): row i's first yl[i] are read
        let width = tg[1];
        if yl.len() as i64 > tg[0] {
            bail!("{} target lengths for {} target rows", yl.len(), tg[0]);
        }
        let mut v = vec![];
        for (i, n) in yl.iter().enumerate() {
            if *n < 0 || *n > width {
                bail!("target length {n} out of range 0..{width}");
            }
            let at = i * width as usize;
            v.push(&y[at..at + *n as usize]);
        }
        v
    } else {
        // concatenated: the lengths partition the list
        if let Some(n) = yl.iter().find(|n| **n < 0) {
            bail!("target length {n} is negative");
        }
        let total: i64 = yl.iter().sum();
        if total > y.len() as i64 {
            bail!(
                "target lengths sum to {total}, but {} targets given",
                y.len()
            );
        }
        vec![&y[..total as usize]]
    };
    for c in rows.into_iter().flatten() {
        if *c < 0 || *c >= classes || *c == blank {
            bail!(
                "target {c} is not a class index in 0..{} other than blank ({blank})",
                classes - 1
            );
        }
    }
    Ok(())
}

pub fn ctc(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    let blank = o.long("blank", 0);
    let classes = t[0].size().last().copied().unwrap_or(0);
    if blank < 0 || blank >= classes {
        bail!("blank {blank} out of range 0..{}", classes - 1);
    }
    check_ctc(t, blank)?;
    let (nx, ny) = (t[2].f_to_kind(Kind::Int64)?, t[3].f_to_kind(Kind::Int64)?);
    Ok(Tensor::f_ctc_loss_tensor(
        &t[0],
        &t[1],
        &nx,
        &ny,
        o.long("blank", 0),
        o.reduce.tch(),
        o.flag("zeroinf", false),
    )?)
}

pub fn hinge(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(t[0].f_hinge_embedding_loss(&t[1], o.double("margin", 1.0), o.reduce.tch())?)
}

pub fn huber(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(t[0].f_huber_loss(&t[1], o.reduce.tch(), o.double("delta", 1.0))?)
}

/// `batchmean`: the sum over the batch size (the first dimension), as libtorch's functional form.
pub fn kl(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    if o.reduce == Red::BatchMean {
        let n = match t[0].size().first() {
            Some(n) => *n,
            None => bail!("batchmean reduction needs an input of at least one dimension"),
        };
        return Ok(t[0]
            .f_kl_div(&t[1], tch::Reduction::Sum, false)?
            .f_div_scalar(n)?);
    }
    Ok(t[0].f_kl_div(&t[1], o.reduce.tch(), false)?)
}

pub fn l1(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(t[0].f_l1_loss(&t[1], o.reduce.tch())?)
}

pub fn margin(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(Tensor::f_margin_ranking_loss(
        &t[0],
        &t[1],
        &t[2],
        o.double("margin", 0.0),
        o.reduce.tch(),
    )?)
}

pub fn mse(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(t[0].f_mse_loss(&t[1], o.reduce.tch())?)
}

pub fn multilabel(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    let (x, y) = (&t[0], &t[1]);
    if x.dim() >= 1 {
        // every target a class index or -1, as libtorch's CPU kernel requires (its CUDA kernel
        // asserts on the device)
        let c = x.size()[x.dim() - 1];
        if let Some(v) = crate::tensor::known::cuda_outside(y, -1, c, None)? {
            bail!("target {v} is not a class index for {c} classes, nor -1");
        }
    }
    Ok(x.f_multilabel_margin_loss(y, o.reduce.tch())?)
}

/// PyTorch's MultiMarginLoss: for each sample, the sum over classes j other than the target y of
/// max(0, margin - x[y] + x[j])^p, times weight[y], over the number of classes.
pub fn multimargin(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    let (p, m) = (o.long("p", 1), o.double("margin", 1.0));
    if p != 1 && p != 2 {
        bail!("only p == 1 and p == 2 supported, given p = {p}");
    }
    let (x, y) = (&t[0], &t[1]);
    let one = x.dim() <= 1;
    let x = if x.dim() == 0 {
        x.f_view([1, 1])?
    } else if one {
        x.f_unsqueeze(0)?
    } else {
        x.shallow_clone()
    };
    if x.dim() != 2 {
        bail!("expected a 1-d or 2-d input, given {}-d", t[0].dim());
    }
    let y = y.f_to_kind(Kind::Int64)?.f_reshape([-1, 1])?;
    let c = x.size()[1];
    // gather's device-side assert on CUDA (its error on the CPU)
    if let Some(v) = crate::tensor::known::cuda_outside(&y, 0, c, None)? {
        bail!("target {v} is not a class index for {c} classes");
    }
    let xy = x.f_gather(1, &y, false)?;
    // relu, not clamp: no gradient where the margin term is exactly 0, as libtorch's kernel
    let mut z = x.f_sub(&xy)?.f_add_scalar(m)?.f_relu()?;
    if p == 2 {
        z = z.f_square()?;
    }
    if let Some(w) = o.tensor("weight", &x)? {
        if w.dim() != 1 || w.size()[0] != c {
            bail!(
                "weight: expected a 1-d tensor of {c} class weights, given size {:?}",
                w.size()
            );
        }
        z = z.f_mul(&w.f_index_select(0, &y.f_view([-1])?)?.f_unsqueeze(1)?)?;
    }
    let keep = x.f_ones_like()?.f_scatter_value(1, &y, 0.0)?;
    let mut l = z
        .f_mul(&keep)?
        .f_sum_dim_intlist(1, false, None::<Kind>)?
        .f_div_scalar(c)?;
    if one {
        l = l.f_squeeze_dim(0)?;
    }
    reduce(l, o.reduce)
}

/// PyTorch's MultiLabelSoftMarginLoss: -(y log σ(x) + (1-y) log σ(-x)), class-weighted, averaged
/// over the classes (the last dimension).
pub fn multisoft(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    let (x, y) = (&t[0], &t[1]);
    let a = y.f_mul(&x.f_log_sigmoid()?)?;
    let b = y
        .f_neg()?
        .f_add_scalar(1.0)?
        .f_mul(&x.f_neg()?.f_log_sigmoid()?)?;
    let mut l = a.f_add(&b)?.f_neg()?;
    if let Some(w) = o.tensor("weight", x)? {
        l = l.f_mul(&w)?;
    }
    let d = x.dim() as i64 - 1;
    if d < 0 {
        bail!("expected an input of at least one dimension");
    }
    let c = x.size()[d as usize];
    let l = l
        .f_sum_dim_intlist(d, false, None::<Kind>)?
        .f_div_scalar(c)?;
    reduce(l, o.reduce)
}

pub fn nll(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    let w = o.tensor("weight", &t[0])?;
    check_classes(&t[0], &t[1], o.long("ignore", -100))?;
    Ok(t[0].f_nll_loss_nd(&t[1], w, o.reduce.tch(), o.long("ignore", -100))?)
}

pub fn poissonloss(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(t[0].f_poisson_nll_loss(
        &t[1],
        o.flag("log", true),
        o.flag("full", false),
        o.double("eps", 1e-8),
        o.reduce.tch(),
    )?)
}

/// A null beta (`0n`) is the default, 1.0 (ktorch's optional beta).
pub fn smoothl1(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    let b = o.double("beta", 1.0);
    Ok(t[0].f_smooth_l1_loss(&t[1], o.reduce.tch(), if b.is_nan() { 1.0 } else { b })?)
}

pub fn softmargin(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(t[0].f_soft_margin_loss(&t[1], o.reduce.tch())?)
}

pub fn triplet(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(Tensor::f_triplet_margin_loss(
        &t[0],
        &t[1],
        &t[2],
        o.double("margin", 1.0),
        o.double("p", 2.0),
        o.double("eps", 1e-6),
        o.flag("swap", false),
        o.reduce.tch(),
    )?)
}

/// The distance modules used as losses (kloss.cpp: `pairwise` and `similar` are loss modules
/// too): PyTorch's PairwiseDistance (p 2, eps 1e-6, keepdim false) and CosineSimilarity (dim 1,
/// eps 1e-8), no reduction.
pub fn pairwise(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(Tensor::f_pairwise_distance(
        &t[0],
        &t[1],
        o.double("p", 2.0),
        o.double("eps", 1e-6),
        o.flag("keepdim", false),
    )?)
}

pub fn similar(t: &[Tensor], o: &Opts) -> Result<Tensor> {
    Ok(Tensor::f_cosine_similarity(
        &t[0],
        &t[1],
        o.long("dim", 1),
        o.double("eps", 1e-8),
    )?)
}

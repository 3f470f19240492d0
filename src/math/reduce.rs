//! Reductions (math-reduce.rst): each family is one argument declaration (see `args`) and one
//! line per function in a table. Forms: `f x` over all elements (an array or a tensor handle
//! alone), or `f(x;..;output)` with optional arguments read from the back as ktorch does.
//! ktorch capitalises q keywords: `All`, `Any`, `Max`, `Min`, `Sum`.
use anyhow::bail;
use tch::{Kind, TchError, Tensor};

use super::forms::{finish_many, finish_op as finish, usage, OpCall, ToTensor, ToVector};
use crate::k::KResult;
use crate::tensor::result;

type R = Result<Tensor, TchError>;
type R2 = Result<(Tensor, Tensor), TchError>;
type Dims<'a> = Option<&'a [i64]>;

const DIM_KEEP: &str = "(input;dim;keepdim;output)";

usage! {
    DimKeep = DIM_KEEP;
    DimKeepType = "(input;dim;keepdim;dtype;output)";
    Std = STD;
    MeanStd = "(input;dim;unbiased;keepdim)";
}

/// The calls of each family: `f x` or `f(x;opts..;output)`.
type MeanCall = OpCall<(Vec<i64>, bool, Kind), (ToTensor,), DimKeepType>;
type AllCall = OpCall<(i64, bool), (ToTensor,), DimKeep>;
type DimsCall = OpCall<(Vec<i64>, bool), (ToTensor,), DimKeep>;
type MaxCall = OpCall<(i64, bool), (ToVector,), DimKeep>;
type VarCall = OpCall<(Vec<i64>, bool, bool), (ToTensor,), Std>;
type MeanVarCall = OpCall<(Vec<i64>, bool, bool), (), MeanStd>;

/// Dimensions as given: none, or `()`, means all.
fn dims(d: &Option<Vec<i64>>) -> Option<Vec<i64>> {
    d.clone().filter(|d| !d.is_empty())
}

/// Is the tensor floating point or complex (libtorch's mean, std and var need one of these)?
fn real(t: &Tensor) -> bool {
    t.is_floating_point() || t.is_complex()
}

// ---------------------------------------------------------------------------------------------
// mean, nanmean, prod, Sum, nansum: (input;dim(s);keepdim;dtype;output)
// ---------------------------------------------------------------------------------------------
type Fdims = fn(&Tensor, Dims, bool, Option<Kind>) -> R;
type Gdims = fn(&Tensor, &Tensor, Dims, bool, Option<Kind>) -> R;

/// Over all elements without keepdim, mean and Sum call libtorch's all-element form (as before:
/// autograd shows MeanBackward0/SumBackward0). `float`: integer inputs are averaged as float when no dtype is given (mean, nanmean).
fn kmean(a: MeanCall, f: Fdims, g: Gdims, float: bool) -> KResult {
    let a = a.0;
    let (d, k, t) = &a.opts;
    let d = dims(d);
    let k = k.unwrap_or(false);
    let t = t.or_else(|| (float && !real(&a.x)).then_some(Kind::Float));
    finish(
        &a,
        |x| f(x, d.as_deref(), k, t),
        |x, o| g(x, o, d.as_deref(), k, t),
    )
}

/// prod reduces one dimension at most.
fn one(d: Dims) -> anyhow::Result<Option<i64>> {
    match d {
        None => Ok(None),
        Some([i]) => Ok(Some(*i)),
        Some(d) => bail!(
            "product can only be calculated along a single dimension, given {}",
            d.len()
        ),
    }
}
fn prod_dims(t: &Tensor, d: Dims, k: bool, kind: Option<Kind>) -> R {
    match one(d).map_err(|e| TchError::Torch(e.to_string()))? {
        Some(i) => t.f_prod_dim_int(i, k, kind),
        None => t.f_prod(kind),
    }
}
fn prod_dims_out(t: &Tensor, o: &Tensor, d: Dims, k: bool, kind: Option<Kind>) -> R {
    match one(d).map_err(|e| TchError::Torch(e.to_string()))? {
        Some(i) => t.f_prod_int_out(o, i, k, kind),
        None => t.f_prod_out(o, kind),
    }
}

macro_rules! dims_table {
    ($($name:ident: $f:expr, $g:expr, $float:expr;)*) => {$(
        crate::qfn! {
            pub fn $name(x: MeanCall) -> KResult { kmean(x, $f, $g, $float) }
        }
    )*};
}

dims_table! {
    mean:    |t, d, k, c| if d.is_none() && !k { t.f_mean(c) } else { t.f_mean_dim(d, k, c) },
             |t, o, d, k, c| t.f_mean_out(o, d, k, c),        true;
    nanmean: |t, d, k, c| t.f_nanmean(d, k, c),        |t, o, d, k, c| t.f_nanmean_out(o, d, k, c),     true;
    sum:     |t, d, k, c| if d.is_none() && !k { t.f_sum(c) } else { t.f_sum_dim_intlist(d, k, c) },
             |t, o, d, k, c| t.f_sum_intlist_out(o, d, k, c), false;
    nansum:  |t, d, k, c| t.f_nansum(d, k, c),         |t, o, d, k, c| t.f_nansum_out(o, d, k, c),      false;
    prod:    prod_dims,                                prod_dims_out,                                        false;
}

// ---------------------------------------------------------------------------------------------
// All, Any: (input;dim;keepdim;output); alone, over all elements
// ---------------------------------------------------------------------------------------------
fn kall(
    a: AllCall,
    all: fn(&Tensor) -> R,
    dim: fn(&Tensor, i64, bool) -> R,
    all_out: fn(&Tensor, &Tensor) -> R,
    dim_out: fn(&Tensor, &Tensor, i64, bool) -> R,
) -> KResult {
    let a = a.0;
    if a.alone {
        return result(all(&a.x)?, a.handle);
    }
    let (d, k) = (a.opts.0.unwrap_or(-1), a.opts.1.unwrap_or(false));
    let whole = a.given == 2;
    finish(
        &a,
        |x| dim(x, d, k),
        |x, o| {
            if whole {
                all_out(x, o)
            } else {
                dim_out(x, o, d, k)
            }
        },
    )
}

crate::qfn! {
    pub fn all(x: AllCall) -> KResult {
        kall(
            x,
            |t| t.f_all(),
            |t, d, k| t.f_all_dim(d, k),
            |t, o| t.f_all_all_out(o),
            |t, o, d, k| t.f_all_out(o, d, k),
        )
    }
}
crate::qfn! {
    pub fn any(x: AllCall) -> KResult {
        kall(
            x,
            |t| t.f_any(),
            |t, d, k| t.f_any_dim(d, k),
            |t, o| t.f_any_all_out(o),
            |t, o, d, k| t.f_any_out(o, d, k),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// amax, amin, logsumexp: (input;dim(s);keepdim;output)
// ---------------------------------------------------------------------------------------------
fn kamax(
    a: DimsCall,
    f: fn(&Tensor, &[i64], bool) -> R,
    g: fn(&Tensor, &Tensor, &[i64], bool) -> R,
    needs_dim: bool,
) -> KResult {
    let a = a.0;
    let d = a.opts.0.clone().unwrap_or_default();
    if needs_dim && d.is_empty() {
        bail!("needs explicit dimension(s) for log of summed exponentials");
    }
    let k = a.opts.1.unwrap_or(false);
    finish(&a, |x| f(x, &d, k), |x, o| g(x, o, &d, k))
}

crate::qfn! {
    pub fn amax(x: DimsCall) -> KResult {
        kamax(
            x,
            |t, d, k| t.f_amax(d, k),
            |t, o, d, k| t.f_amax_out(o, d, k),
            false,
        )
    }
}
crate::qfn! {
    pub fn amin(x: DimsCall) -> KResult {
        kamax(
            x,
            |t, d, k| t.f_amin(d, k),
            |t, o, d, k| t.f_amin_out(o, d, k),
            false,
        )
    }
}
crate::qfn! {
    pub fn logsumexp(x: DimsCall) -> KResult {
        kamax(
            x,
            |t, d, k| t.f_logsumexp(d, k),
            |t, o, d, k| t.f_logsumexp_out(o, d, k),
            true,
        )
    }
}

// ---------------------------------------------------------------------------------------------
// argmax, argmin: (input;dim;keepdim;output); no dim (or 0N): the index into the flattened input
// ---------------------------------------------------------------------------------------------
fn kargmax(
    a: AllCall,
    f: fn(&Tensor, Option<i64>, bool) -> R,
    g: fn(&Tensor, &Tensor, Option<i64>, bool) -> R,
) -> KResult {
    let a = a.0;
    let d = a.opts.0.filter(|d| *d != i64::MIN);
    let k = a.opts.1.unwrap_or(false);
    finish(&a, |x| f(x, d, k), |x, o| g(x, o, d, k))
}

crate::qfn! {
    pub fn argmax(x: AllCall) -> KResult {
        kargmax(
            x,
            |t, d, k| t.f_argmax(d, k),
            |t, o, d, k| t.f_argmax_out(o, d, k),
        )
    }
}
crate::qfn! {
    pub fn argmin(x: AllCall) -> KResult {
        kargmax(
            x,
            |t, d, k| t.f_argmin(d, k),
            |t, o, d, k| t.f_argmin_out(o, d, k),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Max, Min, aminmax, median, nanmedian, mode: (input;dim;keepdim;output vector). With a
// dimension (or keepdim, or an output vector) two results: q data (values;indices) or a vector
// handle; alone, Max/Min/median/nanmedian give the overall value, aminmax (min;max).
// ---------------------------------------------------------------------------------------------
fn kmax(a: MaxCall, alone: Option<fn(&Tensor) -> R>, f: fn(&Tensor, i64, bool) -> R2) -> KResult {
    let a = a.0;
    if let (true, Some(g)) = (a.alone, alone) {
        return result(g(&a.x)?, a.handle);
    }
    let (v, i) = f(&a.x, a.opts.0.unwrap_or(-1), a.opts.1.unwrap_or(false))?;
    finish_many(&a, vec![v, i])
}

macro_rules! max_table {
    ($($name:ident: $alone:expr, $f:expr;)*) => {$(
        crate::qfn! {
            pub fn $name(x: MaxCall) -> KResult { kmax(x, $alone, $f) }
        }
    )*};
}

fn minmax(t: &Tensor) -> R {
    let (lo, hi) = t.f_aminmax(None, false)?;
    Tensor::f_stack(&[lo, hi], 0)?.f_reshape([2])
}

max_table! {
    max:       Some(|t| t.f_max()),       |t, d, k| t.f_max_dim(d, k);
    min:       Some(|t| t.f_min()),       |t, d, k| t.f_min_dim(d, k);
    aminmax:   Some(minmax),              |t, d, k| t.f_aminmax(d, k);
    median:    Some(|t| t.f_median()),    |t, d, k| t.f_median_dim(d, k);
    nanmedian: Some(|t| t.f_nanmedian()), |t, d, k| t.f_nanmedian_dim(d, k);
    mode:      None,                      |t, d, k| t.f_mode(d, k);
}

// ---------------------------------------------------------------------------------------------
// std, variance: (input;dim(s);unbiased;keepdim;output); meanstd, meanvar: (input;dim(s);
// unbiased;keepdim) giving mean and std/var stacked. A lone flag is `unbiased` (default true);
// integer inputs are taken as float.
// ---------------------------------------------------------------------------------------------
const STD: &str = "(input;dim;unbiased;keepdim;output)";

/// The optional arguments of std and var: dims, and one or two flags.
type VarOpts = (Option<Vec<i64>>, Option<bool>, Option<bool>);

/// dims (Some: given, possibly `()` for all), unbiased, keepdim.
fn var_args(opts: &VarOpts) -> (Option<Vec<i64>>, bool, bool) {
    let (d, f1, f2) = opts;
    let (u, k) = match (f1, f2) {
        (Some(u), Some(k)) => (*u, *k),
        (None, Some(u)) => (*u, false),
        _ => (true, false),
    };
    (d.clone(), u, k)
}

fn float(t: &Tensor) -> R {
    if real(t) {
        Ok(t.shallow_clone())
    } else {
        t.f_to_kind(Kind::Float)
    }
}

fn kvar(
    a: VarCall,
    all: fn(&Tensor, bool) -> R,
    f: fn(&Tensor, &[i64], bool, bool) -> R,
    g: fn(&Tensor, &Tensor, &[i64], bool, bool) -> R,
) -> KResult {
    let mut a = a.0;
    a.x = float(&a.x)?;
    let (d, u, k) = var_args(&a.opts);
    let e = d.clone().unwrap_or_default();
    finish(
        &a,
        |x| match &d {
            Some(d) => f(x, d, u, k),
            None => all(x, u),
        },
        |x, o| g(x, o, &e, u, k),
    )
}

crate::qfn! {
    pub fn std(x: VarCall) -> KResult {
        kvar(
            x,
            |t, u| t.f_std(u),
            |t, d, u, k| t.f_std_dim(d, u, k),
            |t, o, d, u, k| t.f_std_out(o, d, u, k),
        )
    }
}
crate::qfn! {
    pub fn variance(x: VarCall) -> KResult {
        kvar(
            x,
            |t, u| t.f_var(u),
            |t, d, u, k| t.f_var_dim(d, u, k),
            |t, o, d, u, k| t.f_var_out(o, d, u, k),
        )
    }
}

fn kmeanvar(
    a: MeanVarCall,
    all: fn(&Tensor, bool) -> R2,
    f: fn(&Tensor, &[i64], bool, bool) -> R2,
) -> KResult {
    let a = a.0;
    let t = float(&a.x)?;
    let (d, u, k) = var_args(&a.opts);
    let (s, m) = match &d {
        Some(d) => f(&t, d, u, k)?,
        None => all(&t, u)?,
    };
    result(Tensor::f_stack(&[m, s], 0)?, a.handle)
}

crate::qfn! {
    pub fn meanstd(x: MeanVarCall) -> KResult {
        kmeanvar(
            x,
            |t, u| t.f_std_mean(u),
            |t, d, u, k| t.f_std_mean_dim(d, u, k),
        )
    }
}
crate::qfn! {
    pub fn meanvar(x: MeanVarCall) -> KResult {
        kmeanvar(
            x,
            |t, u| t.f_var_mean(u),
            |t, d, u, k| t.f_var_mean_dim(d, u, k),
        )
    }
}

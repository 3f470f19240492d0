//! Sorting and searching (math-compare.rst): `sort`, `argsort`, `msort`, `topk`, `kthvalue`
//! and `In` (PyTorch's `isin`). Functions with two results (values and indices) give q data
//! `(values;indices)` for q data in, a new vector handle for a tensor in, and with an output
//! vector last fill its first two tensors and return null (ktorch's `koutput`).
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::forms::Out;
use super::pointwise::{done, inputs, output, scalar, unary};
use crate::k::from::{self, FromQ};
use crate::k::{KResult, K};
use crate::registry;
use crate::tensor::arg;
use crate::tensor::opargs;

unary! {
    msort: f_msort, f_msort_out, -;
}

/// Several results: see `forms::several`.
pub fn results(ts: Vec<Tensor>, handle: bool, out: Option<K>) -> KResult {
    super::forms::several(ts, handle, out)
}

/// The input of a function whose argument may be the input alone (a handle or an array, as
/// ktorch's `xarray`) or an argument list: `Ok(input)` or `Err(list)`.
fn lone(a: &K) -> Result<std::result::Result<(Tensor, bool), &[K]>> {
    let x = *a;
    if registry::is_handle(x) {
        return Ok(Ok((registry::tensor(x)?, true)));
    }
    if let Some(t) = opargs::array(x) {
        return Ok(Ok((t, false)));
    }
    from::list(a)
        .map(Err)
        .ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))
}

/// A trailing output vector among `v[..n]` (ktorch's `xvec`): taken off `n`.
fn out_vector(v: &[K], n: &mut usize, min: usize) -> Option<K> {
    let o = (*n > min && opargs::is_vector(v[*n - 1])).then(|| v[*n - 1]);
    *n -= o.is_some() as usize;
    o
}

/// `sort x`, `sort(x;dim;descend;stable)` with `dim`, `descend`, `stable` optional (`descend`
/// and `stable` together), then an optional output vector: sorted values and their indices.
pub fn sort(x: K) -> KResult {
    const USAGE: &str = "(input;dim;descend;stable;output)";
    let (mut dim, mut descend, mut stable, mut out) = (-1, false, None, None);
    let (t, h) = match lone(&x)? {
        Ok(t) => t,
        Err(v) => {
            let mut n = v.len();
            if n == 0 || n > 5 {
                bail!("expected up to 5 args, {USAGE}, given {n}");
            }
            out = out_vector(v, &mut n, 1);
            if n > 2 {
                if let (Some(d), Some(s)) = (bool::of(v[n - 2]), bool::of(v[n - 1])) {
                    (descend, stable) = (d, Some(s));
                    n -= 2;
                }
            }
            if stable.is_none() && n > 1 {
                if let Some(d) = bool::of(v[n - 1]) {
                    descend = d;
                    n -= 1;
                }
            }
            if n > 1 {
                if let Some(d) = i64::of(v[n - 1]) {
                    dim = d;
                    n -= 1;
                }
            }
            if n != 1 {
                bail!("unrecognized args, expected up to 5, {USAGE}");
            }
            arg(v[0])?
        }
    };
    let (values, indices) = match stable {
        Some(s) => t.f_sort_stable(s, dim, descend)?,
        None => t.f_sort(dim, descend)?,
    };
    results(vec![values, indices], h, out)
}

/// `argsort x`, `argsort(x;dim)`, `argsort(x;descend)`, `argsort(x;dim;descend)`: the indices
/// that sort `x` along `dim` (default the last).
pub fn argsort(x: K) -> KResult {
    const USAGE: &str = "(input;dim;descend)";
    let (mut dim, mut descend) = (-1, false);
    let (t, h) = match lone(&x)? {
        Ok(t) => t,
        Err(v) => {
            let mut n = v.len();
            if n == 0 || n > 3 {
                bail!("expected up to 3 args, {USAGE}, given {n}");
            }
            if n > 1 {
                if let Some(d) = bool::of(v[n - 1]) {
                    descend = d;
                    n -= 1;
                }
            }
            if n > 1 {
                if let Some(d) = i64::of(v[n - 1]) {
                    dim = d;
                    n -= 1;
                }
            }
            if n != 1 {
                bail!("unrecognized args, expected up to 3, {USAGE}");
            }
            arg(v[0])?
        }
    };
    crate::tensor::result(t.f_argsort(dim, descend)?, h)
}

/// The argument list of `topk`/`kthvalue`: `(input;k;..)`, its count checked, the output
/// vector taken off the end.
fn klist<'a>(x: &'a K, most: usize, usage: &str) -> Result<(&'a [K], usize, i64, Option<K>)> {
    let v = from::list(x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(*x)))?;
    let mut n = v.len();
    if n < 2 || n > most {
        bail!("expected 2-{most} args, {usage}, given {n}");
    }
    let out = out_vector(v, &mut n, 2);
    if n == most {
        bail!(
            "unrecognized {}th argument, expected output vector, given {}",
            most,
            opargs::describe(v[most - 1])
        );
    }
    let k = i64::of(v[1])
        .ok_or_else(|| anyhow!("expected k as 2nd arg, given {}", opargs::describe(v[1])))?;
    Ok((v, n, k, out))
}

/// A flag at `v[i]` if `i < n`, else the default; an error naming what was expected otherwise.
fn opt_flag(v: &[K], n: usize, i: usize, default: bool, what: &str) -> Result<bool> {
    if i >= n {
        return Ok(default);
    }
    bool::of(v[i]).ok_or_else(|| {
        anyhow!(
            "unrecognized arg {}, expected {what} flag, given {}",
            i + 1,
            opargs::describe(v[i])
        )
    })
}

/// `topk(x;k)`, `topk(x;k;dim)`, `topk(x;k;dim;largest)`, `topk(x;k;dim;largest;sorted)`,
/// `topk(x;k;largest)`, `topk(x;k;largest;sorted)`, then an optional output vector.
pub fn topk(x: K) -> KResult {
    let (v, n, k, out) = klist(&x, 6, "(input;k;dim;largest;sorted;output)")?;
    let (dim, largest, sorted) = match v.get(2).filter(|_| n > 2).and_then(|d| i64::of(*d)) {
        Some(d) => (
            d,
            opt_flag(v, n, 3, true, "largest")?,
            opt_flag(v, n, 4, true, "sorted")?,
        ),
        None => {
            if n > 4 {
                bail!("unexpected 5th arg, {}", opargs::describe(v[4]));
            }
            (
                -1,
                opt_flag(v, n, 2, true, "dimension or largest")?,
                opt_flag(v, n, 3, true, "sorted")?,
            )
        }
    };
    let (t, h) = arg(v[0])?;
    let (values, indices) = t.f_topk(k, dim, largest, sorted)?;
    results(vec![values, indices], h, out)
}

/// `kthvalue(x;k)`, `kthvalue(x;k;dim)`, `kthvalue(x;k;dim;keepdim)`, `kthvalue(x;k;keepdim)`,
/// then an optional output vector: the k-th smallest values and their indices.
pub fn kthvalue(x: K) -> KResult {
    let (v, n, k, out) = klist(&x, 5, "(input;k;dim;keepdim;output)")?;
    let (dim, keepdim) = match v.get(2).filter(|_| n > 2).and_then(|d| i64::of(*d)) {
        Some(d) => (d, opt_flag(v, n, 3, false, "keepdim")?),
        None => {
            let kd = opt_flag(v, n, 2, false, "dim or keepdim")?;
            if n > 3 {
                bail!("unexpected 4th arg, {}", opargs::describe(v[3]));
            }
            (-1, kd)
        }
    };
    let (t, h) = arg(v[0])?;
    let (values, indices) = t.f_kthvalue(k, dim, keepdim)?;
    results(vec![values, indices], h, out)
}

/// `In(x;y)`, `In(x;y;unique)`, `In(x;y;unique;invert)`, then an optional output tensor: true
/// for each element of `x` in `y`; either (not both) may be a q scalar.
pub fn r#in(x: K) -> KResult {
    const USAGE: &str = "(x;y;unique;invert;output)";
    let v = from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
    let mut n = v.len();
    if !(2..=5).contains(&n) {
        bail!("expected 2-5 args, {USAGE}, given {n}");
    }
    let out = if n > 2 && opargs::is_tensor(v[n - 1]) {
        n -= 1;
        output(v[n])?
    } else {
        Out::New
    };
    let unique = opt_flag(v, n, 2, false, "unique")?;
    let invert = opt_flag(v, n, 3, false, "invert")?;
    if n > 4 {
        bail!(
            "unrecognized 5th arg, expected output tensor, given {}",
            opargs::describe(v[4])
        );
    }
    let (sa, sb) = (scalar(v[0]), scalar(v[1]));
    let (r, h) = match (sa, sb) {
        (Some(_), Some(_)) => bail!("not implemented for inputs that are both scalars"),
        (None, None) => {
            let (ts, h) = inputs(&v[..2])?;
            let r = match &out {
                Out::Into(o) => {
                    Tensor::f_isin_tensor_tensor_out(o, &ts[0], &ts[1], unique, invert)?
                }
                _ => Tensor::f_isin(&ts[0], &ts[1], unique, invert)?,
            };
            (r, h)
        }
        (None, Some(s)) => {
            let (a, h) = arg(v[0])?;
            let r = match &out {
                Out::Into(o) => Tensor::f_isin_tensor_scalar_out(o, &a, s, unique, invert)?,
                _ => Tensor::f_isin_tensor_scalar(&a, s, unique, invert)?,
            };
            (r, h)
        }
        (Some(s), None) => {
            let (b, h) = arg(v[1])?;
            let r = match &out {
                Out::Into(o) => Tensor::f_isin_scalar_tensor_out(o, s, &b, unique, invert)?,
                _ => Tensor::f_isin_scalar_tensor(s, &b, unique, invert)?,
            };
            (r, h)
        }
    };
    done(r, h, &out, false)
}

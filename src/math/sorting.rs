//! Sorting and searching (math-compare.rst): `sort`, `argsort`, `msort`, `topk`, `kthvalue`
//! and `In` (PyTorch's `isin`). Functions with two results (values and indices) give q data
//! `(values;indices)` for q data in, a new vector handle for a tensor in, and with an output
//! vector last fill its first two tensors and return null (ktorch's `koutput`).
use anyhow::{anyhow, bail, Result};
use tch::{Scalar, Tensor};

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

/// `sort`'s arguments: `x`, or `(x;dim;descend;stable)` with `dim`, `descend`, `stable`
/// optional (`descend` and `stable` together), then an optional output vector (kept as given:
/// its tensors are replaced).
pub struct SortArgs {
    t: Tensor,
    handle: bool,
    dim: i64,
    descend: bool,
    stable: Option<bool>,
    out: Option<K>,
}

impl FromQ for SortArgs {
    const TYPE: &'static str = "(input;dim;descend;stable;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<SortArgs>> {
        const USAGE: &str = SortArgs::TYPE;
        let (mut dim, mut descend, mut stable, mut out) = (-1, false, None, None);
        let (t, handle) = match lone(&x)? {
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
                dim_descend(v, &mut n, stable.is_none(), &mut dim, &mut descend);
                if n != 1 {
                    bail!("unrecognized args, expected up to 5, {USAGE}");
                }
                arg(v[0])?
            }
        };
        Ok(Some(SortArgs {
            t,
            handle,
            dim,
            descend,
            stable,
            out,
        }))
    }
}

/// The trailing `[dim];[descend]` of sort's and argsort's lists, read from the back of
/// `v[..n]` (the descending flag only when `flag`: sort's stable pair took it), `n` less what
/// was taken; `v[0]`, the input, is never taken.
fn dim_descend(v: &[K], n: &mut usize, flag: bool, dim: &mut i64, descend: &mut bool) {
    if flag && *n > 1 {
        if let Some(d) = bool::of(v[*n - 1]) {
            *descend = d;
            *n -= 1;
        }
    }
    if *n > 1 {
        if let Some(d) = i64::of(v[*n - 1]) {
            *dim = d;
            *n -= 1;
        }
    }
}

/// `argsort`'s arguments: `x`, `(x;dim)`, `(x;descend)`, `(x;dim;descend)`.
pub struct ArgsortArgs {
    t: Tensor,
    handle: bool,
    dim: i64,
    descend: bool,
}

impl FromQ for ArgsortArgs {
    const TYPE: &'static str = "(input;dim;descend)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<ArgsortArgs>> {
        const USAGE: &str = ArgsortArgs::TYPE;
        let (mut dim, mut descend) = (-1, false);
        let (t, handle) = match lone(&x)? {
            Ok(t) => t,
            Err(v) => {
                let mut n = v.len();
                if n == 0 || n > 3 {
                    bail!("expected up to 3 args, {USAGE}, given {n}");
                }
                dim_descend(v, &mut n, true, &mut dim, &mut descend);
                if n != 1 {
                    bail!("unrecognized args, expected up to 3, {USAGE}");
                }
                arg(v[0])?
            }
        };
        Ok(Some(ArgsortArgs {
            t,
            handle,
            dim,
            descend,
        }))
    }
}

crate::qfn! {
    /// `sort x`, `sort(x;dim;descend;stable)`, then an optional output vector: sorted values
    /// and their indices.
    pub fn sort(x: SortArgs) -> KResult {
        let (values, indices) = match x.stable {
            Some(s) => x.t.f_sort_stable(s, x.dim, x.descend)?,
            None => x.t.f_sort(x.dim, x.descend)?,
        };
        results(vec![values, indices], x.handle, x.out)
    }

    /// `argsort x`, `argsort(x;dim)`, `argsort(x;descend)`, `argsort(x;dim;descend)`: the
    /// indices that sort `x` along `dim` (default the last).
    pub fn argsort(x: ArgsortArgs) -> KResult {
        crate::tensor::result(x.t.f_argsort(x.dim, x.descend)?, x.handle)
    }
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

/// `topk`'s arguments: `(x;k)`, `(x;k;dim)`, `(x;k;dim;largest)`, `(x;k;dim;largest;sorted)`,
/// `(x;k;largest)`, `(x;k;largest;sorted)`, then an optional output vector (kept as given).
pub struct TopkArgs {
    t: Tensor,
    handle: bool,
    k: i64,
    dim: i64,
    largest: bool,
    sorted: bool,
    out: Option<K>,
}

impl FromQ for TopkArgs {
    const TYPE: &'static str = "(input;k;dim;largest;sorted;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<TopkArgs>> {
        let (v, n, k, out) = klist(&x, 6, Self::TYPE)?;
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
        let (t, handle) = arg(v[0])?;
        Ok(Some(TopkArgs {
            t,
            handle,
            k,
            dim,
            largest,
            sorted,
            out,
        }))
    }
}

/// `kthvalue`'s arguments: `(x;k)`, `(x;k;dim)`, `(x;k;dim;keepdim)`, `(x;k;keepdim)`, then
/// an optional output vector (kept as given).
pub struct KthArgs {
    t: Tensor,
    handle: bool,
    k: i64,
    dim: i64,
    keepdim: bool,
    out: Option<K>,
}

impl FromQ for KthArgs {
    const TYPE: &'static str = "(input;k;dim;keepdim;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<KthArgs>> {
        let (v, n, k, out) = klist(&x, 5, Self::TYPE)?;
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
        let (t, handle) = arg(v[0])?;
        Ok(Some(KthArgs {
            t,
            handle,
            k,
            dim,
            keepdim,
            out,
        }))
    }
}

crate::qfn! {
    /// `topk(x;k;..)`: the k largest (or smallest) values and their indices.
    pub fn topk(x: TopkArgs) -> KResult {
        let (values, indices) = x.t.f_topk(x.k, x.dim, x.largest, x.sorted)?;
        results(vec![values, indices], x.handle, x.out)
    }

    /// `kthvalue(x;k;..)`: the k-th smallest values and their indices.
    pub fn kthvalue(x: KthArgs) -> KResult {
        let (values, indices) = x.t.f_kthvalue(x.k, x.dim, x.keepdim)?;
        results(vec![values, indices], x.handle, x.out)
    }
}

/// The inputs of `In`: two tensors (and whether either was a handle), or one a q scalar.
enum Isin {
    Tensors(Tensor, Tensor, bool),
    TensorScalar(Tensor, Scalar, bool),
    ScalarTensor(Scalar, Tensor, bool),
}

/// `In`'s arguments: `(x;y)`, `(x;y;unique)`, `(x;y;unique;invert)`, then an optional output
/// tensor; either input (not both) may be a q scalar.
pub struct IsinArgs {
    inputs: Isin,
    unique: bool,
    invert: bool,
    out: Out,
}

impl FromQ for IsinArgs {
    const TYPE: &'static str = "(x;y;unique;invert;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<IsinArgs>> {
        const USAGE: &str = IsinArgs::TYPE;
        let v =
            from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
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
        let inputs = match (scalar(v[0]), scalar(v[1])) {
            (Some(_), Some(_)) => bail!("not implemented for inputs that are both scalars"),
            (None, None) => {
                let (mut ts, h) = inputs(&v[..2])?;
                let b = ts.pop().expect("two inputs");
                Isin::Tensors(ts.pop().expect("two inputs"), b, h)
            }
            (None, Some(s)) => {
                let (a, h) = arg(v[0])?;
                Isin::TensorScalar(a, s.into(), h)
            }
            (Some(s), None) => {
                let (b, h) = arg(v[1])?;
                Isin::ScalarTensor(s.into(), b, h)
            }
        };
        Ok(Some(IsinArgs {
            inputs,
            unique,
            invert,
            out,
        }))
    }
}

crate::qfn! {
    /// `In(x;y;..)`: true for each element of `x` in `y`.
    pub fn r#in(x: IsinArgs) -> KResult {
        let IsinArgs {
            inputs,
            unique,
            invert,
            out,
        } = x;
        let (r, h) = match inputs {
            Isin::Tensors(a, b, h) => {
                let r = match &out {
                    Out::Into(o) => Tensor::f_isin_tensor_tensor_out(o, &a, &b, unique, invert)?,
                    _ => Tensor::f_isin(&a, &b, unique, invert)?,
                };
                (r, h)
            }
            Isin::TensorScalar(a, s, h) => {
                let r = match &out {
                    Out::Into(o) => Tensor::f_isin_tensor_scalar_out(o, &a, s, unique, invert)?,
                    _ => Tensor::f_isin_tensor_scalar(&a, s, unique, invert)?,
                };
                (r, h)
            }
            Isin::ScalarTensor(s, b, h) => {
                let r = match &out {
                    Out::Into(o) => Tensor::f_isin_scalar_tensor_out(o, s, &b, unique, invert)?,
                    _ => Tensor::f_isin_scalar_tensor(s, &b, unique, invert)?,
                };
                (r, h)
            }
        };
        done(r, h, &out, false)
    }
}

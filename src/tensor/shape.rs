//! Shapes and views, ktorch's forms: `reshape`, `resize`, `View` `(input;size or example)`,
//! `narrow(input;dim;offset;size)`, `transpose`, `permute(input;dims)`, `expand(input;size)`,
//! `squeeze`, `unsqueeze`. Given q data the result is q data; given a tensor handle, a new handle
//! (a view sharing storage where PyTorch makes one), or null for the in-place forms.
use anyhow::bail;
use tch::Tensor;

use super::opargs::{self, array};
use super::{arg, convert, result};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

/// The size argument of reshape/resize/View/expand: longs, or a tensor handle whose size to use.
fn size_arg(x: K) -> anyhow::Result<Vec<i64>> {
    if registry::is_handle(x) {
        return Ok(registry::tensor(x)?.size());
    }
    Vec::<i64>::of(x).ok_or_else(|| {
        anyhow::anyhow!(
            "expected 2nd arg of size or tensor whose size to use, given {}",
            opargs::describe(x)
        )
    })
}

/// Fill in a size given as -1 from the number of elements `m` (resize_ does not infer).
fn infer(s: &[i64], m: i64) -> anyhow::Result<Vec<i64>> {
    let mut r = s.to_vec();
    let mut at = None;
    let mut n = 1i64;
    for (d, &v) in s.iter().enumerate() {
        if v == -1 {
            if at.is_some() {
                bail!("only one dimension can be inferred");
            }
            at = Some(d);
        } else if v >= 0 {
            n *= v;
        } else {
            bail!("invalid shape dimension {v}");
        }
    }
    if let Some(d) = at {
        if n == 0 || m % n != 0 {
            bail!("shape {s:?} is invalid for input of size {m}");
        }
        r[d] = m / n;
    }
    Ok(r)
}

enum Mode {
    Resize,
    Reshape,
    View,
}

fn resizing(x: K, mode: Mode) -> KResult {
    let [input, size] = from::items(&x, 2..=2, "(input;size) or (input;example tensor)")? else {
        unreachable!()
    };
    let s = size_arg(*size)?;
    let (mut t, h) = arg(*input)?;
    match mode {
        Mode::Resize => {
            let s = if s.iter().any(|&v| v < 0) {
                infer(&s, t.numel() as i64)?
            } else {
                s
            };
            // In place: a handle's tensor shares its TensorImpl with the registry's.
            let _ = t.f_resize_(s.as_slice())?;
            if h {
                Ok(make::null())
            } else {
                convert::to_q(&t)
            }
        }
        Mode::Reshape => result(t.f_reshape(s.as_slice())?, h),
        Mode::View => result(t.f_view_(s.as_slice())?, h),
    }
}

pub fn reshape(x: K) -> KResult {
    resizing(x, Mode::Reshape)
}
pub fn resize(x: K) -> KResult {
    resizing(x, Mode::Resize)
}
pub fn view(x: K) -> KResult {
    resizing(x, Mode::View)
}

pub fn narrow(x: K) -> KResult {
    let usage = "(input;dim;offset;size)";
    let [input, d, i, w] = from::items(&x, 4..=4, usage)? else {
        unreachable!()
    };
    let (Some(d), Some(i), Some(w)) = (i64::of(*d), i64::of(*i), i64::of(*w)) else {
        bail!("expected {usage} with dim, offset and size as longs")
    };
    if opargs::is_vector(*input) {
        let v = opargs::vector(*input)?
            .iter()
            .map(|t| t.f_narrow(d, i, w))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(registry::add(Obj::Vector(v)));
    }
    let (t, h) = arg(*input)?;
    result(t.f_narrow(d, i, w)?, h)
}

/// PyTorch's `t()`: a 2-d transpose; tensors of fewer dimensions come back as they are.
fn t2(t: &Tensor) -> Result<Tensor, tch::TchError> {
    if t.dim() < 2 {
        t.f_alias()
    } else {
        t.f_transpose(0, 1)
    }
}

pub fn transpose(x: K) -> KResult {
    let t = read::ktype(x);
    if t != 0 && t != 101 {
        return Ok(make::share(x)); // atoms and simple lists come back as they are
    }
    let usage = "tensor, (tensor;inplace), (tensor;dim1;dim2) or (tensor;dim1;dim2;inplace)";
    let (mut t, h, dims, inplace) = if registry::is_handle(x) {
        (registry::tensor(x)?, true, None, false)
    } else {
        let v = from::list(&x)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| anyhow::anyhow!("expected {usage}"))?;
        let (v, b) = match v.last().and_then(|b| bool::of(*b)) {
            Some(b) => (&v[..v.len() - 1], b),
            None => (v, false),
        };
        if v.is_empty() {
            bail!("expected {usage}, given only a flag");
        }
        let (t, h, rest) = if registry::is_handle(v[0]) {
            (registry::tensor(v[0])?, true, &v[1..])
        } else if let Some(t) = array(x) {
            (t, false, &v[..0]) // all of x is one array
        } else {
            (convert::to_tensor(v[0])?, false, &v[1..])
        };
        let dims = match rest {
            [] => None,
            [i, j] => match (i64::of(*i), i64::of(*j)) {
                (Some(i), Some(j)) => Some((i, j)),
                _ => bail!("expected {usage}, dimensions as longs"),
            },
            _ => bail!("expected {usage}"),
        };
        (t, h, dims, b)
    };
    let r = match dims {
        None if t.dim() > 2 => bail!(
            "a {}d tensor needs the two dimensions to be swapped",
            t.dim()
        ),
        None if h && inplace => {
            if t.dim() == 2 {
                let _ = t.f_transpose_(0, 1)?;
            }
            return Ok(make::null());
        }
        None => t2(&t)?,
        Some((i, j)) if h && inplace => {
            let _ = t.f_transpose_(i, j)?;
            return Ok(make::null());
        }
        Some((i, j)) => t.f_transpose(i, j)?,
    };
    result(r, h)
}

pub fn permute(x: K) -> KResult {
    let [input, dims] = from::items(&x, 2..=2, "(input;reordered dimensions)")? else {
        unreachable!()
    };
    let d = Vec::<i64>::of(*dims).ok_or_else(|| {
        anyhow::anyhow!(
            "expected 2nd arg of reordered dimensions, given {}",
            opargs::describe(*dims)
        )
    })?;
    let (t, h) = arg(*input)?;
    result(t.f_permute(d.as_slice())?, h)
}

pub fn expand(x: K) -> KResult {
    // ktorch also reads a pair of longs (value;size) as a value repeated size times
    if read::ktype(x) == 7 && read::len(x) == 2 {
        let n = Vec::<i64>::of(x).unwrap_or_default();
        return convert::to_q(&Tensor::from_slice(&n[..1]).f_expand([n[1]], false)?);
    }
    let [input, size] = from::items(
        &x,
        2..=2,
        "(input;size) or (input;tensor whose size to match)",
    )?
    else {
        unreachable!()
    };
    let s = size_arg(*size)?;
    let (t, h) = arg(*input)?;
    result(t.f_expand(s.as_slice(), false)?, h)
}

/// squeeze (`a` true) and unsqueeze: (input), (input;dim), (input;dim;inplace), (input;inplace).
fn squeezing(x: K, a: bool) -> KResult {
    let need_dim = "requires 2nd arg specifying dimension to add";
    if registry::is_handle(x) {
        let t = registry::tensor(x)?;
        if !a {
            bail!("{need_dim}");
        }
        return result(t.f_squeeze()?, true);
    }
    let parsed = from::list(&x).and_then(|v| match v {
        [i, d] => i64::of(*d)
            .map(|d| (*i, Some(d), false))
            .or_else(|| bool::of(*d).map(|b| (*i, None, b))),
        [i, d, b] => i64::of(*d).zip(bool::of(*b)).map(|(d, b)| (*i, Some(d), b)),
        _ => None,
    });
    let Some((input, dim, inplace)) = parsed else {
        if a {
            if from::list(&x).is_some_and(|v| v.len() > 1 && registry::is_handle(v[0])) {
                bail!("unexpected arg(s), expected (input;dim;optional in-place flag)");
            }
            return convert::to_q(&convert::to_tensor(x)?.f_squeeze()?);
        }
        bail!("unexpected arg(s), expected (input;dim;optional in-place flag)");
    };
    let dim = dim.filter(|d| *d != i64::MIN); // 0N: every dimension of size 1
    if !a && dim.is_none() {
        bail!("{need_dim}");
    }
    let (mut t, h) = arg(input)?;
    if h && inplace {
        let _ = match (a, dim) {
            (false, Some(d)) => t.f_unsqueeze_(d)?,
            (true, Some(d)) => t.f_squeeze_dim_(d)?,
            _ => t.f_squeeze_()?,
        };
        return Ok(make::null());
    }
    let r = match (a, dim) {
        (false, Some(d)) => t.f_unsqueeze(d)?,
        (true, Some(d)) => t.f_squeeze_dim(d)?,
        _ => t.f_squeeze()?,
    };
    result(r, h)
}

pub fn squeeze(x: K) -> KResult {
    squeezing(x, true)
}
pub fn unsqueeze(x: K) -> KResult {
    squeezing(x, false)
}

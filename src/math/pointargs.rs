//! Pointwise functions with arguments besides their inputs (math-pointwise.rst): `clamp` with
//! low and high limits, `lerp` with a weight, `mvlgamma` with a dimension count, and `pow` and
//! `fpow`, whose base or exponent may be a q number.
use anyhow::{anyhow, bail, Result};
use tch::{Scalar, Tensor};

use super::forms::Out;
use super::pointwise::{done, inputs, item, num, output, values, R};
use crate::k::from::Number as Num;
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::registry;
use crate::tensor::opargs;
use crate::tensor::{arg, result};

/// A limit: a q number, `None` when null (no limit on that side), as ktorch's `xnumn`.
fn limit(x: K) -> Option<Option<Num>> {
    let n = num(x)?;
    let null = match (read::ktype(x), n) {
        (-5, Num::Int(i)) => i == i16::MIN as i64,
        (-6, Num::Int(i)) => i == i32::MIN as i64,
        (-7, Num::Int(i)) => i == i64::MIN,
        (_, Num::Float(f)) => f.is_nan(),
        _ => false,
    };
    Some((!null).then_some(n))
}

/// The trailing output tensor of a form that has no in-place variant.
fn into(x: K, what: &str) -> Result<Tensor> {
    if !opargs::is_tensor(x) {
        bail!(
            "optional {what} arg is an output tensor, but given {}",
            opargs::describe(x)
        );
    }
    registry::tensor(x)
}

/// `clamp(x;lo;hi)`, `clamp(x;lo;hi;output)`: limit `x` to `[lo,hi]`; a null limit is no limit.
pub fn clamp(x: K) -> KResult {
    let v = from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
    let (lo, hi) = match (
        v.get(1).and_then(|k| limit(*k)),
        v.get(2).and_then(|k| limit(*k)),
    ) {
        (Some(lo), Some(hi)) => (lo, hi),
        _ => bail!("expected 2nd & 3rd arg to be numeric low & high limits"),
    };
    let out = match v.len() {
        3 => None,
        4 if opargs::is_tensor(v[3]) => Some(registry::tensor(v[3])?),
        _ => bail!("unexpected arg(s), expected (input;lo;hi) or (input;lo;hi;output)"),
    };
    let (t, h) = arg(v[0])?;
    let r = match (lo, hi, &out) {
        (Some(l), Some(u), None) => t.f_clamp(l, u)?,
        (Some(l), Some(u), Some(o)) => t.f_clamp_out(o, l, u)?,
        (Some(l), None, None) => t.f_clamp_min(l)?,
        (Some(l), None, Some(o)) => t.f_clamp_min_out(o, l)?,
        (None, Some(u), None) => t.f_clamp_max(u)?,
        (None, Some(u), Some(o)) => t.f_clamp_max_out(o, u)?,
        (None, None, _) => bail!("at least one of lo or hi must not be null"),
    };
    let out = out.map_or(Out::New, Out::Into);
    done(r, h, &out, false)
}

/// `lerp(x;y;wt)`, `lerp(x;y;wt;output)`: `x + wt*(y-x)`, `wt` a number or an array/tensor.
pub fn lerp(x: K) -> KResult {
    const USAGE: &str = "(x;y;wt;output)";
    if read::ktype(x) > 0 {
        let v = values(x, 3..=3)?;
        return result(v[0].f_lerp(&v[1], item(&v[2])?)?, false);
    }
    let v = from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
    if !(3..=4).contains(&v.len()) {
        bail!("3-4 arguments expected, {USAGE}, but {} supplied", v.len());
    }
    let out = if v.len() == 4 {
        Out::Into(into(v[3], "4th")?)
    } else {
        Out::New
    };
    let r = if let Some(w) = num(v[2]) {
        let (ts, h) = inputs(&v[..2])?;
        (
            match &out {
                Out::Into(o) => ts[0].f_lerp_scalar_out(o, &ts[1], w)?,
                _ => ts[0].f_lerp(&ts[1], w)?,
            },
            h,
        )
    } else {
        let (ts, h) = inputs(&v[..3])?;
        (
            match &out {
                Out::Into(o) => ts[0].f_lerp_tensor_out(o, &ts[1], &ts[2])?,
                _ => ts[0].f_lerp_tensor(&ts[1], &ts[2])?,
            },
            h,
        )
    };
    done(r.0, r.1, &out, false)
}

/// `mvlgamma(x;p)`, `mvlgamma(x;p;output)`: the multivariate log-gamma of dimension `p`.
pub fn mvlgamma(x: K) -> KResult {
    let v = from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
    let p = v.get(1).and_then(|k| i64::of(*k)).ok_or_else(|| {
        anyhow!(
            "2nd argument of number of dimensions expected, given {}",
            v.get(1).map_or("none".into(), |k| opargs::describe(*k))
        )
    })?;
    if !(2..=3).contains(&v.len()) {
        bail!(
            "2-3 arguments expected, (x;p;output), but {} supplied",
            v.len()
        );
    }
    let (t, h) = arg(v[0])?;
    let (r, out) = if v.len() == 3 {
        let o = into(v[2], "3rd")?;
        (t.f_mvlgamma_out(&o, p)?, Out::Into(o))
    } else {
        (t.f_mvlgamma(p)?, Out::New)
    };
    done(r, h, &out, false)
}

/// The forms of a power function: tensor^tensor, tensor^scalar, scalar^tensor; new, output
/// tensor, in place.
struct Power {
    tt: fn(&Tensor, &Tensor) -> R,
    ts: fn(&Tensor, Scalar) -> R,
    st: fn(Scalar, &Tensor) -> R,
    tt_out: fn(&Tensor, &Tensor, &Tensor) -> R,
    ts_out: fn(&Tensor, &Tensor, Scalar) -> R,
    st_out: fn(&Tensor, Scalar, &Tensor) -> R,
    tt_inplace: fn(&mut Tensor, &Tensor) -> R,
    ts_inplace: fn(&mut Tensor, Scalar) -> R,
}

/// `pow(x;y)`, `pow(x;y;output)`, `pow(x;y;[])`: `x` or `y` may be a q number.
fn power(x: K, p: &Power) -> KResult {
    const USAGE: &str = "expected inputs x,y with optional output tensor or null as 3rd arg";
    if read::ktype(x) > 0 {
        let v = values(x, 2..=2)?;
        return result((p.tt)(&v[0], &v[1])?, false);
    }
    let v = from::list(&x).ok_or_else(|| anyhow!("{USAGE}"))?;
    let out = match v.len() {
        2 => Out::New,
        3 => output(v[2])?,
        _ => bail!("{USAGE}"),
    };
    let first = registry::is_handle(v[0]);
    let (r, h) = if let Some(s) = num(v[0]) {
        let (b, h) = arg(v[1])?;
        let r = match &out {
            Out::New => (p.st)(s.into(), &b)?,
            Out::Into(o) => (p.st_out)(o, s.into(), &b)?,
            Out::InPlace => bail!("cannot be called in-place on a scalar"),
        };
        (r, h)
    } else if let Some(s) = num(v[1]) {
        let (mut a, h) = arg(v[0])?;
        let r = match &out {
            Out::New => (p.ts)(&a, s.into())?,
            Out::Into(o) => (p.ts_out)(&a, o, s.into())?,
            Out::InPlace => (p.ts_inplace)(&mut a, s.into())?,
        };
        (r, h)
    } else {
        let (mut ts, h) = inputs(&v[..2])?;
        let b = ts.pop().expect("two inputs");
        let r = match &out {
            Out::New => (p.tt)(&ts[0], &b)?,
            Out::Into(o) => (p.tt_out)(&ts[0], o, &b)?,
            Out::InPlace => (p.tt_inplace)(&mut ts[0], &b)?,
        };
        (r, h)
    };
    done(r, h, &out, first || h)
}

/// `pow`: the power function in the inputs' (promoted) type.
pub fn pow(x: K) -> KResult {
    power(
        x,
        &Power {
            tt: |a, b| a.f_pow(b),
            ts: |a, s| a.f_pow_tensor_scalar(s),
            st: |s, b| Tensor::f_pow_scalar(s, b),
            tt_out: |a, o, b| a.f_pow_tensor_tensor_out(o, b),
            ts_out: |a, o, s| a.f_pow_tensor_scalar_out(o, s),
            st_out: |o, s, b| Tensor::f_pow_scalar_out(o, s, b),
            tt_inplace: |a, b| a.f_pow_tensor_(b),
            ts_inplace: |a, s| a.f_pow_(s),
        },
    )
}

/// `fpow`: the power function in double precision (PyTorch's `float_power`).
pub fn fpow(x: K) -> KResult {
    power(
        x,
        &Power {
            tt: |a, b| a.f_float_power(b),
            ts: |a, s| a.f_float_power_tensor_scalar(s),
            st: |s, b| Tensor::f_float_power_scalar(s, b),
            tt_out: |a, o, b| a.f_float_power_tensor_tensor_out(o, b),
            ts_out: |a, o, s| a.f_float_power_tensor_scalar_out(o, s),
            st_out: |o, s, b| Tensor::f_float_power_scalar_out(o, s, b),
            tt_inplace: |a, b| a.f_float_power_tensor_(b),
            ts_inplace: |a, s| a.f_float_power_(s),
        },
    )
}

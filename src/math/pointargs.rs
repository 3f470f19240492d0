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

/// `clamp`'s arguments: `(x;lo;hi)` or `(x;lo;hi;output)`, a null limit none on that side.
pub struct ClampArgs {
    t: Tensor,
    handle: bool,
    lo: Option<Num>,
    hi: Option<Num>,
    out: Option<Tensor>,
}

impl FromQ for ClampArgs {
    const TYPE: &'static str = "(input;lo;hi) or (input;lo;hi;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<ClampArgs>> {
        let v =
            from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
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
        let (t, handle) = arg(v[0])?;
        Ok(Some(ClampArgs {
            t,
            handle,
            lo,
            hi,
            out,
        }))
    }
}

/// `lerp`'s arguments: a simple list of three values, or `(x;y;wt)` and `(x;y;wt;output)` with
/// `wt` a number (`Some`) or an array/tensor (the third tensor).
pub enum LerpArgs {
    Values(Vec<Tensor>),
    Args {
        ts: Vec<Tensor>,
        handle: bool,
        weight: Option<Num>,
        out: Out,
    },
}

impl FromQ for LerpArgs {
    const TYPE: &'static str = "(x;y;wt;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<LerpArgs>> {
        const USAGE: &str = LerpArgs::TYPE;
        if read::ktype(x) > 0 {
            return Ok(Some(LerpArgs::Values(values(x, 3..=3)?)));
        }
        let v =
            from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
        if !(3..=4).contains(&v.len()) {
            bail!("3-4 arguments expected, {USAGE}, but {} supplied", v.len());
        }
        let out = if v.len() == 4 {
            Out::Into(into(v[3], "4th")?)
        } else {
            Out::New
        };
        let weight = num(v[2]);
        let n = if weight.is_some() { 2 } else { 3 };
        let (ts, handle) = inputs(&v[..n])?;
        Ok(Some(LerpArgs::Args {
            ts,
            handle,
            weight,
            out,
        }))
    }
}

/// `mvlgamma`'s arguments: `(x;p)` or `(x;p;output)`.
pub struct MvlgammaArgs {
    t: Tensor,
    handle: bool,
    p: i64,
    out: Option<Tensor>,
}

impl FromQ for MvlgammaArgs {
    const TYPE: &'static str = "(x;p;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<MvlgammaArgs>> {
        let v =
            from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
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
        let (t, handle) = arg(v[0])?;
        let out = if v.len() == 3 {
            Some(into(v[2], "3rd")?)
        } else {
            None
        };
        Ok(Some(MvlgammaArgs { t, handle, p, out }))
    }
}

/// The inputs of a power function: a simple list of two values, or `(x;y)`, `(x;y;output)`,
/// `(x;y;[])` with `x` or `y` a q number; whether the first input was a handle.
pub enum PowerArgs {
    Values(Tensor, Tensor),
    Args {
        inputs: Powers,
        handle: bool,
        first: bool,
        out: Out,
    },
}

/// Base and exponent: a scalar and a tensor, a tensor and a scalar, or two tensors.
pub enum Powers {
    ScalarTensor(Scalar, Tensor),
    TensorScalar(Tensor, Scalar),
    Tensors(Tensor, Tensor),
}

impl FromQ for PowerArgs {
    const TYPE: &'static str = "inputs x,y with optional output tensor or null as 3rd arg";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<PowerArgs>> {
        const USAGE: &str = "expected inputs x,y with optional output tensor or null as 3rd arg";
        if read::ktype(x) > 0 {
            let mut v = values(x, 2..=2)?;
            let b = v.pop().expect("two values");
            return Ok(Some(PowerArgs::Values(v.pop().expect("two values"), b)));
        }
        let v = from::list(&x).ok_or_else(|| anyhow!("{USAGE}"))?;
        let out = match v.len() {
            2 => Out::New,
            3 => output(v[2])?,
            _ => bail!("{USAGE}"),
        };
        let first = registry::is_handle(v[0]);
        let (inputs, handle) = if let Some(s) = num(v[0]) {
            let (b, h) = arg(v[1])?;
            if matches!(out, Out::InPlace) {
                bail!("cannot be called in-place on a scalar");
            }
            (Powers::ScalarTensor(s.into(), b), h)
        } else if let Some(s) = num(v[1]) {
            let (a, h) = arg(v[0])?;
            (Powers::TensorScalar(a, s.into()), h)
        } else {
            let (mut ts, h) = inputs(&v[..2])?;
            let b = ts.pop().expect("two inputs");
            (Powers::Tensors(ts.pop().expect("two inputs"), b), h)
        };
        Ok(Some(PowerArgs::Args {
            inputs,
            handle,
            first,
            out,
        }))
    }
}

crate::qfn! {
    /// `clamp(x;lo;hi)`, `clamp(x;lo;hi;output)`: limit `x` to `[lo,hi]`; a null limit is no
    /// limit.
    pub fn clamp(x: ClampArgs) -> KResult {
        let ClampArgs {
            t,
            handle: h,
            lo,
            hi,
            out,
        } = x;
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
    pub fn lerp(x: LerpArgs) -> KResult {
        let (ts, h, weight, out) = match x {
            LerpArgs::Values(v) => return result(v[0].f_lerp(&v[1], item(&v[2])?)?, false),
            LerpArgs::Args {
                ts,
                handle,
                weight,
                out,
            } => (ts, handle, weight, out),
        };
        let r = match (weight, &out) {
            (Some(w), Out::Into(o)) => ts[0].f_lerp_scalar_out(o, &ts[1], w)?,
            (Some(w), _) => ts[0].f_lerp(&ts[1], w)?,
            (None, Out::Into(o)) => ts[0].f_lerp_tensor_out(o, &ts[1], &ts[2])?,
            (None, _) => ts[0].f_lerp_tensor(&ts[1], &ts[2])?,
        };
        done(r, h, &out, false)
    }

    /// `mvlgamma(x;p)`, `mvlgamma(x;p;output)`: the multivariate log-gamma of dimension `p`.
    pub fn mvlgamma(x: MvlgammaArgs) -> KResult {
        let (r, out) = match x.out {
            Some(o) => (x.t.f_mvlgamma_out(&o, x.p)?, Out::Into(o)),
            None => (x.t.f_mvlgamma(x.p)?, Out::New),
        };
        done(r, x.handle, &out, false)
    }
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
fn power(x: PowerArgs, p: &Power) -> KResult {
    let (inputs, h, first, out) = match x {
        PowerArgs::Values(a, b) => return result((p.tt)(&a, &b)?, false),
        PowerArgs::Args {
            inputs,
            handle,
            first,
            out,
        } => (inputs, handle, first, out),
    };
    let r = match inputs {
        Powers::ScalarTensor(s, b) => match &out {
            Out::Into(o) => (p.st_out)(o, s, &b)?,
            _ => (p.st)(s, &b)?,
        },
        Powers::TensorScalar(mut a, s) => match &out {
            Out::New => (p.ts)(&a, s)?,
            Out::Into(o) => (p.ts_out)(&a, o, s)?,
            Out::InPlace => (p.ts_inplace)(&mut a, s)?,
        },
        Powers::Tensors(mut a, b) => match &out {
            Out::New => (p.tt)(&a, &b)?,
            Out::Into(o) => (p.tt_out)(&a, o, &b)?,
            Out::InPlace => (p.tt_inplace)(&mut a, &b)?,
        },
    };
    done(r, h, &out, first || h)
}

crate::qfn! {
/// `pow`: the power function in the inputs' (promoted) type.
pub fn pow(x: PowerArgs) -> KResult {
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
pub fn fpow(x: PowerArgs) -> KResult {
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
}

//! Pointwise math (math-pointwise.rst): one line per function in the tables below, as ktorch's
//! `math1`/`math2`. Unary functions take `x`, `(x;out)` or `(x;[])` (in place); binary ones
//! `(x;y)`, `(x;y;out)` or `(x;y;[])`, broadcasting as PyTorch does, with `y` a q number run
//! through libtorch's scalar form where it has one (so `pow(1 2 3;2.5)` stays single precision).
//! A simple list of two values, `mul 3 4`, is a pair. Names capitalised where q has the word
//! (ktorch's rule): `Abs`, `Exp`, `Div`, ... The addition forms with a multiplier (`add`,
//! `addcmul`, `addcdiv`) are here too. The macros `unary!` and `binary!` are shared with the
//! other math files (`compare`, `sorting`).
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Scalar, TchError, Tensor};

use super::forms::{self, Out};
use crate::k::from::Number as Num;
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::registry;
use crate::tensor::opargs::{self, Input};
use crate::tensor::{arg, convert, result};

pub type R = Result<Tensor, TchError>;

/// The tensors of inputs given as q data or handles, and whether any was a handle; q data goes
/// to the device of the first handle (ktorch's `xtenarg`), else stays on the CPU.
pub fn inputs(v: &[K]) -> Result<(Vec<Tensor>, bool)> {
    let mut ts = Vec::with_capacity(v.len());
    let mut device = None;
    for x in v {
        let (t, h) = arg(*x)?;
        if h && device.is_none() {
            device = Some(t.device());
        }
        ts.push((t, h));
    }
    let ts = ts
        .into_iter()
        .map(|(t, h)| match device {
            Some(d) if !h && d != Device::Cpu => t.f_to_device(d),
            _ => Ok(t),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((ts, device.is_some()))
}

/// A q number atom as ktorch's `xnum` reads it: short, int, long, real or float (not boolean).
pub fn num(x: K) -> Option<Num> {
    matches!(read::ktype(x), -9..=-5)
        .then(|| Num::of(x))
        .flatten()
}

/// A q scalar as ktorch's `xscalar` reads it: a number, or a boolean or byte atom.
pub fn scalar(x: K) -> Option<Num> {
    matches!(read::ktype(x), -1 | -4 | -9..=-5)
        .then(|| Num::of(x))
        .flatten()
}

/// The last argument of a form with an optional output: `::` for in place, or a tensor handle.
pub fn output(x: K) -> Result<Out> {
    if read::is_unset(x) {
        Ok(Out::InPlace)
    } else if opargs::is_tensor(x) {
        Ok(Out::Into(registry::tensor(x)?))
    } else {
        bail!(
            "expected an output tensor or [] as last argument, given {}",
            opargs::describe(x)
        )
    }
}

/// Finish a call: a new result (q data or handle), null after an output tensor, and after an
/// in-place call null for a tensor, the changed values for q data (ktorch's math2).
pub fn done(r: Tensor, handle: bool, out: &Out, first_handle: bool) -> KResult {
    match out {
        Out::InPlace if !first_handle => convert::to_q(&r),
        _ => forms::finish(r, handle, out),
    }
}

/// A simple list of `n` values as `n` 0-d tensors (ktorch's pair forms, `mul 3 4`).
pub fn values(x: K, n: std::ops::RangeInclusive<i64>) -> Result<Vec<Tensor>> {
    let t = convert::to_tensor(x)?;
    let size = t.size();
    if size.len() != 1 || !n.contains(&size[0]) {
        bail!(
            "unable to derive {} values from inputs of size {:?}",
            n.start(),
            size
        );
    }
    (0..size[0]).map(|i| Ok(t.f_get(i)?)).collect()
}

/// A 0-d tensor's value as a number.
pub fn item(t: &Tensor) -> Result<Num> {
    Ok(if t.is_floating_point() {
        Num::Float(t.f_double_value(&[])?)
    } else {
        Num::Int(t.f_int64_value(&[])?)
    })
}

/// The arguments of a function of one input: `x`, `(x;out)` or `(x;[])`, read as `forms::unary`
/// reads them (every value is a form or an error).
pub struct UnaryArgs {
    pub input: Input,
    pub out: Out,
}

impl FromQ for UnaryArgs {
    const TYPE: &'static str = "x, (x;output) or (x;[])";
    fn read(x: K) -> Result<Option<UnaryArgs>> {
        let (input, out) = forms::unary(x)?;
        Ok(Some(UnaryArgs { input, out }))
    }
}

/// A unary function: new result, into an output tensor, in place (where libtorch has it).
pub fn run_unary(
    a: UnaryArgs,
    f: fn(&Tensor) -> R,
    into: fn(&Tensor, &Tensor) -> R,
    inplace: Option<fn(&mut Tensor) -> R>,
) -> KResult {
    let UnaryArgs {
        input: Input { mut t, handle: h },
        out,
    } = a;
    let r = match &out {
        Out::New => f(&t)?,
        Out::Into(o) => into(&t, o)?,
        Out::InPlace => inplace.ok_or_else(|| anyhow!("no in-place method"))?(&mut t)?,
    };
    forms::finish(r, h, &out)
}

/// A binary function from libtorch's tensor forms (new, output, in place) and, where libtorch
/// has them, its forms with a scalar second argument.
pub struct Binary {
    pub f: fn(&Tensor, &Tensor) -> R,
    pub into: fn(&Tensor, &Tensor, &Tensor) -> R,
    pub inplace: Option<fn(&mut Tensor, &Tensor) -> R>,
    pub scalar: Option<fn(&Tensor, Scalar) -> R>,
    pub inplace_scalar: Option<fn(&mut Tensor, Scalar) -> R>,
}

/// The arguments of a binary function: a simple list of two values (`mul 3 4`, read as two 0-d
/// tensors), or `(x;y)`, `(x;y;output)`, `(x;y;[])`. `x` and `y` are kept as given: how they
/// are read depends on both (two live tensor handles run under one registry lock with no
/// copies; a q number `y` goes through libtorch's scalar form; q data goes to the device of a
/// handle), which the call decides, as ktorch's `math2` does.
pub enum BinaryArgs {
    Values(Tensor, Tensor),
    Args { x: K, y: K, out: Out },
}

impl FromQ for BinaryArgs {
    const TYPE: &'static str = "(x;y), (x;y;output) or (x;y;[])";
    /// Every value is a form or an error (the count and the output checked here).
    fn read(x: K) -> Result<Option<BinaryArgs>> {
        if read::ktype(x) > 0 {
            let mut v = values(x, 2..=2)?;
            let b = v.pop().expect("two values");
            let a = v.pop().expect("two values");
            return Ok(Some(BinaryArgs::Values(a, b)));
        }
        let usage = Self::TYPE;
        let v = from::list(&x)
            .ok_or_else(|| anyhow!("expected {usage}, given {}", opargs::describe(x)))?;
        let out = match v.len() {
            2 => Out::New,
            3 => output(v[2])?,
            n => bail!(
                "expected {usage}, given {n} argument{}",
                if n == 1 { "" } else { "s" }
            ),
        };
        Ok(Some(BinaryArgs::Args {
            x: v[0],
            y: v[1],
            out,
        }))
    }
}

/// Run a binary function on its arguments (see `BinaryArgs`).
pub fn run_binary(a: BinaryArgs, op: &Binary) -> KResult {
    let (x, y, out) = match a {
        BinaryArgs::Values(a, b) => return result((op.f)(&a, &b)?, false),
        BinaryArgs::Args { x, y, out } => (x, y, out),
    };
    // two tensor handles: one registry lock, no copies (as `add`)
    if matches!(out, Out::New) {
        if let Some(r) = registry::tensor_pair(x, y, |a, b| Ok((op.f)(a, b)?)) {
            return r;
        }
    }
    let v = [x, y];
    let first = registry::is_handle(v[0]);
    let none = || anyhow!("no in-place call implemented");
    if let Some(s) = scalar(v[1]) {
        // y a q number: libtorch's scalar form if it has one, else y as a 0-d tensor
        let (mut a, h) = arg(v[0])?;
        let b = || -> Result<Tensor> { Ok(convert::to_tensor(v[1])?.f_to_device(a.device())?) };
        let r = match &out {
            Out::New => match op.scalar {
                Some(f) => f(&a, s.into())?,
                None => (op.f)(&a, &b()?)?,
            },
            Out::Into(o) => (op.into)(&a, &b()?, o)?,
            Out::InPlace => match (op.inplace_scalar, op.inplace) {
                (Some(g), _) => g(&mut a, s.into())?,
                (None, Some(g)) => {
                    let b = b()?;
                    g(&mut a, &b)?
                }
                (None, None) => bail!(none()),
            },
        };
        return done(r, h, &out, first);
    }
    let (mut ts, h) = inputs(&v)?;
    let b = ts.pop().expect("two inputs");
    let r = match &out {
        Out::New => (op.f)(&ts[0], &b)?,
        Out::Into(o) => (op.into)(&ts[0], &b, o)?,
        Out::InPlace => op.inplace.ok_or_else(none)?(&mut ts[0], &b)?,
    };
    done(r, h, &out, first)
}

/// `-` for a form libtorch lacks, else the method's name.
macro_rules! inplace1 {
    (-) => {
        None
    };
    ($m:ident) => {
        Some((|t: &mut tch::Tensor| t.$m()) as fn(&mut tch::Tensor) -> $crate::math::pointwise::R)
    };
}
macro_rules! inplace2 {
    (-) => {
        None
    };
    ($m:ident) => {
        Some(
            (|a: &mut tch::Tensor, b: &tch::Tensor| a.$m(b))
                as fn(&mut tch::Tensor, &tch::Tensor) -> $crate::math::pointwise::R,
        )
    };
}
macro_rules! scalar2 {
    () => {
        None
    };
    ($m:ident) => {
        Some(
            (|a: &tch::Tensor, s: tch::Scalar| a.$m(s))
                as fn(&tch::Tensor, tch::Scalar) -> $crate::math::pointwise::R,
        )
    };
}
macro_rules! inplace_scalar2 {
    () => {
        None
    };
    (-) => {
        None
    };
    ($m:ident) => {
        Some(
            (|a: &mut tch::Tensor, s: tch::Scalar| a.$m(s))
                as fn(&mut tch::Tensor, tch::Scalar) -> $crate::math::pointwise::R,
        )
    };
}

/// `name: f, f_out, f_inplace;` makes q function `name` from tch's `f_x`, `f_x_out`, `f_x_`
/// (`-` where libtorch has no in-place form).
macro_rules! unary {
    ($($name:ident: $f:ident, $out:ident, $inplace:tt;)*) => {$(
        $crate::qfn! {
            pub fn $name(x: $crate::math::pointwise::UnaryArgs) -> $crate::k::KResult {
                $crate::math::pointwise::run_unary(x, |t| t.$f(), |t, o| t.$out(o), $crate::math::pointwise::inplace1!($inplace))
            }
        }
    )*};
}

/// `name: f, f_out, f_inplace | f_scalar, f_scalar_inplace;` makes binary q function `name`
/// (the part after `|`, for a q number as second argument, is optional; `-` for no form).
macro_rules! binary {
    ($($name:ident: $f:ident, $out:ident, $inplace:tt $(| $fs:ident, $ms:tt)?;)*) => {$(
        $crate::qfn! {
            pub fn $name(x: $crate::math::pointwise::BinaryArgs) -> $crate::k::KResult {
                $crate::math::pointwise::run_binary(x, &$crate::math::pointwise::Binary {
                    f: |a, b| a.$f(b),
                    into: |a, b, o| a.$out(o, b),
                    inplace: $crate::math::pointwise::inplace2!($inplace),
                    scalar: $crate::math::pointwise::scalar2!($($fs)?),
                    inplace_scalar: $crate::math::pointwise::inplace_scalar2!($($ms)?),
                })
            }
        }
    )*};
}

pub(crate) use {binary, inplace1, inplace2, inplace_scalar2, scalar2, unary};

unary! {
    abs: f_abs, f_abs_out, f_abs_;
    acos: f_acos, f_acos_out, f_acos_;
    angle: f_angle, f_angle_out, -;
    asin: f_asin, f_asin_out, f_asin_;
    atan: f_atan, f_atan_out, f_atan_;
    bitwisenot: f_bitwise_not, f_bitwise_not_out, f_bitwise_not_;
    ceil: f_ceil, f_ceil_out, f_ceil_;
    cos: f_cos, f_cos_out, f_cos_;
    cosh: f_cosh, f_cosh_out, f_cosh_;
    digamma: f_digamma, f_digamma_out, f_digamma_;
    erf: f_erf, f_erf_out, f_erf_;
    erfc: f_erfc, f_erfc_out, f_erfc_;
    erfinv: f_erfinv, f_erfinv_out, f_erfinv_;
    exp: f_exp, f_exp_out, f_exp_;
    expm1: f_expm1, f_expm1_out, f_expm1_;
    floor: f_floor, f_floor_out, f_floor_;
    frac: f_frac, f_frac_out, f_frac_;
    lgamma: f_lgamma, f_lgamma_out, f_lgamma_;
    log: f_log, f_log_out, f_log_;
    log10: f_log10, f_log10_out, f_log10_;
    log1p: f_log1p, f_log1p_out, f_log1p_;
    log2: f_log2, f_log2_out, f_log2_;
    neg: f_neg, f_neg_out, f_neg_;
    not: f_logical_not, f_logical_not_out, f_logical_not_;
    reciprocal: f_reciprocal, f_reciprocal_out, f_reciprocal_;
    round: f_round, f_round_out, f_round_;
    rsqrt: f_rsqrt, f_rsqrt_out, f_rsqrt_;
    sgn: f_sgn, f_sgn_out, f_sgn_;
    sigmoid: f_sigmoid, f_sigmoid_out, f_sigmoid_;
    sign: f_sign, f_sign_out, f_sign_;
    sin: f_sin, f_sin_out, f_sin_;
    sinh: f_sinh, f_sinh_out, f_sinh_;
    sqrt: f_sqrt, f_sqrt_out, f_sqrt_;
    tan: f_tan, f_tan_out, f_tan_;
    tanh: f_tanh, f_tanh_out, f_tanh_;
    trunc: f_trunc, f_trunc_out, f_trunc_;
}

binary! {
    atan2: f_atan2, f_atan2_out, f_atan2_;
    div: f_div, f_div_out, f_div_ | f_div_scalar, f_div_scalar_;
    fmod: f_fmod_tensor, f_fmod_tensor_out, f_fmod_tensor_ | f_fmod, f_fmod_;
    mul: f_mul, f_mul_out, f_mul_ | f_mul_scalar, f_mul_scalar_;
    remainder: f_remainder_tensor, f_remainder_tensor_out, f_remainder_tensor_ | f_remainder, f_remainder_;
    xor: f_logical_xor, f_logical_xor_out, f_logical_xor_;
}

/// An empty tensor of the dtype PyTorch computes `a op b ..` in (0-d and dimensioned tensors
/// promote differently), found by adding empty slices.
fn promoted(ts: &[&Tensor]) -> Result<Tensor> {
    let empty = |t: &Tensor| -> Result<Tensor> {
        Ok(if t.dim() == 0 {
            t.shallow_clone()
        } else {
            t.f_flatten(0, -1)?.f_narrow(0, 0, 0)?
        })
    };
    let mut r = empty(ts[0])?;
    for t in &ts[1..] {
        r = r.f_add(&empty(t)?)?;
    }
    Ok(r)
}

/// `y` scaled by the multiplier `m` in the dtype of the whole computation, as libtorch's
/// `alpha`/`value` (an integral computation takes an integral multiplier only).
fn scaled(all: &[&Tensor], y: &Tensor, m: Num, what: &str) -> Result<Tensor> {
    if matches!(m, Num::Int(1)) {
        return Ok(y.shallow_clone());
    }
    let p = promoted(all)?;
    let k = p.kind();
    if k == Kind::Bool {
        bail!("Boolean {what} only supported for Boolean results.");
    }
    if matches!(m, Num::Float(_)) && !(p.is_floating_point() || p.is_complex()) {
        bail!("For integral input tensors, argument {what} must not be a floating point number.");
    }
    Ok(y.f_to_kind(k)?.f_mul_scalar(m)?)
}

/// Split `(inputs..;multiplier;output)`: `n` inputs, then an optional number (default 1),
/// then an optional output tensor or `[]`.
fn with_multiplier<'a>(v: &'a [K], n: usize, usage: &str) -> Result<(&'a [K], Num, Out)> {
    if v.len() < n || v.len() > n + 2 {
        bail!(
            "{}-{} args expected, {usage}, but {} given",
            n,
            n + 2,
            v.len()
        );
    }
    let mut k = v.len();
    let mut out = Out::New;
    if k > n && (read::is_unset(v[k - 1]) || opargs::is_tensor(v[k - 1])) {
        out = output(v[k - 1])?;
        k -= 1;
    }
    let mut m = Num::Int(1);
    if k > n {
        m = num(v[k - 1]).ok_or_else(|| {
            anyhow!(
                "unrecognized arg(s), expected {}-{} args, {usage}",
                n,
                n + 2
            )
        })?;
        k -= 1;
    }
    if k != n {
        bail!(
            "unrecognized arg(s), expected {}-{} args, {usage}",
            n,
            n + 2
        );
    }
    Ok((&v[..n], m, out))
}

/// The arguments of the addition forms with a multiplier over `N` inputs (`add`: 2, `addcmul`
/// and `addcdiv`: 3): a simple list of the values and an optional multiplier, read as 0-d
/// tensors, or `(inputs..;multiplier;output)` with the multiplier (default 1) and the output
/// read and the inputs kept as given (two live handles run under one registry lock; q data goes
/// to the device of a handle, `inputs`), which the call decides.
pub enum Multiplied<const N: usize> {
    Values(Vec<Tensor>),
    /// `add(x;y)`: add's hot path first (two live handles), else as `Args` with multiplier 1
    Pair(K, K),
    Args {
        v: Vec<K>,
        m: Num,
        out: Out,
    },
}

impl<const N: usize> Multiplied<N> {
    const USAGE: &'static str = if N == 2 {
        "(x;y;multiplier;output)"
    } else {
        "(x;y;z;multiplier;output)"
    };
}

impl<const N: usize> FromQ for Multiplied<N> {
    const TYPE: &'static str = Self::USAGE;
    /// Every value is a form or an error.
    #[inline]
    fn read(x: K) -> Result<Option<Multiplied<N>>> {
        if N == 2 && from::list(&x).is_some_and(|v| v.len() == 2) {
            // add's hot path (a pair of handles) is the call's to try first
            let v = from::list(&x).expect("a list");
            return Ok(Some(Multiplied::Pair(v[0], v[1])));
        }
        if read::ktype(x) > 0 {
            return Ok(Some(Multiplied::Values(values(
                x,
                N as i64..=N as i64 + 1,
            )?)));
        }
        let v =
            from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", opargs::describe(x)))?;
        let (v, m, out) = with_multiplier(v, N, Self::USAGE)?;
        Ok(Some(Multiplied::Args {
            v: v.to_vec(),
            m,
            out,
        }))
    }
}

crate::qfn! {
    /// `add(x;y)`, `add(x;y;multiplier)`, with an output tensor or `[]` (in place) last: `x + m*y`;
    /// `add 1 2 10` the same on a simple list of values.
    pub fn add(x: Multiplied<2>) -> KResult {
        let (v, m, out) = match x {
            Multiplied::Values(v) => {
                let m = if v.len() == 3 {
                    item(&v[2])?
                } else {
                    Num::Int(1)
                };
                return result(
                    v[0].f_add(&scaled(&[&v[0], &v[1]], &v[1], m, "alpha")?)?,
                    false,
                );
            }
            // the hot path, two tensor handles: one registry lock, no copies (anything else,
            // errors included, takes the general path below: (x;y) as with_multiplier reads it)
            Multiplied::Pair(a, b) => {
                if let Some(r) = registry::tensor_pair(a, b, |a, b| Ok(a.f_add(b)?)) {
                    return r;
                }
                (vec![a, b], Num::Int(1), Out::New)
            }
            Multiplied::Args { v, m, out } => (v, m, out),
        };
        let first = registry::is_handle(v[0]);
        let (mut ts, h) = inputs(&v)?;
        let y = scaled(&[&ts[0], &ts[1]], &ts[1], m, "alpha")?;
        let r = match &out {
            Out::New => ts[0].f_add(&y)?,
            Out::Into(o) => ts[0].f_add_out(o, &y)?,
            Out::InPlace => ts[0].f_add_(&y)?,
        };
        done(r, h, &out, first)
    }

    pub fn addcmul(x: Multiplied<3>) -> KResult {
        addc(x, false)
    }

    pub fn addcdiv(x: Multiplied<3>) -> KResult {
        addc(x, true)
    }
}

/// `addcmul`/`addcdiv`: `(x;y;z)`, `(x;y;z;multiplier)`, then an optional output tensor or `[]`.
fn addc(x: Multiplied<3>, div: bool) -> KResult {
    let f = |a: &Tensor, b: &Tensor, c: &Tensor| {
        if div {
            a.f_addcdiv(b, c)
        } else {
            a.f_addcmul(b, c)
        }
    };
    let (v, m, out) = match x {
        Multiplied::Values(v) => {
            let m = if v.len() == 4 {
                item(&v[3])?
            } else {
                Num::Int(1)
            };
            return result(
                f(
                    &v[0],
                    &scaled(&[&v[0], &v[1], &v[2]], &v[1], m, "value")?,
                    &v[2],
                )?,
                false,
            );
        }
        Multiplied::Args { v, m, out } => (v, m, out),
        // read for add only; two arguments are too few here (with_multiplier's error)
        Multiplied::Pair(a, b) => {
            let pair = [a, b];
            let (v, m, out) = with_multiplier(&pair, 3, Multiplied::<3>::USAGE)?;
            (v.to_vec(), m, out)
        }
    };
    let first = registry::is_handle(v[0]);
    let (mut ts, h) = inputs(&v)?;
    let y = scaled(&[&ts[0], &ts[1], &ts[2]], &ts[1], m, "value")?;
    let z = ts.pop().expect("three inputs");
    let r = match (&out, div) {
        (Out::New, _) => f(&ts[0], &y, &z)?,
        (Out::Into(o), true) => ts[0].f_addcdiv_out(o, &y, &z)?,
        (Out::Into(o), false) => ts[0].f_addcmul_out(o, &y, &z)?,
        (Out::InPlace, true) => ts[0].f_addcdiv_(&y, &z)?,
        (Out::InPlace, false) => ts[0].f_addcmul_(&y, &z)?,
    };
    done(r, h, &out, first)
}

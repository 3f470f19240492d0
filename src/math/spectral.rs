//! Spectral operations (math-spectral.rst): Fourier transforms in 1, 2 and n dimensions,
//! `(x;size;dim;norm;output)` as ktorch reads them; fftshift/ifftshift `(x;dim)`; sample
//! frequencies fftfreq/rfftfreq `(length;scale;options or output)`; window functions
//! `(length;periodic;..;options)`. One line per transform in the `fourier!` table.
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, TchError, Tensor};

use super::forms::inputs;
use crate::k::from::{self, Args, FromQ, Number as Num, Sizes, Sym};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::opargs::{self, Input, OutTensor};
use crate::tensor::options::{self, Options};
use crate::tensor::result;

type R = Result<Tensor, TchError>;

/// The norm symbol: `backward (default, also for a null symbol), `forward or `ortho.
fn norm(s: Option<&str>) -> Result<&'static str> {
    match s {
        None | Some("") | Some("backward") => Ok("backward"),
        Some("forward") => Ok("forward"),
        Some("ortho") => Ok("ortho"),
        Some(s) => bail!("unrecognized fft norm: {s}"),
    }
}

/// The arguments of a transform: input, sizes, dims, norm and output. `one` reads size and
/// dim as long atoms (1-d transforms), else as longs (atom or vector).
struct Fourier {
    t: Tensor,
    h: bool,
    size: Option<Vec<i64>>,
    dim: Option<Vec<i64>>,
    norm: &'static str,
    out: Option<Tensor>,
}

/// A 1-d transform's size or dim: a long atom, `0N` for none.
struct Long1(Option<Vec<i64>>);
/// An n-d transform's sizes or dims: a long atom or long vector, empty for none.
struct LongN(Option<Vec<i64>>);

impl FromQ for Long1 {
    const TYPE: &'static str = "a long";
    fn read(x: K) -> Result<Option<Long1>> {
        Ok(Option::<i64>::read(x)?.map(|j| Long1(j.map(|j| vec![j]))))
    }
}
impl FromQ for LongN {
    const TYPE: &'static str = "a long or long list";
    fn read(x: K) -> Result<Option<LongN>> {
        Ok(Sizes::read(x)?.map(|Sizes(v)| LongN((!v.is_empty()).then_some(v))))
    }
}

/// Size and dim, read from the back of `a` as `T`s.
fn size_dim<T: FromQ>(a: &mut Args, f: fn(T) -> Option<Vec<i64>>) -> Result<SizeDim> {
    Ok(match a.opt2::<T, T>(1)? {
        Some((s, d)) => (f(s), f(d)),
        None => (a.opt::<T>(1)?.and_then(f), None),
    })
}
type SizeDim = (Option<Vec<i64>>, Option<Vec<i64>>);

fn fourier(x: K, one: bool) -> Result<Fourier> {
    let usage = "up to 5, (input;size;dim;norm;output)";
    let (mut a, alone) = Args::of::<Input>(x, 5, usage)?;
    let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
    let nm = norm(a.opt::<Sym>(1)?.map(|s| s.0))?;
    let (size, dim) = if one {
        size_dim::<Long1>(&mut a, |l| l.0)?
    } else {
        size_dim::<LongN>(&mut a, |l| l.0)?
    };
    let (ts, h) = inputs(&a, alone, 1, usage)?;
    let t = ts.into_iter().next().expect("one input");
    Ok(Fourier {
        t,
        h,
        size,
        dim,
        norm: nm,
        out,
    })
}

fn finish(f: &Fourier, new: impl FnOnce() -> R, into: impl FnOnce(&Tensor) -> R) -> KResult {
    match &f.out {
        Some(o) => {
            let _ = into(o)?;
            Ok(make::null())
        }
        None => result(new()?, f.h),
    }
}

/// 1-d: size an optional long, dim a long (default -1).
fn one_d(
    x: K,
    f: fn(&Tensor, Option<i64>, i64, &str) -> R,
    g: fn(&Tensor, &Tensor, Option<i64>, i64, &str) -> R,
) -> KResult {
    let a = fourier(x, true)?;
    let n = a.size.as_ref().map(|v| v[0]);
    let d = a.dim.as_ref().map_or(-1, |v| v[0]);
    finish(&a, || f(&a.t, n, d, a.norm), |o| g(&a.t, o, n, d, a.norm))
}

/// 2-d: sizes optional, dims default the last two.
fn two_d(
    x: K,
    f: fn(&Tensor, Option<&[i64]>, &[i64], &str) -> R,
    g: fn(&Tensor, &Tensor, Option<&[i64]>, &[i64], &str) -> R,
) -> KResult {
    let a = fourier(x, false)?;
    let d = a.dim.clone().unwrap_or(vec![-2, -1]);
    finish(
        &a,
        || f(&a.t, a.size.as_deref(), &d, a.norm),
        |o| g(&a.t, o, a.size.as_deref(), &d, a.norm),
    )
}

/// n-d: sizes and dims optional.
fn n_d(
    x: K,
    f: fn(&Tensor, Option<&[i64]>, Option<&[i64]>, &str) -> R,
    g: fn(&Tensor, &Tensor, Option<&[i64]>, Option<&[i64]>, &str) -> R,
) -> KResult {
    let a = fourier(x, false)?;
    finish(
        &a,
        || f(&a.t, a.size.as_deref(), a.dim.as_deref(), a.norm),
        |o| g(&a.t, o, a.size.as_deref(), a.dim.as_deref(), a.norm),
    )
}

/// `name: shape f` makes q function `name` of `shape` (one_d, two_d or n_d) from tch's
/// `f_fft_<f>` and `f_fft_<f>_out`.
macro_rules! fourier {
    ($($name:ident: $shape:ident $f:ident $out:ident;)*) => {$(
        pub fn $name(x: K) -> KResult {
            $shape(x, |t, s, d, n| t.$f(s, d, n), |t, o, s, d, n| t.$out(o, s, d, n))
        }
    )*};
}

fourier! {
    fft:    one_d f_fft_fft    f_fft_fft_out;
    ifft:   one_d f_fft_ifft   f_fft_ifft_out;
    rfft:   one_d f_fft_rfft   f_fft_rfft_out;
    irfft:  one_d f_fft_irfft  f_fft_irfft_out;
    hfft:   one_d f_fft_hfft   f_fft_hfft_out;
    ihfft:  one_d f_fft_ihfft  f_fft_ihfft_out;
    fft2:   two_d f_fft_fft2   f_fft_fft2_out;
    ifft2:  two_d f_fft_ifft2  f_fft_ifft2_out;
    rfft2:  two_d f_fft_rfft2  f_fft_rfft2_out;
    irfft2: two_d f_fft_irfft2 f_fft_irfft2_out;
    hfft2:  two_d f_fft_hfft2  f_fft_hfft2_out;
    ihfft2: two_d f_fft_ihfft2 f_fft_ihfft2_out;
    fftn:   n_d f_fft_fftn   f_fft_fftn_out;
    ifftn:  n_d f_fft_ifftn  f_fft_ifftn_out;
    rfftn:  n_d f_fft_rfftn  f_fft_rfftn_out;
    irfftn: n_d f_fft_irfftn f_fft_irfftn_out;
    hfftn:  n_d f_fft_hfftn  f_fft_hfftn_out;
    ihfftn: n_d f_fft_ihfftn f_fft_ihfftn_out;
}

/// `fftshift x`, `fftshift(x;dim)` (dims a long or longs; empty for all dims).
fn shift(x: K, inverse: bool) -> KResult {
    let (t, h, d) = if let Some(Input { t, handle }) = Input::alone(x)? {
        (t, handle, None)
    } else {
        let v = from::list(&x)
            .filter(|v| v.len() == 2)
            .ok_or_else(|| anyhow!("unexpected arg(s), expected (input;dim)"))?;
        let d = match Sizes::read(v[1])? {
            Some(Sizes(d)) => d,
            None if read::is_nil(v[1]) => Vec::new(),
            None => bail!(
                "expected 2nd arg of dimension(s), given {}",
                opargs::describe(v[1])
            ),
        };
        let Input { t, handle } = Input::from_q(v[0], "input")?;
        (t, handle, (!d.is_empty()).then_some(d))
    };
    let r = if inverse {
        t.f_fft_ifftshift(d.as_deref())?
    } else {
        t.f_fft_fftshift(d.as_deref())?
    };
    result(r, h)
}
pub fn fftshift(x: K) -> KResult {
    shift(x, false)
}
pub fn ifftshift(x: K) -> KResult {
    shift(x, true)
}

/// Creation options: dtype (default: the default dtype) and device, the rest applied after.
fn made(o: &Options, f: impl FnOnce((Kind, Device)) -> R) -> KResult {
    let t = f((
        o.kind.unwrap_or_else(options::default_kind),
        o.device.unwrap_or(Device::Cpu),
    ))?;
    Ok(registry::add(Obj::Tensor(o.apply(t)?)))
}

fn as_f64(n: Num) -> f64 {
    match n {
        Num::Int(j) => j as f64,
        Num::Float(f) => f,
    }
}

/// `fftfreq n`, `fftfreq(n;scale)`, `fftfreq(n;scale;options)`, `fftfreq(n;options)`, or an
/// output tensor in place of the options: always a tensor (or null with an output).
fn freq(x: K, real: bool) -> KResult {
    let usage = "(length;scale;options/output)";
    let (n, d, o, out) = match read::ktype(x) {
        -7 => (i64::read(x)?.unwrap_or(0), 1.0, Options::default(), None),
        7 => match Vec::<i64>::read(x)?.as_deref() {
            Some(&[n, d]) => (n, d as f64, Options::default(), None),
            _ => bail!(
                "expected FFT length and spacing but given {} element(s)",
                read::len(x)
            ),
        },
        0 if from::list(&x).is_some() => {
            let mut a = Args::list(x, 1, 4, usage)?;
            let n = i64::read(a.at(0))?.ok_or_else(|| {
                anyhow!(
                    "expected FFT length as first argument, given {}",
                    opargs::describe(a.at(0))
                )
            })?;
            let o = a.opt::<Options>(1)?.unwrap_or_default();
            let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
            let d = a.opt::<Num>(1)?.map_or(1.0, as_f64);
            a.rest(1, usage)?;
            (n, d, o, out)
        }
        _ => bail!(
            "unrecognized arg(s), expected {usage}, given {}",
            opargs::describe(x)
        ),
    };
    if n < 0 {
        bail!("length cannot be negative, given {n}");
    }
    if let Some(r) = out {
        let _ = if real {
            Tensor::f_fft_rfftfreq_out(&r, n, d)?
        } else {
            Tensor::f_fft_fftfreq_out(&r, n, d)?
        };
        return Ok(make::null());
    }
    made(&o, |k| {
        if real {
            Tensor::f_fft_rfftfreq(n, d, k)
        } else {
            Tensor::f_fft_fftfreq(n, d, k)
        }
    })
}
pub fn fftfreq(x: K) -> KResult {
    freq(x, false)
}
pub fn rfftfreq(x: K) -> KResult {
    freq(x, true)
}

/// Window kinds.
#[derive(Clone, Copy, PartialEq)]
enum Win {
    Bartlett,
    Blackman,
    Hann,
    Hamming,
    Kaiser,
}

/// `w length`, `w(length;periodic)`, hamming `(..;alpha)`, `(..;alpha;beta)`, kaiser `(..;beta)`,
/// each with optional tensor options last: always a new tensor.
fn window(x: K, w: Win) -> KResult {
    let usage = match w {
        Win::Hamming => "length, (length;periodic), (length;periodic;alpha) or (length;periodic;alpha;beta), with optional tensor attributes",
        Win::Kaiser => "length, (length;periodic) or (length;periodic;beta), with optional tensor attributes",
        _ => "length, (length;periodic), with optional tensor attributes",
    };
    let (len, v, o) = if let Some(n) = i64::read(x)? {
        (n, vec![], Options::default())
    } else {
        let v = from::list(&x).ok_or_else(|| anyhow!("expects {usage}"))?;
        let (v, o) = match v.split_last() {
            Some((l, rest)) if !rest.is_empty() && options::is_options(*l) => {
                (rest, options::parse(*l)?)
            }
            _ => (v, Options::default()),
        };
        let n = v
            .first()
            .map(|x| i64::read(*x))
            .transpose()?
            .flatten()
            .ok_or_else(|| anyhow!("expects {usage}"))?;
        (n, v[1..].to_vec(), o)
    };
    let max = match w {
        Win::Hamming => 3,
        Win::Kaiser => 2,
        _ => 1,
    };
    if v.len() > max {
        bail!("expects {usage}");
    }
    let p = v
        .first()
        .map(|x| bool::read(*x)?.ok_or_else(|| anyhow!("expects {usage}")))
        .transpose()?;
    let nums = v
        .iter()
        .skip(1)
        .map(|x| {
            Num::read(*x)?
                .map(as_f64)
                .ok_or_else(|| anyhow!("expects {usage}"))
        })
        .collect::<Result<Vec<_>>>()?;
    made(&o, |k| match (w, p, nums.as_slice()) {
        (Win::Bartlett, None, _) => Tensor::f_bartlett_window(len, k),
        (Win::Bartlett, Some(p), _) => Tensor::f_bartlett_window_periodic(len, p, k),
        (Win::Blackman, None, _) => Tensor::f_blackman_window(len, k),
        (Win::Blackman, Some(p), _) => Tensor::f_blackman_window_periodic(len, p, k),
        (Win::Hann, None, _) => Tensor::f_hann_window(len, k),
        (Win::Hann, Some(p), _) => Tensor::f_hann_window_periodic(len, p, k),
        (Win::Hamming, None, _) => Tensor::f_hamming_window(len, k),
        (Win::Hamming, Some(p), []) => Tensor::f_hamming_window_periodic(len, p, k),
        (Win::Hamming, Some(p), [a]) => Tensor::f_hamming_window_periodic_alpha(len, p, *a, k),
        (Win::Hamming, Some(p), [a, b, ..]) => {
            Tensor::f_hamming_window_periodic_alpha_beta(len, p, *a, *b, k)
        }
        (Win::Kaiser, None, _) => Tensor::f_kaiser_window(len, k),
        (Win::Kaiser, Some(p), []) => Tensor::f_kaiser_window_periodic(len, p, k),
        (Win::Kaiser, Some(p), [b, ..]) => Tensor::f_kaiser_window_beta(len, p, *b, k),
    })
}
pub fn bartlett(x: K) -> KResult {
    window(x, Win::Bartlett)
}
pub fn blackman(x: K) -> KResult {
    window(x, Win::Blackman)
}
pub fn hann(x: K) -> KResult {
    window(x, Win::Hann)
}
pub fn hamming(x: K) -> KResult {
    window(x, Win::Hamming)
}
pub fn kaiser(x: K) -> KResult {
    window(x, Win::Kaiser)
}

//! Spectral operations (math-spectral.rst): Fourier transforms in 1, 2 and n dimensions,
//! `(x;size;dim;norm;output)` as ktorch reads them; fftshift/ifftshift `(x;dim)`; sample
//! frequencies fftfreq/rfftfreq `(length;scale;options or output)`; window functions
//! `(length;periodic;..;options)`. One line per transform in the `fourier!` table.
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, TchError, Tensor};

use super::args::{self, Tail};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::opargs::{self, Num};
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

fn fourier(x: K, one: bool) -> Result<Fourier> {
    let usage = "up to 5, (input;size;dim;norm;output)";
    let mut a = Tail::new(x, 5, usage)?;
    let out = a.out(1).map(args::tensor).transpose()?;
    let nm = norm(a.sym(1))?;
    let read1 = |x: K| args::optlong(x).map(|j| j.map(|j| vec![j]));
    let read = |x: K| {
        if one {
            read1(x)
        } else {
            args::sizes(x).map(|v| (!v.is_empty()).then_some(v))
        }
    };
    let (size, dim) = match a.take2(1, read, read) {
        Some((s, d)) => (s, d),
        None => (a.take(1, read).flatten(), None),
    };
    let (ts, h) = args::inputs(a.done(1, usage)?)?;
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
    let (t, h, d) = if registry::is_handle(x) || opargs::array(x).is_some() {
        let (t, h) = args::input(x)?;
        (t, h, None)
    } else {
        let v = opargs::list(&x)
            .filter(|v| v.len() == 2)
            .ok_or_else(|| anyhow!("unexpected arg(s), expected (input;dim)"))?;
        let d = args::sizes(v[1])
            .or_else(|| read::is_nil(v[1]).then(Vec::new))
            .ok_or_else(|| {
                anyhow!(
                    "expected 2nd arg of dimension(s), given {}",
                    opargs::describe(v[1])
                )
            })?;
        let (t, h) = args::input(v[0])?;
        (t, h, (!d.is_empty()).then_some(d))
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
        -7 => (opargs::long(x).unwrap_or(0), 1.0, Options::default(), None),
        7 => match opargs::longs(x).as_deref() {
            Some(&[n, d]) => (n, d as f64, Options::default(), None),
            _ => bail!(
                "expected FFT length and spacing but given {} element(s)",
                read::len(x)
            ),
        },
        0 if opargs::list(&x).is_some() => {
            let mut a = Tail::list(x, 1, 4, usage)?;
            let n = opargs::long(a.v[0]).ok_or_else(|| {
                anyhow!(
                    "expected FFT length as first argument, given {}",
                    opargs::describe(a.v[0])
                )
            })?;
            let o = a
                .take(1, |x| options::is_options(x).then_some(x))
                .map(options::parse)
                .transpose()?
                .unwrap_or_default();
            let out = a.out(1).map(args::tensor).transpose()?;
            let d = a.take(1, args::number).map_or(1.0, as_f64);
            a.done(1, usage)?;
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
    let (len, v, o) = if let Some(n) = opargs::long(x) {
        (n, vec![], Options::default())
    } else {
        let v = opargs::list(&x).ok_or_else(|| anyhow!("expects {usage}"))?;
        let (v, o) = match v.split_last() {
            Some((l, rest)) if !rest.is_empty() && options::is_options(*l) => {
                (rest, options::parse(*l)?)
            }
            _ => (v, Options::default()),
        };
        let n = v
            .first()
            .and_then(|x| opargs::long(*x))
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
        .map(|x| opargs::flag(*x).ok_or_else(|| anyhow!("expects {usage}")))
        .transpose()?;
    let nums = v
        .iter()
        .skip(1)
        .map(|x| {
            args::number(*x)
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

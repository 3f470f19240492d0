//! Spectral operations (math-spectral.rst): Fourier transforms in 1, 2 and n dimensions,
//! `(x;size;dim;norm;output)` as ktorch reads them; fftshift/ifftshift `(x;dim)`; sample
//! frequencies fftfreq/rfftfreq `(length;scale;options or output)`; window functions
//! `(length;periodic;..;options)`. One line per transform in the `fourier1!` and `fourier_n!`
//! tables.
use std::marker::PhantomData;

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

/// A 1-d transform's size or dim: a long atom, `0N` for none.
pub struct Long1(Option<Vec<i64>>);
/// An n-d transform's sizes or dims: a long atom or long vector, empty for none.
pub struct LongN(Option<Vec<i64>>);

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

/// The kind a transform reads its size and dim as (`Long1`, `LongN`): their values.
pub trait SizeOrDim: FromQ {
    fn longs(self) -> Option<Vec<i64>>;
}
impl SizeOrDim for Long1 {
    fn longs(self) -> Option<Vec<i64>> {
        self.0
    }
}
impl SizeOrDim for LongN {
    fn longs(self) -> Option<Vec<i64>> {
        self.0
    }
}

/// The arguments of a transform, `x` or `(input;size;dim;norm;output)` read from the back:
/// output, norm, then size and dim as `L`s (both, else size alone), then the input. `Fourier1`
/// reads size and dim as long atoms (1-d transforms), `FourierN` as longs (atom or vector).
pub struct Fourier<L> {
    t: Tensor,
    h: bool,
    size: Option<Vec<i64>>,
    dim: Option<Vec<i64>>,
    norm: &'static str,
    out: Option<Tensor>,
    of: PhantomData<L>,
}
pub type Fourier1 = Fourier<Long1>;
pub type FourierN = Fourier<LongN>;

impl<L: SizeOrDim> FromQ for Fourier<L> {
    const TYPE: &'static str = "(input;size;dim;norm;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Fourier<L>>> {
        let usage = "up to 5, (input;size;dim;norm;output)";
        let (mut a, alone) = Args::of::<Input>(x, 5, usage)?;
        let out = a.opt::<OutTensor>(1)?.map(|o| o.0);
        let norm = norm(a.opt::<Sym>(1)?.map(|s| s.0))?;
        let (size, dim) = match a.opt2::<L, L>(1)? {
            Some((s, d)) => (s.longs(), d.longs()),
            None => (a.opt::<L>(1)?.and_then(L::longs), None),
        };
        let (ts, h) = inputs(&a, alone, 1, usage)?;
        let t = ts.into_iter().next().expect("one input");
        Ok(Some(Fourier {
            t,
            h,
            size,
            dim,
            norm,
            out,
            of: PhantomData,
        }))
    }
}

impl<L> Fourier<L> {
    /// Into the output tensor (null), else the new tensor.
    fn finish(&self, new: impl FnOnce() -> R, into: impl FnOnce(&Tensor) -> R) -> KResult {
        match &self.out {
            Some(o) => {
                let _ = into(o)?;
                Ok(make::null())
            }
            None => result(new()?, self.h),
        }
    }
}

impl Fourier1 {
    /// 1-d: size an optional long, dim a long (default -1).
    pub fn one_d(
        self,
        f: fn(&Tensor, Option<i64>, i64, &str) -> R,
        g: fn(&Tensor, &Tensor, Option<i64>, i64, &str) -> R,
    ) -> KResult {
        let n = self.size.as_ref().map(|v| v[0]);
        let d = self.dim.as_ref().map_or(-1, |v| v[0]);
        let (t, nm) = (&self.t, self.norm);
        self.finish(|| f(t, n, d, nm), |o| g(t, o, n, d, nm))
    }
}

impl FourierN {
    /// 2-d: sizes optional, dims default the last two.
    pub fn two_d(
        self,
        f: fn(&Tensor, Option<&[i64]>, &[i64], &str) -> R,
        g: fn(&Tensor, &Tensor, Option<&[i64]>, &[i64], &str) -> R,
    ) -> KResult {
        let d = self.dim.clone().unwrap_or(vec![-2, -1]);
        let (t, s, nm) = (&self.t, self.size.as_deref(), self.norm);
        self.finish(|| f(t, s, &d, nm), |o| g(t, o, s, &d, nm))
    }

    /// n-d: sizes and dims optional.
    pub fn n_d(
        self,
        f: fn(&Tensor, Option<&[i64]>, Option<&[i64]>, &str) -> R,
        g: fn(&Tensor, &Tensor, Option<&[i64]>, Option<&[i64]>, &str) -> R,
    ) -> KResult {
        let (t, s, d, nm) = (
            &self.t,
            self.size.as_deref(),
            self.dim.as_deref(),
            self.norm,
        );
        self.finish(|| f(t, s, d, nm), |o| g(t, o, s, d, nm))
    }
}

/// `name: f out;` makes typed q function `name` of a 1-d transform, tch's `f_fft_<f>` and
/// `f_fft_<f>_out`.
macro_rules! fourier1 {
    ($($name:ident: $f:ident $out:ident;)*) => {$(
        $crate::qfn! {
            pub fn $name(x: $crate::math::spectral::Fourier1) -> $crate::k::KResult {
                x.one_d(|t, s, d, n| t.$f(s, d, n), |t, o, s, d, n| t.$out(o, s, d, n))
            }
        }
    )*};
}

/// `name: shape f out;` makes typed q function `name` of a 2-d or n-d transform, `shape`
/// (two_d or n_d) of tch's `f_fft_<f>` and `f_fft_<f>_out`.
macro_rules! fourier_n {
    ($($name:ident: $shape:ident $f:ident $out:ident;)*) => {$(
        $crate::qfn! {
            pub fn $name(x: $crate::math::spectral::FourierN) -> $crate::k::KResult {
                x.$shape(|t, s, d, n| t.$f(s, d, n), |t, o, s, d, n| t.$out(o, s, d, n))
            }
        }
    )*};
}

fourier1! {
    fft:   f_fft_fft   f_fft_fft_out;
    ifft:  f_fft_ifft  f_fft_ifft_out;
    rfft:  f_fft_rfft  f_fft_rfft_out;
    irfft: f_fft_irfft f_fft_irfft_out;
    hfft:  f_fft_hfft  f_fft_hfft_out;
    ihfft: f_fft_ihfft f_fft_ihfft_out;
}

fourier_n! {
    fft2:   two_d f_fft_fft2   f_fft_fft2_out;
    ifft2:  two_d f_fft_ifft2  f_fft_ifft2_out;
    rfft2:  two_d f_fft_rfft2  f_fft_rfft2_out;
    irfft2: two_d f_fft_irfft2 f_fft_irfft2_out;
    hfft2:  two_d f_fft_hfft2  f_fft_hfft2_out;
    ihfft2: two_d f_fft_ihfft2 f_fft_ihfft2_out;
    fftn:   n_d   f_fft_fftn   f_fft_fftn_out;
    ifftn:  n_d   f_fft_ifftn  f_fft_ifftn_out;
    rfftn:  n_d   f_fft_rfftn  f_fft_rfftn_out;
    irfftn: n_d   f_fft_irfftn f_fft_irfftn_out;
    hfftn:  n_d   f_fft_hfftn  f_fft_hfftn_out;
    ihfftn: n_d   f_fft_ihfftn f_fft_ihfftn_out;
}

/// `fftshift`'s and `ifftshift`'s arguments: `x`, or `(x;dim)` with dims a long or longs
/// (empty or `::` for all dims).
pub struct Shift {
    t: Tensor,
    h: bool,
    dim: Option<Vec<i64>>,
}

impl FromQ for Shift {
    const TYPE: &'static str = "(input;dim)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Shift>> {
        if let Some(Input { t, handle }) = Input::alone(x)? {
            return Ok(Some(Shift {
                t,
                h: handle,
                dim: None,
            }));
        }
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
        Ok(Some(Shift {
            t,
            h: handle,
            dim: (!d.is_empty()).then_some(d),
        }))
    }
}

crate::qfn! {
    /// `fftshift x`, `fftshift(x;dim)`: the zero frequency moved to the middle.
    pub fn fftshift(x: Shift) -> KResult {
        result(x.t.f_fft_fftshift(x.dim.as_deref())?, x.h)
    }

    /// `ifftshift x`, `ifftshift(x;dim)`: fftshift undone.
    pub fn ifftshift(x: Shift) -> KResult {
        result(x.t.f_fft_ifftshift(x.dim.as_deref())?, x.h)
    }
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

/// `fftfreq`'s and `rfftfreq`'s arguments: `n`, `n,d` (a long vector of two),
/// `(n;scale)`, `(n;scale;options)`, `(n;options)`, or an output tensor in place of the options.
pub struct Freq {
    n: i64,
    d: f64,
    o: Options,
    out: Option<Tensor>,
}

impl FromQ for Freq {
    const TYPE: &'static str = "(length;scale;options/output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Freq>> {
        let usage = Freq::TYPE;
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
        Ok(Some(Freq { n, d, o, out }))
    }
}

/// The frequencies into the output tensor (null), else a new tensor made with the options.
fn freq(
    x: Freq,
    into: fn(&Tensor, i64, f64) -> R,
    new: fn(i64, f64, (Kind, Device)) -> R,
) -> KResult {
    match &x.out {
        Some(r) => {
            let _ = into(r, x.n, x.d)?;
            Ok(make::null())
        }
        None => made(&x.o, |k| new(x.n, x.d, k)),
    }
}

crate::qfn! {
    /// `fftfreq n`, `fftfreq(n;scale;options or output)`: the sample frequencies of a transform
    /// of length n (always a tensor, or null with an output).
    pub fn fftfreq(x: Freq) -> KResult {
        freq(x, Tensor::f_fft_fftfreq_out, Tensor::f_fft_fftfreq)
    }

    /// `rfftfreq n`, `rfftfreq(n;scale;options or output)`: the non-negative ones.
    pub fn rfftfreq(x: Freq) -> KResult {
        freq(x, Tensor::f_fft_rfftfreq_out, Tensor::f_fft_rfftfreq)
    }
}

/// Window kinds, a window's kind parameter.
pub const BARTLETT: u8 = 0;
pub const BLACKMAN: u8 = 1;
pub const HANN: u8 = 2;
pub const HAMMING: u8 = 3;
pub const KAISER: u8 = 4;

/// A window's usage, by kind.
const fn window_usage(w: u8) -> &'static str {
    match w {
        HAMMING => "length, (length;periodic), (length;periodic;alpha) or (length;periodic;alpha;beta), with optional tensor attributes",
        KAISER => "length, (length;periodic) or (length;periodic;beta), with optional tensor attributes",
        _ => "length, (length;periodic), with optional tensor attributes",
    }
}

/// A window's arguments, `W` its kind: `length`, `(length;periodic)`, hamming
/// `(..;alpha)`, `(..;alpha;beta)`, kaiser `(..;beta)`, each with optional tensor options last.
pub struct Window<const W: u8> {
    len: i64,
    periodic: Option<bool>,
    nums: Vec<f64>,
    o: Options,
}

impl<const W: u8> FromQ for Window<W> {
    const TYPE: &'static str = window_usage(W);
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Window<W>>> {
        let usage = Self::TYPE;
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
        let max = match W {
            HAMMING => 3,
            KAISER => 2,
            _ => 1,
        };
        if v.len() > max {
            bail!("expects {usage}");
        }
        let periodic = v
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
        Ok(Some(Window {
            len,
            periodic,
            nums,
            o,
        }))
    }
}

crate::qfn! {
    /// `bartlett length`, `bartlett(length;periodic;options)`: a new tensor.
    pub fn bartlett(x: Window<BARTLETT>) -> KResult {
        made(&x.o, |k| match x.periodic {
            None => Tensor::f_bartlett_window(x.len, k),
            Some(p) => Tensor::f_bartlett_window_periodic(x.len, p, k),
        })
    }

    /// `blackman length`, `blackman(length;periodic;options)`: a new tensor.
    pub fn blackman(x: Window<BLACKMAN>) -> KResult {
        made(&x.o, |k| match x.periodic {
            None => Tensor::f_blackman_window(x.len, k),
            Some(p) => Tensor::f_blackman_window_periodic(x.len, p, k),
        })
    }

    /// `hann length`, `hann(length;periodic;options)`: a new tensor.
    pub fn hann(x: Window<HANN>) -> KResult {
        made(&x.o, |k| match x.periodic {
            None => Tensor::f_hann_window(x.len, k),
            Some(p) => Tensor::f_hann_window_periodic(x.len, p, k),
        })
    }

    /// `hamming length`, `hamming(length;periodic;alpha;beta;options)`: a new tensor.
    pub fn hamming(x: Window<HAMMING>) -> KResult {
        made(&x.o, |k| match (x.periodic, x.nums.as_slice()) {
            (None, _) => Tensor::f_hamming_window(x.len, k),
            (Some(p), []) => Tensor::f_hamming_window_periodic(x.len, p, k),
            (Some(p), [a]) => Tensor::f_hamming_window_periodic_alpha(x.len, p, *a, k),
            (Some(p), [a, b, ..]) => {
                Tensor::f_hamming_window_periodic_alpha_beta(x.len, p, *a, *b, k)
            }
        })
    }

    /// `kaiser length`, `kaiser(length;periodic;beta;options)`: a new tensor.
    pub fn kaiser(x: Window<KAISER>) -> KResult {
        made(&x.o, |k| match (x.periodic, x.nums.as_slice()) {
            (None, _) => Tensor::f_kaiser_window(x.len, k),
            (Some(p), []) => Tensor::f_kaiser_window_periodic(x.len, p, k),
            (Some(p), [b, ..]) => Tensor::f_kaiser_window_beta(x.len, p, *b, k),
        })
    }
}

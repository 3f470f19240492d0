//! The initialisation heuristics of `torch.nn.init` (zeros ones eye dirac orthogonal, Xavier,
//! Kaiming, sparse) and `gain` (PyTorch's `calculate_gain`). Each draws its random numbers with
//! the same calls in the same order as PyTorch does, so a seeded run gives PyTorch's values.
use anyhow::{anyhow, bail, Result};
use tch::{Kind, Tensor};

use super::{array, double, handle_list, num, shared, Target};
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::registry;
use crate::tensor::opargs::{self, describe};

/// The arguments of a fill as ktorch's `kfill` reads them: `h`, `(h;gain)`, `(h;picks)`,
/// `(h;picks;gain)`, q data or `(data;gain)`; `G` says whether the function takes a gain.
pub struct Fill<const G: bool> {
    target: Target,
    gain: Option<f64>,
}

impl<const G: bool> FromQ for Fill<G> {
    const TYPE: &'static str = "a tensor, vector, dictionary, module or q data, picks and gain";
    /// Every value is the call or an error.
    fn read(x: K) -> Result<Option<Fill<G>>> {
        let gain = G;
        let (target, g) = if registry::is_handle(x) {
            (shared(x, None)?, None)
        } else if let Some(v) = handle_list(&x) {
            match v {
                [h, y] => match double(*y) {
                    Some(d) => (shared(*h, None)?, Some(d)),
                    None => (shared(*h, Some(*y))?, None),
                },
                [h, p, y] if gain => {
                    let d = double(*y).ok_or_else(|| {
                        anyhow!(
                            "unable to read final arg of gain, double expected, given {}",
                            describe(*y)
                        )
                    })?;
                    (shared(*h, Some(*p))?, Some(d))
                }
                [_, _, _] => bail!("no more than 2 args expected, 3 supplied"),
                _ => bail!(
                    "expected up to {} args, but {} args supplied",
                    2 + gain as usize,
                    v.len()
                ),
            }
        } else {
            match from::list(&x) {
                Some([a, y]) if double(*y).is_some() => (array(*a)?, double(*y)),
                _ => (array(x)?, None),
            }
        };
        if let (Some(g), false) = (g, gain) {
            bail!("not implemented for additional gain argument of {g}");
        }
        Ok(Some(Fill { target, gain: g }))
    }
}

crate::qfn! {
    /// `zeros x`: zeros (`torch.nn.init.zeros_`).
    pub fn zeros(x: Fill<false>) -> KResult {
        x.target
            .fill(|t| t.f_zero_().map(drop).map_err(Into::into))
    }
    /// `ones x`: ones (`torch.nn.init.ones_`).
    pub fn ones(x: Fill<false>) -> KResult {
        x.target
            .fill(|t| t.f_fill_(1).map(drop).map_err(Into::into))
    }
    /// `eye x`: the identity (`torch.nn.init.eye_`).
    pub fn eye(x: Fill<false>) -> KResult {
        x.target.fill(eye_)
    }
    /// `dirac x`: the Dirac delta (`torch.nn.init.dirac_`).
    pub fn dirac(x: Fill<false>) -> KResult {
        x.target.fill(dirac_)
    }
    /// `orthogonal x`, `orthogonal(x;gain)`: `torch.nn.init.orthogonal_`.
    pub fn orthogonal(x: Fill<true>) -> KResult {
        let g = x.gain;
        x.target.fill(|t| orthogonal_(t, g.unwrap_or(1.0)))
    }
    /// `xnormal x`, `xnormal(x;gain)`: `torch.nn.init.xavier_normal_`.
    pub fn xnormal(x: Fill<true>) -> KResult {
        let g = x.gain;
        x.target.fill(|t| {
            let std = xavier_std(t, g.unwrap_or(1.0))?;
            t.f_normal_(0.0, std).map(drop).map_err(Into::into)
        })
    }
    /// `xuniform x`, `xuniform(x;gain)`: `torch.nn.init.xavier_uniform_`.
    pub fn xuniform(x: Fill<true>) -> KResult {
        let g = x.gain;
        x.target.fill(|t| {
            let a = 3f64.sqrt() * xavier_std(t, g.unwrap_or(1.0))?;
            t.f_uniform_(-a, a).map(drop).map_err(Into::into)
        })
    }
}

/// The identity matrix (2-d only), as `torch.eye(*t.shape, out=t)`.
fn eye_(t: &mut Tensor) -> Result<()> {
    let s = t.size();
    if s.len() != 2 {
        bail!("Only tensors with 2 dimensions are supported");
    }
    t.f_copy_(&Tensor::f_eye_m(s[0], s[1], (t.kind(), t.device()))?)?;
    Ok(())
}

/// The Dirac delta (3-5 dims, one group): ones at the centre of the kernel of each matching
/// output and input channel.
fn dirac_(t: &mut Tensor) -> Result<()> {
    let s = t.size();
    if !(3..=5).contains(&s.len()) {
        bail!("Only tensors with 3, 4, or 5 dimensions are supported");
    }
    let _ = t.f_zero_()?;
    for d in 0..s[0].min(s[1]) {
        let mut e = t.f_select(0, d)?.f_select(0, d)?;
        for &k in &s[2..] {
            e = e.f_select(0, k / 2)?;
        }
        let _ = e.f_fill_(1)?;
    }
    Ok(())
}

/// A (semi-)orthogonal matrix from the QR decomposition of a normal sample, as PyTorch.
fn orthogonal_(t: &mut Tensor, gain: f64) -> Result<()> {
    if t.dim() < 2 {
        bail!("Only tensors with 2 or more dimensions are supported");
    }
    if t.numel() == 0 {
        return Ok(());
    }
    let rows = t.size()[0];
    let cols = t.numel() as i64 / rows;
    let mut flat = Tensor::f_empty([rows, cols], (t.kind(), t.device()))?;
    let _ = flat.f_normal_(0.0, 1.0)?;
    if rows < cols {
        flat = flat.f_transpose(0, 1)?;
    }
    let (q, r) = Tensor::f_linalg_qr(&flat, "reduced")?;
    let mut q = q.f_mul(&r.f_diag(0)?.f_sign()?)?;
    if rows < cols {
        q = q.f_transpose(0, 1)?;
    }
    t.f_copy_(&q.f_reshape(t.size())?)?;
    let _ = t.f_mul_scalar_(gain)?;
    Ok(())
}

/// Fan in and fan out: input and output feature maps times the receptive field.
fn fans(t: &Tensor) -> Result<(f64, f64)> {
    let s = t.size();
    if s.len() < 2 {
        bail!("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
    }
    let rf: i64 = s[2..].iter().product();
    Ok(((s[1] * rf) as f64, (s[0] * rf) as f64))
}

fn xavier_std(t: &Tensor, gain: f64) -> Result<f64> {
    let (i, o) = fans(t)?;
    Ok(gain * (2.0 / (i + o)).sqrt())
}

/// Non-linearities PyTorch has a gain for: ktorch's names.
const NONLINEAR: &[&str] = &[
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "convtranspose1d",
    "convtranspose2d",
    "convtranspose3d",
    "sigmoid",
    "tanh",
    "relu",
    "leakyrelu",
    "selu",
];

/// PyTorch's `calculate_gain(nonlinearity, param)`.
fn gain_of(f: &str, param: f64) -> Result<f64> {
    Ok(match f {
        "tanh" => 5.0 / 3.0,
        "relu" => 2f64.sqrt(),
        "leakyrelu" => (2.0 / (1.0 + param * param)).sqrt(),
        "selu" => 0.75,
        s if NONLINEAR.contains(&s) => 1.0,
        s => bail!("unrecognized non-linearity `{s}"),
    })
}

/// `gain`'s arguments: a non-linearity's name and its parameter (leaky relu's slope, 0.01 unless
/// given, as PyTorch's).
pub struct GainOf(&'static str, f64);

impl FromQ for GainOf {
    const TYPE: &'static str = "function name and optional parameter";
    fn read(x: K) -> Result<Option<GainOf>> {
        Ok(match (<&str>::of(x), from::list(&x)) {
            (Some(s), _) => Some(GainOf(s, 0.01)),
            (None, Some([s, p])) => <&str>::of(*s).zip(num(*p)).map(|(s, p)| GainOf(s, p)),
            _ => None,
        })
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected function name and optional parameter, e.g. `relu or (`leakyrelu;0.2)")
    }
}

crate::qfn! {
    /// `gain f` or `gain(f;param)`: the recommended gain for a non-linearity.
    pub fn gain(x: GainOf) -> Result<f64> {
        gain_of(x.0, x.1)
    }
}

/// Kaiming options: the non-linearity, the fan mode and the slope, given in any order.
struct Kaiming {
    fan_in: bool,
    nonlinear: &'static str,
    slope: f64,
}

impl Kaiming {
    fn read(args: &[K]) -> Result<Kaiming> {
        let mut k = Kaiming {
            fan_in: true,
            nonlinear: "leakyrelu",
            slope: 0.0,
        };
        for (i, a) in args.iter().enumerate() {
            if let Some(s) = <&str>::of(*a) {
                match s {
                    "fanin" => k.fan_in = true,
                    "fanout" => k.fan_in = false,
                    s if NONLINEAR.contains(&s) => k.nonlinear = s,
                    s => bail!("unrecognized symbol `{s}"),
                }
            } else {
                k.slope =
                    num(*a).ok_or_else(|| anyhow!("arg[{}] unrecognized, {}", i, describe(*a)))?;
            }
        }
        Ok(k)
    }

    /// The standard deviation for tensor `t`.
    fn std(&self, t: &Tensor) -> Result<f64> {
        let (i, o) = fans(t)?;
        let fan = if self.fan_in { i } else { o };
        Ok(gain_of(self.nonlinear, self.slope)? / fan.sqrt())
    }
}

fn is_option(s: &str) -> bool {
    s == "fanin" || s == "fanout" || NONLINEAR.contains(&s)
}

/// The arguments of a Kaiming fill as ktorch's `kaiming` reads them: `h`, `(h;options..)`,
/// `(h;picks;options..)` (picks are longs for a tensor or vector, names for a dictionary or
/// module), q data, `(data;options..)`.
pub struct KaimingArgs {
    target: Target,
    opts: Kaiming,
}

impl FromQ for KaimingArgs {
    const TYPE: &'static str = "a tensor, vector, dictionary, module or q data and options";
    /// Every value is the call or an error.
    fn read(x: K) -> Result<Option<KaimingArgs>> {
        let (target, opts) = if registry::is_handle(x) {
            (shared(x, None)?, Kaiming::read(&[])?)
        } else if let Some(v) = handle_list(&x) {
            if !(2..=5).contains(&v.len()) {
                bail!("2-5 args expected but {} supplied", v.len());
            }
            let t = read::ktype(v[1]);
            let pick = match opargs::class(v[0])? {
                Some(registry::Class::Tensor | registry::Class::Vector) => t == -7 || t == 7,
                cls => {
                    let named = t == -11 || t == 11;
                    if !named && cls != Some(registry::Class::Dictionary) {
                        bail!(
                            "tensor name(s) expected with supplied {}",
                            cls.map_or("object", registry::Class::name)
                        );
                    }
                    // a dictionary's key that is also an option name is read as the option
                    named
                        && !(cls == Some(registry::Class::Dictionary)
                            && <&str>::of(v[1]).is_some_and(is_option))
                }
            };
            if pick {
                (shared(v[0], Some(v[1]))?, Kaiming::read(&v[2..])?)
            } else {
                (shared(v[0], None)?, Kaiming::read(&v[1..])?)
            }
        } else if let Some(t) = opargs::array(x) {
            (Target::Array(t), Kaiming::read(&[])?)
        } else {
            match from::list(&x) {
                Some(v) if !v.is_empty() => (array(v[0])?, Kaiming::read(&v[1..])?),
                _ => bail!("not implemented for {}", describe(x)),
            }
        };
        Ok(Some(KaimingArgs { target, opts }))
    }
}

/// Fill with `f` of each tensor and its standard deviation.
fn kaiming(x: KaimingArgs, f: fn(&mut Tensor, f64) -> Result<()>) -> KResult {
    let KaimingArgs { target, opts } = x;
    target.fill(|t| {
        if t.size().contains(&0) {
            return Ok(()); // PyTorch warns and leaves an empty tensor as it is
        }
        f(t, opts.std(t)?)
    })
}

crate::qfn! {
    /// `knormal x`, `knormal(x;options..)`: `torch.nn.init.kaiming_normal_`.
    pub fn knormal(x: KaimingArgs) -> KResult {
        kaiming(x, |t, std| {
            t.f_normal_(0.0, std).map(drop).map_err(Into::into)
        })
    }
    /// `kuniform x`, `kuniform(x;options..)`: `torch.nn.init.kaiming_uniform_`.
    pub fn kuniform(x: KaimingArgs) -> KResult {
        kaiming(x, |t, std| {
            let b = 3f64.sqrt() * std;
            t.f_uniform_(-b, b).map(drop).map_err(Into::into)
        })
    }
}

/// `snormal`'s arguments: the target, the fraction of each column's rows set to zero, and the
/// standard deviation (0.01 unless given).
pub struct Sparse {
    target: Target,
    frac: f64,
    std: f64,
}

impl FromQ for Sparse {
    const TYPE: &'static str = "(x;fraction), (x;fraction;std) or (h;picks;fraction;std)";
    /// Every value is the call or an error.
    fn read(x: K) -> Result<Option<Sparse>> {
        let v = from::list(&x).ok_or_else(|| anyhow!("not implemented for {}", describe(x)))?;
        if !(2..=4).contains(&v.len()) {
            bail!("expected 2-4 args, {} supplied", v.len());
        }
        let std_at = |i: usize| -> Result<f64> {
            match v.get(i) {
                None => Ok(0.01),
                Some(y) => double(*y).ok_or_else(|| {
                    anyhow!("expected std deviation as double, given {}", describe(*y))
                }),
            }
        };
        let whole =
            double(v[1]).is_some() && (v.len() == 2 || (v.len() == 3 && double(v[2]).is_some()));
        let (target, frac, std) = if whole {
            let t = if registry::is_handle(v[0]) {
                shared(v[0], None)?
            } else {
                array(v[0])?
            };
            (t, double(v[1]).unwrap(), std_at(2)?)
        } else if registry::is_handle(v[0]) {
            let frac = v.get(2).and_then(|y| double(*y)).ok_or_else(|| {
                anyhow!("expected 3 args, object, indices/names and sparse fraction as double")
            })?;
            (shared(v[0], Some(v[1]))?, frac, std_at(3)?)
        } else {
            bail!("expected array with sparse fraction and optional stddev");
        };
        Ok(Some(Sparse { target, frac, std }))
    }
}

crate::qfn! {
    /// `snormal(x;fraction)`, `snormal(x;fraction;std)`, `snormal(h;picks;fraction;std)`: a
    /// 2-d matrix from N(0,std) (std 0.01 unless given) with a fraction of each column's rows
    /// set to zero, as PyTorch's `sparse_`.
    pub fn snormal(x: Sparse) -> KResult {
        let Sparse { target, frac, std } = x;
        target.fill(|t| sparse_(t, frac, std))
    }
}

fn sparse_(t: &mut Tensor, frac: f64, std: f64) -> Result<()> {
    let s = t.size();
    if s.len() != 2 {
        bail!("Only tensors with 2 dimensions are supported");
    }
    let (rows, cols) = (s[0], s[1]);
    let zeros = (frac * rows as f64).ceil() as i64;
    let _ = t.f_normal_(0.0, std)?;
    for c in 0..cols {
        let picks = Tensor::f_randperm(rows, (Kind::Int64, t.device()))?.f_slice(0, 0, zeros, 1)?;
        let _ = t.f_select(1, c)?.f_index_fill_(0, &picks, 0)?;
    }
    Ok(())
}

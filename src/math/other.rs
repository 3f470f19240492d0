//! Other math (math-other.rst): cumulative sums and products, diagonals and triangles, flips,
//! rolls, traces, histograms, bin counts, renormalization and tensor contraction. Functions
//! of one input with optional arguments use `forms::op`; the rest read their fixed forms.
use anyhow::{anyhow, bail};
use tch::{Kind, Scalar, TchError, Tensor};

use super::forms;
use super::forms::{
    copy_into, finish_op as finish, op, usage, Dest, Op, OpCall, ToTensor, ToTensorOrInPlace,
};
use crate::k::from::Number as Num;
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::tensor::opargs::{self, describe, Input};
use crate::tensor::{arg, convert, result};

type R = Result<Tensor, TchError>;

// ---------------------------------------------------------------------------------------------
// cumsum, cumprod: (input;dim;dtype;output), along the last dimension unless given
// ---------------------------------------------------------------------------------------------
usage! {
    DimType = "(input;dim;dtype;output)";
}

/// `f x` or `f(x;dim;dtype;output)`.
type CumCall = OpCall<(i64, Kind), (ToTensor,), DimType>;

fn kcum(
    a: CumCall,
    f: fn(&Tensor, i64, Option<Kind>) -> R,
    g: fn(&Tensor, &Tensor, i64, Option<Kind>) -> R,
) -> KResult {
    let a = a.0;
    let (d, t) = (a.opts.0.unwrap_or(-1), a.opts.1);
    finish(&a, |x| f(x, d, t), |x, o| g(x, o, d, t))
}

crate::qfn! {
    pub fn cumsum(x: CumCall) -> KResult {
        kcum(
            x,
            |t, d, k| t.f_cumsum(d, k),
            |t, o, d, k| t.f_cumsum_out(o, d, k),
        )
    }
    pub fn cumprod(x: CumCall) -> KResult {
        kcum(
            x,
            |t, d, k| t.f_cumprod(d, k),
            |t, o, d, k| t.f_cumprod_out(o, d, k),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// diag, diagflat: (input;offset;output); tril, triu: (input;offset;output) or (input;offset;[])
// ---------------------------------------------------------------------------------------------
type Off = fn(&Tensor, i64) -> R;
type OffOut = fn(&Tensor, &Tensor, i64) -> R;
type OffIn = fn(&mut Tensor, i64) -> R;

/// The arguments of a function of an offset: `op`'s form `(input;offset;output)` (`OUT`; else
/// `(input;offset)`, an output tensor read but refused by the call), the output `[]` for in
/// place where the function has that form (`IN`); a q atom or a table refused first.
pub struct OffsetCall<const IN: bool, const OUT: bool>(Op<(Option<i64>,)>);

impl<const IN: bool, const OUT: bool> FromQ for OffsetCall<IN, OUT> {
    const TYPE: &'static str = if OUT {
        "(input;offset;output)"
    } else {
        "(input;offset)"
    };
    fn read(x: K) -> anyhow::Result<Option<Self>> {
        if read::ktype(x) < 0 || read::ktype(x) > 10 {
            bail!("not implemented for {}", describe(x));
        }
        Ok(Some(OffsetCall(if IN {
            op::<(i64,), (ToTensorOrInPlace,)>(x, Self::TYPE)?
        } else {
            op::<(i64,), (ToTensor,)>(x, Self::TYPE)?
        })))
    }
}

fn koffset<const IN: bool, const OUT: bool>(
    a: OffsetCall<IN, OUT>,
    f: Off,
    g: Option<OffOut>,
    inplace: Option<OffIn>,
) -> KResult {
    let mut a = a.0;
    let d = a.opts.0.unwrap_or(0);
    match (&a.dest, g, inplace) {
        (Dest::InPlace, _, Some(m)) => {
            let _ = m(&mut a.x, d)?;
            Ok(make::null())
        }
        (Dest::Tensor(_), None, _) => bail!("output tensor not implemented"),
        (_, g, _) => finish(&a, |x| f(x, d), |x, o| g.expect("output form")(x, o, d)),
    }
}

crate::qfn! {
    pub fn diag(x: OffsetCall<false, true>) -> KResult {
        koffset(
            x,
            |t, d| t.f_diag(d),
            Some(|t, o, d| t.f_diag_out(o, d)),
            None,
        )
    }
    pub fn diagflat(x: OffsetCall<false, false>) -> KResult {
        koffset(x, |t, d| t.f_diagflat(d), None, None)
    }
    pub fn tril(x: OffsetCall<true, true>) -> KResult {
        koffset(
            x,
            |t, d| t.f_tril(d),
            Some(|t, o, d| t.f_tril_out(o, d)),
            Some(|t, d| t.f_tril_(d)),
        )
    }
    pub fn triu(x: OffsetCall<true, true>) -> KResult {
        koffset(
            x,
            |t, d| t.f_triu(d),
            Some(|t, o, d| t.f_triu_out(o, d)),
            Some(|t, d| t.f_triu_(d)),
        )
    }
}

/// Leading q items of `x` after the input that are long atoms, when all of them are: the
/// arguments of `diagonal(input;offset;dim1;dim2)`.
fn longs_after(v: &[K], most: usize) -> Option<Vec<i64>> {
    if v.len() < 2 || v.len() > most + 1 {
        return None;
    }
    v[1..].iter().map(|x| i64::of(*x)).collect()
}

/// `diagonal`'s arguments: `x`, `(x;offset)`, `(x;offset;dim1)`, `(x;offset;dim1;dim2)` (a
/// list whose items after the first are not all longs is the input itself).
pub struct DiagonalArgs {
    input: Input,
    longs: Vec<i64>,
}

impl FromQ for DiagonalArgs {
    const TYPE: &'static str = "x, (x;offset), (x;offset;dim1) or (x;offset;dim1;dim2)";
    fn read(x: K) -> anyhow::Result<Option<DiagonalArgs>> {
        if read::ktype(x) != 0 {
            bail!("not implemented for {}", describe(x));
        }
        let (input, longs) = match from::list(&x).and_then(|v| longs_after(v, 3).map(|o| (v[0], o)))
        {
            Some(p) => p,
            None => (x, vec![]),
        };
        Ok(Some(DiagonalArgs {
            input: Input::from_q(input, "input")?,
            longs,
        }))
    }
}

/// `Flip`'s arguments: `(input;dims)`.
pub struct FlipArgs(Input, Vec<i64>);

impl FromQ for FlipArgs {
    const TYPE: &'static str = "(input;dims)";
    fn read(x: K) -> anyhow::Result<Option<FlipArgs>> {
        let v = from::list(&x)
            .filter(|v| v.len() == 2)
            .ok_or_else(|| anyhow!("expected 2 arguments, (input;dims)"))?;
        let d = Vec::<i64>::of(v[1]).ok_or_else(|| {
            anyhow!(
                "expected 2 arguments, (input;dims), given {} for dims",
                describe(v[1])
            )
        })?;
        Ok(Some(FlipArgs(Input::from_q(v[0], "input")?, d)))
    }
}

/// `roll`'s arguments: `(input;shifts)` or `(input;shifts;dims)`.
pub struct RollArgs(Input, Vec<i64>, Vec<i64>);

impl FromQ for RollArgs {
    const TYPE: &'static str = "(input;shifts;dims)";
    fn read(x: K) -> anyhow::Result<Option<RollArgs>> {
        let usage = "expected 2-3 args, (input;shifts;dims)";
        let v = from::list(&x)
            .filter(|v| v.len() == 2 || v.len() == 3)
            .ok_or_else(|| anyhow!("unexpected arg(s), {usage}"))?;
        let s = Vec::<i64>::of(v[1]).ok_or_else(|| anyhow!("unexpected arg(s), {usage}"))?;
        let d = match v.get(2) {
            Some(d) => Vec::<i64>::of(*d).ok_or_else(|| anyhow!("unexpected arg(s), {usage}"))?,
            None => vec![],
        };
        Ok(Some(RollArgs(Input::from_q(v[0], "input")?, s, d)))
    }
}

crate::qfn! {
    /// `diagonal x`, `diagonal(x;offset)`, `diagonal(x;offset;dim1)`,
    /// `diagonal(x;offset;dim1;dim2)`.
    pub fn diagonal(x: DiagonalArgs) -> KResult {
        let o = x.longs;
        let g = |i: usize, d: i64| o.get(i).copied().unwrap_or(d);
        result(x.input.t.f_diagonal(g(0, 0), g(1, 0), g(2, 1))?, x.input.handle)
    }

    /// `Flip(input;dims)`: reversed along the given dimensions.
    pub fn flip(x: FlipArgs) -> KResult {
        let FlipArgs(i, d) = x;
        result(i.t.f_flip(d)?, i.handle)
    }

    /// `trace x`: the sum of the diagonal of a matrix.
    pub fn trace(x: Input) -> KResult {
        result(x.t.f_trace()?, x.handle)
    }

    /// `roll(input;shifts)` (the input flattened, rolled and restored) or
    /// `roll(input;shifts;dims)`.
    pub fn roll(x: RollArgs) -> KResult {
        let RollArgs(i, s, d) = x;
        result(i.t.f_roll(s, d)?, i.handle)
    }
}

/// `renorm`'s arguments: `(input;p;dim;maxnorm)` or `(input;p;dim;maxnorm;output)`.
pub struct RenormArgs {
    t: Tensor,
    handle: bool,
    p: Num,
    dim: i64,
    max: Num,
    out: Option<Tensor>,
}

impl FromQ for RenormArgs {
    const TYPE: &'static str = "(input;power;dim;maxnorm;output)";
    fn read(x: K) -> anyhow::Result<Option<RenormArgs>> {
        let usage = "unexpected arg(s), expected 4-5 args, (input;power;dim;maxnorm;output)";
        let v = from::list(&x)
            .filter(|v| v.len() == 4 || v.len() == 5)
            .ok_or_else(|| anyhow!(usage))?;
        let (Some(p), Some(dim), Some(max)) = (Num::of(v[1]), i64::of(v[2]), Num::of(v[3])) else {
            bail!(usage)
        };
        let out = match v.get(4) {
            Some(o) if opargs::is_tensor(*o) => Some(crate::registry::tensor(*o)?),
            Some(_) => bail!(usage),
            None => None,
        };
        let (t, handle) = arg(v[0])?;
        Ok(Some(RenormArgs {
            t,
            handle,
            p,
            dim,
            max,
            out,
        }))
    }
}

crate::qfn! {
/// `renorm(input;p;dim;maxnorm)`, `renorm(input;p;dim;maxnorm;output)`.
pub fn renorm(x: RenormArgs) -> KResult {
    let RenormArgs { t, handle: h, p, dim: d, max: m, out } = x;
    let (p, m) = (Scalar::from(p), Scalar::from(m));
    match out {
        Some(o) => {
            let _ = t.f_renorm_out(&o, p, d, m)?;
            Ok(make::null())
        }
        None => result(t.f_renorm(p, d, m)?, h),
    }
}
}

/// `histc x`, `histc(x;bins)`, `histc(x;bins;low)`, `histc(x;bins;low;high)`, each with an
/// optional output tensor last: counts in `bins` (default 100) equal bins from low to high; with
/// low and high both 0 (the default), from the data's minimum to its maximum.
/// `histc`'s arguments: the input alone (a handle or q data that is no general list: 100 bins
/// over the data's range), or `(input;bins;lo;hi)` with those after the input optional, then
/// an optional output tensor.
pub struct HistcArgs {
    t: Tensor,
    handle: bool,
    bins: i64,
    lo: f64,
    hi: f64,
    out: Option<Tensor>,
}

impl FromQ for HistcArgs {
    const TYPE: &'static str = "(input;bins;lo;hi;output)";
    fn read(x: K) -> anyhow::Result<Option<HistcArgs>> {
        if crate::registry::is_handle(x) || read::ktype(x) != 0 {
            let (t, handle) = arg(x)?;
            return Ok(Some(HistcArgs {
                t,
                handle,
                bins: 100,
                lo: 0.0,
                hi: 0.0,
                out: None,
            }));
        }
        let usage = "unrecognized arg(s), expected 1-5 args, (input;bins;lo;hi;output)";
        let v = from::list(&x).ok_or_else(|| anyhow!(usage))?;
        let out = (v.len() > 1 && opargs::is_tensor(v[v.len() - 1])).then(|| v[v.len() - 1]);
        let v = &v[..v.len() - out.is_some() as usize];
        if v.is_empty() || v.len() > 4 {
            bail!(usage);
        }
        let bins = match v.get(1) {
            Some(b) => i64::of(*b).ok_or_else(|| anyhow!(usage))?,
            None => 100,
        };
        let num = |i: usize| -> anyhow::Result<f64> {
            match v.get(i).map(|x| Num::of(*x)) {
                None => Ok(0.0),
                Some(Some(Num::Int(j))) => Ok(j as f64),
                Some(Some(Num::Float(f))) => Ok(f),
                Some(None) => bail!(usage),
            }
        };
        let (lo, hi) = (num(2)?, num(3)?);
        let (t, handle) = arg(v[0])?;
        let out = out.map(crate::registry::tensor).transpose()?;
        Ok(Some(HistcArgs {
            t,
            handle,
            bins,
            lo,
            hi,
            out,
        }))
    }
}

crate::qfn! {
    pub fn histc(x: HistcArgs) -> KResult {
        let r = histogram(&x.t, x.bins, x.lo, x.hi)?;
        match x.out {
            Some(o) => {
                let _ = copy_into(&o, &r)?;
                Ok(make::null())
            }
            None => result(r, x.handle),
        }
    }
}

/// libtorch's histc with low and high limits (tch wraps only the bin count): values outside
/// [lo,hi] are dropped, lo and hi added so that the data's range is the limits, and their two
/// counts taken off again; the bins are then exactly histc's.
fn histogram(t: &Tensor, bins: i64, lo: f64, hi: f64) -> R {
    if lo == 0.0 && hi == 0.0 {
        return t.f_histc(bins);
    }
    let (lo, hi) = if lo == hi {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    if lo > hi {
        return Err(TchError::Torch("max must be larger than min".into()));
    }
    let flat = t.f_flatten(0, -1)?;
    let keep = flat.f_ge(lo)?.f_logical_and(&flat.f_le(hi)?)?;
    let ends = Tensor::f_from_slice(&[lo, hi])?
        .f_to_kind(t.kind())?
        .f_to_device(t.device())?;
    let data = Tensor::f_cat(&[flat.f_masked_select(&keep)?, ends], 0)?;
    let counts = data.f_histc(bins)?;
    let one = Tensor::f_from_slice(&[1.0])?
        .f_to_kind(counts.kind())?
        .f_to_device(counts.device())?;
    // histc gives a new tensor: take the two counts off in place, through views.
    let _ = counts.f_narrow(0, 0, 1)?.f_sub_(&one)?;
    let _ = counts.f_narrow(0, bins - 1, 1)?.f_sub_(&one)?;
    Ok(counts)
}

/// `bincount x`, `bincount(x;bins)`, `bincount(x;weight)`, `bincount(x;weight;bins)`: the count
/// (or summed weight) of each non-negative integer, at least `bins` of them.
/// `bincount`'s arguments: the input alone, `(input;bins)`, `(input;weight)` or
/// `(input;weight;bins)`: the input, the weights if given, the least count of bins, and whether
/// an input was a handle.
pub struct BincountArgs {
    t: Tensor,
    weight: Option<Tensor>,
    bins: i64,
    handle: bool,
}

impl FromQ for BincountArgs {
    const TYPE: &'static str = "input, (input;bins), (input;weight) or (input;weight;bins)";
    fn read(x: K) -> anyhow::Result<Option<BincountArgs>> {
        if read::ktype(x) < 0 {
            bail!("not implemented for {}", describe(x));
        }
        let usage = "expected 1-3 args, input, (input;bins), (input;weight) or (input;weight;bins)";
        let one = |x: K, bins: i64| -> anyhow::Result<Option<BincountArgs>> {
            let (t, handle) = arg(x)?;
            Ok(Some(BincountArgs {
                t,
                weight: None,
                bins,
                handle,
            }))
        };
        if read::ktype(x) > 0 || crate::registry::is_handle(x) {
            return one(x, 0);
        }
        let v = from::list(&x).ok_or_else(|| anyhow!(usage))?;
        match v.len() {
            2 if i64::of(v[1]).is_some() => one(v[0], i64::of(v[1]).unwrap_or(0)),
            2 | 3 => {
                let bins = match v.get(2) {
                    Some(b) => i64::of(*b).ok_or_else(|| anyhow!(usage))?,
                    None => 0,
                };
                let (mut ts, handle) = forms::tensors(&v[..2])?;
                let weight = ts.pop();
                Ok(Some(BincountArgs {
                    t: ts.pop().expect("two inputs"),
                    weight,
                    bins,
                    handle,
                }))
            }
            _ => bail!(usage),
        }
    }
}

crate::qfn! {
    pub fn bincount(x: BincountArgs) -> KResult {
        result(x.t.f_bincount(x.weight.as_ref(), x.bins)?, x.handle)
    }
}

/// `tensordot(x;y)` (2 dimensions contracted), `tensordot(x;y;dim)` (the last `dim` of x with
/// the first `dim` of y), `tensordot(x;y;dim1;dim2)` (the given dimensions).
/// `tensordot`'s arguments: the two inputs (and whether either was a handle) and the
/// dimensions contracted, read from `(x;y)`, `(x;y;dim)`, `(x;y;dim1;dim2)` or a simple list of
/// two values (and a zero dimension).
pub struct TensordotArgs {
    a: Tensor,
    b: Tensor,
    handle: bool,
    i: Vec<i64>,
    j: Vec<i64>,
}

impl FromQ for TensordotArgs {
    const TYPE: &'static str = "(x;y), (x;y;dim) or (x;y;dim1;dim2)";
    fn read(x: K) -> anyhow::Result<Option<TensordotArgs>> {
        let usage = "unexpected arg(s), expected inputs (x;y), (x;y;dim) or (x;y;dim1;dim2)";
        if read::ktype(x) < 0 {
            bail!("not implemented for {}", describe(x));
        }
        if read::ktype(x) > 0 {
            let t = convert::to_tensor(x)?;
            let n = t.size()[0];
            if n == 3 && t.f_get(2)?.f_double_value(&[])? != 0.0 {
                bail!("non-zero dimension specified for scalars");
            }
            if n != 2 && n != 3 {
                bail!(usage);
            }
            return Ok(Some(TensordotArgs {
                a: t.f_get(0)?,
                b: t.f_get(1)?,
                handle: false,
                i: vec![],
                j: vec![],
            }));
        }
        let v = from::list(&x).ok_or_else(|| anyhow!(usage))?;
        let (i, j) = match v.len() {
            2 | 3 => {
                let d = match v.get(2) {
                    Some(d) => i64::of(*d).ok_or_else(|| anyhow!(usage))?,
                    None => 2,
                };
                // checked before the lists are built: a dim like 1e12 would ask for terabytes (an
                // allocation failure aborts the process, it is not an error to catch)
                if !(0..=64).contains(&d) {
                    bail!("dim {d} out of range: contracts 0 to 64 dimensions");
                }
                ((0..d).map(|k| k - d).collect(), (0..d).collect())
            }
            4 => match (Vec::<i64>::of(v[2]), Vec::<i64>::of(v[3])) {
                (Some(i), Some(j)) => (i, j),
                _ => bail!(usage),
            },
            _ => bail!(usage),
        };
        let (mut ts, handle) = forms::tensors(&v[..2])?;
        let b = ts.pop().expect("two inputs");
        Ok(Some(TensordotArgs {
            a: ts.pop().expect("two inputs"),
            b,
            handle,
            i,
            j,
        }))
    }
}

crate::qfn! {
    pub fn tensordot(x: TensordotArgs) -> KResult {
        result(x.a.f_tensordot(&x.b, x.i, x.j)?, x.handle)
    }
}

//! Creation modes, as ktorch's `tensor(`mode;..;options)`: zeros ones empty rand randn (by size),
//! full (size and value), arange range linspace logspace eye randint randperm.
use anyhow::{anyhow, bail};
use tch::{Device, Kind, Tensor};

use super::options::{self, Options};
use crate::k::{read, K};

pub const MODES: &[&str] = &[
    "zeros", "ones", "empty", "rand", "randn", "full", "arange", "range", "linspace", "logspace", "eye",
    "randint", "randperm",
];

/// A size argument: a long atom or long vector (ints/shorts accepted).
fn size(x: K) -> anyhow::Result<Vec<i64>> {
    if let Some(n) = read::long(x).filter(|_| read::ktype(x) != -1) {
        return Ok(vec![n]);
    }
    match read::ktype(x) {
        7 | 6 | 5 => {
            let t = super::convert::to_tensor(x)?.f_to_kind(Kind::Int64)?;
            Ok(Vec::<i64>::try_from(&t)?)
        }
        _ => bail!("size expected as a long or longs"),
    }
}

/// A numeric scalar argument as f64 (and whether it was floating point in q).
fn number(x: K) -> anyhow::Result<(f64, bool)> {
    if let Some(v) = read::long(x) {
        return Ok((v as f64, false));
    }
    let p = unsafe { (x as *const u8).add(8) };
    match read::ktype(x) {
        -8 => Ok((unsafe { *(p as *const f32) } as f64, true)),
        -9 => Ok((unsafe { *(p as *const f64) }, true)),
        _ => bail!("numeric scalar expected"),
    }
}

fn opts(o: &Options, default: Kind) -> (Kind, Device) {
    (o.kind.unwrap_or(default), Device::Cpu)
}

/// Make the tensor of `mode` from its arguments (after the mode symbol); options come last.
pub fn create(mode: &str, args: &[K]) -> anyhow::Result<Tensor> {
    let (args, o) = match args.split_last() {
        Some((last, rest)) if options::is_options(*last) => (rest, options::parse(*last)?),
        _ => (args, Options::default()),
    };
    let n = args.len();
    let wrong = || anyhow!("`{mode} given {n} argument(s) beside options");
    let fo = opts(&o, options::default_kind());
    let t = match mode {
        "zeros" | "ones" | "empty" | "rand" | "randn" => {
            let [s] = args else { return Err(wrong()) };
            let s = size(*s)?;
            match mode {
                "zeros" => Tensor::f_zeros(&s, fo)?,
                "ones" => Tensor::f_ones(&s, fo)?,
                "empty" => Tensor::f_empty(&s, fo)?,
                "rand" => Tensor::f_rand(&s, fo)?,
                _ => Tensor::f_randn(&s, fo)?,
            }
        }
        "full" => {
            let [s, v] = args else { return Err(wrong()) };
            let fill = super::convert::to_tensor(*v)?;
            if fill.dim() != 0 {
                bail!("`full expects a scalar fill value");
            }
            let kind = o.kind.unwrap_or(fill.kind());
            Tensor::f_full(&size(*s)?, fill.f_double_value(&[])?, (kind, Device::Cpu))?
        }
        "arange" | "range" => {
            let nums = args.iter().map(|a| number(*a)).collect::<anyhow::Result<Vec<_>>>()?;
            let float = nums.iter().any(|(_, f)| *f);
            let kind = o.kind.unwrap_or(if float { options::default_kind() } else { Kind::Int64 });
            let v: Vec<f64> = nums.iter().map(|(v, _)| *v).collect();
            let (start, end, step) = match v.as_slice() {
                [e] => (0.0, *e, 1.0),
                [s, e] => (*s, *e, 1.0),
                [s, e, st] => (*s, *e, *st),
                _ => return Err(wrong()),
            };
            if step == 0.0 {
                bail!("`{mode} step must be non-zero");
            }
            // range includes its end (torch.range); arange does not. libtorch casts the bounds to
            // an integer dtype first, so integers move the bound a whole step, floats half a step.
            let float = matches!(kind, Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double);
            let end = match (mode, float) {
                ("range", true) => end + step / 2.0,
                ("range", false) => end + step,
                _ => end,
            };
            Tensor::f_arange_start_step(start, end, step, (kind, Device::Cpu))?
        }
        "linspace" | "logspace" => {
            let (s, e, k, base) = match args {
                [s, e, k] => (number(*s)?.0, number(*e)?.0, *k, 10.0),
                [s, e, k, b] if mode == "logspace" => (number(*s)?.0, number(*e)?.0, *k, number(*b)?.0),
                _ => return Err(wrong()),
            };
            let steps = read::long(k).ok_or_else(|| anyhow!("`{mode} steps expected as a long"))?;
            if mode == "linspace" {
                Tensor::f_linspace(s, e, steps, fo)?
            } else {
                Tensor::f_logspace(s, e, steps, base, fo)?
            }
        }
        "eye" => {
            let (r, c) = match args {
                [r] => (read::long(*r), read::long(*r)),
                [r, c] => (read::long(*r), read::long(*c)),
                _ => return Err(wrong()),
            };
            let (Some(r), Some(c)) = (r, c) else { bail!("`eye expects row and column counts as longs") };
            Tensor::f_eye_m(r, c, fo)?
        }
        "randint" => {
            let (lo, hi, s) = match args {
                [hi, s] => (0, read::long(*hi), *s),
                [lo, hi, s] => (read::long(*lo).ok_or_else(|| anyhow!("`randint low expected as a long"))?, read::long(*hi), *s),
                _ => return Err(wrong()),
            };
            let hi = hi.ok_or_else(|| anyhow!("`randint high expected as a long"))?;
            Tensor::f_randint_low(lo, hi, &size(s)?, opts(&o, Kind::Int64))?
        }
        "randperm" => {
            let [k] = args else { return Err(wrong()) };
            let k = read::long(*k).ok_or_else(|| anyhow!("`randperm expects a long"))?;
            Tensor::f_randperm(k, opts(&o, Kind::Int64))?
        }
        _ => bail!("unrecognized tensor creation mode `{mode}"),
    };
    // dtype is already applied; device and gradient flag remain.
    Options { kind: None, ..o }.apply(t)
}

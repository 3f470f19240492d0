//! Creation modes, as ktorch's `tensor(`mode;..;options)`: zeros ones empty rand randn (by size),
//! full (size and value), arange range linspace logspace eye randint randperm, complex, sparse.
//! The size may come from an input tensor (`tensor(`ones;h)`, PyTorch's ones_like: its dtype and
//! device are the defaults), and a trailing output tensor replaces options (`tensor(`ones;3;h)`:
//! h takes the new values, keeping its dtype and device).
use anyhow::{anyhow, bail};
use tch::{Device, Kind, Tensor};

use super::options::{self, Options};
use crate::k::from::{FromQ, Whole};
use crate::k::{read, K};
use crate::registry;

pub const MODES: &[&str] = &[
    "zeros", "ones", "empty", "rand", "randn", "full", "arange", "range", "linspace", "logspace",
    "eye", "randint", "randperm", "complex", "sparse",
];

/// Modes whose first argument may be an input tensor giving the size (PyTorch's `*_like`).
const LIKE: &[&str] = &["zeros", "ones", "empty", "rand", "randn", "full", "randint"];

/// What a creation call makes: a new tensor, or new values for an output tensor.
pub struct Made {
    pub tensor: Tensor,
    /// The output tensor's handle, when the last argument was one.
    pub out: Option<K>,
}

/// A size argument: a long atom or long vector (ints/shorts accepted).
fn size(x: K) -> anyhow::Result<Vec<i64>> {
    if let Some(n) = Whole::of(x).map(|w| w.0).filter(|_| read::ktype(x) != -1) {
        return Ok(vec![n]);
    }
    match read::ktype(x) {
        5..=7 => {
            let t = super::convert::to_tensor(x)?.f_to_kind(Kind::Int64)?;
            Ok(Vec::<i64>::try_from(&t)?)
        }
        _ => bail!("size expected as a long or longs"),
    }
}

/// A numeric scalar argument as f64 (and whether it was floating point in q).
fn number(x: K) -> anyhow::Result<(f64, bool)> {
    if let Some(v) = Whole::of(x).map(|w| w.0) {
        return Ok((v as f64, false));
    }
    match (f32::of(x), f64::of(x)) {
        (Some(f), _) => Ok((f as f64, true)),
        (_, Some(f)) => Ok((f, true)),
        _ => bail!("numeric scalar expected"),
    }
}

/// The dtype and device a tensor is made with: on the device it will live on, so a CUDA tensor
/// is neither made twice nor copied from the host, and a request too big for the GPU fails there
/// rather than as a huge host allocation; pinned memory starts on the CPU (options pin it).
fn opts(o: &Options, default: Kind) -> (Kind, Device) {
    let device = match o.pin {
        Some(true) => Device::Cpu,
        _ => o.device.unwrap_or(Device::Cpu),
    };
    (o.kind.unwrap_or(default), device)
}

/// Make the tensor of `mode` from its arguments (after the mode symbol): options or an output
/// tensor may come last; an input tensor may come first.
pub fn create(mode: &str, args: &[K]) -> anyhow::Result<Made> {
    let (args, mut o, out) = match args.split_last() {
        Some((last, rest)) if options::is_options(*last) => (rest, options::parse(*last)?, None),
        Some((last, rest))
            if registry::is_handle(*last) && !(rest.is_empty() && LIKE.contains(&mode)) =>
        {
            let t = registry::tensor(*last)?;
            let o = Options {
                kind: Some(t.kind()),
                device: Some(t.device()),
                ..Options::default()
            };
            (rest, o, Some(*last))
        }
        _ => (args, Options::default(), None),
    };
    if o.sparse == Some(true) || mode == "sparse" {
        super::sparse::check_mode(mode, &o, out.is_some())?;
    }
    let explicit = o.kind;
    // An input tensor: its size, and its dtype and device unless options say otherwise.
    let like = match args.first() {
        Some(h) if registry::is_handle(*h) && LIKE.contains(&mode) && out.is_none() => {
            let t = registry::tensor(*h)?;
            o.kind = o.kind.or(Some(t.kind()));
            o.device = o.device.or(Some(t.device()));
            Some(t.size())
        }
        Some(h) if registry::is_handle(*h) => bail!("`{mode} does not take an input tensor here"),
        _ => None,
    };
    let t = make(mode, args, &o, like, explicit)?;
    // dtype is already applied; device and gradient flag remain.
    let t = Options { kind: None, ..o }.apply(t)?;
    Ok(Made { tensor: t, out })
}

/// A size argument, or the input tensor's size standing in for it.
fn size_or(x: K, like: &Option<Vec<i64>>) -> anyhow::Result<Vec<i64>> {
    match like {
        Some(s) => Ok(s.clone()),
        None => size(x),
    }
}

/// `explicit`: the dtype the options or output tensor gave (`o.kind` may also come from an input
/// tensor).
fn make(
    mode: &str,
    args: &[K],
    o: &Options,
    like: Option<Vec<i64>>,
    explicit: Option<Kind>,
) -> anyhow::Result<Tensor> {
    let o = *o;
    let n = args.len();
    let wrong = || anyhow!("`{mode} given {n} argument(s) beside options");
    let fo = opts(&o, options::default_kind());
    let t = match mode {
        "zeros" | "ones" | "empty" | "rand" | "randn" => {
            let [s] = args else { return Err(wrong()) };
            let s = size_or(*s, &like)?;
            match mode {
                // a sparse tensor of zeros (or empty) has no values: nothing to make dense first
                "zeros" | "empty" if o.sparse == Some(true) => Tensor::f_sparse_coo_tensor(&s, fo)?,
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
            // The fill value gives the dtype (not an input tensor), unless options say otherwise.
            let kind = explicit.unwrap_or(fill.kind());
            let s = size_or(*s, &like)?;
            // fill_ with a 0-dim tensor keeps longs exact (a double scalar would round them)
            Tensor::f_zeros(&s, (kind, opts(&o, kind).1))?
                .f_fill_tensor_(&fill.f_to_kind(kind)?.f_to_device(opts(&o, kind).1)?)?
        }
        "arange" | "range" => {
            let nums = args
                .iter()
                .map(|a| number(*a))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let float = nums.iter().any(|(_, f)| *f);
            let kind = o.kind.unwrap_or(if float {
                options::default_kind()
            } else {
                Kind::Int64
            });
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
            let float = matches!(
                kind,
                Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double
            );
            let end = match (mode, float) {
                ("range", true) => end + step / 2.0,
                ("range", false) => end + step,
                _ => end,
            };
            Tensor::f_arange_start_step(start, end, step, (kind, opts(&o, kind).1))?
        }
        "linspace" | "logspace" => {
            let (s, e, k, base) = match args {
                [s, e, k] => (number(*s)?.0, number(*e)?.0, *k, 10.0),
                [s, e, k, b] if mode == "logspace" => {
                    (number(*s)?.0, number(*e)?.0, *k, number(*b)?.0)
                }
                _ => return Err(wrong()),
            };
            let steps = Whole::of(k)
                .map(|w| w.0)
                .ok_or_else(|| anyhow!("`{mode} steps expected as a long"))?;
            if mode == "linspace" {
                Tensor::f_linspace(s, e, steps, fo)?
            } else {
                Tensor::f_logspace(s, e, steps, base, fo)?
            }
        }
        "eye" => {
            let (r, c) = match args {
                [r] => (Whole::of(*r).map(|w| w.0), Whole::of(*r).map(|w| w.0)),
                [r, c] => (Whole::of(*r).map(|w| w.0), Whole::of(*c).map(|w| w.0)),
                _ => return Err(wrong()),
            };
            let (Some(r), Some(c)) = (r, c) else {
                bail!("`eye expects row and column counts as longs")
            };
            Tensor::f_eye_m(r, c, fo)?
        }
        "randint" => {
            let low = |x: K| {
                Whole::of(x)
                    .map(|w| w.0)
                    .ok_or_else(|| anyhow!("`randint low expected as a long"))
            };
            let high = |x: K| {
                Whole::of(x)
                    .map(|w| w.0)
                    .ok_or_else(|| anyhow!("`randint high expected as a long"))
            };
            // (high;size) (low;high;size), or with an input tensor (in;high) (in;low;high)
            let (lo, hi, s) = match (args, &like) {
                ([_, h], Some(s)) => (0, high(*h)?, s.clone()),
                ([_, l, h], Some(s)) => (low(*l)?, high(*h)?, s.clone()),
                ([h, s], None) => (0, high(*h)?, size(*s)?),
                ([l, h, s], None) => (low(*l)?, high(*h)?, size(*s)?),
                _ => return Err(wrong()),
            };
            Tensor::f_randint_low(lo, hi, &s, opts(&o, Kind::Int64))?
        }
        "randperm" => {
            let [k] = args else { return Err(wrong()) };
            let k = Whole::of(*k)
                .map(|w| w.0)
                .ok_or_else(|| anyhow!("`randperm expects a long"))?;
            Tensor::f_randperm(k, opts(&o, Kind::Int64))?
        }
        "complex" => {
            // (real;imag), or one array with (real;imag) along its first dimension (last if the
            // flag is false; the session's complexfirst setting when no flag is given)
            match args {
                [ri, f] if bool::of(*f).is_some() => complex1(*ri, bool::of(*f), o.kind)?,
                [re, im] => {
                    let (re, im) = (
                        super::convert::to_tensor(*re)?,
                        super::convert::to_tensor(*im)?,
                    );
                    let k = complex_part(o.kind, re.kind(), im.kind())?;
                    Tensor::f_complex(&re.f_to_kind(k)?, &im.f_to_kind(k)?)?
                }
                [ri] => complex1(*ri, None, o.kind)?,
                _ => return Err(wrong()),
            }
        }
        "sparse" => super::sparse::coo(args, &o)?,
        _ => bail!("unrecognized tensor creation mode `{mode}"),
    };
    Ok(t)
}

fn is_float(k: Kind) -> bool {
    matches!(k, Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double)
}

/// The dtype of a complex tensor's parts (ktorch's complextype): from a complex dtype option,
/// else the inputs' floating point type, else the default dtype.
fn complex_part(option: Option<Kind>, a: Kind, b: Kind) -> anyhow::Result<Kind> {
    if is_float(a) && is_float(b) && a != b {
        bail!(
            "complex: real input is {}, imaginary input is {}",
            options::kind_name(a),
            options::kind_name(b)
        );
    }
    Ok(match option {
        Some(Kind::ComplexHalf) => Kind::Half,
        Some(Kind::ComplexFloat) => Kind::Float,
        Some(Kind::ComplexDouble) => Kind::Double,
        Some(k) => bail!(
            "complex: unable to create complex tensor with given datatype: {}",
            options::kind_name(k)
        ),
        None if is_float(a) => a,
        None if is_float(b) => b,
        None => options::default_kind(),
    })
}

/// A complex tensor from one array holding real and imaginary parts along its first dimension
/// (`first`, or the complexfirst setting) or its last.
fn complex1(x: K, first: Option<bool>, option: Option<Kind>) -> anyhow::Result<Tensor> {
    let a = super::convert::to_tensor(x)?;
    let first = first.unwrap_or_else(crate::session::setting::complexfirst);
    if a.dim() == 0 {
        bail!("complex: single input array must have one or more dimensions");
    }
    let d = if first { 0 } else { -1 };
    if a.size()[if first { 0 } else { a.dim() - 1 }] != 2 {
        let (w, p) = if first {
            ("first", "(real;imaginary)")
        } else {
            ("last", "(real,'imaginary)")
        };
        bail!("complex: single input array must have a {w} dimension of size 2 {p}, given size of {:?}", a.size());
    }
    let a = a.f_to_kind(complex_part(option, a.kind(), a.kind())?)?;
    Ok(Tensor::f_complex(&a.f_select(d, 0)?, &a.f_select(d, 1)?)?)
}

//! Functional forms of modules (knn.cpp's `act`, `flatten`, `linear`): `relu x`,
//! `relu(x;inplace)`, `softmax(x;dim)`, `softmax(x;dim;type)`, `logsoftmax(..)`,
//! `flatten x`, `flatten(x;start)`, `flatten(x;start;end)`, `linear(x;w)`, `linear(x;w;b)`.
//! x is a tensor handle (result a new handle; null after an in-place call) or q data (result q
//! data). Options may also be given by name, as in module definitions: `` softmax(x;`dim,1) ``.
pub mod act;
pub mod conv;
pub mod distance;
pub mod norm;
pub mod rnn;
pub mod shape;
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::tensor::opargs::{self, describe};
use crate::tensor::{arg, options, result};
use anyhow::{anyhow, bail, Result};
use tch::{Kind, Tensor};

/// The input tensor, whether it came from a handle, and the remaining arguments.
pub fn input(x: &K) -> Result<(Tensor, bool, &[K])> {
    let (a, x) = (x, *x);
    if opargs::is_tensor(x) {
        return Ok((crate::registry::tensor(x)?, true, &[]));
    }
    if let Some(v) = from::list(a) {
        if v.first().is_some_and(|a| opargs::is_tensor(*a)) {
            return Ok((crate::registry::tensor(v[0])?, true, &v[1..]));
        }
    }
    if let Some(t) = opargs::array(x) {
        return Ok((t, false, &[]));
    }
    match from::list(a) {
        Some(v) if !v.is_empty() => {
            let (t, h) = arg(v[0])?;
            Ok((t, h, &v[1..]))
        }
        _ => bail!("unrecognized arg(s), given {}", describe(x)),
    }
}

/// Options by position, owning the list made from a dictionary's simple values (which the
/// options may point into).
pub struct Opts {
    vals: Vec<Option<K>>,
    _made: Option<crate::k::Owned>,
}

impl std::ops::Deref for Opts {
    type Target = [Option<K>];
    fn deref(&self) -> &[Option<K>] {
        &self.vals
    }
}

/// Options named `names` from positional args and trailing pairs (a dictionary or a list
/// `` (`name;value;..) ``).
pub fn opts(args: &[K], names: &[&str]) -> Result<Opts> {
    let mut v: Vec<Option<K>> = vec![None; names.len()];
    let mut made = None;
    let mut pos = args;
    if let Some(last) = args.last() {
        if read::dict_parts(*last).is_some()
            || (read::ktype(*last) == 0
                && from::list(last)
                    .is_some_and(|i| i.first().is_some_and(|a| <&str>::of(*a).is_some())))
        {
            let items: Vec<(&str, K)> = match read::dict_parts(*last) {
                Some((k, vals)) => {
                    let ks = Vec::<&str>::of(k)
                        .ok_or_else(|| anyhow!("option names expected as symbols"))?;
                    let vs = super::spec::exploded(vals, ks.len())?;
                    let items = ks.into_iter().zip(vs.iter().copied()).collect();
                    made = vs.made;
                    items
                }
                None => from::list(last)
                    .unwrap()
                    .chunks(2)
                    .map(|p| (<&str>::of(p[0]).unwrap_or(""), *p.get(1).unwrap_or(&p[0])))
                    .collect(),
            };
            for (k, x) in items {
                let i = names
                    .iter()
                    .position(|n| *n == k)
                    .ok_or_else(|| anyhow!("unrecognized option `{k}"))?;
                v[i] = Some(x);
            }
            pos = &args[..args.len() - 1];
        }
    }
    if pos.len() > names.len() {
        bail!(
            "expected up to {} positional arg(s), given {}",
            names.len(),
            pos.len()
        );
    }
    for (i, x) in pos.iter().enumerate() {
        v[i] = Some(*x);
    }
    Ok(Opts {
        vals: v,
        _made: made,
    })
}

pub fn long(opt: &str, x: K) -> Result<i64> {
    i64::of(x).ok_or_else(|| anyhow!("{opt}: expected long scalar, given {}", describe(x)))
}

pub fn done(r: Tensor, t: &Tensor, handle: bool) -> KResult {
    if handle && r.data_ptr() == t.data_ptr() && r.size() == t.size() && r.kind() == t.kind() {
        return Ok(make::null());
    }
    result(r, handle)
}

/// The functional form of a parameter-free layer, read with the layer's own options: `f x`,
/// `f(x;opt1;..)`, `f(x;..;`name,value)` (positional, then by name as in definitions), run with
/// `training` (functional dropout forms train by default, as PyTorch's). Answers a new handle for
/// a tensor input (null when done in place), q data for q data.
pub fn by_layer(name: &str, x: K, training: bool) -> KResult {
    let l = super::layers::find(name).ok_or_else(|| anyhow!("no layer `{name}"))?;
    let (t, h, args) = input(&x)?;
    let (pos, named) = match args.last() {
        Some(last) => match super::spec::pairs(*last)? {
            Some(p) => (&args[..args.len() - 1], p),
            None => (args, super::spec::Pairs::default()),
        },
        None => (args, super::spec::Pairs::default()),
    };
    let opts = super::spec::options(l, pos, &named)?;
    let m = super::Module::new(l, None, opts)?;
    let r = m.forward1(&super::Run::new(training), &t)?;
    done(r, &t, h)
}

pub fn relu(x: K) -> KResult {
    relu_(x)
}

fn relu_(x: K) -> KResult {
    let (t, h, args) = input(&x)?;
    let o = opts(args, &["inplace"])?;
    let inplace = match o[0] {
        None => false,
        Some(f) => bool::of(f)
            .ok_or_else(|| anyhow!("relu: unrecognized option(s), expected single boolean flag"))?,
    };
    let r = if inplace {
        t.shallow_clone().f_relu_()?
    } else {
        t.f_relu()?
    };
    done(r, &t, h)
}

/// softmax, logsoftmax: (x;dim) or (x;dim;type); x alone takes ktorch's (deprecated) default
/// dimension: 0 for 0, 1 and 3-dimensional inputs, else 1.
fn soft(x: K, f: fn(&Tensor, i64, Option<Kind>) -> Result<Tensor, tch::TchError>) -> KResult {
    soft_(x, f)
}

fn soft_(x: K, f: fn(&Tensor, i64, Option<Kind>) -> Result<Tensor, tch::TchError>) -> KResult {
    let (t, h, args) = input(&x)?;
    let dim = if args.is_empty() && (opargs::is_tensor(x) || opargs::array(x).is_some()) {
        let d = t.dim();
        if d == 0 || d == 1 || d == 3 {
            0
        } else {
            1
        }
    } else {
        let o = opts(args, &["dim", "dtype"])?;
        let Some(d) = o[0] else {
            bail!("unrecognized arg(s), expected dim or (dim;data type)")
        };
        let d = long("dim", d)?;
        let kind =
            match o[1] {
                None => None,
                Some(s) => Some(<&str>::of(s).and_then(options::kind_from_name).ok_or_else(
                    || anyhow!("dtype: expected data type symbol, given {}", describe(s)),
                )?),
            };
        return done(f(&t, d, kind)?, &t, h);
    };
    done(f(&t, dim, None)?, &t, h)
}

pub fn softmax(x: K) -> KResult {
    soft(x, |t, d, k| t.f_softmax(d, k))
}

pub fn logsoftmax(x: K) -> KResult {
    soft(x, |t, d, k| t.f_log_softmax(d, k))
}

/// `flatten x` (from dimension 0, unlike the module's 1), `flatten(x;start)`, `flatten(x;start;end)`.
pub fn flatten(x: K) -> KResult {
    flatten_(x)
}

fn flatten_(x: K) -> KResult {
    let (t, h, args) = input(&x)?;
    let o = opts(args, &["start", "end"])?;
    let start = o[0].map(|a| long("start", a)).transpose()?.unwrap_or(0);
    let end = o[1].map(|a| long("end", a)).transpose()?.unwrap_or(-1);
    done(t.f_flatten(start, end)?, &t, h)
}

/// `linear(x;w)`, `linear(x;w;b)`: x w' + b, any of them q data or tensors.
pub fn linear(x: K) -> KResult {
    let v = match from::list(&x) {
        Some(v) if (2..=3).contains(&v.len()) => v,
        Some(_) => bail!("requires 2-3 args, (input; weight; optional bias)"),
        None => bail!("not implemented for {}", describe(x)),
    };
    let (ts, h) = crate::math::pointwise::inputs(v)?;
    let r = ts[0].f_linear(&ts[1], ts.get(2))?;
    result(r, h)
}

//! Vectors of tensors, as ktorch: `vector(x;y;..)` makes one from q data and tensor handles
//! (a handle's tensor moves into the vector and the handle goes stale, as in ktorch: `addref`
//! first to keep it); `vector v` all values as q data; `vector(v;i)` one or several (i a long or
//! longs); `vector(v;i;x)` replaces one or several.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::convert;
use crate::k::from::{self, FromQ, Whole, Wholes};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

/// Is `x` a live vector handle?
pub fn is_vector(x: K) -> bool {
    registry::class_of(x) == Some(registry::Class::Vector)
}

/// An index into a vector of `n`, negative counting from the end as in PyTorch.
fn index(j: i64, n: usize) -> anyhow::Result<usize> {
    let k = if j < 0 { j + n as i64 } else { j };
    if k < 0 || k >= n as i64 {
        bail!("index {j} out of range for vector of {n}");
    }
    Ok(k as usize)
}

/// Indices given as a long atom (`Some(one)`) or a long/int list (`Err(many)`).
pub fn indices(i: K, n: usize) -> anyhow::Result<Result<usize, Vec<usize>>> {
    if let Some(j) = Whole::of(i).map(|w| w.0).filter(|_| read::ktype(i) != -1) {
        return Ok(Ok(index(j, n)?));
    }
    match Wholes::of(i).map(|w| w.0) {
        Some(js) => Ok(Err(js
            .into_iter()
            .map(|j| index(j, n))
            .collect::<anyhow::Result<_>>()?)),
        None => bail!("vector index expected as a long or longs"),
    }
}

/// A tensor from q data, or moved out of a tensor handle (which goes stale).
pub fn take_arg(x: K) -> anyhow::Result<Tensor> {
    if registry::is_handle(x) {
        registry::take_tensor(x)
    } else {
        convert::to_tensor(x)
    }
}

/// Take every tensor of `items` after checking all of them, so that a bad item changes nothing.
pub fn take_args(items: &[K]) -> anyhow::Result<Vec<Tensor>> {
    for x in items {
        if registry::is_handle(*x) {
            let _ = registry::tensor(*x)?;
        }
    }
    // q data converts first: a conversion error must not leave handles already taken.
    let mut ts: Vec<Option<Tensor>> = items
        .iter()
        .map(|x| {
            if registry::is_handle(*x) {
                Ok(None)
            } else {
                convert::to_tensor(*x).map(Some)
            }
        })
        .collect::<anyhow::Result<_>>()?;
    for (slot, x) in ts.iter_mut().zip(items) {
        if slot.is_none() {
            *slot = Some(registry::take_tensor(*x)?);
        }
    }
    Ok(ts.into_iter().flatten().collect())
}

fn stored(x: K) -> anyhow::Result<Vec<Tensor>> {
    registry::with(x, |o| match o {
        Obj::Vector(v) => Ok(v.iter().map(|t| t.shallow_clone()).collect()),
        other => bail!("expected a vector, given {}", other.class()),
    })
}

/// `vector`'s forms, read without changing anything: the values of a vector handle, rows of
/// q data, `(v;i)` the tensors picked, `(v;i;x)` new values for some (q data or tensor handles,
/// taken only when the call runs, after every check), `(x;y;..)` the items of a new vector
/// (handles among them move in when the call runs).
pub enum VectorCall {
    Values(Vec<Tensor>),
    Rows(Vec<Tensor>),
    Get(Vec<Tensor>, Result<usize, Vec<usize>>),
    /// the handle, the indices, the values, and whether one index was given as an atom
    Set(K, Vec<usize>, Vec<K>, bool),
    New(Vec<K>),
}

impl FromQ for VectorCall {
    const TYPE: &'static str = "(x;y;..), a vector, (vector;index) or (vector;index;value)";
    /// Every value is one form or an error.
    fn read(x: K) -> anyhow::Result<Option<VectorCall>> {
        if registry::is_handle(x) {
            return Ok(Some(VectorCall::Values(stored(x)?)));
        }
        if read::ktype(x) != 0 {
            // an atom or a simple list: its values, one tensor a row (ktensor.cpp's `vec`)
            return Ok(Some(VectorCall::Rows(from_q(x)?)));
        }
        let items = from::list(&x).ok_or_else(|| anyhow!("expected {}", Self::TYPE))?;
        let Some(v) = items.first().filter(|v| is_vector(**v)) else {
            return Ok(Some(VectorCall::New(items.to_vec())));
        };
        let ts = stored(*v)?;
        let n = ts.len();
        Ok(Some(match &items[1..] {
            [i] => VectorCall::Get(ts, indices(*i, n)?),
            [i, val] => match indices(*i, n)? {
                Ok(k) => VectorCall::Set(*v, vec![k], vec![*val], true),
                Err(ks) => {
                    let vs = from::list(val)
                        .filter(|v| v.len() == ks.len() && !registry::is_handle(*val));
                    let vs = vs.ok_or_else(|| {
                        anyhow!("{} indices need a list of {} values", ks.len(), ks.len())
                    })?;
                    VectorCall::Set(*v, ks, vs.to_vec(), false)
                }
            },
            _ => bail!("expected (vector;index) or (vector;index;value)"),
        }))
    }
}

crate::qfn! {
    /// `vector(x;y;..)` a new vector, `vector v` its values, `vector(v;i)` some of them,
    /// `vector(v;i;x)` new values for some.
    pub fn vector(x: VectorCall) -> KResult {
        match x {
            VectorCall::Values(ts) => make::try_list(ts.iter().map(convert::to_q)),
            VectorCall::Rows(ts) => Ok(registry::add(Obj::Vector(ts))),
            VectorCall::Get(ts, Ok(k)) => convert::to_q(&ts[k]),
            VectorCall::Get(ts, Err(ks)) => make::try_list(ks.iter().map(|k| convert::to_q(&ts[*k]))),
            VectorCall::Set(v, ks, vals, one) => {
                // one value as given (a handle moves in), several checked all before any moves
                let vals = if one {
                    vec![take_arg(vals[0])?]
                } else {
                    take_args(&vals)?
                };
                registry::with(v, |o| {
                    if let Obj::Vector(vs) = o {
                        for (k, t) in ks.into_iter().zip(vals) {
                            vs[k] = t;
                        }
                    }
                    Ok(())
                })?;
                Ok(make::null())
            }
            VectorCall::New(items) => Ok(registry::add(Obj::Vector(take_args(&items)?))),
        }
    }
}

/// The tensors of a new vector from `x` (ktensor.cpp's `vec`): an atom is one scalar tensor, a
/// simple list one tensor per row (`vector 1 2 3e` is three scalars), a tensor handle its
/// tensor (moving in), a general list one tensor per item.
pub fn from_q(x: K) -> anyhow::Result<Vec<Tensor>> {
    if registry::is_handle(x) {
        return Ok(vec![registry::take_tensor(x)?]);
    }
    if read::ktype(x) != 0 {
        let t = convert::to_tensor(x)?;
        if t.dim() == 0 {
            return Ok(vec![t]);
        }
        return (0..t.size()[0])
            .map(|i| Ok(t.f_get(i)?.f_contiguous()?.f_detach_copy()?))
            .collect();
    }
    take_args(from::list(&x).unwrap_or(&[]))
}

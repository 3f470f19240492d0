//! Vectors of tensors, as ktorch: `vector(x;y;..)` makes one from q data and tensor handles
//! (a handle's tensor is shared, the handle stays valid); `vector v` all values as q data,
//! `vector(v;i)` one, `vector(v;i;x)` replaces one.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::{arg, convert};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

/// The tensors of vector handle `x` (shallow copies).
fn tensors(x: K) -> anyhow::Result<Vec<Tensor>> {
    registry::with(x, |o| match o {
        Obj::Vector(v) => Ok(v.iter().map(|t| t.shallow_clone()).collect()),
        other => bail!("expected a vector, given {}", other.class()),
    })
}

fn is_vector(x: K) -> bool {
    registry::with(x, |o| Ok(matches!(o, Obj::Vector(_)))).unwrap_or(false)
}

/// An index into a vector of `n`, negative counting from the end as in PyTorch.
fn index(i: K, n: usize) -> anyhow::Result<usize> {
    let j = read::long(i).filter(|_| read::ktype(i) != -1).ok_or_else(|| anyhow!("index expected as a long"))?;
    let k = if j < 0 { j + n as i64 } else { j };
    if k < 0 || k >= n as i64 {
        bail!("index {j} out of range for vector of {n}");
    }
    Ok(k as usize)
}

pub fn vector(x: K) -> KResult {
    if registry::is_handle(x) {
        let v = tensors(x)?;
        return Ok(make::list(v.iter().map(convert::to_q).collect::<anyhow::Result<Vec<K>>>()?));
    }
    let items = read::items(x).ok_or_else(|| anyhow!("expects (x;y;..), a vector, (vector;index) or (vector;index;value)"))?;
    if let Some(v) = items.first().filter(|v| registry::is_handle(**v) && is_vector(**v)) {
        let ts = tensors(*v)?;
        return match &items[1..] {
            [i] => convert::to_q(&ts[index(*i, ts.len())?]),
            [i, val] => {
                let k = index(*i, ts.len())?;
                let (t, _) = arg(*val)?;
                registry::with(*v, |o| {
                    if let Obj::Vector(vs) = o {
                        vs[k] = t;
                    }
                    Ok(())
                })?;
                Ok(make::null())
            }
            _ => bail!("expects (vector;index) or (vector;index;value)"),
        };
    }
    let ts = items.iter().map(|i| arg(*i).map(|(t, _)| t)).collect::<anyhow::Result<Vec<_>>>()?;
    Ok(registry::add(Obj::Vector(ts)))
}

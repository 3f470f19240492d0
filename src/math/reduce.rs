//! Reductions: `mean x`, `Sum x` over all elements; `Max`, `Min` over all elements or along a
//! dimension with indices (ktorch capitalises q keywords).
use anyhow::{anyhow, bail};
use tch::{Kind, Tensor};

use crate::k::{make, native, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::opargs::{self, flag, long};
use crate::tensor::{arg, convert, result};

fn reduce(x: K, f: fn(&Tensor) -> Result<Tensor, tch::TchError>) -> KResult {
    let (t, h) = arg(x)?;
    result(f(&t)?, h)
}

pub fn mean(x: K) -> KResult {
    // libtorch averages floating point only; integers are averaged as float, as ktorch does.
    reduce(x, |t| if t.is_floating_point() || t.is_complex() { t.f_mean(None) } else { t.f_mean(Kind::Float) })
}
pub fn sum(x: K) -> KResult {
    reduce(x, |t| t.f_sum(None))
}

/// `Max x`/`Min x` the overall maximum/minimum of an array or tensor; with a dimension,
/// `Max(x;dim)`, `Max(x;dim;keepdim)`, `Max(x;keepdim)` (along the last dimension): the values
/// and their indices along `dim`, q data `(values;indices)` or a new vector handle; with a
/// trailing output vector, the vector's first two tensors become the values and indices (the
/// vector grows to two if shorter) and the result is null.
fn extreme(x: K, min: bool) -> KResult {
    let all = |t: &Tensor| if min { t.f_min() } else { t.f_max() };
    if registry::is_handle(x) {
        return result(all(&registry::tensor(x)?)?, true);
    }
    if let Some(t) = opargs::array(x) {
        return result(all(&t)?, false);
    }
    let usage = "(input;dim;keepdim;output)";
    let v = opargs::list(x).ok_or_else(|| anyhow!("expects an array, a tensor or {usage}"))?;
    if v.is_empty() || v.len() > 4 {
        bail!("expecting up to 4 args, {usage}, given {}", v.len());
    }
    let mut n = v.len();
    let out = (n > 1 && registry::is_handle(v[n - 1])).then(|| v[n - 1]);
    n -= out.is_some() as usize;
    let keepdim = if n > 1 { flag(v[n - 1]) } else { None };
    n -= keepdim.is_some() as usize;
    let dim = if n > 1 { long(v[n - 1]) } else { None };
    n -= dim.is_some() as usize;
    if n != 1 {
        bail!("unrecognized args, expecting up to 4, {usage}");
    }
    let (t, h) = arg(v[0])?;
    let (d, k) = (dim.unwrap_or(-1), keepdim.unwrap_or(false));
    let (values, indices) = if min { t.f_min_dim(d, k)? } else { t.f_max_dim(d, k)? };
    if let Some(o) = out {
        registry::with(o, |obj| match obj {
            Obj::Vector(ts) => {
                for (i, r) in [values, indices].into_iter().enumerate() {
                    match ts.get_mut(i) {
                        Some(slot) => *slot = r,
                        None => ts.push(r),
                    }
                }
                Ok(())
            }
            other => bail!("output expected as a vector, given {}", other.class()),
        })?;
        return Ok(make::null());
    }
    if h {
        return Ok(registry::add(Obj::Vector(vec![values, indices])));
    }
    let a = convert::to_q(&values)?;
    match convert::to_q(&indices) {
        Ok(b) => Ok(make::list(vec![a, b])),
        Err(e) => {
            unsafe { native::r0(a) };
            Err(e)
        }
    }
}

pub fn max(x: K) -> KResult {
    extreme(x, false)
}
pub fn min(x: K) -> KResult {
    extreme(x, true)
}

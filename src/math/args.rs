//! Reading ktorch's trailing optional arguments, as kmath.cpp does: a list `(input;..;opt;output)`
//! is read from the end, each optional argument taken when it has the expected type and enough
//! arguments remain before it; whatever is left must be the inputs. Also the results of
//! functions with several outputs (qr, svd, eig, lu..): a q list for q data, a vector handle for
//! a tensor, or written into a trailing output vector.
use anyhow::{bail, Result};
use tch::Tensor;

use crate::k::{read, KResult, K};
use crate::registry;
use crate::tensor::arg;
use crate::tensor::opargs::{self, Num};

/// The arguments of one call, taken from the end.
pub struct Tail {
    pub v: Vec<K>,
    pub n: usize,
}

impl Tail {
    /// The items of an argument list, or `x` as the only input when it is a handle or q data
    /// that is one array (`f x`). `max` is the most arguments the function takes.
    pub fn new(x: K, max: usize, usage: &str) -> Result<Tail> {
        if registry::is_handle(x) || opargs::array(x).is_some() {
            return Ok(Tail { v: vec![x], n: 1 });
        }
        Self::list(x, 1, max, usage)
    }

    /// The items of an argument list of `min` to `max` items.
    pub fn list(x: K, min: usize, max: usize, usage: &str) -> Result<Tail> {
        match opargs::list(&x) {
            Some(v) if (min..=max).contains(&v.len()) => Ok(Tail {
                v: v.to_vec(),
                n: v.len(),
            }),
            Some(v) => bail!("expected {min}-{max} args, {usage}, given {}", v.len()),
            None => bail!("not implemented for {}", opargs::describe(x)),
        }
    }

    fn last(&self) -> K {
        self.v[self.n - 1]
    }

    /// Take the last argument when more than `keep` remain and `f` reads it.
    pub fn take<T>(&mut self, keep: usize, f: impl Fn(K) -> Option<T>) -> Option<T> {
        if self.n > keep {
            if let Some(t) = f(self.last()) {
                self.n -= 1;
                return Some(t);
            }
        }
        None
    }

    /// Take the last two arguments when more than `keep + 1` remain and both are read.
    pub fn take2<T, U>(
        &mut self,
        keep: usize,
        f: impl Fn(K) -> Option<T>,
        g: impl Fn(K) -> Option<U>,
    ) -> Option<(T, U)> {
        if self.n > keep + 1 {
            if let (Some(a), Some(b)) = (f(self.v[self.n - 2]), g(self.v[self.n - 1])) {
                self.n -= 2;
                return Some((a, b));
            }
        }
        None
    }

    /// A trailing output tensor.
    pub fn out(&mut self, keep: usize) -> Option<K> {
        self.take(keep, |x| opargs::is_tensor(x).then_some(x))
    }

    /// A trailing output vector.
    pub fn outvec(&mut self, keep: usize) -> Option<K> {
        self.take(keep, |x| opargs::is_vector(x).then_some(x))
    }

    pub fn flag(&mut self, keep: usize) -> Option<bool> {
        self.take(keep, opargs::flag)
    }

    pub fn sym(&mut self, keep: usize) -> Option<&'static str> {
        self.take(keep, read::symbol)
    }

    /// The inputs left must number `want`, else `unrecognized arg(s), expecting <usage>`.
    pub fn done(&self, want: usize, usage: &str) -> Result<&[K]> {
        if self.n != want {
            bail!("unrecognized arg(s), expected {usage}");
        }
        Ok(&self.v[..self.n])
    }
}

/// A float atom (ktorch's xdouble): a q null means "not given".
pub fn double(x: K) -> Option<Option<f64>> {
    read::float(x).map(|f| (!f.is_nan()).then_some(f))
}

/// A number atom of any numeric type (ktorch's xnum).
pub fn number(x: K) -> Option<Num> {
    matches!(read::ktype(x), -1 | -4 | -5 | -6 | -7 | -8 | -9)
        .then(|| opargs::number(x))
        .flatten()
}

/// A long atom, a q null meaning "not given" (ktorch's xint64 for optional sizes).
pub fn optlong(x: K) -> Option<Option<i64>> {
    opargs::long(x).map(|j| (j != i64::MIN).then_some(j))
}

/// Sizes: a long atom or long vector (ktorch's xsize).
pub fn sizes(x: K) -> Option<Vec<i64>> {
    matches!(read::ktype(x), -7 | 7)
        .then(|| opargs::longs(x))
        .flatten()
}

/// The tensor of an output handle.
pub fn tensor(x: K) -> Result<Tensor> {
    registry::tensor(x)
}

/// Tensors of the inputs and whether any came from a handle.
pub fn inputs(v: &[K]) -> Result<(Vec<Tensor>, bool)> {
    super::forms::tensors(v)
}

/// One input: its tensor and whether it came from a handle.
pub fn input(x: K) -> Result<(Tensor, bool)> {
    arg(x)
}

/// Several results: see `forms::several`.
pub fn multi(ts: Vec<Tensor>, handle: bool, out: Option<K>) -> KResult {
    super::forms::several(ts, handle, out)
}

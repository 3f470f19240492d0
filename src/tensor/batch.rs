//! Batches in place (ktorch's tensor batching, train.rst "Shuffling data", "Batching data"): a
//! tensor is narrowed along one dimension to a window of its own storage (`set_` with a new
//! offset and size), so every handle to it sees the batch and nothing is copied; `restore`
//! widens it back to its whole storage. Tensors batched together (a vector, a dictionary, a
//! model's inputs and targets) must have the same full size along the dimension.
//!
//! q forms: `batch(x;w)` / `batch(x;w,d)` (next batch of size w along d, false and the full
//! size after the last), `batch(x;w;i)` (batch i), `restore x` / `restore(x;d)` (full size),
//! `shuffle x` / `shuffle(x;d)` (one random permutation for all of x's tensors), x a tensor,
//! vector or dictionary; the model forms are in model::data, the q functions taking either in
//! dispatch/data.rs.
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

use super::info::facts::{storage_bytes, storage_offset};
use crate::k::from::{self, FromQ, Whole, Wholes};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

/// The size along `d` that the tensor's whole storage holds (0 for an undefined or empty one).
pub fn maxsize(t: &Tensor, d: i64) -> Result<i64> {
    if !t.defined() {
        return Ok(0);
    }
    let dim = t.dim() as i64;
    if d < 0 || d >= dim {
        bail!("dimension {d} out of range for a {dim}-dim tensor");
    }
    let item = t.f_kind()?.elt_size_in_bytes() as i64;
    let (n, e, sz) = (
        storage_bytes(t)? / item,
        t.numel() as i64,
        t.size()[d as usize],
    );
    if n == 0 || e == 0 {
        return Ok(0);
    }
    let row = e / sz; // elements per index along d
    if n % row != 0 {
        bail!("tensor does not span its storage ({n} elements, {row} per index of dim {d}): batch a contiguous tensor");
    }
    Ok(n / row)
}

/// The common full size of tensors batched together.
pub fn maxsize_all(ts: &[&Tensor], d: i64) -> Result<i64> {
    maxsize_keyed(ts, d, None)
}

/// As `maxsize_all`, a dictionary's tensors named by key in the error (ktensor.cpp's
/// `dictionary[y] size=9, ..`), others by position (`tensor[1] size=9, ..`).
pub fn maxsize_keyed(ts: &[&Tensor], d: i64, keys: Option<&[String]>) -> Result<i64> {
    let mut m = -1;
    for (i, t) in ts.iter().enumerate() {
        let n = maxsize(t, d)?;
        if m >= 0 && n != m {
            match keys.and_then(|k| k.get(i)) {
                Some(k) => bail!(
                    "dictionary[{k}] size={n}, but previous tensor(s) have size={m} for dim {d}"
                ),
                None => {
                    bail!("tensor[{i}] size={n}, but previous tensor(s) have size={m} for dim {d}")
                }
            }
        }
        m = n;
    }
    Ok(m.max(0))
}

/// Point `t` at its own storage with a new offset and size along `d` (strides kept). ATen's
/// set_(source, offset, ..) adds the source's own offset and wants it contiguous, so the source
/// is the whole storage as one flat view from offset 0.
fn window(t: &Tensor, d: i64, offset: i64, len: i64) -> Result<()> {
    let mut size = t.size();
    size[d as usize] = len;
    let stride = t.stride();
    let n = storage_bytes(t)? / t.f_kind()?.elt_size_in_bytes() as i64;
    tch::no_grad(|| -> Result<()> {
        let base = t.f_as_strided([n], [1], 0)?;
        let _ = t
            .shallow_clone()
            .f_set_source_tensor_storage_offset_(&base, offset, &size, &stride)?;
        Ok(())
    })
}

/// Batches of size w in n (a last short one unless dropped).
pub fn count(w: i64, n: i64, droplast: bool) -> i64 {
    if n == 0 || w == 0 {
        0
    } else if n % w != 0 && !droplast {
        n / w + 1
    } else {
        n / w
    }
}

/// Batch i of size w along d, n the full size.
pub fn select(t: &Tensor, i: i64, w: i64, d: i64, n: i64) -> Result<()> {
    if !t.defined() {
        return Ok(());
    }
    let w = w.min(n);
    let j = i * w;
    if i < 0 || j >= n {
        bail!(
            "batch[{i}] invalid, valid range is from 0-{}",
            count(w, n, false) - 1
        );
    }
    window(t, d, j * t.stride()[d as usize], w.min(n - j))
}

/// The full size along d again.
pub fn fullsize(t: &Tensor, d: i64, n: i64) -> Result<()> {
    if t.defined() && t.size()[d as usize] != n {
        window(t, d, 0, n)?;
    }
    Ok(())
}

/// The next batch of size w along d for tensors batched together: true and the batch, or false
/// and the full size after the last.
pub fn next(ts: &[&Tensor], w: i64, d: i64) -> Result<bool> {
    next_keyed(ts, w, d, None)
}

fn next_keyed(ts: &[&Tensor], w: i64, d: i64, keys: Option<&[String]>) -> Result<bool> {
    let Some(first) = ts.first() else {
        return Ok(false);
    };
    if first.dim() == 0 {
        bail!("tensor has no dimensions");
    }
    let n = maxsize_keyed(ts, d, keys)?;
    if n == 0 {
        return Ok(false);
    }
    if w < 1 || w >= n {
        bail!(
            "size {w} not in the range 1-{} (tensor size is {n} for dimension {d})",
            n - 1
        );
    }
    let i = if first.size()[d as usize] == n {
        0
    } else {
        storage_offset(first)? / (first.stride()[d as usize] * w) + 1
    };
    if i < count(w, n, false) {
        ts.iter().try_for_each(|t| select(t, i, w, d, n))?;
        Ok(true)
    } else {
        ts.iter().try_for_each(|t| fullsize(t, d, n))?;
        Ok(false)
    }
}

/// Full size for all; answers it.
pub fn restore_all(ts: &[&Tensor], d: i64) -> Result<i64> {
    let n = maxsize_all(ts, d)?;
    ts.iter().try_for_each(|t| fullsize(t, d, n))?;
    Ok(n)
}

/// A random permutation of n on `t`'s device.
pub fn perm(n: i64, t: &Tensor) -> Result<Tensor> {
    Ok(Tensor::f_randperm(n, (Kind::Int64, t.device()))?)
}

/// A random generator of its own, seeded (kmodel.cpp reshuffle: every task of a model sharing
/// one data set draws the same permutations from a generator seeded alike, each then taking its
/// own batches): a clone of the CPU's default generator, or of a CUDA device's.
pub struct SeededGen(crate::cxx::tensor::SeededGenerator);

impl SeededGen {
    pub fn new(device: Device, seed: i64) -> Result<SeededGen> {
        let (kind, index) = match device {
            Device::Cuda(i) => (1, i as i32),
            _ => (0, 0),
        };
        Ok(SeededGen(crate::cxx::tensor::SeededGenerator::new(
            kind, index, seed,
        )?))
    }
    /// A permutation of 0..n (long, on the generator's device), the generator advanced.
    pub fn perm(&self, n: i64) -> Result<Tensor> {
        self.0.randperm(n)
    }
}

/// Reorder along d by index i (a new tensor).
pub fn reindex(t: &Tensor, i: &Tensor, d: i64) -> Result<Tensor> {
    if !t.defined() {
        return Ok(t.shallow_clone());
    }
    Ok(t.f_index_select(d, &i.f_to_device(t.device())?)?)
}

/// The tensors of a tensor, vector or dictionary handle, mutably, for `f`.
fn with_tensors<R>(h: K, f: impl FnOnce(Vec<&mut Tensor>) -> Result<R>) -> Result<R> {
    with_keyed(h, |ts, _| f(ts))
}

/// As `with_tensors`, with a dictionary's keys.
fn with_keyed<R>(
    h: K,
    f: impl FnOnce(Vec<&mut Tensor>, Option<&[String]>) -> Result<R>,
) -> Result<R> {
    registry::with(h, |o| match o {
        Obj::Dict(d) => {
            let keys: Vec<String> = d.iter().map(|(k, _)| k.clone()).collect();
            f(d.iter_mut().map(|(_, t)| t).collect(), Some(&keys))
        }
        other => with_plain(other, |ts| f(ts, None)),
    })
}

fn with_plain<R>(o: &mut Obj, f: impl FnOnce(Vec<&mut Tensor>) -> Result<R>) -> Result<R> {
    match o {
        Obj::Tensor(t) => f(vec![t]),
        Obj::Vector(v) => f(v.iter_mut().collect()),
        Obj::Dict(d) => f(d.iter_mut().map(|(_, t)| t).collect()),
        other => bail!(
            "expected tensor, vector, dictionary or model, given {}",
            other.class()
        ),
    }
}

/// `(x)` or `(x;d)`: the handle and the dimension.
pub fn handle_dim(x: K, what: &str) -> Result<(K, i64)> {
    if registry::is_handle(x) {
        return Ok((x, 0));
    }
    match from::list(&x) {
        Some([h, d]) if registry::is_handle(*h) => {
            let d = Whole::of(*d).map(|w| w.0).filter(|_| read::ktype(*d) < 0).ok_or_else(|| anyhow!("2nd arg is dimension, but given {}", describe(*d)))?;
            Ok((*h, d))
        }
        _ => bail!("expected 1-2 args, tensor/vector/dictionary/model & optional dimension, given {} ({what})", describe(x)),
    }
}

/// `batch` of a tensor, vector or dictionary (a model's: dispatch/data.rs).
pub fn batch(x: K) -> KResult {
    let v = from::list(&x)
        .filter(|v| (2..=3).contains(&v.len()) && registry::is_handle(v[0]))
        .ok_or_else(|| {
            anyhow!(
                "expected model, (tensor;size), (tensor;size,dim) or (tensor;size;index), given {}",
                describe(x)
            )
        })?;
    let wd = Wholes::of(v[1])
        .map(|w| w.0)
        .or_else(|| {
            Whole::of(v[1])
                .map(|w| w.0)
                .filter(|_| read::ktype(v[1]) < 0)
                .map(|w| vec![w])
        })
        .filter(|n| (1..=2).contains(&n.len()))
        .ok_or_else(|| {
            anyhow!(
                "2nd arg is batch size or batch size & dimension, but given {}",
                describe(v[1])
            )
        })?;
    let (w, d) = (wd[0], wd.get(1).copied().unwrap_or(0));
    if d < 0 {
        bail!("dimension cannot be negative");
    }
    if v.len() == 2 {
        let b = with_keyed(v[0], |ts, k| {
            next_keyed(&ts.iter().map(|t| &**t).collect::<Vec<_>>(), w, d, k)
        })?;
        return Ok(make::boolean(b));
    }
    let i = Whole::of(v[2])
        .map(|w| w.0)
        .filter(|_| read::ktype(v[2]) < 0)
        .ok_or_else(|| anyhow!("3rd arg is batch index, but given {}", describe(v[2])))?;
    if w < 1 {
        bail!("batch size must be positive, given {w}");
    }
    with_keyed(v[0], |ts, k| {
        let ts: Vec<&Tensor> = ts.iter().map(|t| &**t).collect();
        let n = maxsize_keyed(&ts, d, k)?;
        ts.iter().try_for_each(|t| select(t, i, w, d, n))
    })?;
    Ok(make::null())
}

/// `restore` of a tensor, vector or dictionary handle `h` along `d`.
pub fn restore(h: K, d: i64) -> KResult {
    let n = with_tensors(h, |ts| {
        restore_all(&ts.iter().map(|t| &**t).collect::<Vec<_>>(), d)
    })?;
    Ok(make::long(n))
}

/// `shuffle` of a tensor, vector or dictionary handle `h` along `d`.
pub fn shuffle(h: K, d: i64) -> KResult {
    with_tensors(h, |mut ts| {
        let n = restore_all(&ts.iter().map(|t| &**t).collect::<Vec<_>>(), d)?;
        if n > 0 {
            let i = perm(n, ts[0])?;
            for t in ts.iter_mut() {
                **t = reindex(t, &i, d)?;
            }
        }
        Ok(())
    })?;
    Ok(make::null())
}

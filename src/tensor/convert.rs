//! q data ⇄ tensors. Each direction copies the data once: q vectors are copied straight into
//! (or out of) the tensor's contiguous CPU storage, leaf by leaf for nested lists.
//!
//! No direction shares memory. q's vectors are immutable values, possibly shared by several q
//! variables, while tensors are changed in place (`add_`, optimizer steps): a tensor viewing q's
//! memory would silently change q data. And a q vector must be allocated by q, so a tensor's
//! storage cannot become one. One copy each way, at memory speed, is the floor (`make bench`).
//!
//! The data are reached through the boundaries' views (src/k/data.rs for q's, src/cxx/storage.rs
//! for a tensor's) and copied by src/cxx/memcopy.rs; q data's shape is read whole as an `Array`.
use anyhow::{anyhow, bail};
use tch::{Device, Kind, Tensor};

use crate::cxx::{memcopy, storage};
use crate::k::nested::Array;
use crate::k::{data, read, K};

/// The tensor kind of a q type (atom or vector) and its element size.
pub fn kind_of_qtype(t: i8) -> anyhow::Result<Kind> {
    Ok(match t.unsigned_abs() {
        1 => Kind::Bool,
        4 => Kind::Uint8,
        5 => Kind::Int16,
        6 => Kind::Int,
        7 => Kind::Int64,
        8 => Kind::Float,
        9 => Kind::Double,
        10 => Kind::Int8,
        // an enumeration (a historical database's `sym`): its long indices into the domain
        20..=76 => Kind::Int64,
        _ => bail!("no torch type found for k: {}", read::type_name(t)),
    })
}

/// The q vector type of a tensor kind (half and bfloat come back as reals).
fn qtype_of_kind(k: Kind) -> anyhow::Result<(i8, Kind)> {
    Ok(match k {
        Kind::Bool => (1, Kind::Bool),
        Kind::Uint8 => (4, Kind::Uint8),
        Kind::Int8 => (10, Kind::Int8),
        Kind::Int16 => (5, Kind::Int16),
        Kind::Int => (6, Kind::Int),
        Kind::Int64 => (7, Kind::Int64),
        Kind::Float | Kind::Half | Kind::BFloat16 => (8, Kind::Float),
        Kind::Double => (9, Kind::Double),
        _ => bail!("no q type for tensor type {k:?}"),
    })
}

fn elem_size(t: i8) -> usize {
    match t.unsigned_abs() {
        1 | 4 | 10 => 1,
        5 => 2,
        6 | 8 => 4,
        _ => 8,
    }
}

/// Shape, q element type and leaves of (possibly nested) q data; ragged data is a 'length
/// error, a type of no tensor kind `no torch type found`.
fn shape(x: K) -> anyhow::Result<Array> {
    Array::read_with(x, &|t| kind_of_qtype(t).map(drop))
}

/// Copy the leaves of array `a` into `dst` (contiguous, row-major, the size of its items).
fn fill(a: &Array, dst: &mut [u8]) -> anyhow::Result<()> {
    let mut off = 0;
    for x in &a.leaves {
        let atom = read::ktype(*x) < 0;
        let src = if atom {
            data::atom_bytes(x)
        } else {
            data::bytes(x)
        }
        .ok_or_else(|| anyhow!("no data in {}", read::describe(*x)))?;
        let to = dst
            .get_mut(off..off + src.len())
            .ok_or_else(|| anyhow!("q data larger than its tensor"))?;
        if atom {
            to.copy_from_slice(src);
        } else {
            memcopy::copy(src, to);
        }
        off += src.len();
    }
    Ok(())
}

/// A CPU tensor holding q data `x` (atom → 0-d, vector → 1-d, nested lists → n-d, a table →
/// rows x columns: tensor/table.rs).
pub fn to_tensor(x: K) -> anyhow::Result<Tensor> {
    if let Some(t) = super::table::to_tensor(x, false)? {
        return Ok(t);
    }
    // a simple vector, the usual case: its data in one copy, no walk
    if let Some(src) = data::bytes(&x).filter(|_| read::ktype(x) < 98) {
        let mut out = Tensor::f_empty(
            [read::len(x)],
            (kind_of_qtype(read::ktype(x))?, Device::Cpu),
        )?;
        if !src.is_empty() {
            let dst = storage::bytes_mut(&mut out)
                .ok_or_else(|| anyhow!("a new tensor's memory is not one run on the host"))?;
            memcopy::copy(src, dst);
        }
        return Ok(out);
    }
    let a = shape(x)?;
    if a.qtype == 0 {
        return Ok(Tensor::f_empty(
            a.size.as_slice(),
            (super::options::default_kind(), Device::Cpu),
        )?);
    }
    let kind = kind_of_qtype(a.qtype)?;
    let mut out = Tensor::f_empty(a.size.as_slice(), (kind, Device::Cpu))?;
    write(&a, &mut out)?;
    Ok(out)
}

/// The items of array `a` into `out`, a new contiguous CPU tensor of its size and kind.
fn write(a: &Array, out: &mut Tensor) -> anyhow::Result<()> {
    if out.numel() == 0 {
        return Ok(());
    }
    let dst = storage::bytes_mut(out)
        .ok_or_else(|| anyhow!("a new tensor's memory is not one run on the host"))?;
    fill(a, dst)
}

/// q data as a tensor on `device`. For CUDA the data is written straight into pinned host memory
/// (libtorch's caching host allocator) and copied over without blocking: the call returns while
/// the copy is queued behind the GPU's work, where a copy from pageable memory would wait for
/// that work to finish first (a stall between steps of a training loop fed from q). Elsewhere,
/// `to_tensor` and a plain move.
pub fn to_tensor_on(x: K, device: Option<Device>) -> anyhow::Result<Tensor> {
    let Some(d) = device.filter(|d| d.is_cuda()) else {
        let t = to_tensor(x)?;
        return Ok(match device {
            Some(d) if d != Device::Cpu => t.f_to_device(d)?,
            _ => t,
        });
    };
    if let Some(t) = super::table::to_tensor(x, true)? {
        let k = t.kind();
        return Ok(t.f_to_device_(d, k, true, false)?);
    }
    match to_pinned(x)? {
        Some(h) => {
            let t = h.f_to_device_(d, h.kind(), true, false)?;
            // integer data: its range, taken here on the host, spares a check of these indices
            // a wait for the GPU (class targets, embedding rows: tensor::known)
            if let Some((lo, hi)) = super::known::host_range(&h) {
                super::known::remember(&t, lo, hi);
            }
            Ok(t)
        }
        None => Ok(to_tensor(x)?.f_to_device(d)?),
    }
}

/// A q array (not a general list) as a CPU tensor in pinned memory, ready for a copy to CUDA
/// that does not block; None for a general list. The caller may keep it to read on the host
/// what it sent.
pub fn to_pinned(x: K) -> anyhow::Result<Option<Tensor>> {
    let a = shape(x)?;
    if a.qtype == 0 {
        return Ok(None);
    }
    let kind = kind_of_qtype(a.qtype)?;
    let mut out = super::pinned::empty_pinned(&a.size, kind)?;
    write(&a, &mut out)?;
    Ok(Some(out))
}

/// q data holding a tensor's values: 0-d → atom, 1-d → vector, n-d → nested lists; an undefined
/// tensor gives `::`; a sparse tensor its dense values. A complex tensor comes back as
/// (real;imag) stacked first, or as pairs along a last dimension when the `complexfirst` setting
/// is off.
pub fn to_q(t: &Tensor) -> anyhow::Result<K> {
    to_q_complex(t, crate::session::setting::complexfirst())
}

/// `to_q` with the complex layout given: `first` puts (real;imag) first, else last.
pub fn to_q_complex(t: &Tensor, first: bool) -> anyhow::Result<K> {
    if !t.defined() {
        return Ok(crate::k::make::null());
    }
    if t.is_sparse() {
        // q has no sparse form: a sparse tensor's values come back dense, as in ktorch
        return to_q_complex(&t.f_detach()?.f_to_dense(None, false)?, first);
    }
    if t.is_complex() {
        let r = t.f_detach()?.f_resolve_conj()?.f_view_as_real()?;
        let r = if first { r.f_movedim([-1], [0])? } else { r };
        return to_q_complex(&r, first);
    }
    let (qt, kind) = qtype_of_kind(t.kind())?;
    // A contiguous CPU tensor of q's kind is read where it is: the four calls below would each
    // make a new tensor (about 100 ns apiece, as much as copying 1000 floats).
    let converted;
    let cpu = if t.device() == Device::Cpu && t.kind() == kind && t.is_contiguous() {
        t
    } else {
        if t.device().is_cuda() {
            // a dead data-parallel peer: an error at the timeout, not a read without end
            crate::cxx::dist::settle_pending()?;
        }
        converted = t
            .f_detach()?
            .f_to_device(Device::Cpu)?
            .f_to_kind(kind)?
            .f_contiguous()?;
        &converted
    };
    let size = cpu.size();
    let es = elem_size(qt);
    let bytes =
        storage::bytes(cpu).ok_or_else(|| anyhow!("tensor data not readable on the host"))?;
    if size.is_empty() {
        return Ok(crate::k::make::atom(-qt, &bytes[..es]));
    }
    // an empty tensor can have dimensions whose lists no memory holds (`resize(x;0W 0)`): an
    // error, not a Vec of 0W items (a panic) or of 1e11 (the process ended by the allocator)
    let lists = size[..size.len() - 1]
        .iter()
        .try_fold((1u64, 0u64), |(n, all), &d| {
            let n = n.checked_mul(u64::try_from(d).ok()?)?;
            Some((n, all.checked_add(n)?))
        })
        .map(|(_, all)| all);
    if lists.is_none_or(|n| n > MAX_LISTS) {
        anyhow::bail!("tensor of size {size:?} makes more q lists than memory holds");
    }
    Ok(build(bytes, &size, qt, es))
}

/// The most nested lists `to_q` makes for one tensor (2^32: 32 GB of list headers at least).
const MAX_LISTS: u64 = 1 << 32;

/// q data of the row-major items `src` of `size` (q type `qt`, `es` bytes an item).
fn build(src: &[u8], size: &[i64], qt: i8, es: usize) -> K {
    if size.len() == 1 {
        // `qt` is one of q's numeric types (qtype_of_kind), each of a fixed width
        return data::filled_bytes(qt, size[0] as usize, |d| memcopy::copy(src, d))
            .unwrap_or_else(crate::k::make::null);
    }
    let stride = size[1..].iter().product::<i64>() as usize * es;
    let items = (0..size[0] as usize)
        .map(|i| build(&src[i * stride..(i + 1) * stride], &size[1..], qt, es))
        .collect();
    crate::k::make::list(items)
}

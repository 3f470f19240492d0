//! q data ⇄ tensors. Each direction copies the data once: q vectors are copied straight into
//! (or out of) the tensor's contiguous CPU storage, leaf by leaf for nested lists.
//!
//! No direction shares memory. q's vectors are immutable values, possibly shared by several q
//! variables, while tensors are changed in place (`add_`, optimizer steps): a tensor viewing q's
//! memory would silently change q data. And a q vector must be allocated by q, so a tensor's
//! storage cannot become one. One copy each way, at memory speed, is the floor (`make bench`).
// raw memory kernels on a tensor's and a q value's data, not yet behind src/k or src/cxx (issue 36)
#![allow(unsafe_code)]
use anyhow::{anyhow, bail};
use tch::{Device, Kind, Tensor};

use crate::k::{make::data, read, K};

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
        _ => bail!("no torch type found for k: {}", qtype_name(t)),
    })
}

/// q's name for a type, as ktorch words its conversion errors.
fn qtype_name(t: i8) -> String {
    const NAMES: [&str; 20] = [
        "list",
        "boolean",
        "guid",
        "",
        "byte",
        "short",
        "int",
        "long",
        "real",
        "float",
        "char",
        "symbol",
        "timestamp",
        "month",
        "date",
        "datetime",
        "timespan",
        "minute",
        "second",
        "time",
    ];
    match t {
        98 => "table".into(),
        99 => "dictionary".into(),
        100..=112 => "function".into(),
        -19..=-1 => format!("{} scalar", NAMES[t.unsigned_abs() as usize]),
        20..=76 => "enumeration".into(),
        0..=19 => format!("{} list", NAMES[t as usize]),
        _ => format!("type {t}h"),
    }
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

/// Shape and q element type of (possibly nested) q data; ragged data is a 'length error.
fn shape(x: K) -> anyhow::Result<(Vec<i64>, i8)> {
    let t = read::ktype(x);
    if t < 0 {
        kind_of_qtype(t)?;
        return Ok((vec![], -t));
    }
    if t > 0 {
        kind_of_qtype(t)?;
        return Ok((vec![read::len(x)], t));
    }
    let items =
        read::items(&x).ok_or_else(|| anyhow!("no torch type found for k: {}", qtype_name(t)))?;
    if items.is_empty() {
        return Ok((vec![0], 0)); // () -> an empty tensor of the default dtype
    }
    let (inner, ty) = shape(items[0])?;
    for it in &items[1..] {
        let (s, t2) = shape(*it)?;
        if t2 != ty {
            bail!(
                "type mismatch: {} and {} in one list",
                qtype_name(ty),
                qtype_name(t2)
            );
        }
        if s != inner {
            bail!("length: dimension mismatch, {:?} vs {:?}", inner, s);
        }
    }
    let mut full = vec![items.len() as i64];
    full.extend(inner);
    Ok((full, ty))
}

/// Copy the leaves of `x` into `dst` (contiguous, row-major); returns bytes written.
fn fill(x: K, dst: *mut u8, es: usize) -> usize {
    let t = read::ktype(x);
    // SAFETY: `x` is a live q value whose leaves `shape_of` checked to be of one type of `es`
    // bytes; `dst` has room for all of them (the tensor was made with that shape and type).
    unsafe {
        if t < 0 {
            std::ptr::copy_nonoverlapping((x as *const u8).add(8), dst, es);
            es
        } else if t > 0 {
            let n = read::len(x) as usize * es;
            super::memcopy::copy_bytes(data::<u8>(x), dst, n);
            n
        } else {
            let mut off = 0;
            for it in read::items(&x).unwrap_or(&[]) {
                off += fill(*it, dst.add(off), es);
            }
            off
        }
    }
}

/// A CPU tensor holding q data `x` (atom → 0-d, vector → 1-d, nested lists → n-d, a table →
/// rows x columns: tensor/table.rs).
pub fn to_tensor(x: K) -> anyhow::Result<Tensor> {
    if let Some(t) = super::table::to_tensor(x, false)? {
        return Ok(t);
    }
    let (size, t) = shape(x)?;
    if t == 0 {
        return Ok(Tensor::f_empty(
            size.as_slice(),
            (super::options::default_kind(), Device::Cpu),
        )?);
    }
    let kind = kind_of_qtype(t)?;
    let out = Tensor::f_empty(size.as_slice(), (kind, Device::Cpu))?;
    if out.numel() > 0 {
        fill(x, out.data_ptr() as *mut u8, elem_size(t));
    }
    Ok(out)
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
    let (size, t) = shape(x)?;
    if t == 0 {
        return Ok(None);
    }
    let kind = kind_of_qtype(t)?;
    let out = super::pinned::empty_pinned(&size, kind)?;
    if out.numel() > 0 {
        fill(x, out.data_ptr() as *mut u8, elem_size(t));
    }
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
        converted = t
            .f_detach()?
            .f_to_device(Device::Cpu)?
            .f_to_kind(kind)?
            .f_contiguous()?;
        &converted
    };
    let size = cpu.size();
    let ptr = cpu.data_ptr() as *const u8;
    let es = elem_size(qt);
    if size.is_empty() {
        // SAFETY: `ptr` is the data of `cpu`, a contiguous CPU tensor of one element of `es` bytes.
        return Ok(crate::k::make::atom(-qt, unsafe {
            std::slice::from_raw_parts(ptr, es)
        }));
    }
    Ok(build(ptr, &size, qt, es))
}

fn build(ptr: *const u8, size: &[i64], qt: i8, es: usize) -> K {
    if size.len() == 1 {
        let v = crate::k::make::vector(qt, size[0]);
        // SAFETY: `ptr` has `size[0]` elements of `es` bytes (a contiguous CPU tensor's data),
        // and `v` was just made with room for as many.
        unsafe { super::memcopy::copy_bytes(ptr, data::<u8>(v), size[0] as usize * es) };
        return v;
    }
    let stride: i64 = size[1..].iter().product::<i64>() * es as i64;
    let items = (0..size[0])
        .map(|i| {
            build(
                // SAFETY: row i of size[0] rows of `stride` bytes, inside the tensor's data.
                unsafe { ptr.add((i * stride) as usize) },
                &size[1..],
                qt,
                es,
            )
        })
        .collect();
    crate::k::make::list(items)
}

//! safetensors files (Hugging Face's format: a JSON header of names, types, shapes and offsets,
//! then the raw little-endian bytes) through the maintained `safetensors` crate, which checks
//! the header and every offset before a byte is used. Names are kept as given, so a state dict
//! written by PyTorch (`safetensors.torch.save_file(m.state_dict(), f)`) reads with PyTorch's
//! parameter names and ours read back the same way.
use std::borrow::Cow;

use ::safetensors::tensor::{Dtype, SafeTensors, View};
use anyhow::{anyhow, bail, Result};
use tch::{Device, Kind, Tensor};

/// The tensors of a file, in the order of their bytes in it.
pub fn read(path: &str) -> Result<Vec<(String, Tensor)>> {
    let bytes = std::fs::read(path).map_err(|e| anyhow!("{path}: {e}"))?;
    let st = SafeTensors::deserialize(&bytes)
        .map_err(|e| anyhow!("{path}: not a safetensors file ({e:?})"))?;
    let mut v = st.tensors();
    v.sort_by_key(|(_, t)| t.data().as_ptr() as usize);
    v.into_iter()
        .map(|(name, view)| {
            let kind = kind(view.dtype()).ok_or_else(|| {
                anyhow!(
                    "{path}: tensor `{name} has type {:?}, which ktorch does not read",
                    view.dtype()
                )
            })?;
            let size: Vec<i64> = view.shape().iter().map(|&d| d as i64).collect();
            let t = Tensor::f_from_data_size(view.data(), &size, kind)
                .map_err(|e| anyhow!("{path}: tensor `{name}: {e}"))?;
            Ok((name, t))
        })
        .collect()
}

fn kind(d: Dtype) -> Option<Kind> {
    Some(match d {
        Dtype::BOOL => Kind::Bool,
        Dtype::U8 => Kind::Uint8,
        Dtype::I8 => Kind::Int8,
        Dtype::I16 => Kind::Int16,
        Dtype::I32 => Kind::Int,
        Dtype::I64 => Kind::Int64,
        Dtype::BF16 => Kind::BFloat16,
        Dtype::F16 => Kind::Half,
        Dtype::F32 => Kind::Float,
        Dtype::F64 => Kind::Double,
        _ => return None,
    })
}

fn dtype(k: Kind) -> Option<Dtype> {
    Some(match k {
        Kind::Bool => Dtype::BOOL,
        Kind::Uint8 => Dtype::U8,
        Kind::Int8 => Dtype::I8,
        Kind::Int16 => Dtype::I16,
        Kind::Int => Dtype::I32,
        Kind::Int64 => Dtype::I64,
        Kind::BFloat16 => Dtype::BF16,
        Kind::Half => Dtype::F16,
        Kind::Float => Dtype::F32,
        Kind::Double => Dtype::F64,
        _ => return None,
    })
}

/// One tensor's bytes, ready to write.
struct Bytes {
    dtype: Dtype,
    shape: Vec<usize>,
    data: Vec<u8>,
}

impl View for &Bytes {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Borrowed(&self.data)
    }
    fn data_len(&self) -> usize {
        self.data.len()
    }
}

/// Write named tensors (any device, any layout of strides) to `path`, with PyTorch's
/// `{"format": "pt"}` metadata (what `transformers` looks for).
pub fn write(path: &str, tensors: &[(String, Tensor)]) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    let mut all = vec![];
    for (name, t) in tensors {
        if !seen.insert(name.as_str()) {
            bail!("{path}: name `{name} given twice");
        }
        if !t.defined() {
            bail!("{path}: tensor `{name} is undefined");
        }
        if t.is_sparse() {
            bail!("{path}: tensor `{name} is sparse (safetensors holds dense tensors)");
        }
        let d = dtype(t.kind()).ok_or_else(|| {
            anyhow!(
                "{path}: tensor `{name} has type {:?}, which safetensors does not hold",
                t.kind()
            )
        })?;
        let c = t.f_detach()?.f_to_device(Device::Cpu)?.f_contiguous()?;
        let n = c.numel();
        let mut data = vec![0u8; n * c.kind().elt_size_in_bytes()];
        c.f_copy_data_u8(&mut data, n)?;
        all.push((
            name.clone(),
            Bytes {
                dtype: d,
                shape: c.size().iter().map(|&s| s as usize).collect(),
                data,
            },
        ));
    }
    let meta = Some(
        [("format".to_string(), "pt".to_string())]
            .into_iter()
            .collect(),
    );
    ::safetensors::tensor::serialize_to_file(
        all.iter().map(|(k, b)| (k.as_str(), b)),
        &meta,
        std::path::Path::new(path),
    )
    .map_err(|e| anyhow!("{path}: cannot write ({e:?})"))
}

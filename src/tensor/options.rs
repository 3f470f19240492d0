//! Tensor options as ktorch spells them: symbols for dtype (`float`double`long`...), device
//! (`cpu`cuda`cuda:1), gradient (`grad`nograd), layout (`strided`sparse), pinned memory
//! (`pinned`unpinned) and memory format (`contiguous`preserve`channel2d`channel3d).
use anyhow::bail;
use tch::{Device, Kind};

use crate::k::from::FromQ;
use crate::k::K;

/// The session's default dtype for floating point creation (ktorch: `dtype[]`, `` dtype`double ``).
static DEFAULT_KIND: std::sync::Mutex<Kind> = std::sync::Mutex::new(Kind::Float);

pub fn default_kind() -> Kind {
    *DEFAULT_KIND.lock().unwrap_or_else(|e| e.into_inner())
}

/// Set the default dtype; like PyTorch's set_default_dtype, only floating point types qualify.
pub fn set_default_kind(k: Kind) -> anyhow::Result<()> {
    if !matches!(k, Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double) {
        bail!(
            "default data type must be floating point, given `{}",
            kind_name(k)
        );
    }
    *DEFAULT_KIND.lock().unwrap_or_else(|e| e.into_inner()) = k;
    Ok(())
}

/// A memory format: PyTorch's contiguous, preserve, channels last (2d images) and 3d.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Memory {
    Contiguous,
    Preserve,
    Channel2d,
    Channel3d,
}

impl Memory {
    pub fn name(self) -> &'static str {
        match self {
            Memory::Contiguous => "contiguous",
            Memory::Preserve => "preserve",
            Memory::Channel2d => "channel2d",
            Memory::Channel3d => "channel3d",
        }
    }
    fn from_name(s: &str) -> Option<Memory> {
        [
            Memory::Contiguous,
            Memory::Preserve,
            Memory::Channel2d,
            Memory::Channel3d,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }
}

#[derive(Default, Clone, Copy)]
pub struct Options {
    pub kind: Option<Kind>,
    pub device: Option<Device>,
    pub grad: Option<bool>,
    pub pin: Option<bool>,
    pub memory: Option<Memory>,
    /// Layout: `Some(true)` sparse (COO), `Some(false)` strided (dense).
    pub sparse: Option<bool>,
}

/// ktorch's dtype names.
pub fn kind_from_name(s: &str) -> Option<Kind> {
    Some(match s {
        "bool" => Kind::Bool,
        "byte" | "uint8" => Kind::Uint8,
        "char" | "int8" => Kind::Int8,
        "short" | "int16" => Kind::Int16,
        "int" | "int32" => Kind::Int,
        "long" | "int64" => Kind::Int64,
        "half" | "float16" => Kind::Half,
        "bfloat" | "bfloat16" => Kind::BFloat16,
        "float" | "float32" => Kind::Float,
        "double" | "float64" => Kind::Double,
        "chalf" => Kind::ComplexHalf,
        "cfloat" => Kind::ComplexFloat,
        "cdouble" => Kind::ComplexDouble,
        _ => return None,
    })
}

pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Bool => "bool",
        Kind::Uint8 => "byte",
        Kind::Int8 => "char",
        Kind::Int16 => "short",
        Kind::Int => "int",
        Kind::Int64 => "long",
        Kind::Half => "half",
        Kind::BFloat16 => "bfloat",
        Kind::Float => "float",
        Kind::Double => "double",
        Kind::ComplexHalf => "chalf",
        Kind::ComplexFloat => "cfloat",
        Kind::ComplexDouble => "cdouble",
        _ => "unknown",
    }
}

pub use crate::device::device_from_name;

pub fn device_name(d: Device) -> String {
    match d {
        Device::Cpu => "cpu".into(),
        Device::Cuda(i) => format!("cuda:{i}"),
        Device::Mps => "mps".into(),
        Device::Vulkan => "vulkan".into(),
    }
}

/// Is `x` a symbol or symbol list (an options argument)?
pub fn is_options(x: K) -> bool {
    <&str>::of(x).is_some() || Vec::<&str>::of(x).is_some()
}

/// Parse a symbol or symbol list of options; unknown names and repeats are errors.
pub fn parse(x: K) -> anyhow::Result<Options> {
    let names = match (<&str>::of(x), Vec::<&str>::of(x)) {
        (Some(s), _) => vec![s],
        (_, Some(v)) => v,
        _ => bail!("tensor options expected as symbol(s), e.g. `float`cuda`grad"),
    };
    let mut o = Options::default();
    for n in names {
        if let Some(k) = kind_from_name(n) {
            if o.kind.replace(k).is_some() {
                bail!("more than one data type given: `{n}");
            }
        } else if let Some(d) = device_from_name(n) {
            if o.device.replace(d).is_some() {
                bail!("more than one device given: `{n}");
            }
        } else if n == "grad" || n == "nograd" {
            if o.grad.replace(n == "grad").is_some() {
                bail!("gradient flag given twice: `{n}");
            }
        } else if n == "pinned" || n == "unpinned" {
            if o.pin.replace(n == "pinned").is_some() {
                bail!("pinned memory flag given twice: `{n}");
            }
        } else if let Some(m) = Memory::from_name(n) {
            if o.memory.replace(m).is_some() {
                bail!("more than one memory format given: `{n}");
            }
        } else if n == "strided" || n == "sparse" {
            if o.sparse.replace(n == "sparse").is_some() {
                bail!("more than one layout given: `{n}");
            }
        } else {
            bail!("unrecognized tensor option: `{n}");
        }
    }
    Ok(o)
}

impl Options {
    /// Apply dtype, device, memory format, pinned memory and gradient flag to a new tensor.
    pub fn apply(&self, t: tch::Tensor) -> anyhow::Result<tch::Tensor> {
        self.convert(t, false, false)
    }

    /// Convert `t` as the options say: `non_blocking` for asynchronous host↔device copies,
    /// `copy` to always give a new tensor (ktorch's `copyto`) even when nothing changes.
    pub fn convert(
        &self,
        t: tch::Tensor,
        non_blocking: bool,
        copy: bool,
    ) -> anyhow::Result<tch::Tensor> {
        if let Some(Device::Cuda(i)) = self.device {
            crate::device::check_cuda(i)?;
        }
        let sparse = self.sparse.unwrap_or(t.is_sparse());
        if sparse {
            if self.pin == Some(true) {
                bail!("sparse tensors cannot have pinned memory");
            }
            if matches!(self.memory, Some(Memory::Channel2d | Memory::Channel3d)) {
                bail!("sparse tensors cannot use memory formats with channels as last dimension");
            }
        }
        // A sparse tensor made dense first, so dtype and device apply to the dense values.
        let t = if !sparse && t.is_sparse() {
            t.f_to_dense(None, false)?
        } else {
            t
        };
        let kind = self.kind.unwrap_or(t.kind());
        let device = self.device.unwrap_or(t.device());
        let mut t = if kind != t.kind() || device != t.device() || copy {
            t.f_to_device_(device, kind, non_blocking, copy)?
        } else {
            t
        };
        if sparse && !t.is_sparse() {
            t = t.f_to_sparse(None, None::<&[i64]>, None)?;
        }
        match self.memory {
            // a sparse tensor has no strides: only the dense layouts take a memory format
            Some(m @ (Memory::Contiguous | Memory::Channel2d | Memory::Channel3d))
                if !t.is_sparse() =>
            {
                t = memory_format(&t, m)?
            }
            _ => {}
        }
        match self.pin {
            Some(true) if !t.device().is_cuda() => {
                if crate::device::cuda_count() == 0 {
                    bail!("pinned memory needs a CUDA device");
                }
                t = crate::cxx::tensor::pin_memory(&t)?;
            }
            Some(true) => bail!("only CPU tensors can be pinned"),
            _ => {}
        }
        if let Some(g) = self.grad {
            if g && !t.is_floating_point() && !t.is_complex() {
                bail!("only floating point and complex tensors can require gradients");
            }
            t = t.set_requires_grad(g);
        }
        Ok(t)
    }
}

/// `t` in memory format `m` (itself when it already is).
fn memory_format(t: &tch::Tensor, m: Memory) -> anyhow::Result<tch::Tensor> {
    let code = match m {
        Memory::Channel2d => 2,
        Memory::Channel3d => 3,
        _ => 0,
    };
    crate::cxx::tensor::to_memory_format(t, code)
}

/// A data type named by a symbol (`` `float``, `` `long``, ...): another symbol is an error.
impl crate::k::from::FromQ for Kind {
    const TYPE: &'static str = "a data type";
    fn read(x: crate::k::K) -> anyhow::Result<Option<Kind>> {
        match <&str>::of(x) {
            Some(s) => kind_from_name(s)
                .map(Some)
                .ok_or_else(|| anyhow::anyhow!("unrecognized data type: `{s}")),
            None => Ok(None),
        }
    }
}

/// Tensor options: a symbol or symbols naming a dtype, device, layout, gradient (`parse`).
impl crate::k::from::FromQ for Options {
    const TYPE: &'static str = "tensor options";
    fn read(x: crate::k::K) -> anyhow::Result<Option<Options>> {
        is_options(x).then(|| parse(x)).transpose()
    }
}

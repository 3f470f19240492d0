//! Tensor options as ktorch spells them: symbols for dtype (`float`double`long`...), device
//! (`cpu`cuda`cuda:1), gradient (`grad`nograd) and layout (`strided).
use anyhow::bail;
use tch::{Device, Kind};

use crate::k::{read, K};

/// The session's default dtype for floating point creation (ktorch: `dtype[]`, `` dtype`double ``).
static DEFAULT_KIND: std::sync::Mutex<Kind> = std::sync::Mutex::new(Kind::Float);

pub fn default_kind() -> Kind {
    *DEFAULT_KIND.lock().unwrap_or_else(|e| e.into_inner())
}

/// Set the default dtype; like PyTorch's set_default_dtype, only floating point types qualify.
pub fn set_default_kind(k: Kind) -> anyhow::Result<()> {
    if !matches!(k, Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double) {
        bail!("default data type must be floating point, given `{}", kind_name(k));
    }
    *DEFAULT_KIND.lock().unwrap_or_else(|e| e.into_inner()) = k;
    Ok(())
}

#[derive(Default, Clone, Copy)]
pub struct Options {
    pub kind: Option<Kind>,
    pub device: Option<Device>,
    pub grad: Option<bool>,
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

/// `cpu`, `cuda` (the current CUDA device), `cuda:n`.
pub fn device_from_name(s: &str) -> Option<Device> {
    match s {
        "cpu" => Some(Device::Cpu),
        "cuda" | "gpu" => Some(Device::Cuda(0)),
        _ => s.strip_prefix("cuda:").and_then(|n| n.parse::<usize>().ok()).map(Device::Cuda),
    }
}

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
    read::symbol(x).is_some() || read::symbols(x).is_some()
}

/// Parse a symbol or symbol list of options; unknown names and repeats are errors.
pub fn parse(x: K) -> anyhow::Result<Options> {
    let names = match (read::symbol(x), read::symbols(x)) {
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
        } else if n == "strided" {
        } else if n == "sparse" || n == "pinned" {
            bail!("tensor option `{n} is not supported yet");
        } else {
            bail!("unrecognized tensor option: `{n}");
        }
    }
    Ok(o)
}

impl Options {
    /// Apply dtype, device and gradient flag to a freshly made tensor.
    pub fn apply(&self, t: tch::Tensor) -> anyhow::Result<tch::Tensor> {
        let mut t = t;
        if let Some(k) = self.kind {
            if k != t.kind() {
                t = t.f_to_kind(k)?;
            }
        }
        if let Some(d) = self.device {
            if d != t.device() {
                if let Device::Cuda(i) = d {
                    let n = tch::Cuda::device_count() as usize;
                    if i >= n {
                        bail!("CUDA device {i} not available ({n} device(s))");
                    }
                }
                t = t.f_to_device(d)?;
            }
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

//! TorchScript modules (`torch.jit.save`d in Python) held as ktorch modules: tch's `CModule`
//! loads, runs and saves them; src/cxx/jit.cpp adds what it lacks (buffers, the training flag
//! from a shared reference, a deep copy).
//!
//! A script module's parameters and buffers are the module's own tensors: the ktorch module that
//! holds it lists them (PyTorch's names, `l1.weight`) as tensors sharing their TensorImpl with
//! the script module's attributes, so `to` (which changes tensors in place), an optimizer's
//! step, `copyparms` or a load of a state dict change what the script runs with, and
//! `savescript` writes the current values.
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{anyhow, bail, Result};
use tch::{CModule, Device, IValue, Tensor};

use crate::cxx::jit;
use crate::nn::Out;

/// A loaded TorchScript module.
pub struct Script {
    m: CModule,
    /// The training flag last set on the script module (set again only when a call's differs).
    training: AtomicBool,
}

impl Script {
    /// Load `path` (a file written by `torch.jit.save`), its tensors on `device`.
    pub fn load(path: &str, device: Device) -> Result<Script> {
        let meta = std::fs::metadata(path).map_err(|e| anyhow!("{path}: {e}"))?;
        if meta.is_dir() {
            bail!("{path}: is a directory, not a TorchScript file");
        }
        if let Device::Cuda(i) = device {
            if i as i64 >= tch::Cuda::device_count() {
                bail!(
                    "{path}: cannot load on cuda:{i}, no such CUDA device ({} found)",
                    tch::Cuda::device_count()
                );
            }
        }
        let m = CModule::load_on_device(path, device).map_err(|e| {
            anyhow!(
                "{path}: not a TorchScript module ({})",
                first_line(&e.to_string())
            )
        })?;
        let s = Script {
            m,
            training: AtomicBool::new(true),
        };
        // a module saved in eval mode loads in eval mode: make ktorch's flag the one we track
        s.set_training(true)?;
        Ok(s)
    }

    /// Parameters with PyTorch's dotted names.
    pub fn parameters(&self) -> Result<Vec<(String, Tensor)>> {
        jit::parameters(&self.m)
    }

    /// Buffers (batch norm's running statistics) with PyTorch's dotted names.
    pub fn buffers(&self) -> Result<Vec<(String, Tensor)>> {
        jit::buffers(&self.m)
    }

    fn set_training(&self, on: bool) -> Result<()> {
        jit::set_training(&self.m, on)?;
        self.training.store(on, Ordering::Relaxed);
        Ok(())
    }

    /// An independent copy (every tensor copied; parameters keep their gradient requirement).
    pub fn deep_clone(&self) -> Result<Script> {
        let m = jit::deep_clone(&self.m)?;
        Ok(Script {
            m,
            training: AtomicBool::new(self.training.load(Ordering::Relaxed)),
        })
    }

    /// Save to `path` in TorchScript's format (`torch.jit.load` reads it).
    pub fn save(&self, path: &str) -> Result<()> {
        self.m.save(path).map_err(|e| {
            anyhow!(
                "{path}: cannot save TorchScript module ({})",
                first_line(&e.to_string())
            )
        })
    }

    /// The TorchScript code of the module, as `str` shows it.
    pub fn code(&self) -> Result<String> {
        jit::code(&self.m)
    }

    /// Run `forward` on the inputs in the given mode (gradient mode is the caller's). Outputs: a
    /// tensor; a tuple or list of tensors as several; a dictionary of tensors keyed by strings;
    /// a number as a scalar tensor.
    pub fn forward(&self, training: bool, x: &[Tensor]) -> Result<Out> {
        if self.training.load(Ordering::Relaxed) != training {
            self.set_training(training)?;
        }
        let inputs: Vec<IValue> = x
            .iter()
            .map(|t| IValue::Tensor(t.shallow_clone()))
            .collect();
        let y = self
            .m
            .forward_is(&inputs)
            .map_err(|e| anyhow!("torchscript forward: {}", script_error(&e.to_string())))?;
        output(y)
    }
}

/// A script module's result as a forward result.
fn output(y: IValue) -> Result<Out> {
    Ok(match y {
        IValue::Tensor(t) => Out::Tensor(t),
        IValue::Tuple(v) | IValue::GenericList(v) => Out::Tensors(v.into_iter().map(tensor).collect::<Result<_>>()?),
        IValue::TensorList(v) => Out::Tensors(v),
        IValue::GenericDict(v) => Out::Dict(
            v.into_iter()
                .map(|(k, t)| match k {
                    IValue::String(s) => Ok((s, tensor(t)?)),
                    other => bail!("torchscript forward: dictionary output with a key that is not a string ({})", kind(&other)),
                })
                .collect::<Result<_>>()?,
        ),
        other => Out::Tensor(tensor(other)?),
    })
}

/// One item of a result as a tensor: a tensor, or a number as a scalar tensor.
fn tensor(v: IValue) -> Result<Tensor> {
    Ok(match v {
        IValue::Tensor(t) => t,
        IValue::Double(f) => Tensor::from(f),
        IValue::Int(j) => Tensor::from(j),
        IValue::Bool(b) => Tensor::from(b),
        other => bail!(
            "torchscript forward: output of type {} where tensors or numbers are expected",
            kind(&other)
        ),
    })
}

fn kind(v: &IValue) -> &'static str {
    match v {
        IValue::None => "None",
        IValue::Tensor(_) => "Tensor",
        IValue::Double(_) => "float",
        IValue::Int(_) => "int",
        IValue::Bool(_) => "bool",
        IValue::Tuple(_) => "tuple",
        IValue::IntList(_) => "List[int]",
        IValue::DoubleList(_) => "List[float]",
        IValue::BoolList(_) => "List[bool]",
        IValue::String(_) => "str",
        IValue::StringList(_) => "List[str]",
        IValue::TensorList(_) => "List[Tensor]",
        IValue::GenericList(_) => "list",
        IValue::GenericDict(_) => "dict",
        IValue::Object(_) => "object",
        IValue::Device(_) => "device",
        #[allow(unreachable_patterns)]
        _ => "value",
    }
}

/// libtorch's message without its prefix, its C++ traceback and miniz's advice.
fn first_line(s: &str) -> String {
    let l = s.lines().find(|l| !l.trim().is_empty()).unwrap_or(s).trim();
    let l = l.strip_prefix("Internal torch error: ").unwrap_or(l);
    l.split(" This is an internal miniz error")
        .next()
        .unwrap_or(l)
        .trim()
        .to_string()
}

/// TorchScript's error for a failed call: its message without the interpreter's traceback of
/// the serialized code (the line that says what went wrong is kept).
fn script_error(s: &str) -> String {
    let lines: Vec<&str> = s
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("frame #") && !l.starts_with("Exception raised from")
        })
        .collect();
    // an error raised inside the script's code closes with Python's form, "RuntimeError: ..."
    let python = lines.iter().rev().find(|l| {
        l.split_once(": ")
            .is_some_and(|(k, _)| k.ends_with("Error") && !k.contains(' '))
    });
    match python {
        Some(l) => l.to_string(),
        // a call refused before the code runs (argument count, types): libtorch's first line
        None => first_line(&lines.join("\n")),
    }
}

/// Text of a path as C wants it (checked for NUL bytes).
pub fn cpath(path: &str) -> Result<CString> {
    CString::new(path).map_err(|_| anyhow!("file name contains a NUL byte"))
}

//! Precision switches for speed on CUDA (src/cxx/speed.cpp): TF32 for float32 matmuls (cuBLAS)
//! and convolutions (cuDNN), libtorch's float32 matmul precision, and autocast (mixed precision:
//! matmuls, convolutions and attention in bf16 or fp16, reductions and losses in float32, as
//! torch.autocast("cuda")). Autocast is a session setting read by every forward call and every
//! model's forward and loss (`run`, `backward`, `backstep`, `testrun`, `evaluate`, `forward`),
//! each in its own autocast scope whose cast cache is dropped on leaving, so a cached bf16 copy
//! of a parameter never outlives the optimizer step that changes the parameter.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use crate::cxx::session as shim;
use anyhow::{bail, Result};

/// TF32 switch: `cublas` false for cuDNN's (convolutions), true for cuBLAS's (matmuls).
pub fn tf32(cublas: bool) -> Result<bool> {
    let v = shim::get_tf32(if cublas { 0 } else { 1 });
    if v < 0 {
        bail!("unable to read the TF32 flag");
    }
    Ok(v != 0)
}

pub fn set_tf32(cublas: bool, b: bool) -> Result<()> {
    shim::set_tf32(if cublas { 0 } else { 1 }, b)
}

pub const PRECISIONS: [&str; 3] = ["highest", "high", "medium"];

/// torch.get_float32_matmul_precision: `highest`, `high` (TF32) or `medium` (bf16).
pub fn matmul_precision() -> Result<&'static str> {
    let v = shim::get_matmul_precision();
    PRECISIONS
        .get(v as usize)
        .copied()
        .filter(|_| v >= 0)
        .ok_or_else(|| anyhow::anyhow!("unable to read the float32 matmul precision"))
}

pub fn set_matmul_precision(s: &str) -> Result<()> {
    if !PRECISIONS.contains(&s) {
        bail!("matmulprecision: expected one of `highest`high`medium, given `{s}");
    }
    let c = std::ffi::CString::new(s)?;
    shim::set_matmul_precision(&c)
}

/// The autocast setting: 0 off, else the reduced type.
static AUTOCAST: AtomicU8 = AtomicU8::new(0);
pub const AUTOCASTS: [&str; 3] = ["none", "bf16", "fp16"];

pub fn autocast() -> &'static str {
    AUTOCASTS[AUTOCAST.load(Ordering::Relaxed) as usize]
}

pub fn set_autocast(s: &str) -> Result<()> {
    match AUTOCASTS.iter().position(|a| *a == s) {
        Some(i) => AUTOCAST.store(i as u8, Ordering::Relaxed),
        None => bail!("autocast: expected one of `none`bf16`fp16, given `{s}"),
    }
    Ok(())
}

/// The autocastcpu setting: autocast for modules on the CPU too (torch.autocast("cpu")).
static AUTOCAST_CPU: AtomicBool = AtomicBool::new(false);

pub fn autocast_cpu() -> bool {
    AUTOCAST_CPU.load(Ordering::Relaxed)
}

pub fn set_autocast_cpu(b: bool) {
    AUTOCAST_CPU.store(b, Ordering::Relaxed)
}

/// The type autocast casts matmul inputs to for a module on `device` under the session's
/// setting (None: autocast does not apply there).
pub fn autocast_kind(device: tch::Device) -> Option<tch::Kind> {
    let a = AUTOCAST.load(Ordering::Relaxed);
    let applies = match device {
        tch::Device::Cuda(_) => true,
        tch::Device::Cpu => autocast_cpu(),
        _ => false,
    };
    match a {
        1 if applies => Some(tch::Kind::BFloat16),
        2 if applies => Some(tch::Kind::Half),
        _ => None,
    }
}

/// Run `f` under the session's autocast: CUDA ops of a module on CUDA (torch.autocast("cuda")),
/// or, with setting`autocastcpu, CPU ops of a module on the CPU (torch.autocast("cpu")); as is
/// when the setting is `none` or neither applies.
pub fn autocast_scope<T>(device: tch::Device, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let Some(kind) = autocast_kind(device) else {
        return f();
    };
    // at::DeviceType codes of the shim: 1 CUDA, 0 CPU; c10::ScalarType codes: BFloat16 15, Half 5
    let dev = if device.is_cuda() { 1 } else { 0 };
    let dtype = if kind == tch::Kind::BFloat16 { 15 } else { 5 };
    let was = shim::autocast_enter(dev, dtype)?;
    let r = f();
    let left = shim::autocast_leave(dev, was);
    let r = r?;
    left?;
    Ok(r)
}

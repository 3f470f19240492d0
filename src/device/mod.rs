//! Devices from q, as ktorch: `cudadevice` gets or sets the CUDA device that `` `cuda `` means,
//! `cudadevices` counts or names the CUDA devices, `sync` waits for a device's queued work.
//! (`device` itself, the device of a tensor or of the session, is with the tensor information.)
//! `sync` and `query` also take streams and events; the CUDA control beyond devices is in
//! memory.rs (properties, memory), stream.rs, event.rs and capture.rs (CUDA graphs: what they record is
//! the model's, model/graph.rs), through the C++ shim's
//! wrappers in cxx/cuda.rs.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
pub mod capture;
pub mod context;
pub mod event;
pub mod memory;
use crate::cxx::cuda as shim;
pub mod stream;

use anyhow::{anyhow, bail};
use tch::Device;

use crate::k::from::{FromQ, Number, Sym};
use crate::k::{make, read, KResult, K};
use crate::registry;

/// `cpu`, `cuda` (the current CUDA device), `cuda:n`.
pub fn device_from_name(s: &str) -> Option<Device> {
    match s {
        "cpu" => Some(Device::Cpu),
        "cuda" | "gpu" => Some(Device::Cuda(current_cuda())),
        _ => s
            .strip_prefix("cuda:")
            .and_then(|n| n.parse::<usize>().ok())
            .map(Device::Cuda),
    }
}

pub fn cuda_count() -> usize {
    tch::Cuda::device_count().max(0) as usize
}

/// The CUDA device `` `cuda `` stands for: the current one (0 when there is no CUDA).
pub fn current_cuda() -> usize {
    if cuda_count() == 0 {
        return 0;
    }
    crate::cxx::cuda::current_device().map_or(0, |r| r as usize)
}

/// Check a CUDA device index against the devices present.
pub fn check_cuda(i: usize) -> anyhow::Result<()> {
    let n = cuda_count();
    if i >= n {
        bail!("CUDA device {i} not available ({n} device(s))");
    }
    Ok(())
}

/// An error unless CUDA is present: what the CUDA-only functions say on a CPU-only machine.
pub fn need_cuda() -> anyhow::Result<()> {
    if cuda_count() == 0 {
        bail!("no CUDA device available");
    }
    Ok(())
}

/// A device index: a byte, short, int or long atom (a boolean is no index).
fn index(x: K) -> Option<i64> {
    match Number::of(x) {
        Some(Number::Int(i)) if read::ktype(x) != -1 => Some(i),
        _ => None,
    }
}

/// The CUDA device named by `x`: () the current one, `cuda or `cuda:n, or an index n.
pub fn cuda_arg(x: K) -> anyhow::Result<usize> {
    need_cuda()?;
    let i = if read::is_nil(x) || read::is_unset(x) {
        current_cuda()
    } else if let Some(Sym(s)) = Sym::of(x) {
        return cuda_named(s);
    } else if let Some(i) = index(x) {
        usize::try_from(i).map_err(|_| anyhow!("device index {i} is negative"))?
    } else {
        bail!("expected a CUDA device: (), `cuda, `cuda:n or an index");
    };
    check_cuda(i)?;
    Ok(i)
}

/// The CUDA device of a name: `cuda (the current one) or `cuda:n.
pub fn cuda_named(s: &str) -> anyhow::Result<usize> {
    need_cuda()?;
    let i = match device_from_name(s) {
        Some(Device::Cuda(i)) => i,
        _ => bail!("unrecognized CUDA device `{s}, expected `cuda or `cuda:n"),
    };
    check_cuda(i)?;
    Ok(i)
}

/// `cudadevice()` the current CUDA device; `` cudadevice`cuda:n `` makes device n current.
pub fn cudadevice(x: K) -> KResult {
    if cuda_count() == 0 {
        bail!("no CUDA device available");
    }
    if read::is_nil(x) {
        return Ok(make::symbol(&format!("cuda:{}", current_cuda())));
    }
    match Sym::of(x)
        .and_then(|s| s.0.strip_prefix("cuda:"))
        .and_then(|n| n.parse::<usize>().ok())
    {
        Some(i) => {
            check_cuda(i)?;
            crate::cxx::cuda::set_device(i)?;
            Ok(make::null())
        }
        None => {
            bail!("unrecognized CUDA device, expected cuda with valid device number, e.g. `cuda:0")
        }
    }
}

/// `cudadevices[]` the number of CUDA devices; `cudadevices()` their names, generic and indexed.
pub fn cudadevices(x: K) -> KResult {
    let n = cuda_count();
    if read::is_unset(x) {
        return Ok(make::long(n as i64));
    }
    if read::is_nil(x) {
        let mut names: Vec<String> = if n > 0 { vec!["cuda".into()] } else { vec![] };
        names.extend((0..n).map(|i| format!("cuda:{i}")));
        return Ok(make::symbols(
            &names.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        ));
    }
    bail!("cudadevices[] returns count of available GPUs, cudadevices() returns CUDA syms")
}

/// `sync()` waits for the current CUDA device (nothing without CUDA); `` sync`cuda:1 ``,
/// `sync 1`, or a tensor, vector or dictionary (its first CUDA tensor's device). A CPU device
/// needs no wait.
pub fn sync(x: K) -> KResult {
    let device = if read::is_nil(x) {
        (cuda_count() > 0).then(|| Device::Cuda(current_cuda()))
    } else if let Some(Sym(s)) = Sym::of(x) {
        Some(device_from_name(s).ok_or_else(|| anyhow!("unrecognized device `{s}"))?)
    } else if let Some(i) = index(x) {
        Some(Device::Cuda(
            usize::try_from(i).map_err(|_| anyhow!("device index {i} is negative"))?,
        ))
    } else if matches!(registry::class_of(x), Some("stream")) {
        return stream::with_stream(x, |s| s.sync()).map(|_| make::null());
    } else if matches!(registry::class_of(x), Some("event")) {
        return registry::with(x, |o| match o.get::<event::Event>() {
            Some(e) => e.sync(),
            None => unreachable!(),
        })
        .map(|_| make::null());
    } else if registry::is_handle(x) {
        registry::tensors(x)?
            .iter()
            .filter(|t| t.defined())
            .map(|t| t.device())
            .find(|d| d.is_cuda())
    } else {
        bail!("expected (), a device, a device index, or a tensor, vector or dictionary")
    };
    if let Some(Device::Cuda(i)) = device {
        check_cuda(i)?;
        tch::Cuda::synchronize(i as i64);
    }
    Ok(make::null())
}

/// Wait for device `d` when it is a CUDA device (a model's `sync` training setting).
pub fn sync_device(d: Device) -> anyhow::Result<()> {
    if let Device::Cuda(i) = d {
        check_cuda(i)?;
        tch::Cuda::synchronize(i as i64);
    }
    Ok(())
}

/// `query s` / `query e`: 1b when all work queued on stream s, or recorded by event e, is done
/// (an event never recorded counts as done, as in CUDA); never blocks.
pub fn query(x: K) -> KResult {
    let done = registry::with(x, |o| {
        if let Some(s) = o.get::<stream::Stream>() {
            s.done()
        } else if let Some(e) = o.get::<event::Event>() {
            e.done()
        } else {
            bail!("expected a stream or event, given {}", o.class())
        }
    })?;
    Ok(make::boolean(done))
}

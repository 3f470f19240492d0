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
pub struct Index(pub i64);

impl FromQ for Index {
    const TYPE: &'static str = "a device index";
    fn read(x: K) -> anyhow::Result<Option<Index>> {
        Ok(match Number::of(x) {
            Some(Number::Int(i)) if read::ktype(x) != -1 => Some(Index(i)),
            _ => None,
        })
    }
}

/// A handle of ktorch's registry: q's argument, alive for the call (a stream, an event, a
/// tensor...; its object is looked up where it is used, `registry::with`).
#[derive(Clone, Copy)]
pub struct Handle(K);

impl Handle {
    /// The handle as q gave it.
    pub fn k(self) -> K {
        self.0
    }
}

impl FromQ for Handle {
    const TYPE: &'static str = "a ktorch handle";
    fn read(x: K) -> anyhow::Result<Option<Handle>> {
        Ok(registry::is_handle(x).then_some(Handle(x)))
    }
    /// `registry::with`'s words
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("not a ktorch handle")
    }
}

/// A CUDA device: () or :: the current one, `cuda or `cuda:n, or an index n; with no CUDA,
/// `no CUDA device available` whatever is given.
#[derive(Clone, Copy)]
pub struct CudaDevice(pub usize);

impl FromQ for CudaDevice {
    const TYPE: &'static str = "a CUDA device: (), `cuda, `cuda:n or an index";
    fn read(x: K) -> anyhow::Result<Option<CudaDevice>> {
        need_cuda()?;
        let i = if read::is_nil(x) || read::is_unset(x) {
            current_cuda()
        } else if let Some(Sym(s)) = Sym::of(x) {
            return cuda_named(s).map(|i| Some(CudaDevice(i)));
        } else if let Some(Index(i)) = Index::of(x) {
            usize::try_from(i).map_err(|_| anyhow!("device index {i} is negative"))?
        } else {
            return Ok(None);
        };
        check_cuda(i)?;
        Ok(Some(CudaDevice(i)))
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected {}", Self::TYPE)
    }
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

/// `cudadevice`'s argument: `()` asks for the current CUDA device, `` `cuda:n `` makes n current.
pub enum Select {
    Current,
    Set(usize),
}

impl FromQ for Select {
    const TYPE: &'static str = "() or `cuda:n";
    fn read(x: K) -> anyhow::Result<Option<Select>> {
        if cuda_count() == 0 {
            bail!("no CUDA device available");
        }
        if read::is_nil(x) {
            return Ok(Some(Select::Current));
        }
        Ok(Sym::of(x)
            .and_then(|s| s.0.strip_prefix("cuda:"))
            .and_then(|n| n.parse::<usize>().ok())
            .map(Select::Set))
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("unrecognized CUDA device, expected cuda with valid device number, e.g. `cuda:0")
    }
}

/// `cudadevices`' argument: `::` (`cudadevices[]`) the count, `()` the names.
pub enum Devices {
    Count,
    Names,
}

impl FromQ for Devices {
    const TYPE: &'static str = "() or ::";
    fn read(x: K) -> anyhow::Result<Option<Devices>> {
        Ok(if read::is_unset(x) {
            Some(Devices::Count)
        } else if read::is_nil(x) {
            Some(Devices::Names)
        } else {
            None
        })
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("cudadevices[] returns count of available GPUs, cudadevices() returns CUDA syms")
    }
}

/// What `sync` waits for: a device (none: nothing to wait for), a stream or an event.
pub enum Waited {
    Device(Option<Device>),
    Stream(Handle),
    Event(Handle),
}

impl FromQ for Waited {
    const TYPE: &'static str = "(), a device, a device index, or a tensor, vector or dictionary";
    fn read(x: K) -> anyhow::Result<Option<Waited>> {
        Ok(Some(if read::is_nil(x) {
            Waited::Device((cuda_count() > 0).then(|| Device::Cuda(current_cuda())))
        } else if let Some(Sym(s)) = Sym::of(x) {
            Waited::Device(Some(
                device_from_name(s).ok_or_else(|| anyhow!("unrecognized device `{s}"))?,
            ))
        } else if let Some(Index(i)) = Index::of(x) {
            Waited::Device(Some(Device::Cuda(
                usize::try_from(i).map_err(|_| anyhow!("device index {i} is negative"))?,
            )))
        } else if matches!(registry::class_of(x), Some(registry::Class::Stream)) {
            Waited::Stream(Handle(x))
        } else if matches!(registry::class_of(x), Some(registry::Class::Event)) {
            Waited::Event(Handle(x))
        } else if registry::is_handle(x) {
            Waited::Device(
                registry::tensors(x)?
                    .iter()
                    .filter(|t| t.defined())
                    .map(|t| t.device())
                    .find(|d| d.is_cuda()),
            )
        } else {
            return Ok(None);
        }))
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected {}", Self::TYPE)
    }
}

crate::qfn! {
    /// `cudadevice()` the current CUDA device; `` cudadevice`cuda:n `` makes device n current.
    pub fn cudadevice(select: Select) -> KResult {
        match select {
            Select::Current => Ok(make::symbol(&format!("cuda:{}", current_cuda()))),
            Select::Set(i) => {
                check_cuda(i)?;
                crate::cxx::cuda::set_device(i)?;
                Ok(make::null())
            }
        }
    }

    /// `cudadevices[]` the number of CUDA devices; `cudadevices()` their names, generic and
    /// indexed.
    pub fn cudadevices(form: Devices) -> KResult {
        let n = cuda_count();
        Ok(match form {
            Devices::Count => make::long(n as i64),
            Devices::Names => {
                let mut names: Vec<String> = if n > 0 { vec!["cuda".into()] } else { vec![] };
                names.extend((0..n).map(|i| format!("cuda:{i}")));
                make::symbols(&names.iter().map(|s| s.as_str()).collect::<Vec<_>>())
            }
        })
    }

    /// `sync()` waits for the current CUDA device (nothing without CUDA); `` sync`cuda:1 ``,
    /// `sync 1`, or a tensor, vector or dictionary (its first CUDA tensor's device). A CPU
    /// device needs no wait.
    pub fn sync(waited: Waited) -> anyhow::Result<()> {
        // a stream or event may wait on a data-parallel step's collectives (see sync_device)
        if !matches!(waited, Waited::Device(_)) {
            crate::cxx::dist::settle_pending()?;
        }
        match waited {
            Waited::Stream(h) => stream::with_stream(h, |s| s.sync()),
            Waited::Event(h) => event::with_event(h, |e| e.sync()),
            Waited::Device(Some(d)) => sync_device(d),
            Waited::Device(None) => Ok(()),
        }
    }
}

/// Wait for device `d` when it is a CUDA device (a model's `sync` training setting).
pub fn sync_device(d: Device) -> anyhow::Result<()> {
    if let Device::Cuda(i) = d {
        check_cuda(i)?;
        // a dead data-parallel peer: an error at the timeout, not a wait without end
        crate::cxx::dist::settle_pending()?;
        tch::Cuda::synchronize(i as i64);
    }
    Ok(())
}

crate::qfn! {
    /// `query s` / `query e`: 1b when all work queued on stream s, or recorded by event e, is
    /// done (an event never recorded counts as done, as in CUDA); never blocks.
    pub fn query(h: Handle) -> anyhow::Result<bool> {
        registry::with(h.k(), |o| {
            if let Some(s) = o.get::<stream::Stream>() {
                s.done()
            } else if let Some(e) = o.get::<event::Event>() {
                e.done()
            } else {
                bail!("expected a stream or event, given {}", o.class())
            }
        })
    }
}

//! CUDA streams as registry objects (the seeds' stream control, PyTorch's torch.cuda.Stream):
//! `stream()` a new stream from libtorch's pool on the current device (`` stream`cuda:1 ``,
//! `stream(device;`high)` for a high-priority one), `setstream s` makes it current so that the
//! work ktorch queues next goes there (`setstream()` back to the device's default stream),
//! `getstream()` the current stream as a handle. `sync s` waits for a stream, `query s` tells
//! whether its work is done (see sync and query in mod.rs).
use crate::cxx::CudaStream;

use anyhow::{bail, Result};

use super::{cuda_named, shim, CudaDevice, Handle};
use crate::k::from::{self, FromQ, Sym};
use crate::k::{read, KResult, K};
use crate::registry::{self, Obj};

/// One CUDA stream (libtorch's CUDAStream, a view of a pooled or default stream).
pub struct Stream {
    ptr: *mut CudaStream,
}

// SAFETY: a CUDAStream is a plain value (device, id) usable from any thread.
#[allow(unsafe_code)]
unsafe impl Send for Stream {}

impl Drop for Stream {
    fn drop(&mut self) {
        crate::cxx::cuda::stream_free(self.ptr)
    }
}

impl Stream {
    pub fn new(device: usize, high: bool) -> Result<Stream> {
        Ok(Stream {
            ptr: shim::stream_new(device, high)?,
        })
    }
    /// The calling thread's current stream on `device`.
    pub fn current(device: usize) -> Result<Stream> {
        Ok(Stream {
            ptr: shim::stream_current(device)?,
        })
    }
    pub fn default(device: usize) -> Result<Stream> {
        Ok(Stream {
            ptr: shim::stream_default(device)?,
        })
    }
    /// A second value for the same CUDA stream.
    pub fn dup(&self) -> Result<Stream> {
        Ok(Stream {
            ptr: shim::stream_copy(self.ptr)?,
        })
    }
    pub fn ptr(&self) -> *mut CudaStream {
        self.ptr
    }
    /// Make this its device's current stream on the calling thread.
    pub fn set(&self) -> Result<()> {
        shim::stream_set(self.ptr)
    }
    pub fn sync(&self) -> Result<()> {
        shim::stream_sync(self.ptr)
    }
    pub fn done(&self) -> Result<bool> {
        shim::stream_query(self.ptr)
    }
    pub fn device(&self) -> Result<usize> {
        Ok(shim::stream_info(self.ptr)?.1)
    }
    /// The stream's id: 0 for the device's default stream.
    pub fn id(&self) -> Result<i64> {
        Ok(shim::stream_info(self.ptr)?.0)
    }
    pub fn same(&self, other: &Stream) -> Result<bool> {
        shim::stream_same(self.ptr, other.ptr)
    }
}

/// Make `s` current for the life of the guard, then restore the stream that was current.
pub struct StreamGuard {
    before: Stream,
}

impl StreamGuard {
    pub fn new(s: &Stream) -> Result<StreamGuard> {
        let before = Stream::current(s.device()?)?;
        s.set()?;
        Ok(StreamGuard { before })
    }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        let _ = self.before.set();
    }
}

/// Run `f` on the stream of handle `h` (an error for any other object).
pub fn with_stream<R>(h: Handle, f: impl FnOnce(&Stream) -> Result<R>) -> Result<R> {
    registry::with(h.k(), |o| match o.get::<Stream>() {
        Some(s) => f(s),
        None => bail!("expected a stream, given {}", o.class()),
    })
}

/// `stream`'s argument: `()`, a device, or `(device;priority)` (a general list, or two symbols
/// `` `cuda:0`high ``).
pub struct NewStream {
    device: usize,
    high: bool,
}

impl FromQ for NewStream {
    const TYPE: &'static str = "(), a device, or (device;priority)";
    fn read(x: K) -> Result<Option<NewStream>> {
        let (device, priority) = match (read::ktype(x), from::list(&x)) {
            (0, Some([d, p])) => (
                CudaDevice::from_q(*d, "device")?.0,
                Some(Sym::of(*p).map(|s| s.0)),
            ),
            (11, _) => match Vec::<&str>::of(x).as_deref() {
                Some([d, p]) => (cuda_named(d)?, Some(Some(*p))),
                _ => bail!("expected {}", Self::TYPE),
            },
            _ => (CudaDevice::from_q(x, "device")?.0, None),
        };
        let high = match priority {
            None | Some(Some("low")) | Some(Some("normal")) => false,
            Some(Some("high")) => true,
            Some(Some(s)) => bail!("priority: unrecognized `{s}, expected `high or `low"),
            Some(None) => bail!("priority: expected `high or `low"),
        };
        Ok(Some(NewStream { device, high }))
    }
}

/// `setstream`'s argument: a stream, or a device (its default stream).
pub enum Current {
    Stream(Handle),
    Default(CudaDevice),
}

impl FromQ for Current {
    const TYPE: &'static str = CudaDevice::TYPE;
    fn read(x: K) -> Result<Option<Current>> {
        Ok(match Handle::read(x)? {
            Some(h) => Some(Current::Stream(h)),
            None => CudaDevice::read(x)?.map(Current::Default),
        })
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        CudaDevice::wrong(x, arg)
    }
}

crate::qfn! {
    /// `stream()`, `stream device`, `stream(device;priority)`: a new stream handle.
    pub fn stream(new: NewStream) -> KResult {
        Ok(registry::add(Obj::new(Stream::new(new.device, new.high)?)))
    }

    /// `setstream s` makes stream s current on its device; `setstream()` or `setstream device`
    /// makes the device's default stream current again.
    pub fn setstream(current: Current) -> Result<()> {
        match current {
            Current::Stream(h) => with_stream(h, |s| s.set()),
            Current::Default(d) => Stream::default(d.0)?.set(),
        }
    }

    /// `getstream()` or `getstream device`: the current stream as a new handle.
    pub fn getstream(device: CudaDevice) -> KResult {
        Ok(registry::add(Obj::new(Stream::current(device.0)?)))
    }
}

impl crate::registry::Object for Stream {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Stream
    }
}

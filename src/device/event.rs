//! CUDA events as registry objects (the seeds' cudaEvent_t, PyTorch's torch.cuda.Event):
//! `event()` a new event with timing (`event 0b` without, cheaper when only used to order
//! streams), `record e` / `record(e;s)` marks the point reached by the current stream or by
//! stream s, `wait e` / `wait(e;s)` makes the current stream (or s) wait on the device for that
//! point without blocking q, `elapsed(a;b)` the milliseconds between two recorded events
//! (timing from q), and `sync e`, `query e` (in mod.rs) block on it or ask if it is reached.
use crate::cxx::CudaEvent;

use anyhow::{bail, Result};

use super::shim;
use super::stream::{with_stream, Stream};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

pub struct Event {
    ptr: *mut CudaEvent,
}

// SAFETY: a CUDAEvent is owned by one registry entry and used under the registry's lock.
#[allow(unsafe_code)]
unsafe impl Send for Event {}

impl Drop for Event {
    fn drop(&mut self) {
        crate::cxx::cuda::event_free(self.ptr)
    }
}

impl Event {
    pub fn new(timing: bool) -> Result<Event> {
        Ok(Event {
            ptr: shim::event_new(timing)?,
        })
    }
    pub fn record(&self, s: &Stream) -> Result<()> {
        shim::event_record(self.ptr, s.ptr())
    }
    /// Make stream `s` wait for this event.
    pub fn block(&self, s: &Stream) -> Result<()> {
        shim::event_block(self.ptr, s.ptr())
    }
    pub fn sync(&self) -> Result<()> {
        shim::event_sync(self.ptr)
    }
    pub fn done(&self) -> Result<bool> {
        shim::event_query(self.ptr)
    }
    pub fn recorded(&self) -> Result<bool> {
        shim::event_recorded(self.ptr)
    }
    pub fn elapsed(&self, to: &Event) -> Result<f64> {
        shim::event_elapsed(self.ptr, to.ptr)
    }
}

fn with_event<R>(x: K, f: impl FnOnce(&Event) -> Result<R>) -> Result<R> {
    registry::with(x, |o| match o.get::<Event>() {
        Some(e) => f(e),
        None => bail!("expected an event, given {}", o.class()),
    })
}

/// `event()` / `event 1b`: with timing; `event 0b` without.
pub fn event(x: K) -> KResult {
    super::need_cuda()?;
    let timing = if read::is_nil(x) {
        true
    } else if read::ktype(x) == -1 {
        bool::of(x).unwrap_or(true)
    } else {
        bail!("expected () or a boolean timing flag")
    };
    Ok(registry::add(Obj::new(Event::new(timing)?)))
}

/// The event handle and stream of `record`/`wait`: (e) with the current stream, or (e;s).
fn event_stream(x: K, f: impl FnOnce(&Event, &Stream) -> Result<()>) -> KResult {
    let (e, s) = match from::list(&x) {
        Some([e, s]) => (*e, Some(*s)),
        _ => (x, None),
    };
    if !registry::is_handle(e) {
        bail!("expected event, or (event;stream)");
    }
    match registry::class_of(e) {
        Some("event") => {}
        Some(c) => bail!("expected an event, given {c}"),
        None => bail!("stale pointer"),
    }
    match s {
        Some(s) => {
            // the stream is copied out first: the registry is not re-entered while locked
            let s = with_stream(s, |s| s.dup())?;
            with_event(e, |e| f(e, &s))?
        }
        None => {
            let d = super::current_cuda();
            let s = Stream::current(d)?;
            with_event(e, |e| f(e, &s))?
        }
    }
    Ok(make::null())
}

/// `record e` on the current stream, `record(e;s)` on stream s.
pub fn record(x: K) -> KResult {
    event_stream(x, |e, s| e.record(s))
}

/// `wait e`: the current stream waits for e; `wait(e;s)`: stream s does.
pub fn wait(x: K) -> KResult {
    event_stream(x, |e, s| e.block(s))
}

/// `elapsed(a;b)`: milliseconds from event a to event b.
pub fn elapsed(x: K) -> KResult {
    let [a, b] = from::list(&x)
        .and_then(|v| <[K; 2]>::try_from(v).ok())
        .ok_or_else(|| anyhow::anyhow!("expected (event;event)"))?;
    // the second event's pointer stays valid between the two lookups: only q's thread frees
    let pb = with_event(b, |e| Ok(e.ptr))?;
    let ms = with_event(a, |e| shim::event_elapsed(e.ptr, pb))?;
    Ok(make::float(ms))
}

impl crate::registry::Object for Event {
    fn class(&self) -> &'static str {
        "event"
    }
}

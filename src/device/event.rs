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
use super::Handle;
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
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

/// Run `f` on the event of handle `h` (an error for any other object).
pub fn with_event<R>(h: Handle, f: impl FnOnce(&Event) -> Result<R>) -> Result<R> {
    registry::with(h.k(), |o| match o.get::<Event>() {
        Some(e) => f(e),
        None => bail!("expected an event, given {}", o.class()),
    })
}

/// `event`'s argument: `()` (with timing) or a boolean timing flag; CUDA is needed first.
pub struct Timing(bool);

impl FromQ for Timing {
    const TYPE: &'static str = "() or a boolean timing flag";
    fn read(x: K) -> Result<Option<Timing>> {
        super::need_cuda()?;
        Ok(if read::is_nil(x) {
            Some(Timing(true))
        } else if read::ktype(x) == -1 {
            Some(Timing(bool::of(x).unwrap_or(true)))
        } else {
            None
        })
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow::anyhow!("expected {}", Self::TYPE)
    }
}

/// The event handle and stream of `record`/`wait`: (e) with the current stream, or (e;s).
pub struct EventStream {
    event: Handle,
    stream: Option<Handle>,
}

impl FromQ for EventStream {
    const TYPE: &'static str = "event, or (event;stream)";
    /// An event, or an error in ktorch's words.
    fn read(x: K) -> Result<Option<EventStream>> {
        let (e, s) = match from::list(&x) {
            Some([e, s]) => (*e, Some(*s)),
            _ => (x, None),
        };
        let Some(event) = Handle::read(e)? else {
            bail!("expected {}", Self::TYPE);
        };
        match registry::class_of(e) {
            Some(registry::Class::Event) => {}
            Some(c) => bail!("expected an event, given {c}"),
            None => bail!("stale pointer"),
        }
        let stream = match s {
            Some(s) => Some(Handle::from_q(s, "stream")?),
            None => None,
        };
        Ok(Some(EventStream { event, stream }))
    }
}

/// Run `f` on the event and stream of `es` (the current stream when none is given).
fn event_stream(es: EventStream, f: impl FnOnce(&Event, &Stream) -> Result<()>) -> Result<()> {
    match es.stream {
        Some(s) => {
            // the stream is copied out first: the registry is not re-entered while locked
            let s = with_stream(s, |s| s.dup())?;
            with_event(es.event, |e| f(e, &s))
        }
        None => {
            let d = super::current_cuda();
            let s = Stream::current(d)?;
            with_event(es.event, |e| f(e, &s))
        }
    }
}

/// `elapsed`'s argument: two events `(a;b)`.
pub struct Pair(Handle, Handle);

impl FromQ for Pair {
    const TYPE: &'static str = "(event;event)";
    fn read(x: K) -> Result<Option<Pair>> {
        Ok(from::list(&x)
            .and_then(|v| <[K; 2]>::try_from(v).ok())
            .map(|[a, b]| Pair(Handle(a), Handle(b))))
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow::anyhow!("expected {}", Self::TYPE)
    }
}

crate::qfn! {
    /// `event()` / `event 1b`: with timing; `event 0b` without.
    pub fn event(timing: Timing) -> KResult {
        Ok(registry::add(Obj::new(Event::new(timing.0)?)))
    }

    /// `record e` on the current stream, `record(e;s)` on stream s.
    pub fn record(es: EventStream) -> Result<()> {
        event_stream(es, |e, s| e.record(s))
    }

    /// `wait e`: the current stream waits for e; `wait(e;s)`: stream s does.
    pub fn wait(es: EventStream) -> Result<()> {
        event_stream(es, |e, s| e.block(s))
    }

    /// `elapsed(a;b)`: milliseconds from event a to event b.
    pub fn elapsed(pair: Pair) -> Result<f64> {
        // the second event's pointer stays valid between the two lookups: only q's thread frees
        let pb = with_event(pair.1, |e| Ok(e.ptr))?;
        with_event(pair.0, |e| shim::event_elapsed(e.ptr, pb))
    }
}

impl crate::registry::Object for Event {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Event
    }
}

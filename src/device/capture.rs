//! Recording CUDA graphs, the device's part: the capture itself (warm-up runs on a side stream,
//! then one run under capture) and whether this thread is recording now, which the checks that
//! would synchronize (a loss's target check, attention's fallbacks) ask. What is recorded (a
//! module's forward, a model's training step) is the model's: model/graph.rs.
use anyhow::{anyhow, Result};
use tch::Tensor;

use super::event::Event;
use super::shim;
use super::stream::{Stream, StreamGuard};
use crate::cxx::CudaGraph;

/// Eager runs before capture, as in PyTorch's CUDA graph examples.
pub const WARMUP: usize = 3;

thread_local! {
    /// Is this thread recording a graph now? (Checks that synchronize must not run then.)
    static CAPTURING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub fn capturing() -> bool {
    CAPTURING.with(|c| c.get())
}

/// Marks the thread as recording while it lives.
struct Recording;
impl Recording {
    fn new() -> Recording {
        CAPTURING.with(|c| c.set(true));
        Recording
    }
}
impl Drop for Recording {
    fn drop(&mut self) {
        CAPTURING.with(|c| c.set(false));
    }
}

/// at::cuda::CUDAGraph, freed with the graph object.
pub struct GraphPtr(*mut CudaGraph);

// SAFETY: a CUDAGraph has no thread affinity (replay launches on the current stream of
// whichever thread calls it); its one owner (model/graph.rs's Graph, a registry entry) uses it
// under the registry's lock, from one thread at a time.
#[allow(unsafe_code)]
unsafe impl Send for GraphPtr {}

impl Drop for GraphPtr {
    fn drop(&mut self) {
        crate::cxx::cuda::graph_free(self.0)
    }
}

impl GraphPtr {
    /// Launch the recorded work again.
    pub fn replay(&self) -> Result<()> {
        shim::graph_replay(self.0)
    }
}

/// Run `work` WARMUP times on a side stream, then once more under capture. Answers the graph
/// and what the captured run returned (tensors in the graph's memory).
pub fn capture(
    device: usize,
    work: &mut dyn FnMut() -> Result<Vec<Tensor>>,
) -> Result<(GraphPtr, Vec<Tensor>)> {
    let current = Stream::current(device)?;
    let side = Stream::new(device, false)?;
    // the side stream first waits for what q queued (the inputs), q's stream later for the side
    let queued = Event::new(false)?;
    queued.record(&current)?;
    queued.block(&side)?;
    let r = (|| {
        let _on_side = StreamGuard::new(&side)?;
        for _ in 0..WARMUP {
            work()?;
        }
        let g = GraphPtr(shim::graph_new()?);
        shim::graph_begin(g.0)?;
        let recording = Recording::new();
        let out = work();
        drop(recording);
        let out = match out {
            Ok(out) => out,
            Err(e) => {
                let _ = shim::graph_abort(g.0);
                return Err(anyhow!("while recording: {e}"));
            }
        };
        if let Err(e) = shim::graph_end(g.0) {
            let _ = shim::graph_abort(g.0);
            return Err(anyhow!("while recording: {e}"));
        }
        Ok((g, out))
    })();
    let done = Event::new(false)?;
    done.record(&side)?;
    done.block(&current)?;
    r
}

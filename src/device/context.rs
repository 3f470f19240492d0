//! What a worker thread must share with the q thread that starts it. CUDA's current device and
//! libtorch's current stream and warning handler are per thread, so work started from q (an
//! async forward) must run on the device and stream q has chosen, and warn into ktorch's log,
//! not with the defaults of a fresh thread.
use super::stream::Stream;
use super::{cuda_count, current_cuda, shim};

pub struct ThreadContext {
    /// The q thread's current CUDA device and its current stream, None without CUDA.
    cuda: Option<(usize, Option<Stream>)>,
}

impl ThreadContext {
    /// The calling thread's context (call on the q thread).
    pub fn capture() -> ThreadContext {
        ThreadContext {
            cuda: (cuda_count() > 0).then(|| {
                let d = current_cuda();
                (d, Stream::current(d).ok())
            }),
        }
    }

    /// Make the calling thread (a worker) use the captured context.
    pub fn enter(&self) {
        crate::session::log::warnings::install();
        if let Some((i, s)) = &self.cuda {
            // neither can fail for a device and stream that were current on the q thread
            let _ = shim::thread_device(*i);
            if let Some(s) = s {
                let _ = s.set();
            }
        }
    }
}

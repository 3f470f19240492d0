//! What a worker thread must share with the q thread that starts it. CUDA's current device and
//! libtorch's current stream are per thread, so work started from q (an async forward) must
//! run on the device and stream q has chosen, not on the defaults of a fresh thread.
use super::{current_cuda, cuda_count, ktorch_cuda_set};

pub struct ThreadContext {
    /// The q thread's current CUDA device, None without CUDA.
    cuda: Option<usize>,
}

impl ThreadContext {
    /// The calling thread's context (call on the q thread).
    pub fn capture() -> ThreadContext {
        ThreadContext {
            cuda: (cuda_count() > 0).then(current_cuda),
        }
    }

    /// Make the calling thread (a worker) use the captured context.
    pub fn enter(&self) {
        if let Some(i) = self.cuda {
            // cannot fail for a device that was current on the q thread
            unsafe { ktorch_cuda_set(i as libc::c_int) };
        }
    }
}

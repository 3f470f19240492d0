//! Models (ktorch's model.rst, train.rst): a module, a loss and an optimizer joined, with
//! training and test settings and data, and whole epochs run inside the library (`run`,
//! `testrun`): q pays nothing per batch.
//!
//! Files: `settings` (the train/test options and their q forms), `api` (`model`, `train`, `test`,
//! `datasize`, `testsize`), `run` (the epoch loops and their metrics), `steps` (backward, step,
//! backstep on a model; clip, clipv).
pub mod api;
pub mod run;
pub mod settings;
pub mod steps;

use tch::Tensor;

use crate::loss::object::Loss;
use crate::nn::ModRef;
use crate::optim::Optimizer;
pub use settings::Settings;

/// Inputs and targets, on the module's device; the first dimension counts the samples.
pub struct Data {
    pub x: Tensor,
    pub y: Tensor,
}

impl Data {
    pub fn size(&self) -> i64 {
        self.x.size().first().copied().unwrap_or(0)
    }
}

pub struct Model {
    pub module: ModRef,
    pub loss: Loss,
    pub opt: Optimizer,
    pub train: Settings,
    pub test: Settings,
    pub data: Option<Data>,
    pub testdata: Option<Data>,
}

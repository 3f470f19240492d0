//! Models (ktorch's model.rst, train.rst): a module, a loss and an optimizer joined, with
//! training and test settings and data, and whole epochs run inside the library (`run`,
//! `testrun`): q pays nothing per batch.
//!
//! Files: `settings` (the train/test options and their q forms), `api` (`model`, `train`, `test`,
//! `datasize`, `testsize`), `data` (inputs, targets, batching and shuffling), `run` (the epoch
//! loops and their metrics), `steps` (backward, step, backstep on a model; clip, clipv), `parms`
//! (clone, copyparms, avgparms, batchnorm: weight averaging), `asynccall` (`async`, `await`,
//! `ready`: forward calls and `run` on a worker thread).
pub mod api;
pub mod asynccall;
pub mod data;
pub mod dist;
pub mod graph;
pub mod parms;
pub mod run;
pub mod settings;
pub mod steps;

use crate::loss::object::Loss;
use crate::nn::ModRef;
use crate::optim::Optimizer;
pub use data::Data;
pub use settings::Settings;

pub struct Model {
    pub module: ModRef,
    pub loss: Loss,
    pub opt: Optimizer,
    pub train: Settings,
    pub test: Settings,
    pub data: Data,
    pub testdata: Data,
    /// Training in step with the other ranks of the process group (`distmodel`, docs/dist.md).
    pub dist: Option<crate::model::dist::Sync>,
}

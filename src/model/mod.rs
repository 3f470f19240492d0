//! Models (ktorch's model.rst, train.rst): a module, a loss and an optimizer joined, with
//! training and test settings and data, and whole epochs run inside the library (`run`,
//! `testrun`): q pays nothing per batch.
//!
//! Files: `settings` (the train/test options and their q forms), `api` (`model`, `train`, `test`,
//! `datasize`, `testsize`), `data` (inputs, targets, batching and shuffling), `run` (the epoch
//! loops and their metrics), `pass` (a pass: the synchronising one of `dist` or `run`'s), `steps` (backward, step, backstep on a model; clip, clipv), `scaler` (`gradscale`: GradScaler), `parms`
//! (clone, copyparms, avgparms, batchnorm: weight averaging), `asynccall` (`async`, `await`,
//! `ready`: forward calls and `run` on a worker thread); kdb+ tables (docs/tables.md): `table`
//! (data from a table's columns by name, `columns`), `score` (`evaluate` of a table, new rows
//! scored for a subscriber's `upd`), `source` (`run(m;f;args)`: chunks from a q function while
//! the previous trains), `progress` (a one-line display of a pass).
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod api;
pub mod asynccall;
pub mod data;
pub mod dist;
pub mod graph;
pub mod parms;
pub mod pass;
pub mod progress;
pub mod run;
pub mod scaler;
pub mod score;
pub mod settings;
pub mod shard;
pub mod source;
pub mod steps;
pub mod table;

use crate::loss::object::Loss;
use crate::nn::ModRef;
use crate::optim::Optimizer;
pub use data::Data;
pub use settings::Settings;

/// Is `x` a model's handle?
pub fn is_model(x: crate::k::K) -> bool {
    crate::registry::class_of(x) == Some(crate::registry::Class::Model)
}

/// A model handle (q's argument, alive for the call): anything else is `expected a model,
/// given ..`.
#[derive(Clone, Copy)]
pub struct ModelArg(pub crate::k::K);

impl crate::k::from::FromQ for ModelArg {
    const TYPE: &'static str = "a model";
    fn read(x: crate::k::K) -> anyhow::Result<Option<ModelArg>> {
        Ok(is_model(x).then_some(ModelArg(x)))
    }
    fn wrong(x: crate::k::K, _arg: &str) -> anyhow::Error {
        anyhow::anyhow!("expected a model, given {}", crate::registry::describe(x))
    }
}

/// The model a registry object holds, or an error naming its class.
pub fn of(o: &mut crate::registry::Obj) -> anyhow::Result<&mut Model> {
    if o.get::<Model>().is_none() {
        anyhow::bail!("expected a model, given {}", o.class());
    }
    Ok(o.get_mut::<Model>().unwrap())
}

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
    /// Gradient scaling for float16 training (`gradscale`, scaler.rs).
    pub scaler: Option<scaler::Scaler>,
    /// The table columns its data came from (`train(m;t;features;target)`, table.rs): what
    /// `evaluate(m;t)` and `score(m;t)` take from a new table, and the name of their output.
    pub columns: Option<std::sync::Arc<table::Columns>>,
}

/// A model in the registry (class `model`): the functions of modules, losses and optimizers that
/// also take a model reach its parts through `part`.
impl crate::registry::Object for Model {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Model
    }
    fn tensors(&self) -> Vec<&tch::Tensor> {
        let m = self.module.get();
        m.named_parameters()
            .into_iter()
            .chain(m.named_buffers())
            .map(|(_, t)| t)
            .chain(self.opt.buffers())
            .collect()
    }
    fn grad_tensors(&self) -> Vec<&tch::Tensor> {
        self.opt.parameters()
    }
    fn counts(&self) -> Vec<i64> {
        vec![self.module.get().named_parameters().len() as i64]
    }
    fn part(&self, t: std::any::TypeId) -> Option<&dyn std::any::Any> {
        use std::any::TypeId;
        if t == TypeId::of::<ModRef>() {
            Some(&self.module)
        } else if t == TypeId::of::<crate::loss::object::Loss>() {
            Some(&self.loss)
        } else if t == TypeId::of::<crate::optim::Optimizer>() {
            Some(&self.opt)
        } else {
            None
        }
    }
    fn part_mut(&mut self, t: std::any::TypeId) -> Option<&mut dyn std::any::Any> {
        use std::any::TypeId;
        if t == TypeId::of::<ModRef>() {
            Some(&mut self.module)
        } else if t == TypeId::of::<crate::loss::object::Loss>() {
            Some(&mut self.loss)
        } else if t == TypeId::of::<crate::optim::Optimizer>() {
            Some(&mut self.opt)
        } else {
            None
        }
    }
    fn root(&self) -> Option<*const ()> {
        Some(std::sync::Arc::as_ptr(self.module.root()) as *const ())
    }
}

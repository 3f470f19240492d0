//! A model's training and test data (train.rst "Data", "Shuffling data", "Batching data"):
//! inputs and targets (one tensor, several, or none yet), batched in place along the first
//! dimension as ktorch does (tensor::batch), so `input m` inside a batch loop is that batch.
//!
//! q functions: `data m` / `data(m;x;y)` (q data out, or new data in: the number of batches),
//! `input m` / `input(m;x..)`, `target m` / `target(m;y..)` (tensor handles out, or one side
//! in), `batch m` (next batch: true, or false and the full size after the last), `restore m`,
//! `batchinit m` (full size, shuffled if the settings say so: the number of batches), `shuffle
//! m`, `unshuffle m` (the original order); the test forms `testdata testinput testtarget
//! testbatch testrestore testinit` work on the test data.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::{of, ModelArg};
use super::{Model, Settings};
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::registry;
use crate::tensor::batch::{count, fullsize, maxsize_all, perm, reindex, select, SeededGen};
use crate::tensor::opargs::describe;
pub use crate::tensor::side::{holds_handle, side, side_on, Side};

/// Inputs and targets with their batching state.
pub struct Data {
    pub x: Side,
    pub y: Side,
    /// Samples along the first dimension at full size; -1 before any data.
    pub size: i64,
    /// The current batch, -1 when none is selected (full size).
    pub batch: i64,
    /// The order shuffling has made, to undo it (`unshuffle`).
    perm: Option<Tensor>,
    /// The generator shuffling draws from when several tasks share the data (kmodel.cpp's `d.g`):
    /// made at the first shuffle, kept until new inputs and targets.
    gen: Option<SeededGen>,
    /// Class count and ignore index the CUDA targets were checked against (`run`: a class-target
    /// loss then skips the per-batch check, see loss::calc::check_classes); new data clears it.
    pub checked: Option<(i64, i64)>,
}

impl Default for Data {
    fn default() -> Data {
        Data {
            x: Side::Empty,
            y: Side::Empty,
            size: -1,
            batch: -1,
            perm: None,
            gen: None,
            checked: None,
        }
    }
}

impl Data {
    fn all(&self) -> Vec<&Tensor> {
        self.x
            .tensors()
            .into_iter()
            .chain(self.y.tensors())
            .collect()
    }
    /// The batch size in effect: the setting, at most the data size.
    fn width(&self, s: &Settings) -> i64 {
        s.batchsize.min(self.size)
    }
    /// Batches per pass (-1 before any data).
    pub fn batches(&self, s: &Settings) -> i64 {
        if self.size < 0 {
            -1
        } else {
            count(self.width(s), self.size, s.droplast)
        }
    }
    /// Samples now: the current batch's, or all.
    pub fn current(&self) -> i64 {
        self.x
            .tensors()
            .first()
            .map_or(0, |t| if t.dim() == 0 { 1 } else { t.size()[0] })
    }
    /// Back to full size, no batch selected; answers the size.
    pub fn fullsize(&mut self) -> Result<i64> {
        self.batch = -1;
        let n = self.size.max(0);
        for t in self.all() {
            fullsize(t, 0, n)?;
        }
        Ok(n)
    }
    /// Full size, then one random order for inputs and targets together: with several tasks
    /// (settings `s`), from the model's own generator, seeded with `shuffleseed` on the CPU, or
    /// on the data's CUDA device with `shufflecuda` (kmodel.cpp reshuffle), so that every task
    /// draws the same order.
    pub fn reshuffle(&mut self, s: &Settings) -> Result<()> {
        let n = self.fullsize()?;
        let Some(first) = self.all().first().map(|t| t.shallow_clone()) else {
            return Ok(());
        };
        if s.tasks > 1 && n > 0 && self.gen.is_none() {
            let d = match first.device() {
                d @ tch::Device::Cuda(_) if s.shufflecuda => d,
                _ => tch::Device::Cpu,
            };
            self.gen = Some(SeededGen::new(d, s.shuffleseed)?);
        }
        if n > 1 || (s.tasks > 1 && n > 0) {
            let i = match &self.gen {
                Some(g) if s.tasks > 1 => g.perm(n)?,
                _ => perm(n, &first)?,
            };
            self.x = self.x.map(|t| reindex(t, &i, 0))?;
            self.y = self.y.map(|t| reindex(t, &i, 0))?;
            self.perm = Some(match self.perm.take() {
                Some(p) => p.f_index_select(0, &i.f_to_device(p.device())?)?,
                None => i,
            });
        }
        Ok(())
    }
    fn unshuffle(&mut self) -> Result<()> {
        self.fullsize()?;
        if let Some(p) = self.perm.take() {
            let i = p.f_argsort(0, false)?;
            self.x = self.x.map(|t| reindex(t, &i, 0))?;
            self.y = self.y.map(|t| reindex(t, &i, 0))?;
        }
        Ok(())
    }
    /// Ready for a pass: full size, shuffled when training asks for it; the number of batches.
    pub fn init(&mut self, s: &Settings, training: bool) -> Result<i64> {
        if training && s.shuffle {
            self.reshuffle(s)?;
        } else {
            self.fullsize()?;
        }
        Ok(self.batches(s))
    }
    /// Select the next batch (the first one starts a pass: `init`); false and full size after
    /// the last. With several tasks, this task's batches only: `task`, `task+tasks`, ...
    /// (kmodel.cpp nextbatch).
    pub fn next(&mut self, s: &Settings, training: bool) -> Result<bool> {
        let first = self.batch < 0;
        let i = if first { s.task } else { self.batch + s.tasks };
        if i < self.batches(s) {
            if first {
                self.init(s, training)?;
            }
            let (w, n) = (self.width(s), self.size);
            for t in self.all() {
                select(t, i, w, 0, n)?;
            }
            self.batch = i;
            Ok(true)
        } else {
            self.fullsize()?;
            Ok(false)
        }
    }
    /// The full size of inputs and targets together, checked to agree.
    fn size_of(x: &Side, y: &Side) -> Result<i64> {
        let nx = maxsize_all(&x.tensors(), 0).map_err(|e| anyhow!("inputs: {e}"))?;
        let ny = maxsize_all(&y.tensors(), 0).map_err(|e| anyhow!("targets: {e}"))?;
        if !x.tensors().is_empty() && !y.tensors().is_empty() && nx != ny {
            // ktensor.cpp's wording (inputs first, targets second)
            bail!("tensor size mismatch, {nx} vs {ny}");
        }
        Ok(nx.max(ny))
    }
    /// New inputs and targets (nothing changes on an error).
    pub fn set(&mut self, x: Side, y: Side) -> Result<()> {
        let size = Data::size_of(&x, &y)?;
        self.fullsize()?;
        *self = Data {
            x,
            y,
            size,
            batch: -1,
            perm: None,
            gen: None,
            checked: None,
        };
        Ok(())
    }
    /// New inputs (or targets), checked against the other side.
    pub fn set_side(&mut self, inputs: bool, z: Side) -> Result<()> {
        let size = if inputs {
            Data::size_of(&z, &self.y)?
        } else {
            Data::size_of(&self.x, &z)?
        };
        self.fullsize()?;
        if inputs {
            self.x = z;
        } else {
            self.y = z;
        }
        self.size = size;
        self.perm = None;
        Ok(())
    }
}

/// The training or the test data and settings.
fn pick(m: &mut Model, training: bool) -> (&mut Data, &Settings) {
    if training {
        (&mut m.data, &m.train)
    } else {
        (&mut m.testdata, &m.test)
    }
}

/// `data(m;x;y)` and the like for model handle `h`: new data, answering the number of batches.
/// The arguments are read before the model is taken from the registry (they may be handles).
pub fn define(h: K, training: bool, x: Option<&[K]>, y: Option<&[K]>) -> Result<i64> {
    let device = registry::with(h, |o| Ok(of(o)?.module.get().device()))?;
    let xs = x
        .map(|a| side(a, device))
        .transpose()
        .map_err(|e| anyhow!("inputs: {e}"))?;
    let ys = y
        .map(|a| side(a, device))
        .transpose()
        .map_err(|e| anyhow!("targets: {e}"))?;
    registry::with(h, |o| {
        let (d, s) = pick(of(o)?, training);
        match (xs, ys) {
            (Some(x), Some(y)) => d.set(x, y)?,
            (Some(x), None) => d.set_side(true, x)?,
            (None, Some(y)) => d.set_side(false, y)?,
            (None, None) => {}
        }
        Ok(d.batches(s))
    })
}

/// Run `f` on the model of handle `h` with its training or test data.
fn with_data<R>(
    h: ModelArg,
    training: bool,
    f: impl FnOnce(&mut Data, &Settings) -> Result<R>,
) -> Result<R> {
    registry::with(h.0, |o| {
        let (d, s) = pick(of(o)?, training);
        f(d, s)
    })
}

/// `data`'s and `testdata`'s forms: `data m` (the data as q data), `data(m;x)`, `data(m;x;y)`
/// (new data: inputs, and targets; read by `define` once the model's device is known).
pub enum DataCall {
    Get(ModelArg),
    Set(ModelArg, K, Option<K>),
}

impl FromQ for DataCall {
    const TYPE: &'static str = "model, or (model;inputs;targets)";
    fn read(x: K) -> Result<Option<DataCall>> {
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(DataCall::Get(m)));
        }
        Ok(from::list(&x)
            .filter(|v| (2..=3).contains(&v.len()))
            .and_then(|v| Some(DataCall::Set(ModelArg::of(v[0])?, v[1], v.get(2).copied()))))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expected model, or (model;inputs;targets), given {}",
            describe(x)
        )
    }
}

/// `data`/`testdata`.
fn data_(call: DataCall, training: bool) -> KResult {
    match call {
        DataCall::Get(m) => with_data(m, training, |d, _| Ok(make::list(vec![d.x.q()?, d.y.q()?]))),
        DataCall::Set(m, x, y) => Ok(make::long(define(
            m.0,
            training,
            Some(std::slice::from_ref(&x)),
            y.as_ref().map(std::slice::from_ref),
        )?)),
    }
}

/// `input`'s and `target`'s forms (and their test forms'): `input m` (the tensors as handles),
/// `input(m;x..)` (new inputs, read by `define`).
pub enum SideCall {
    Get(ModelArg),
    Set(ModelArg, Vec<K>),
}

impl SideCall {
    fn read(x: K, inputs: bool) -> Result<SideCall> {
        if let Some(m) = ModelArg::of(x) {
            return Ok(SideCall::Get(m));
        }
        from::list(&x)
            .filter(|v| v.len() >= 2)
            .and_then(|v| Some(SideCall::Set(ModelArg::of(v[0])?, v[1..].to_vec())))
            .ok_or_else(|| {
                anyhow!(
                    "expected model, or (model;{}..), given {}",
                    if inputs { "inputs" } else { "targets" },
                    describe(x)
                )
            })
    }
}

/// `input m`, `input(m;x..)`.
pub struct Inputs(SideCall);
/// `target m`, `target(m;y..)`.
pub struct Targets(SideCall);

impl FromQ for Inputs {
    const TYPE: &'static str = "model, or (model;inputs..)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Inputs>> {
        SideCall::read(x, true).map(|c| Some(Inputs(c)))
    }
}

impl FromQ for Targets {
    const TYPE: &'static str = "model, or (model;targets..)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Targets>> {
        SideCall::read(x, false).map(|c| Some(Targets(c)))
    }
}

/// `input`/`target` and their test forms.
fn side_(call: SideCall, training: bool, inputs: bool) -> KResult {
    match call {
        SideCall::Get(m) => {
            let o = with_data(m, training, |d, _| {
                Ok(if inputs { d.x.object() } else { d.y.object() })
            })?;
            Ok(o.map_or_else(make::null, registry::add))
        }
        SideCall::Set(m, v) => Ok(make::long(if inputs {
            define(m.0, training, Some(&v), None)?
        } else {
            define(m.0, training, None, Some(&v))?
        })),
    }
}

/// A model handle for `unshuffle`, in its words (`requires model argument`).
pub struct Unshuffled(ModelArg);

impl FromQ for Unshuffled {
    const TYPE: &'static str = "a model";
    fn read(x: K) -> Result<Option<Unshuffled>> {
        Ok(ModelArg::of(x).map(Unshuffled))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("requires model argument, given {}", describe(x))
    }
}

crate::qfn! {
    /// `data m`: the training data as q data; `data(m;x;y)`, `data(m;x)`: new training data,
    /// answering the number of batches.
    pub fn data(call: DataCall) -> KResult {
        data_(call, true)
    }
    /// `testdata`: `data`'s forms for the test data.
    pub fn testdata(call: DataCall) -> KResult {
        data_(call, false)
    }
    /// `input m`: the training inputs as tensor handles; `input(m;x..)`: new inputs.
    pub fn input(call: Inputs) -> KResult {
        side_(call.0, true, true)
    }
    /// `target m`, `target(m;y..)`: `input`'s forms for the targets.
    pub fn target(call: Targets) -> KResult {
        side_(call.0, true, false)
    }
    /// `testinput`: `input`'s forms for the test data.
    pub fn testinput(call: Inputs) -> KResult {
        side_(call.0, false, true)
    }
    /// `testtarget`: `target`'s forms for the test data.
    pub fn testtarget(call: Targets) -> KResult {
        side_(call.0, false, false)
    }
}

/// `batch m` (from tensor::batch::batch, which also batches tensors).
pub fn batch(m: ModelArg) -> Result<bool> {
    with_data(m, true, |d, s| d.next(s, true))
}

/// `restore m` (from tensor::batch::restore).
pub fn restore(m: ModelArg) -> Result<i64> {
    with_data(m, true, |d, _| d.fullsize())
}

/// `shuffle m` (from tensor::batch::shuffle): the training data, always (the setting is for runs).
pub fn shuffle(m: ModelArg) -> Result<()> {
    with_data(m, true, |d, s| d.reshuffle(s))
}

crate::qfn! {
    /// `testbatch m`: the next test batch (`batch`'s answer).
    pub fn testbatch(m: ModelArg) -> Result<bool> {
        with_data(m, false, |d, s| d.next(s, false))
    }
    /// `testrestore m`: the test data at full size.
    pub fn testrestore(m: ModelArg) -> Result<i64> {
        with_data(m, false, |d, _| d.fullsize())
    }
    /// `batchinit m`: the training data at full size, shuffled if the settings say so; answers
    /// the number of batches.
    pub fn batchinit(m: ModelArg) -> Result<i64> {
        with_data(m, true, |d, s| d.init(s, true))
    }
    /// `testinit m`: `batchinit` for the test data.
    pub fn testinit(m: ModelArg) -> Result<i64> {
        with_data(m, false, |d, s| d.init(s, false))
    }
    /// `unshuffle m`: the training data back in its original order.
    pub fn unshuffle(m: Unshuffled) -> Result<()> {
        with_data(m.0, true, |d, _| d.unshuffle())
    }
}

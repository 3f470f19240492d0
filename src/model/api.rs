//! The q functions of models (model.rst, train.rst):
//! - `model(module;loss;optimizer)`: a model owning the three (their handles go stale, as in
//!   ktorch: `addref` first to keep one); `model m`: its definition; `model(m;obj..)` replaces a
//!   part;
//! - `train m`, `train(m;name(s))`, `train(m;dict)`, `train(m;names;values)`: training options;
//!   `train(m;x;y)`: training data (tensor handles or q data, moved to the module's device),
//!   answering the number of batches; `test` likewise for test options and data;
//! - `datasize m`, `testsize m`: the number of samples;
//! - `run m`, `run(m;x;y)`: one training epoch; `testrun m`, `testrun(m;x;y)`: one test pass.
use anyhow::{anyhow, bail, Result};

use super::data::define;
use super::pass::epoch;
use super::run::results;
use super::{is_model, of, Data, Model, ModelArg, Settings};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::loss::object::Loss;
use crate::nn::api::modref;
use crate::nn::forward::{Call, Mode};
use crate::nn::ModRef;
use crate::optim::Optimizer;
use crate::registry::{self, Obj};
use crate::session::setting::alloptions;
use crate::tensor::opargs::describe;

/// `model`'s forms (the module's doc), their handles' classes checked.
pub enum ModelCall {
    /// `model m`, `model(m;flag)`: the definition
    Show(ModelArg, bool),
    /// `model(m;obj..)`: parts replaced by modules, losses or optimizers
    Replace(ModelArg, Vec<K>),
    /// `model(module;loss;optimizer)`: a new model
    New(K, K, K),
}

impl FromQ for ModelCall {
    const TYPE: &'static str = "model, or (module;loss;optimizer)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<ModelCall>> {
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(ModelCall::Show(m, alloptions())));
        }
        let v = from::list(&x)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| anyhow!("expected (module;loss;optimizer), given {}", describe(x)))?;
        if let Some(m) = ModelArg::of(v[0]) {
            if let [_, f] = v {
                if let Some(b) = bool::of(*f) {
                    return Ok(Some(ModelCall::Show(m, b)));
                }
            }
            // replace parts: check every one first, then take them
            for (i, p) in v[1..].iter().enumerate() {
                match registry::class_of(*p) {
                    Some(
                        registry::Class::Module
                        | registry::Class::Loss
                        | registry::Class::Optimizer,
                    ) => {}
                    Some(c) => bail!(
                        "arg[{}]: expected module, loss or optimizer, given {c}",
                        i + 1
                    ),
                    None => bail!(
                        "arg[{}]: expected module, loss or optimizer, given {}",
                        i + 1,
                        describe(*p)
                    ),
                }
            }
            return Ok(Some(ModelCall::Replace(m, v[1..].to_vec())));
        }
        let [q, l, o] = v else {
            bail!("expected (module;loss;optimizer), given {} args", v.len())
        };
        for (p, want) in [
            (*q, registry::Class::Module),
            (*l, registry::Class::Loss),
            (*o, registry::Class::Optimizer),
        ] {
            if registry::class_of(p) != Some(want) {
                bail!(
                    "expected {want}, given {}",
                    registry::class_of(p).map_or_else(|| describe(p), |c| c.name().to_string())
                );
            }
        }
        Ok(Some(ModelCall::New(*q, *l, *o)))
    }
}

crate::qfn! {
    /// `model(module;loss;optimizer)`, `model m`, `model(m;flag)`, `model(m;obj..)` (the
    /// module's doc).
    pub fn model(call: ModelCall) -> KResult {
        match call {
            ModelCall::Show(m, all) => registry::with(m.0, |o| definition(of(o)?, all)),
            ModelCall::Replace(h, parts) => {
                let parts = parts
                    .iter()
                    .map(|p| registry::take(*p))
                    .collect::<Result<Vec<Obj>>>()?;
                registry::with(h.0, |o| {
                    let m = of(o)?;
                    for p in parts {
                        let p = match p.take::<ModRef>() {
                            Ok(q) => {
                                m.module = q;
                                continue;
                            }
                            Err(p) => p,
                        };
                        let p = match p.take::<Loss>() {
                            Ok(l) => {
                                m.loss = l;
                                continue;
                            }
                            Err(p) => p,
                        };
                        match p.take::<Optimizer>() {
                            Ok(z) => m.opt = z,
                            Err(_) => unreachable!(),
                        }
                    }
                    // nothing to answer from here: a K made here was dropped unfreed (the
                    // fuzzer's K leak check found `model enlist m`)
                    Ok(())
                })?;
                Ok(make::null())
            }
            ModelCall::New(q, l, o) => {
                let (Ok(module), Ok(loss), Ok(opt)) = (
                    registry::take(q)?.take::<ModRef>(),
                    registry::take(l)?.take::<Loss>(),
                    registry::take(o)?.take::<Optimizer>(),
                ) else {
                    unreachable!()
                };
                let m = Model {
                    module,
                    loss,
                    opt,
                    train: Settings::train(),
                    test: Settings::test(),
                    data: Data::default(),
                    testdata: Data::default(),
                    dist: None,
                    scaler: None,
                    columns: None,
                };
                Ok(registry::add(Obj::new(m)))
            }
        }
    }
}

/// `state m`: the state of each part (module with parameters and buffers, loss, optimizer with
/// its buffers) and the settings; each rebuilds its part (`module`, `loss`, `opt(state;module)`,
/// `train(m;dict)`).
pub fn state(x: K, all: bool) -> KResult {
    registry::with(x, |o| {
        let m = of(o)?;
        let module = crate::nn::api::definition(m.module.get(), all, true)?;
        let loss = crate::loss::object::definition(&m.loss, all)?;
        let opt = crate::optim::api::definition(&m.opt, all, true)?;
        Ok(make::dict(
            &["module", "loss", "optimizer", "train", "test"],
            vec![module, loss, opt, m.train.dict(true)?, m.test.dict(false)?],
        ))
    })
}

/// `model m`: the definitions of its parts and its settings.
fn definition(m: &Model, all: bool) -> KResult {
    let module = crate::nn::api::definition(m.module.get(), all, false)?;
    let loss = crate::loss::object::definition(&m.loss, all)?;
    let opt = crate::optim::api::definition(&m.opt, all, false)?;
    Ok(make::dict(
        &["module", "loss", "optimizer", "train", "test"],
        vec![module, loss, opt, m.train.dict(true)?, m.test.dict(false)?],
    ))
}

/// The training or the test settings.
fn pick(m: &mut Model, training: bool) -> &mut Settings {
    if training {
        &mut m.train
    } else {
        &mut m.test
    }
}

/// `train`'s and `test`'s forms: settings shown, read or set, or data given (the module's doc).
/// Values stay q's until the model is at hand: settings are read by `Settings::set`, data by
/// `define` on the module's device, a table by `table::define`.
pub enum SettingsCall {
    /// `train m`
    Show(ModelArg),
    /// `train(m;t;features;target)`, `train(m;t;target)`
    Table(ModelArg, K, Option<K>, K),
    /// `train(m;name)` (one value) or `train(m;names)` (a dictionary)
    Get(ModelArg, Vec<&'static str>, bool),
    /// `train(m;x)`, `train(m;x;y)`
    Data(ModelArg, K, Option<K>),
    /// `train(m;dict)`: names and their values (a list)
    SetDict(ModelArg, Vec<&'static str>, K),
    /// `train(m;names;values)`, `train(m;name;value)` (true: one name given as an atom)
    SetNames(ModelArg, Vec<&'static str>, K, bool),
}

impl FromQ for SettingsCall {
    const TYPE: &'static str = "model and options or data";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<SettingsCall>> {
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(SettingsCall::Show(m)));
        }
        let (m, v) = from::list(&x)
            .filter(|v| v.len() >= 2)
            .and_then(|v| Some((ModelArg::of(v[0])?, v)))
            .ok_or_else(|| anyhow!("expected model and options or data, given {}", describe(x)))?;
        // a table's columns by name (table.rs): (m;t;features;target), or (m;t;target)
        if crate::tensor::table::is_table(v[1]) {
            return Ok(Some(match v {
                [_, t, f, y] => SettingsCall::Table(m, *t, Some(*f), *y),
                [_, t, y] => SettingsCall::Table(m, *t, None, *y),
                _ => bail!("expected (model;table;features;target) or (model;table;target)"),
            }));
        }
        let one = <&str>::of(v[1]).is_some();
        let names = Vec::<&str>::of(v[1]).or_else(|| <&str>::of(v[1]).map(|s| vec![s]));
        Ok(Some(match (v.len(), names) {
            (2, Some(n)) => SettingsCall::Get(m, n, one),
            (2, None) if read::dict_parts(v[1]).is_none() => SettingsCall::Data(m, v[1], None),
            (2, None) => {
                let (k, vals) = read::dict_parts(v[1]).ok_or_else(|| anyhow!("expected option name(s) or a dictionary, given {}", describe(v[1])))?;
                let names = Vec::<&str>::of(k).ok_or_else(|| anyhow!("option names expected as symbols"))?;
                SettingsCall::SetDict(m, names, vals)
            }
            (3, Some(n)) => SettingsCall::SetNames(m, n, v[2], one),
            (3, None) => SettingsCall::Data(m, v[1], Some(v[2])),
            _ => bail!("expected (model;names), (model;dictionary), (model;names;values), (model;inputs;targets) or (model;table;features;target)"),
        }))
    }
}

/// Settings `names` of the training or test settings set to the values `items`, checked as a
/// whole before they replace the old ones.
fn set(m: ModelArg, training: bool, names: &[&str], items: &crate::k::Owned) -> KResult {
    registry::with(m.0, |o| {
        let items = items.items().unwrap();
        if items.len() != names.len() {
            bail!(
                "{} option name(s) but {} value(s)",
                names.len(),
                items.len()
            );
        }
        let s = pick(of(o)?, training);
        let mut new = s.clone();
        for (n, x) in names.iter().zip(items) {
            new.set(n, *x, training)?;
        }
        new.check(if training { "train" } else { "test" })?;
        *s = new;
        Ok(make::null())
    })
}

/// `train`/`test`: options or data.
fn settings(call: SettingsCall, training: bool) -> KResult {
    match call {
        SettingsCall::Show(m) => registry::with(m.0, |o| pick(of(o)?, training).dict(training)),
        SettingsCall::Table(m, t, f, y) => {
            Ok(make::long(super::table::define(m.0, training, t, f, y)?))
        }
        SettingsCall::Get(m, n, one) => registry::with(m.0, |o| {
            let s = pick(of(o)?, training);
            if one {
                return s.get(n[0]);
            }
            let vals = make::try_vec(n.iter().map(|k| s.get(k)))?;
            Ok(make::dict(&n, vals))
        }),
        SettingsCall::Data(m, x, y) => Ok(make::long(define(
            m.0,
            training,
            Some(std::slice::from_ref(&x)),
            y.as_ref().map(std::slice::from_ref),
        )?)),
        // a dictionary's values as a list, one a name (its count is the names')
        SettingsCall::SetDict(m, names, vals) => set(
            m,
            training,
            &names,
            &crate::k::Owned::new(make::explode(vals)),
        ),
        SettingsCall::SetNames(m, n, vals, one) => {
            let e = crate::k::Owned::new(if n.len() == 1 && one {
                make::list_of(&[vals])
            } else {
                make::explode(vals)
            });
            set(m, training, &n, &e)
        }
    }
}

crate::qfn! {
    /// `train m`, `train(m;..)`: the training settings or data (the module's doc).
    pub fn train(call: SettingsCall) -> KResult {
        settings(call, true)
    }

    /// `test m`, `test(m;..)`: the test settings or data.
    pub fn test(call: SettingsCall) -> KResult {
        settings(call, false)
    }
}

/// The number of samples of the training or test data.
fn size(m: ModelArg, training: bool) -> Result<i64> {
    registry::with(m.0, |o| {
        let m = of(o)?;
        Ok(if training { &m.data } else { &m.testdata }.current())
    })
}

crate::qfn! {
    /// `datasize m`: the number of training samples.
    pub fn datasize(m: ModelArg) -> Result<i64> {
        size(m, true)
    }
    /// `testsize m`: the number of test samples.
    pub fn testsize(m: ModelArg) -> Result<i64> {
        size(m, false)
    }
}

/// The model of `run m`/`testrun m`, or of `run(m;x;y)` with its new data defined first.
pub fn model_to_run(x: K, training: bool) -> Result<K> {
    if is_model(x) {
        return Ok(x);
    }
    match from::list(&x) {
        Some([m, xs, ys]) if is_model(*m) => {
            define(
                *m,
                training,
                Some(std::slice::from_ref(xs)),
                Some(std::slice::from_ref(ys)),
            )?;
            Ok(*m)
        }
        _ => bail!(
            "expected model, or (model;inputs;targets), given {}",
            describe(x)
        ),
    }
}

/// `run`'s and `testrun`'s forms: `run m`, `run(m;x;y)` (new data first), `run(m;f;args)` (a
/// data source: source.rs).
pub enum RunCall {
    Model(ModelArg),
    WithData(ModelArg, K, K),
    Source(ModelArg, K, K),
}

impl FromQ for RunCall {
    const TYPE: &'static str = "model, or (model;inputs;targets)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<RunCall>> {
        if let Some([m, f, args]) = from::list(&x) {
            if let (Some(m), true) = (ModelArg::of(*m), super::source::is_function(*f)) {
                return Ok(Some(RunCall::Source(m, *f, *args)));
            }
        }
        if let Some(m) = ModelArg::of(x) {
            return Ok(Some(RunCall::Model(m)));
        }
        match from::list(&x) {
            Some([m, xs, ys]) if is_model(*m) => {
                Ok(Some(RunCall::WithData(ModelArg(*m), *xs, *ys)))
            }
            _ => bail!(
                "expected model, or (model;inputs;targets), given {}",
                describe(x)
            ),
        }
    }
}

/// `run m`/`testrun m`, or with new data first, or from a data source (source.rs).
fn go(call: RunCall, training: bool) -> KResult {
    let h = match call {
        RunCall::Source(m, f, args) => return super::source::run(m.0, f, args, training),
        RunCall::Model(m) => m,
        RunCall::WithData(m, xs, ys) => {
            define(
                m.0,
                training,
                Some(std::slice::from_ref(&xs)),
                Some(std::slice::from_ref(&ys)),
            )?;
            m
        }
    };
    // the model leaves the registry while it runs: a callback inside can call ktorch freely;
    // Ctrl-C ends it between batches with 'stop (k::interrupt)
    crate::k::interrupt::scope(|| {
        registry::lease(h.0, |o| {
            let m = of(o)?;
            let e = epoch(m, training)?;
            results(e, if training { &m.train } else { &m.test })
        })
    })
}

crate::qfn! {
    /// `run m`, `run(m;x;y)`, `run(m;f;args)`: one training epoch.
    pub fn run(call: RunCall) -> KResult {
        go(call, true)
    }

    /// `testrun m`, `testrun(m;x;y)`, `testrun(m;f;args)`: one test pass.
    pub fn testrun(call: RunCall) -> KResult {
        go(call, false)
    }
}

/// Read a forward call of a model or a module (`forward`, `nforward`, `eforward`, `evaluate`,
/// `kforward`, and their async forms).
pub fn prepare_forward(x: K, mode: Mode) -> Result<Call> {
    if registry::class_of(x) == Some(registry::Class::Model) {
        return prepare_model(x, mode);
    }
    crate::nn::forward::prepare(x, mode)
}

/// `forward m` and the like: the model's inputs, training data for the training-mode forms and
/// test data for the evaluation forms (its current batch when batching).
fn prepare_model(x: K, mode: Mode) -> Result<Call> {
    let training = mode.training();
    let inputs = registry::with(x, |o| {
        let m = of(o)?;
        Ok(if training { &m.data } else { &m.testdata }.x.cloned())
    })?;
    if inputs.is_empty() {
        bail!(
            "model has no {} inputs",
            if training { "training" } else { "test" }
        );
    }
    Ok(Call::new(modref(x)?, inputs, mode))
}

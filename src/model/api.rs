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
use super::{is_model, of, Data, Model, Settings};
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

pub fn model(x: K) -> KResult {
    if is_model(x) {
        return registry::with(x, |o| definition(of(o)?, alloptions()));
    }
    let v = from::list(&x)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| anyhow!("expected (module;loss;optimizer), given {}", describe(x)))?;
    if is_model(v[0]) {
        if let [m, f] = v {
            if let Some(b) = bool::of(*f) {
                return registry::with(*m, |o| definition(of(o)?, b));
            }
        }
        // replace parts: check every one first, then take them
        for (i, p) in v[1..].iter().enumerate() {
            match registry::class_of(*p) {
                Some(
                    registry::Class::Module | registry::Class::Loss | registry::Class::Optimizer,
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
        let parts = v[1..]
            .iter()
            .map(|p| registry::take(*p))
            .collect::<Result<Vec<Obj>>>()?;
        registry::with(v[0], |o| {
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
            // nothing to answer from here: a K made here was dropped unfreed (the fuzzer's
            // K leak check found `model enlist m`)
            Ok(())
        })?;
        return Ok(make::null());
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
                registry::class_of(p).map_or_else(|| describe(p), |c| c.to_string())
            );
        }
    }
    let (Ok(module), Ok(loss), Ok(opt)) = (
        registry::take(*q)?.take::<ModRef>(),
        registry::take(*l)?.take::<Loss>(),
        registry::take(*o)?.take::<Optimizer>(),
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

/// `train`/`test`: options or data.
fn settings(x: K, training: bool) -> KResult {
    if is_model(x) {
        return registry::with(x, |o| pick(of(o)?, training).dict(training));
    }
    let v = from::list(&x)
        .filter(|v| v.len() >= 2 && is_model(v[0]))
        .ok_or_else(|| anyhow!("expected model and options or data, given {}", describe(x)))?;
    // a table's columns by name (table.rs): (m;t;features;target), or (m;t;target)
    if crate::tensor::table::is_table(v[1]) {
        return match v {
            [m, t, f, y] => Ok(make::long(super::table::define(
                *m,
                training,
                *t,
                Some(*f),
                *y,
            )?)),
            [m, t, y] => Ok(make::long(super::table::define(
                *m, training, *t, None, *y,
            )?)),
            _ => bail!("expected (model;table;features;target) or (model;table;target)"),
        };
    }
    let names = Vec::<&str>::of(v[1]).or_else(|| <&str>::of(v[1]).map(|s| vec![s]));
    match (v.len(), names) {
        (2, Some(n)) => registry::with(v[0], |o| {
            let s = pick(of(o)?, training);
            if <&str>::of(v[1]).is_some() {
                return s.get(n[0]);
            }
            let vals = make::try_vec(n.iter().map(|k| s.get(k)))?;
            Ok(make::dict(&n, vals))
        }),
        (2, None) if read::dict_parts(v[1]).is_none() => Ok(make::long(define(v[0], training, Some(&v[1..2]), None)?)),
        (2, None) => {
            let (k, vals) = read::dict_parts(v[1]).ok_or_else(|| anyhow!("expected option name(s) or a dictionary, given {}", describe(v[1])))?;
            let names = Vec::<&str>::of(k).ok_or_else(|| anyhow!("option names expected as symbols"))?;
            let e = crate::k::Owned::new(make::explode(vals));
            registry::with(v[0], |o| {
                let s = pick(of(o)?, training);
                let mut new = s.clone();
                for (n, x) in names.iter().zip(e.items().unwrap()) {
                    new.set(n, *x, training)?;
                }
                new.check(if training { "train" } else { "test" })?;
                *s = new;
                Ok(make::null())
            })
        }
        (3, Some(n)) => {
            let e = crate::k::Owned::new(if n.len() == 1 && <&str>::of(v[1]).is_some() { make::list_of(&v[2..3]) } else { make::explode(v[2]) });
            registry::with(v[0], |o| {
                let items = e.items().unwrap();
                if items.len() != n.len() {
                    bail!("{} option name(s) but {} value(s)", n.len(), items.len());
                }
                let s = pick(of(o)?, training);
                let mut new = s.clone();
                for (k, x) in n.iter().zip(items) {
                    new.set(k, *x, training)?;
                }
                new.check(if training { "train" } else { "test" })?;
                *s = new;
                Ok(make::null())
            })
        }
        (3, None) => Ok(make::long(define(v[0], training, Some(&v[1..2]), Some(&v[2..3]))?)),
        _ => bail!("expected (model;names), (model;dictionary), (model;names;values), (model;inputs;targets) or (model;table;features;target)"),
    }
}

pub fn train(x: K) -> KResult {
    settings(x, true)
}

pub fn test(x: K) -> KResult {
    settings(x, false)
}

fn size(x: K, training: bool) -> KResult {
    registry::with(x, |o| {
        let m = of(o)?;
        Ok(make::long(
            if training { &m.data } else { &m.testdata }.current(),
        ))
    })
}

pub fn datasize(x: K) -> KResult {
    size(x, true)
}

pub fn testsize(x: K) -> KResult {
    size(x, false)
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

/// `run m`/`testrun m`, or with new data first, or from a data source (source.rs).
fn go(x: K, training: bool) -> KResult {
    if let Some([m, f, args]) = from::list(&x) {
        if is_model(*m) && super::source::is_function(*f) {
            return super::source::run(*m, *f, *args, training);
        }
    }
    let h = model_to_run(x, training)?;
    // the model leaves the registry while it runs: a callback inside can call ktorch freely;
    // Ctrl-C ends it between batches with 'stop (k::interrupt)
    crate::k::interrupt::scope(|| {
        registry::lease(h, |o| {
            let m = of(o)?;
            let e = epoch(m, training)?;
            results(e, if training { &m.train } else { &m.test })
        })
    })
}

pub fn run(x: K) -> KResult {
    go(x, true)
}

pub fn testrun(x: K) -> KResult {
    go(x, false)
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

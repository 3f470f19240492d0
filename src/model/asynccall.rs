//! Calls that run without waiting (issue #9): `` async(`forward;m;x) `` runs what `forward(m;x)`
//! would on a worker thread and answers at once with a handle of class `future`; `await f` waits
//! and answers what the call would have answered; `ready f` says whether it has finished.
//! Supported: `forward`, `nforward`, `eforward`, `evaluate` (module or model, the forms of the
//! sync functions) and `run` (a model's training pass).
//!
//! Thread rules: only the q thread uses the k API. The arguments are read (q data made tensors)
//! before the worker starts, and the q result (a handle, q data, run's metrics) is made at
//! `await`; the worker sees tensors and modules only. The worker runs on the q thread's CUDA
//! device (`ThreadContext`) and in the mode the sync call sets (training flag and gradients are
//! explicit in each forward form and in the epoch loop). A panic in the worker is caught there
//! and becomes the error of `await`.
//!
//! While a call runs, the module or model it uses is lent to it: the object leaves the registry
//! and its handle, with every other handle holding the same module tree (`addref`, `child`, a
//! model made from a shared module), is busy, an error to use or free until the future is
//! awaited or freed. Input tensors are shallow copies: changing one in place while the call runs
//! is the caller's race, as in PyTorch. Modules with a `callback` layer call q from their forward
//! and are refused.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;

use anyhow::{anyhow, bail, Result};

use super::pass::epoch;
use super::run::{results, Epoch};
use super::Model;
use crate::device::context::ThreadContext;
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::nn::forward::{self, Call};
use crate::nn::{ModRef, Module, Out};
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

/// The q functions `async` runs.
const NAMES: [&str; 5] = ["forward", "nforward", "eforward", "evaluate", "run"];

/// What a worker runs.
enum Work {
    Forward(Call),
    /// A model's training pass; the model goes to the worker and comes back with the result.
    Run(Box<Model>),
}

/// What a worker computed.
enum Done {
    Out(Out),
    Epoch(Epoch),
}

/// What a worker hands back: run's model, and the result or the error's text.
struct Finished {
    model: Option<Box<Model>>,
    result: Result<Done, String>,
}

/// A running or finished async call (class `future`).
pub struct Future {
    /// The q function it runs (its errors are that function's at `await`).
    name: &'static str,
    worker: Option<JoinHandle<Finished>>,
    /// The objects taken from the registry for the call, given back when it is awaited or freed.
    lent: Vec<(i64, Obj)>,
    /// Run's model: its id, its object being with the worker.
    model: Option<i64>,
}

impl Future {
    /// Has the worker finished? (Never blocks.)
    fn ready(&self) -> bool {
        self.worker.as_ref().is_none_or(|w| w.is_finished())
    }

    /// Wait for the worker; what it hands back (a worker cannot unwind, but a lost thread is
    /// reported rather than trusted).
    fn join(&mut self) -> Finished {
        match self.worker.take().map(JoinHandle::join) {
            Some(Ok(f)) => f,
            Some(Err(_)) | None => Finished {
                model: None,
                result: Err("async worker thread failed".into()),
            },
        }
    }

    /// Give back what the call was lent (run's model too, when it came back).
    fn give_back(&mut self, model: Option<Box<Model>>) {
        let mut lent = std::mem::take(&mut self.lent);
        match (self.model.take(), model) {
            (Some(id), Some(m)) => lent.push((id, Obj::new(*m))),
            (Some(id), None) => registry::unmark(id),
            _ => {}
        }
        registry::give_back(lent);
    }

    /// `free f`: wait for the call, drop its result, give back what it was lent.
    pub fn discard(mut self) {
        let f = self.join();
        if let Err(e) = &f.result {
            // freed unawaited: its error has no one to reach but the log
            let first = e.lines().next().unwrap_or(""); // libtorch's C++ backtrace follows
            crate::session::log::error(&format!(
                "async {}: freed before its await, its error was: {first}",
                self.name
            ));
        }
        self.give_back(f.model);
    }

    /// `await f`: wait for the call and make its q result; what it was lent is given back
    /// whether it worked or not.
    fn finish(mut self) -> KResult {
        let f = self.join();
        let r = match (f.result, &f.model) {
            (Ok(Done::Out(o)), _) if self.name == "evaluate" => forward::qdata(o),
            (Ok(Done::Out(o)), _) => Ok(forward::handle(o)),
            (Ok(Done::Epoch(e)), Some(m)) => results(e, &m.train),
            (Ok(Done::Epoch(_)), None) => Err(anyhow!("model lost by the async worker")),
            (Err(e), _) => Err(anyhow!(e)),
        };
        self.give_back(f.model);
        r.map_err(|e| anyhow!("{}: {e:#}", self.name))
    }
}

impl Drop for Future {
    /// Freed with everything (`free[]`): wait for the worker, as it may be using what was lent,
    /// which is dropped with the future.
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

/// `async`'s arguments: the name of the function to run and its arguments as that function gets
/// them (one value, or a list of several made here).
pub struct AsyncCall {
    name: &'static str,
    args: Args,
}

/// One argument as q gave it, or several in a list made for the call.
enum Args {
    One(K),
    Many(crate::k::Owned),
}

impl FromQ for AsyncCall {
    const TYPE: &'static str = "(name;args..)";
    /// Every value is the call or an error.
    fn read(x: K) -> Result<Option<AsyncCall>> {
        let usage = || format!("expecting (name;args..), name one of {}", NAMES.join(", "));
        let v = from::list(&x).filter(|v| v.len() >= 2 && !registry::is_handle(x));
        let Some(v) = v else {
            let given = <&str>::of(x).map_or_else(|| describe(x), |s| format!("`{s}"));
            bail!("{}, given {given}", usage())
        };
        let Some(name) = <&str>::of(v[0]).and_then(|s| NAMES.iter().find(|n| **n == s)) else {
            let given = <&str>::of(v[0]).map_or_else(|| describe(v[0]), |s| format!("`{s}"));
            bail!("{}, given {given}", usage())
        };
        // the arguments as the sync function gets them: one value, or a list of several
        let args = if v.len() == 2 {
            Args::One(v[1])
        } else {
            Args::Many(crate::k::Owned::new(make::list_of(&v[1..])))
        };
        Ok(Some(AsyncCall { name, args }))
    }
}

crate::qfn! {
    /// `` async(`name;args..) ``: start `name` on `args` (as `name args` would take them) and
    /// answer a future.
    pub fn async_(call: AsyncCall) -> KResult {
        match &call.args {
            Args::One(x) => start(call.name, *x),
            Args::Many(v) => start(call.name, v.k()),
        }
    }
}

/// Read the arguments, lend the module or model, start the worker.
fn start(name: &'static str, args: K) -> KResult {
    let (work, h) = if name == "run" {
        let h = super::api::model_to_run(args, true)?;
        (None, h)
    } else {
        let mode = match name {
            "forward" => forward::FORWARD,
            "nforward" => forward::NFORWARD,
            _ => forward::EFORWARD,
        };
        let call = super::api::prepare_forward(args, mode)?;
        // the handle whose object is lent: the model or module given
        let h = match from::list(&args) {
            Some(v) if !registry::is_handle(args) => v[0],
            _ => args,
        };
        (Some(call), h)
    };
    let root = registry::with(h, |o| match o.part::<ModRef>() {
        Some(m) => Ok(m.root().clone()),
        None => bail!("expected a module or model, given {}", o.class()),
    })?;
    refuse_callbacks(&root)?;
    let mut lent = registry::lend(h, Some(std::sync::Arc::as_ptr(&root) as *const ()))?;
    let (work, model) = match work {
        Some(call) => (Work::Forward(call), None),
        None => {
            let id = registry::id_of(h).unwrap_or_default();
            let at = lent.iter().position(|(i, _)| *i == id);
            match at
                .map(|i| lent.remove(i))
                .map(|(i, o)| o.take::<Model>().map_err(|o| (i, o)))
            {
                Some(Ok(m)) => (Work::Run(Box::new(m)), Some(id)),
                other => {
                    let other = other.map(|r| r.err().unwrap());
                    // cannot happen: `model_to_run` checked the class; keep nothing lost
                    lent.extend(other);
                    registry::give_back(lent);
                    bail!("expected a model");
                }
            }
        }
    };
    let ctx = ThreadContext::capture();
    let spawned = std::thread::Builder::new()
        .name(format!("ktorch-{name}"))
        .spawn(move || {
            ctx.enter();
            work_on(work)
        });
    let mut f = Future {
        name,
        worker: None,
        lent,
        model,
    };
    match spawned {
        Ok(w) => {
            f.worker = Some(w);
            Ok(registry::add(Obj::new(f)))
        }
        Err(e) => {
            // the work was dropped with the closure: run's model is lost (the system could not
            // make a thread at all)
            f.give_back(None);
            bail!("cannot start a worker thread: {e}")
        }
    }
}

/// The worker's body: the call, with any panic caught and made an error.
fn work_on(work: Work) -> Finished {
    match work {
        Work::Forward(call) => Finished {
            model: None,
            result: caught(move || call.run().map(Done::Out)),
        },
        Work::Run(mut m) => {
            let result = caught(|| epoch(&mut m, true).map(Done::Epoch));
            Finished {
                model: Some(m),
                result,
            }
        }
    }
}

/// Run `f`; its error or panic as text.
fn caught(f: impl FnOnce() -> Result<Done>) -> Result<Done, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(d)) => Ok(d),
        // libtorch's words as the sync call's guard shows them
        Ok(Err(e)) => Err(format!("{e:#}").replacen("Internal torch error: ", "", 1)),
        Err(p) => Err(p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "internal error".into())),
    }
}

/// A `callback` layer calls q from its forward, which only the q thread may do.
fn refuse_callbacks(root: &Arc<Module>) -> Result<()> {
    if let Some((k, _)) = root
        .named_modules()
        .into_iter()
        .find(|(_, m)| m.layer.name == "callback")
    {
        let at = if k.is_empty() {
            String::new()
        } else {
            format!(" (`{k})")
        };
        bail!("module has a callback layer{at}, which calls q: it cannot run asynchronously");
    }
    Ok(())
}

/// The future of handle `x`, taken out of the registry (its handle goes stale).
/// A future's handle (`await f`, `ready f`): q's argument, alive for the call.
pub struct FutureArg(K);

impl FromQ for FutureArg {
    const TYPE: &'static str = "a future";
    fn read(x: K) -> Result<Option<FutureArg>> {
        Ok((registry::class_of(x) == Some(registry::Class::Future)).then_some(FutureArg(x)))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        match registry::class_of(x) {
            Some(c) => anyhow!("expected a future, given {c}"),
            None if registry::is_handle(x) => anyhow!("stale pointer"),
            None => anyhow!("expected a future, given {}", describe(x)),
        }
    }
}

crate::qfn! {
    /// `await f`: the result of the call (a tensor or vector handle, q data for `evaluate`,
    /// run's metrics), or its error; the future is freed either way.
    pub fn await_(f: FutureArg) -> KResult {
        match registry::take(f.0)?.take::<Future>() {
            Ok(f) => f.finish(),
            Err(_) => unreachable!("class checked by FutureArg"),
        }
    }

    /// `ready f`: 1b when the call has finished (never waits).
    pub fn ready(f: FutureArg) -> Result<bool> {
        registry::with(f.0, |o| match o.get::<Future>() {
            Some(f) => Ok(f.ready()),
            None => bail!("expected a future, given {}", o.class()),
        })
    }
}

/// An async call in the registry (class `future`): freeing it waits for the call and gives back
/// what the call was lent.
impl crate::registry::Object for Future {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Future
    }
    fn discard(self: Box<Self>) {
        Future::discard(*self)
    }
}

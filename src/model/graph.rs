//! Recorded sequences: a module's forward, or a model's whole training step, captured once into a
//! CUDA graph and replayed many times from q (the GPU analogue of the seed's reusable recorded
//! Sequence; PyTorch's torch.cuda.CUDAGraph). One replay launches every kernel of the step at
//! once, so a small model no longer pays a kernel launch, and ktorch's own work, per operation.
//!
//! - `graph(m;x)`: the forward of module (or model) m on inputs x, recorded as `eforward` runs it
//!   (evaluation mode, no gradients).
//! - `graph(m;x;y)`: one training step of model m (gradients dropped, forward, loss, backward,
//!   clipping, optimizer step: what `run` does per batch) on inputs x and targets y.
//! - `replay g` runs the recorded work again on the same inputs; `replay(g;x)` / `replay(g;x;y)`
//!   first copies new inputs (same shapes and types) into the graph's own input tensors. It
//!   returns the graph's output tensor (the forward's output, or the step's loss) as a handle that
//!   shares the graph's memory: the next replay overwrites it (copy it to keep it).
//!
//! Recording runs the work three times eagerly on a side stream first (libtorch's lazy set-up,
//! optimizer buffers), as PyTorch's own recipe does: a step graph so trains three steps. What a
//! graph cannot see is refused: CUDA missing, tensors off the GPU, q callbacks, optimizers
//! that keep counts on the CPU, and at replay, inputs of another shape or type, parameters moved
//! since recording, or optimizer/clipping settings changed since recording.
use std::sync::Arc;

use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

use super::data::side;
use super::{Model, Settings};
use crate::device::capture::{capture, GraphPtr, WARMUP};
use crate::k::from::{self, FromQ, Wholes};
use crate::k::{KResult, K};
use crate::nn::{Module, Out, Run};
use crate::registry::{self, Obj};

/// What a step graph checks its model against before each replay.
struct StepCheck {
    model: i64,
    /// Class count and ignore index of a class-target loss (ce, nll), seen in the warm-up
    /// steps: new targets given to replay are checked against it (a CUDA device-side assert
    /// would end the process's CUDA context).
    classes: Option<(i64, i64)>,
    opts: Vec<Vec<crate::nn::Val>>,
    clip: (Option<(f64, f64)>, Option<f64>, bool),
}

pub struct Graph {
    // declared first: dropped before the tensors whose memory it uses
    ptr: GraphPtr,
    /// The graph's own inputs (x's, then y's for a step): replay copies new inputs into them.
    inputs: Vec<Tensor>,
    /// The recorded outputs: the forward's output(s), or the step's loss.
    outputs: Vec<Tensor>,
    /// Was the forward's output a vector (several tensors)?
    many: bool,
    /// Parameters and buffers with the data address each had when recorded.
    held: Vec<(Tensor, usize)>,
    /// Aliases of the recorded tensors' storage: kept so that the graph never writes to memory
    /// given back to the allocator, even if a parameter is later moved elsewhere.
    _keep: Vec<Tensor>,
    step: Option<StepCheck>,
    device: usize,
    _root: Arc<Module>,
}

impl Graph {
    pub fn tensors(&self) -> Vec<&Tensor> {
        self.inputs.iter().chain(self.outputs.iter()).collect()
    }
}

/// The CUDA device of a module's parameters, or why it cannot be recorded.
fn cuda_of(m: &Module) -> Result<usize> {
    crate::device::need_cuda().map_err(|e| anyhow!("CUDA graphs need a GPU: {e}"))?;
    if has_callback(m) {
        bail!("a module with a callback layer calls q, which a graph cannot record");
    }
    match m.device() {
        Device::Cuda(i) => Ok(i),
        d => bail!(
            "module is on {}, CUDA graphs record work on a CUDA device",
            crate::tensor::options::device_name(d)
        ),
    }
}

fn has_callback(m: &Module) -> bool {
    m.layer.name == "callback" || m.children.iter().any(|(_, c)| has_callback(c))
}

/// A module's tensors with their data addresses, and aliases holding their storage.
fn hold(m: &Module) -> (Vec<(Tensor, usize)>, Vec<Tensor>) {
    let ts: Vec<Tensor> = m
        .named_parameters()
        .into_iter()
        .chain(m.named_buffers())
        .map(|(_, t)| t.shallow_clone())
        .collect();
    let keep = ts.iter().filter_map(|t| t.f_detach().ok()).collect();
    (
        ts.into_iter()
            .map(|t| {
                let p = t.data_ptr() as usize;
                (t, p)
            })
            .collect(),
        keep,
    )
}

/// The inputs given to `graph`/`replay`, as tensors on `dev` (handles or q data).
fn tensors_on(x: K, dev: Device, what: &str) -> Result<Vec<Tensor>> {
    side(&[x], dev)
        .map(|s| s.cloned())
        .map_err(|e| anyhow!("{what}: {e}"))
}

/// Own copies of inputs, on the device: the graph reads these, never the caller's tensors.
fn own(ts: Vec<Tensor>) -> Result<Vec<Tensor>> {
    ts.iter()
        .map(|t| Ok(crate::tensor::detach::detached_copy(t)?))
        .collect()
}

/// `graph`'s forms: `(m;x)` a forward, `(model;x;y)` a training step (the object and the data
/// as given: read once the module's device is known).
pub enum GraphCall {
    Forward(K, K),
    Step(K, K, K),
}

impl FromQ for GraphCall {
    const TYPE: &'static str = "(module;inputs) or (model;inputs;targets)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<GraphCall>> {
        let args = match from::list(&x) {
            Some(a) if !registry::is_handle(x) => a,
            _ => bail!("expected (module;inputs) or (model;inputs;targets)"),
        };
        Ok(Some(match args {
            [m, x] => GraphCall::Forward(*m, *x),
            [m, x, y] => GraphCall::Step(*m, *x, *y),
            _ => bail!(
                "expected (module;inputs) or (model;inputs;targets), given {} arguments",
                args.len()
            ),
        }))
    }
}

crate::qfn! {
    /// `graph(m;x)` or `graph(model;x;y)`: a forward, or a training step, recorded as a CUDA
    /// graph.
    pub fn graph(call: GraphCall) -> KResult {
        match call {
            GraphCall::Forward(m, x) => forward_graph(m, x),
            GraphCall::Step(m, x, y) => step_graph(m, x, y),
        }
    }
}

/// The module of a module or model handle (shared, as a second handle would share it).
fn module_of(o: &Obj) -> Result<crate::nn::ModRef> {
    match o.part::<crate::nn::ModRef>() {
        Some(m) => Ok(m.share()),
        None => bail!("expected a module or model, given {}", o.class()),
    }
}

fn forward_graph(h: K, x: K) -> KResult {
    let m = registry::with(h, |o| module_of(o))?;
    let module = m.get();
    let root = m.root().clone();
    let device = cuda_of(module)?;
    let inputs = own(tensors_on(x, Device::Cuda(device), "inputs")?)?;
    let (held, keep) = hold(module);
    let run = Run {
        training: false,
        root: Some(root.clone()),
    };
    let mut many = false;
    let (ptr, outputs) = capture(device, &mut || {
        let out = tch::no_grad(|| {
            crate::nn::callback::with_mode(false, || module.forward(&run, &inputs))
        })?;
        Ok(match out {
            Out::Tensor(t) => vec![t],
            Out::Tensors(v) => {
                many = true;
                v
            }
            // a dictionary result replays as its tensors in order, a vector
            Out::Dict(v) => {
                many = true;
                v.into_iter().map(|(_, t)| t).collect()
            }
        })
    })?;
    crate::klog!(
        crate::session::log::Level::Info,
        "graph: recorded the forward of {} on cuda:{device}",
        module.layer.name
    );
    let g = Graph {
        ptr,
        inputs,
        outputs,
        many,
        held,
        _keep: keep,
        step: None,
        device,
        _root: root.clone(),
    };
    Ok(registry::add(Obj::new(g)))
}

fn settings_of(m: &Model) -> StepCheck {
    StepCheck {
        model: 0,
        classes: None,
        opts: m.opt.groups.iter().map(|g| g.opts.clone()).collect(),
        clip: clip_of(&m.train),
    }
}

fn clip_of(s: &Settings) -> (Option<(f64, f64)>, Option<f64>, bool) {
    (s.clipnorm, s.clipvalue, s.clipgroup)
}

/// Optimizers whose step is all tensor work on the device: a graph replays them faithfully.
/// (The others count steps on the CPU for bias corrections, which a graph would freeze.)
const CAPTURABLE: &[&str] = &["sgd"];
/// Adam and AdamW are too when their step runs through the fused kernels (optim/fused.rs: step
/// counts on the device, bias corrections computed in the kernel): `setting`fused` on and every
/// parameter a float, half or bfloat16 CUDA tensor.
const CAPTURABLE_FUSED: &[&str] = &["adam", "adamw"];

fn capturable(o: &crate::optim::Optimizer) -> bool {
    let name = o.kind.name;
    CAPTURABLE.contains(&name)
        || (CAPTURABLE_FUSED.contains(&name)
            && crate::session::setting::fused()
            && o.parameters().iter().all(|t| {
                t.device().is_cuda()
                    && matches!(
                        t.kind(),
                        tch::Kind::Float | tch::Kind::Half | tch::Kind::BFloat16
                    )
            }))
}

fn step_graph(h: K, x: K, y: K) -> KResult {
    let id = registry::id_of(h).ok_or_else(|| anyhow!("expected a model as first argument"))?;
    if registry::class_of(h) != Some(registry::Class::Model) {
        bail!(
            "a training step graph needs a model, given {}",
            registry::class_of(h).map_or("no object", registry::Class::name)
        );
    }
    let g = registry::lease(h, |o| {
        let Some(m) = o.get_mut::<Model>() else {
            unreachable!()
        };
        let name = m.opt.kind.name;
        if !capturable(&m.opt) {
            bail!("the {name} optimizer keeps its step count on the CPU, which a graph would freeze; training steps can be recorded with: sgd, and adam or adamw through the fused kernels (setting`fused, CUDA float/half/bfloat16 parameters)");
        }
        let device = cuda_of(m.module.get())?;
        let dev = Device::Cuda(device);
        let xs = own(tensors_on(x, dev, "inputs")?)?;
        let ys = own(tensors_on(y, dev, "targets")?)?;
        let mut check = settings_of(m);
        check.model = id;
        let (held, mut keep) = hold(m.module.get());
        let root = m.module.root().clone();
        let run = Run {
            training: true,
            root: Some(root.clone()),
        };
        let parms: Vec<Tensor> = m.opt.shared_parameters();
        let groups: Vec<Vec<Tensor>> = m
            .opt
            .groups
            .iter()
            .map(|g| g.parms.iter().map(|p| p.t.shallow_clone()).collect())
            .collect();
        // no device wait inside a capture (the `sync` setting): the replay is one launch
        let settings = Settings {
            sync: false,
            ..m.train.clone()
        };
        let Model {
            module,
            loss,
            opt,
            scaler,
            ..
        } = m;
        let _ = crate::loss::calc::classes_seen();
        let (ptr, outputs) = capture(device, &mut || {
            let (_, l) = super::run::train_batch(
                module.get(),
                &run,
                loss,
                opt,
                scaler.as_mut(),
                &settings,
                &parms,
                &groups,
                &xs,
                &ys,
            )?;
            Ok(vec![l])
        })?;
        check.classes = crate::loss::calc::classes_seen();
        // the optimizer's buffers (momentum) are written by the graph too
        keep.extend(opt.buffers().into_iter().filter_map(|t| t.f_detach().ok()));
        crate::klog!(
            crate::session::log::Level::Info,
            "graph: recorded a training step ({name}) on cuda:{device}, after {WARMUP} eager steps"
        );
        let inputs = xs.into_iter().chain(ys).collect();
        Ok(Graph {
            ptr,
            inputs,
            outputs,
            many: false,
            held,
            _keep: keep,
            step: Some(check),
            device,
            _root: root,
        })
    })?;
    Ok(registry::add(Obj::new(g)))
}

/// `replay`'s forms: the graph handle and the new inputs (and targets) as given (checked
/// against the recorded shapes and types when the graph is found).
pub struct ReplayCall {
    h: K,
    new: Vec<K>,
}

impl FromQ for ReplayCall {
    const TYPE: &'static str = "graph, (graph;inputs) or (graph;inputs;targets)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<ReplayCall>> {
        if registry::is_handle(x) {
            return Ok(Some(ReplayCall { h: x, new: vec![] }));
        }
        match from::list(&x) {
            Some([h, rest @ ..]) if registry::is_handle(*h) && !rest.is_empty() => {
                Ok(Some(ReplayCall {
                    h: *h,
                    new: rest.to_vec(),
                }))
            }
            _ => bail!("expected graph, (graph;inputs) or (graph;inputs;targets)"),
        }
    }
}

crate::qfn! {
    /// `replay g`, `replay(g;x)`, `replay(g;x;y)`.
    pub fn replay(call: ReplayCall) -> KResult {
        let ReplayCall { h, new } = call;
        // the model a step graph trains, checked before the graph runs
        let (check, device) = registry::with(h, |o| match o.get::<Graph>() {
            Some(g) => Ok((
                g.step
                    .as_ref()
                    .map(|c| (c.model, c.opts.clone(), c.clip, c.classes)),
                g.device,
            )),
            None => bail!("expected a graph, given {}", o.class()),
        })?;
        let classes = check.as_ref().and_then(|c| c.3);
        if let Some((model, opts, clip, _)) = check {
            registry::with_id(model, |o| {
                let Some(m) = o.get::<Model>() else { bail!("the graph's model was freed") };
                let now = settings_of(m);
                if now.opts != opts || now.clip != clip {
                    bail!("the model's optimizer or clipping settings changed since recording; record the step again");
                }
                Ok(())
            })
            .map_err(|e| if e.to_string() == "stale pointer" { anyhow!("the graph's model was freed") } else { e })?;
        }
        // new inputs as tensors on the graph's device before the graph is locked
        let given: Vec<Vec<Tensor>> = new
            .iter()
            .enumerate()
            .map(|(i, a)| {
                tensors_on(
                    *a,
                    Device::Cuda(device),
                    if i == 0 { "inputs" } else { "targets" },
                )
            })
            .collect::<Result<_>>()?;
        if let (Some((n, ignore)), Some(ys)) = (classes, given.get(1)) {
            // q data is checked on the host, CPU tensors there too. CUDA tensors are the caller's,
            // as in PyTorch: checking them would synchronize every replay, which is what a graph
            // is there to avoid.
            match Wholes::of(new[1]).map(|w| w.0) {
                Some(v) => {
                    if let Some(c) = v.iter().find(|c| **c != ignore && (**c < 0 || **c >= n)) {
                        bail!("targets: target {c} is not a class index for {n} classes");
                    }
                }
                None => {
                    let on_cuda = registry::is_handle(new[1])
                        && registry::with(new[1], |o| {
                            Ok(o.tensors().iter().any(|t| t.device().is_cuda()))
                        })?;
                    if !on_cuda {
                        for y in ys.iter().filter(|y| !y.is_floating_point()) {
                            crate::loss::calc::targets_within(y, n, ignore)
                                .map_err(|e| anyhow!("targets: {e}"))?;
                        }
                    }
                }
            }
        }
        let (outs, many) = registry::with(h, |o| {
            let Some(g) = o.get_mut::<Graph>() else {
                unreachable!()
            };
            g.replay(given)?;
            Ok((
                g.outputs
                    .iter()
                    .map(|t| t.shallow_clone())
                    .collect::<Vec<_>>(),
                g.many,
            ))
        })?;
        let mut outs = outs;
        Ok(if many {
            registry::add(Obj::Vector(outs))
        } else {
            registry::add(Obj::Tensor(outs.remove(0)))
        })
    }
}

impl Graph {
    fn replay(&mut self, given: Vec<Vec<Tensor>>) -> Result<()> {
        for (t, p) in &self.held {
            if t.data_ptr() as usize != *p {
                bail!("the module's parameters or buffers moved since recording (by to, or set); record again");
            }
        }
        let given: Vec<Tensor> = given.into_iter().flatten().collect();
        if !given.is_empty() {
            if given.len() != self.inputs.len() {
                bail!(
                    "graph recorded with {} input tensor(s), given {}",
                    self.inputs.len(),
                    given.len()
                );
            }
            for (i, (mine, new)) in self.inputs.iter().zip(&given).enumerate() {
                if mine.size() != new.size() || mine.kind() != new.kind() {
                    bail!(
                        "input {i}: graph recorded {:?} {:?}, given {:?} {:?}; shapes and types are fixed when recorded",
                        mine.kind(), mine.size(), new.kind(), new.size()
                    );
                }
            }
            for (mine, new) in self.inputs.iter_mut().zip(&given) {
                mine.f_copy_(new)?;
            }
        }
        self.ptr.replay()
    }
}

/// A recorded graph in the registry (class `graph`): its input and output tensors.
impl crate::registry::Object for Graph {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Graph
    }
    fn tensors(&self) -> Vec<&Tensor> {
        Graph::tensors(self)
    }
    // its count of input and output tensors
    fn counts(&self) -> Vec<i64> {
        vec![Graph::tensors(self).len() as i64]
    }
}

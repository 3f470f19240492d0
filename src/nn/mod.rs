//! Modules (ktorch's modules.rst, kmodules.rst; knn.cpp's `module`/`seq`, kmodel.cpp's forward
//! calls and name lists).
//!
//! A module is our own tree, not tch's `nn`: each node holds its type (a row of the layer table
//! in `layers`), its options as values, its parameters as plain tensors that require gradients,
//! its named children and its training flag. tch's `nn::VarStore` keys variables by path and has
//! no notion of children to walk, rename or copy one by one, of training mode, or of options to
//! show back; ktorch needs all of these (`module m` returns the options, `names`/`parmnames`
//! walk the tree, `to` moves it, `training` flips it). The parameters are still ordinary leaf
//! tensors with gradients, named as PyTorch's `named_parameters` names them (`0.weight`,
//! `block1.linear1.bias`), so autograd and later optimisers see them as PyTorch would.
//!
//! A module tree is shared, not copied: a handle is a [`ModRef`], the tree's root behind an `Arc`
//! and the module of the tree it points at. A forward call clones the `Arc` and runs without any
//! lock, so a q callback inside it can use the same module (`kforward`) and q's `peach` can run
//! modules in several threads. What changes in a running tree does so in place, as in PyTorch:
//! the training flag (atomic), parameter values and devices (`set_data`). Changing the tree's
//! shape (adding a child) needs the only reference to it.
//!
//! Files: `layers` (the layer table: one entry per type, its options and forward), `spec`
//! (reading module definitions: trees, depth-value pairs, options), `api` (the `module` and `seq`
//! q functions and the definition retrieved from a module), `forward` (`forward`, `nforward`,
//! `eforward`, `evaluate`, `training`), `parms` (`parms`, `parmnames`, `names`, `childnames`),
//! `functional` (`relu x`, `softmax(x;dim)`, ...), `tree` (`dv` and `tree`: a definition's two
//! written forms, each from the other), `init` (filling parameters: `normal`, `knormal`, `reset`,
//! ...), `freeze` (`freeze`, `unfreeze`), `attrs` (`parm`, `buffer`, `child`, `moduletypes`, ...),
//! `show` (`str` of a module), `plan` (a forward of linear layers and activations for a few rows
//! without libtorch's dispatcher: `score`).
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
pub mod api;
pub mod attrs;
pub mod callback;
pub mod foreign;
pub mod forward;
pub mod freeze;
pub mod functional;
pub mod handle;
pub mod help;
pub mod init;
pub mod layers;
pub mod parms;
pub mod plan;
pub mod precast;
pub mod show;
pub mod spec;
pub mod tree;

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{anyhow, bail, Result};
use tch::{Device, Tensor};

pub use handle::ModRef;
pub use layers::{Layer, Out, Run, Val};

/// One module: a layer of the table with its options, parameters, buffers and children.
pub struct Module {
    pub layer: &'static Layer,
    /// The name given in the definition (the key among its parent's children, when a child).
    pub name: Option<String>,
    /// One value per option of the layer, in the layer's order.
    pub opts: Vec<Val>,
    /// Parameters by name (`weight`, `bias`, `weight_ih_l0`): leaf tensors requiring gradients.
    pub parms: Vec<(String, Tensor)>,
    /// Buffers by name (`running_mean`): state that is saved but not trained.
    pub buffers: Vec<(String, Tensor)>,
    /// Children, each with its key in this module: its name, else its position.
    pub children: Vec<(String, Module)>,
    /// A model made in Python that this node runs (layers `torchscript` and `aoti`), else None.
    pub foreign: Option<crate::nn::foreign::Foreign>,
    training: AtomicBool,
    /// Batch norm statistics as a cumulative average (momentum None) whatever the option says:
    /// set by `batchnorm` for weight averaging, on a tree that may be shared.
    cumulative: AtomicBool,
}

// SAFETY: A tree is read by several threads at once (q's peach, a forward running while a callback
// looks at the same module): libtorch tensors may be used concurrently for reading, and
// nothing in a Module changes through a shared reference except the atomic training flag and
// tensor contents, which libtorch owns (as in PyTorch, concurrent in-place updates of the same
// parameters are the caller's race).
#[allow(unsafe_code)]
unsafe impl Sync for Module {}

impl Module {
    /// A module of layer `l` with options `opts` (checked and completed by the caller): runs the
    /// layer's init, which checks the options and makes parameters and buffers.
    pub fn new(layer: &'static Layer, name: Option<String>, opts: Vec<Val>) -> Result<Module> {
        let mut m = Module {
            layer,
            name,
            opts,
            parms: vec![],
            buffers: vec![],
            children: vec![],
            foreign: None,
            training: AtomicBool::new(true),
            cumulative: AtomicBool::new(false),
        };
        (layer.init)(&mut m)?;
        Ok(m)
    }

    /// An independent copy (libtorch's `clone`): the same definition, training flag and names,
    /// parameters and buffers copied (detached; parameters keep their gradient requirement).
    pub fn deep_clone(&self) -> Result<Module> {
        let copy = |v: &Vec<(String, Tensor)>| -> Result<Vec<(String, Tensor)>> {
            v.iter()
                .map(|(k, t)| {
                    Ok((
                        k.clone(),
                        if t.defined() {
                            crate::tensor::detach::detached_copy(t)?
                                .set_requires_grad(t.requires_grad())
                        } else {
                            t.shallow_clone()
                        },
                    ))
                })
                .collect()
        };
        // a Python model's copy lists the copy's own tensors (shared with it, as on loading)
        let (foreign, parms, buffers) = match &self.foreign {
            Some(f) => {
                let (f, p, b) = f.deep_clone()?;
                (Some(f), p, b)
            }
            None => (None, copy(&self.parms)?, copy(&self.buffers)?),
        };
        Ok(Module {
            layer: self.layer,
            name: self.name.clone(),
            opts: self.opts.clone(),
            parms,
            buffers,
            foreign,
            children: self
                .children
                .iter()
                .map(|(k, c)| Ok((k.clone(), c.deep_clone()?)))
                .collect::<Result<_>>()?,
            training: AtomicBool::new(self.training()),
            cumulative: AtomicBool::new(self.cumulative()),
        })
    }

    /// A copy of the tree holding the same parameter and buffer tensors (shallow copies): what
    /// an optimizer keeps of the modules given to it (ktorch's container module, `module o`),
    /// without sharing the tree itself (which would stop its owner changing its structure).
    /// None for a tree with a Python model in it, whose tensors live inside that model.
    pub fn shared_copy(&self) -> Option<Module> {
        if self.foreign.is_some() {
            return None;
        }
        let copy = |v: &Vec<(String, Tensor)>| {
            v.iter()
                .map(|(k, t)| (k.clone(), t.shallow_clone()))
                .collect()
        };
        Some(Module {
            layer: self.layer,
            name: self.name.clone(),
            opts: self.opts.clone(),
            parms: copy(&self.parms),
            buffers: copy(&self.buffers),
            foreign: None,
            children: self
                .children
                .iter()
                .map(|(k, c)| Some((k.clone(), c.shared_copy()?)))
                .collect::<Option<_>>()?,
            training: AtomicBool::new(self.training()),
            cumulative: AtomicBool::new(self.cumulative()),
        })
    }

    pub fn cumulative(&self) -> bool {
        self.cumulative.load(Ordering::Relaxed)
    }
    pub fn set_cumulative(&self, b: bool) {
        self.cumulative.store(b, Ordering::Relaxed);
    }

    /// The value of option `name`. The tables and their layers' code name the same options, so
    /// a miss is a bug in the table (reported, as every panic, as a q error).
    pub fn opt(&self, name: &str) -> &Val {
        match self.layer.opts.iter().position(|o| o.name == name) {
            Some(i) => &self.opts[i],
            None => panic!("{}: no option `{name} in the layer table", self.layer.name),
        }
    }
    pub fn long(&self, name: &str) -> i64 {
        match self.opt(name) {
            Val::Long(j) => *j,
            Val::Bool(b) => *b as i64,
            Val::Float(f) => *f as i64,
            v => panic!("{}: option `{name} is not a long: {v:?}", self.layer.name),
        }
    }
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.opt(name), Val::Bool(true))
    }
    pub fn float(&self, name: &str) -> f64 {
        match self.opt(name) {
            Val::Float(f) => *f,
            Val::Long(j) => *j as f64,
            v => panic!("{}: option `{name} is not a double: {v:?}", self.layer.name),
        }
    }
    pub fn longs(&self, name: &str) -> &[i64] {
        match self.opt(name) {
            Val::Longs(v) => v,
            Val::None => &[],
            v => panic!(
                "{}: option `{name} is not a list of longs: {v:?}",
                self.layer.name
            ),
        }
    }
    pub fn floats(&self, name: &str) -> &[f64] {
        match self.opt(name) {
            Val::Floats(v) => v,
            Val::None => &[],
            v => panic!(
                "{}: option `{name} is not a list of doubles: {v:?}",
                self.layer.name
            ),
        }
    }
    pub fn sym(&self, name: &str) -> &'static str {
        match self.opt(name) {
            Val::Sym(s) => s,
            v => panic!("{}: option `{name} is not a symbol: {v:?}", self.layer.name),
        }
    }
    pub fn text(&self, name: &str) -> &str {
        match self.opt(name) {
            Val::Str(s) => s,
            Val::Sym(s) => s,
            v => panic!("{}: option `{name} is not text: {v:?}", self.layer.name),
        }
    }
    /// Is option `name` unset?
    pub fn is_none(&self, name: &str) -> bool {
        matches!(self.opt(name), Val::None)
    }
    pub fn long_opt(&self, name: &str) -> Option<i64> {
        (!self.is_none(name)).then(|| self.long(name))
    }
    pub fn float_opt(&self, name: &str) -> Option<f64> {
        (!self.is_none(name)).then(|| self.float(name))
    }

    /// Add a parameter (a leaf tensor that requires gradients) or a buffer, in init.
    pub fn add_parm(&mut self, name: &str, t: Tensor) {
        self.parms.push((name.to_string(), t));
    }
    pub fn add_buffer(&mut self, name: &str, t: Tensor) {
        self.buffers.push((name.to_string(), t));
    }
    /// A parameter of this module by name.
    pub fn parm(&self, name: &str) -> Result<&Tensor> {
        self.dotted(name, &|m| &m.parms)
            .ok_or_else(|| anyhow!("{}: no parameter `{name}", self.layer.name))
    }
    /// A buffer of this module by name.
    pub fn buffer(&self, name: &str) -> Result<&Tensor> {
        self.dotted(name, &|m| &m.buffers)
            .ok_or_else(|| anyhow!("{}: no buffer `{name}", self.layer.name))
    }
    /// A tensor of this module by name, else of a child by its dotted name (`out_proj.weight`:
    /// a layer reading the parts it is made of).
    fn dotted<'a>(
        &'a self,
        name: &str,
        of: &dyn Fn(&'a Module) -> &'a Vec<(String, Tensor)>,
    ) -> Option<&'a Tensor> {
        if let Some((_, t)) = of(self).iter().find(|(k, _)| k == name) {
            return Some(t);
        }
        let (key, rest) = name.split_once('.')?;
        self.children
            .iter()
            .find(|(k, _)| k == key)?
            .1
            .dotted(rest, of)
    }

    /// Is this a layer made of parts (children its init makes: `attention`, `selfattention`,
    /// the transformer layers)? A definition shows it as one row, with its parts' parameters
    /// under their dotted names, as ktorch's does; a state rebuilds it so.
    pub fn has_parts(&self) -> bool {
        matches!(
            self.layer.name,
            "attention" | "selfattention" | "encoderlayer" | "decoderlayer"
        )
    }

    /// The tensor slot of a parameter (or buffer) by its dotted name, to set it.
    pub fn slot_mut(&mut self, name: &str, buffers: bool) -> Option<&mut Tensor> {
        let own = if buffers {
            &mut self.buffers
        } else {
            &mut self.parms
        };
        if let Some(i) = own.iter().position(|(k, _)| k == name) {
            let own = if buffers {
                &mut self.buffers
            } else {
                &mut self.parms
            };
            return Some(&mut own[i].1);
        }
        let (key, rest) = name.split_once('.')?;
        self.children
            .iter_mut()
            .find(|(k, _)| k == key)?
            .1
            .slot_mut(rest, buffers)
    }

    /// Add a child: its key is its name, else the key this container gives it (`fork`'s `qa`),
    /// else its position (as PyTorch's Sequential). The container may refuse the child, and
    /// stores it as its layer's `place` says.
    pub fn push(&mut self, child: Module) -> Result<()> {
        let given = (self.layer.adopt)(self, &child)?;
        let key = child
            .name
            .clone()
            .or(given)
            .unwrap_or_else(|| self.children.len().to_string());
        (self.layer.place)(self, key, child)
    }

    /// Every parameter with its full name, this module's own first, then each child's in order
    /// (PyTorch's `named_parameters`).
    pub fn named_parameters(&self) -> Vec<(String, &Tensor)> {
        self.named(&|m| &m.parms)
    }
    /// Every buffer with its full name (PyTorch's `named_buffers`).
    pub fn named_buffers(&self) -> Vec<(String, &Tensor)> {
        self.named(&|m| &m.buffers)
    }
    fn named<'a>(
        &'a self,
        own: &dyn Fn(&'a Module) -> &'a Vec<(String, Tensor)>,
    ) -> Vec<(String, &'a Tensor)> {
        let mut v: Vec<(String, &Tensor)> = own(self).iter().map(|(k, t)| (k.clone(), t)).collect();
        for (key, c) in &self.children {
            v.extend(
                c.named(own)
                    .into_iter()
                    .map(|(k, t)| (format!("{key}.{k}"), t)),
            );
        }
        v
    }

    /// The module type that owns parameter `name` (a full name from this module) in ktorch's
    /// libtorch tree, as `parmtypes` and an optimizer's parameter table report it. Some layers
    /// hold the parameters of libtorch's submodules flat under their names (`tok.weight` of an
    /// `embedseq`, `self_attn.out_proj.bias` of an `encoderlayer`): those report the submodule's
    /// type (`embed`, `linear`), as ktorch's tree of real submodules does.
    pub fn parm_type(&self, name: &str) -> &'static str {
        let (owner, local) = match name.rsplit_once('.') {
            Some((path, _)) => match self.find(Ok(path)) {
                Ok(c) => return c.layer.name,
                // no child of that path: a flat parameter of some module above it
                Err(_) => self.flat_owner(name),
            },
            None => (self, name),
        };
        match local.rsplit_once('.') {
            Some((sub, _)) => sub_type(owner.layer.name, sub).unwrap_or(owner.layer.name),
            None => owner.layer.name,
        }
    }

    /// The descendant holding flat parameter `name` and the parameter's name inside it.
    fn flat_owner<'a, 'b>(&'a self, name: &'b str) -> (&'a Module, &'b str) {
        let mut best: (&Module, &str) = (self, name);
        for (path, m) in self.named_modules() {
            if path.is_empty() {
                continue;
            }
            if let Some(rest) = name
                .strip_prefix(path.as_str())
                .and_then(|r| r.strip_prefix('.'))
            {
                if rest.len() < best.1.len() && m.parms.iter().any(|(k, _)| k == rest) {
                    best = (m, rest);
                }
            }
        }
        best
    }

    /// This module (key "") and every descendant with its dotted name, depth first.
    pub fn named_modules(&self) -> Vec<(String, &Module)> {
        let mut v = vec![(String::new(), self)];
        for (key, c) in &self.children {
            for (k, m) in c.named_modules() {
                v.push((
                    if k.is_empty() {
                        key.clone()
                    } else {
                        format!("{key}.{k}")
                    },
                    m,
                ));
            }
        }
        v
    }

    pub fn training(&self) -> bool {
        self.training.load(Ordering::Relaxed)
    }
    /// Set the training flag here and below (PyTorch's `train(flag)`).
    pub fn train(&self, b: bool) {
        self.training.store(b, Ordering::Relaxed);
        for (_, c) in &self.children {
            c.train(b);
        }
    }

    /// The device of the first parameter or buffer (CPU when there is none): where q inputs go.
    pub fn device(&self) -> Device {
        self.placed().unwrap_or(Device::Cpu)
    }

    /// The device of the first parameter or buffer, None for a module with neither (`relu`,
    /// `reshape`, a `seqlist` of such): such a module runs where its inputs are.
    pub fn placed(&self) -> Option<Device> {
        if let Some(d) = self.foreign.as_ref().and_then(|f| f.device()) {
            return Some(d);
        }
        self.first(&|m| &m.parms)
            .or_else(|| self.first(&|m| &m.buffers))
            .map(|t| t.device())
    }

    /// The first of `named`'s tensors, found without naming them all (`placed` runs on every
    /// forward call).
    fn first<'a>(
        &'a self,
        own: &dyn Fn(&'a Module) -> &'a Vec<(String, Tensor)>,
    ) -> Option<&'a Tensor> {
        own(self)
            .first()
            .map(|(_, t)| t)
            .or_else(|| self.children.iter().find_map(|(_, c)| c.first(own)))
    }

    /// The device a forward pass on `inputs` runs on (its autocast's device): the module's, or
    /// for a module without parameters or buffers the first defined input's (ktorch's C++ does
    /// not move tensor inputs either), else the CPU.
    pub fn device_for(&self, inputs: &[Tensor]) -> Device {
        Self::run_device(self.placed(), inputs)
    }

    /// `device_for` given the module's `placed` device, for a caller that has it already.
    pub fn run_device(placed: Option<Device>, inputs: &[Tensor]) -> Device {
        placed
            .or_else(|| inputs.iter().find(|t| t.defined()).map(|t| t.device()))
            .unwrap_or(Device::Cpu)
    }

    /// The module found by a child name (a full dotted name) or an index into all descendants
    /// (ktorch's `(module;name)` and `(module;index)` forms).
    pub fn find(&self, key: Result<&str, i64>) -> Result<&Module> {
        let all = self.named_modules();
        match key {
            Ok(s) => all
                .into_iter()
                .find(|(k, _)| k == s)
                .map(|(_, m)| m)
                .ok_or_else(|| anyhow!("no child module named `{s}")),
            Err(j) => {
                let n = all.len() - 1;
                if j < 0 || j as usize >= n {
                    bail!(
                        "invalid index[{j}] for {n} child module{}",
                        if n == 1 { "" } else { "s" }
                    );
                }
                Ok(all[j as usize + 1].1)
            }
        }
    }

    /// Run this module's forward on `x`, checking the count of inputs first.
    pub fn forward(&self, run: &Run, x: &[Tensor]) -> Result<Out> {
        let (lo, hi) = self.layer.inputs;
        if x.len() < lo || x.len() > hi {
            let want = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo} to {hi}")
            };
            bail!(
                "{}: forward expects {want} input{}, given {}",
                self.layer.name,
                if hi == 1 { "" } else { "s" },
                x.len()
            );
        }
        match self.layer.forward {
            layers::Fwd::One(f) => Ok(Out::Tensor(f(self, run, &x[0])?)),
            layers::Fwd::Many(f) => f(self, run, x),
        }
    }

    /// Forward of one tensor to one tensor (a child inside a container).
    pub fn forward1(&self, run: &Run, x: &Tensor) -> Result<Tensor> {
        match self.layer.forward {
            layers::Fwd::One(f) => f(self, run, x),
            layers::Fwd::Many(_) => self
                .forward(run, std::slice::from_ref(x))?
                .tensor(self.layer.name),
        }
    }
}

/// The libtorch submodule type of a flat parameter's prefix `sub` in a layer of type `layer`
/// (ktorch's knn/embed.cpp, knn/attention.cpp, libtorch's MultiheadAttention and transformer
/// layers register these children).
fn sub_type(layer: &str, sub: &str) -> Option<&'static str> {
    Some(match (layer, sub) {
        ("embedseq", "tok") => "embed",
        ("embedseq", "pos") => "embedpos",
        ("selfattention", "norm") => "layernorm",
        ("selfattention", "in" | "out") => "linear",
        ("attention", "out_proj") => "linear",
        ("encoderlayer" | "decoderlayer", "self_attn" | "multihead_attn") => "attention",
        ("encoderlayer" | "decoderlayer", "self_attn.out_proj" | "multihead_attn.out_proj") => {
            "linear"
        }
        ("encoderlayer" | "decoderlayer", s) if s.starts_with("linear") => "linear",
        ("encoderlayer" | "decoderlayer", s) if s.starts_with("norm") => "layernorm",
        _ => return None,
    })
}

//! Optimizers (ktorch's opt.rst, kopt.cpp): `opt` makes one from a name, parameters and options,
//! adds parameter groups and returns its definition; `step` updates the parameters from their
//! gradients; `lr` gets and sets learning rates; `state` shows each parameter's buffers.
//!
//! The update rules are written here on tensor operations, one file per optimizer, following
//! PyTorch's single-tensor algorithms step for step (so a q test can check the first updates
//! against torch.optim on the same parameters and gradients). tch's optimizers are tied to its
//! VarStore and cannot show or restore per-parameter state, per-group options or the LAMB and
//! Adagrad rules ktorch offers. An optimizer holds shallow copies of its parameters: the same
//! tensors as the module or handles they came from, so a step updates those in place.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod adagrad;
pub mod adam;
pub mod api;
pub mod fused;
pub mod kinds;
pub mod lamb;
pub mod lbfgs;
pub mod restore;
pub mod rmsprop;
pub mod sgd;

use anyhow::Result;
use tch::Tensor;

use crate::nn::Val;
pub use kinds::Kind;

/// A parameter under an optimizer: the tensor, where it came from (for `opt o`'s table), and its
/// buffers by PyTorch's names (`momentum_buffer`, `exp_avg`, `step`, ...), made at its first step.
pub struct Parm {
    pub t: Tensor,
    /// The type of the module it belongs to (`linear`), or `parmdict` for a tensor given alone or
    /// in a vector or dictionary (kopt.cpp keeps those in a parameter dictionary).
    pub module: String,
    /// Its name in the optimizer's container (kopt.cpp's `parmname`): its name in its module
    /// (`0.weight`), prefixed by the module's key once the optimizer holds several modules
    /// (`A.fc.weight`, `0.weight`); a dictionary's key or a tensor's position in the container's
    /// parameter dictionary (`a`, `0`, `parms.0`).
    pub name: String,
    pub state: Vec<(&'static str, Tensor)>,
}

impl Parm {
    /// Buffer `name`, made by `init` when missing.
    pub fn buffer(
        &mut self,
        name: &'static str,
        init: impl FnOnce(&Tensor) -> Result<Tensor>,
    ) -> Result<Tensor> {
        if let Some((_, t)) = self.state.iter().find(|(k, _)| *k == name) {
            return Ok(t.shallow_clone());
        }
        let t = init(&self.t)?;
        self.state.push((name, t.shallow_clone()));
        Ok(t)
    }
    /// Set buffer `name`, replacing it where it is, else adding it last.
    pub fn set(&mut self, name: &'static str, t: Tensor) {
        match self.state.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => slot.1 = t,
            None => self.state.push((name, t)),
        }
    }
    pub fn get(&self, name: &str) -> Option<&Tensor> {
        self.state.iter().find(|(k, _)| *k == name).map(|(_, t)| t)
    }
    pub fn has(&self, name: &str) -> bool {
        self.state.iter().any(|(k, _)| *k == name)
    }
    /// Count the step in buffer `step` (a scalar float tensor on the CPU, as PyTorch keeps it
    /// unless `capturable`: reading it back never waits for the GPU) and return the new count.
    pub fn count_step(&mut self) -> Result<f64> {
        let s = self.buffer("step", |_| {
            Ok(Tensor::f_zeros([], (tch::Kind::Float, tch::Device::Cpu))?)
        })?;
        let _ = s.shallow_clone().f_add_scalar_(1.0)?;
        Ok(s.f_double_value(&[])?)
    }
}

/// A parameter group: its options (the optimizer's table order) and parameters.
pub struct Group {
    pub opts: Vec<Val>,
    pub parms: Vec<Parm>,
}

/// A module or the parameter dictionary of tensors the optimizer's parameters came from: the
/// children of ktorch's container module (kopt.cpp's `addmodule`: the first one given is the
/// container itself; a second makes a module dictionary keyed by each one's name, else by its
/// position, `0`, `1`, ...; tensors go into one parameter dictionary named `parms`).
pub struct Source {
    /// Its key in the container (meaningful once there are several).
    pub key: String,
    /// The module's address (`ModRef::address`), to add a module once; 0 for the tensors.
    pub addr: i64,
    /// The module's tree on the same parameter tensors (`module o` returns it); None for the
    /// tensors, or a module that cannot be copied so (a Python model).
    pub tree: Option<crate::nn::Module>,
    /// How many tensors the parameter dictionary holds (a vector's are named by position).
    pub count: usize,
}

pub struct Optimizer {
    pub kind: &'static Kind,
    /// Where the parameters came from, in the order given.
    pub sources: Vec<Source>,
    /// The options the optimizer was made with: a group added later starts from them (PyTorch's
    /// and libtorch's `defaults`).
    pub defaults: Vec<Val>,
    pub groups: Vec<Group>,
    /// GradScaler's found-inf flag for the next step (model/scaler.rs), set only around a step
    /// whose every parameter takes a fused kernel (fused::takes_found_inf): the kernel skips
    /// the update where it is set.
    pub found_inf: Option<Tensor>,
    /// LAMB's global gradient norm, squared, for the next step, given by a model whose optimizer
    /// state is sharded across ranks (model/shard.rs): each rank holds only its shard's
    /// gradients, so the norm over every parameter is taken across the ranks.
    pub global_sq: Option<Tensor>,
}

/// A group's options, read by name (as a layer's).
pub struct Settings<'a> {
    kind: &'static Kind,
    vals: &'a [Val],
}

impl Settings<'_> {
    fn val(&self, name: &str) -> &Val {
        match self.kind.opts.iter().position(|o| o.name == name) {
            Some(i) => &self.vals[i],
            None => panic!(
                "{}: no option `{name} in the optimizer table",
                self.kind.name
            ),
        }
    }
    pub fn float(&self, name: &str) -> f64 {
        match self.val(name) {
            Val::Float(f) => *f,
            Val::Long(j) => *j as f64,
            v => panic!("{}: option `{name} is not a double: {v:?}", self.kind.name),
        }
    }
    pub fn long(&self, name: &str) -> i64 {
        match self.val(name) {
            Val::Long(j) => *j,
            v => panic!("{}: option `{name} is not a long: {v:?}", self.kind.name),
        }
    }
    pub fn long_opt(&self, name: &str) -> Option<i64> {
        match self.val(name) {
            Val::None => None,
            _ => Some(self.long(name)),
        }
    }
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.val(name), Val::Bool(true))
    }
    /// A symbol option, None when unset.
    pub fn sym_opt(&self, name: &str) -> Option<&str> {
        match self.val(name) {
            Val::Sym(s) => Some(s),
            Val::None => None,
            v => panic!("{}: option `{name} is not a symbol: {v:?}", self.kind.name),
        }
    }
}

impl Optimizer {
    pub fn settings(&self, g: usize) -> Settings<'_> {
        Settings {
            kind: self.kind,
            vals: &self.groups[g].opts,
        }
    }

    /// A second optimizer on the same parameter and buffer tensors (`opt m` of a model, which
    /// keeps its own): a step through either updates the same tensors, but options and buffers
    /// made afterwards are each one's own (ktorch shares the one libtorch optimizer).
    pub fn shared_copy(&self) -> Optimizer {
        let parm = |p: &Parm| Parm {
            t: p.t.shallow_clone(),
            module: p.module.clone(),
            name: p.name.clone(),
            state: p
                .state
                .iter()
                .map(|(k, t)| (*k, t.shallow_clone()))
                .collect(),
        };
        Optimizer {
            kind: self.kind,
            sources: self
                .sources
                .iter()
                .map(|s| Source {
                    key: s.key.clone(),
                    addr: s.addr,
                    tree: s.tree.as_ref().and_then(|t| t.shared_copy()),
                    count: s.count,
                })
                .collect(),
            defaults: self.defaults.clone(),
            groups: self
                .groups
                .iter()
                .map(|g| Group {
                    opts: g.opts.clone(),
                    parms: g.parms.iter().map(parm).collect(),
                })
                .collect(),
            found_inf: None,
            global_sq: None,
        }
    }

    /// Every parameter tensor, group by group.
    pub fn parameters(&self) -> Vec<&Tensor> {
        self.groups
            .iter()
            .flat_map(|g| g.parms.iter().map(|p| &p.t))
            .collect()
    }

    /// Every parameter tensor, group by group, as handles of their own on the same tensors (to
    /// use once the optimizer is no longer borrowed).
    pub fn shared_parameters(&self) -> Vec<Tensor> {
        self.parameters()
            .into_iter()
            .map(Tensor::shallow_clone)
            .collect()
    }

    /// Every buffer tensor (ktorch's `tensorcount`, `elements` and `bytes` of an optimizer).
    pub fn buffers(&self) -> Vec<&Tensor> {
        self.groups
            .iter()
            .flat_map(|g| g.parms.iter().flat_map(|p| p.state.iter().map(|(_, t)| t)))
            .collect()
    }

    /// ktorch's count of the buffers: (tensors, elements, bytes). kopt.cpp keeps each
    /// parameter's step as an int64 (libtorch's param states), not a tensor: it counts as one
    /// element of 8 bytes and no tensor, whatever tensor we keep it in (PyTorch's float).
    pub fn buffer_counts(&self) -> Result<(i64, i64, i64)> {
        let (mut n, mut e, mut b) = (0, 0, 0);
        for (k, t) in self
            .groups
            .iter()
            .flat_map(|g| g.parms.iter().flat_map(|p| p.state.iter()))
        {
            if *k == "step" {
                e += 1;
                b += 8;
            } else if t.defined() {
                n += 1;
                e += crate::tensor::info::shape::storage_elements(t)?;
                b += crate::tensor::info::facts::storage_bytes(t)?;
            }
        }
        Ok((n, e, b))
    }

    /// One update of every parameter with a gradient, without tracking gradients.
    pub fn step(&mut self) -> Result<()> {
        let kind = self.kind;
        tch::no_grad(|| (kind.step)(self))
    }

    /// One update given a closure that evaluates the loss with fresh gradients: LBFGS calls it
    /// as often as its line search needs; the others call it once and step. Answers the loss of
    /// the first evaluation.
    pub fn step_with(&mut self, closure: &mut dyn FnMut() -> Result<Tensor>) -> Result<Tensor> {
        match self.kind.closure {
            Some(f) => f(self, closure),
            None => {
                let l = closure()?;
                self.step()?;
                Ok(l)
            }
        }
    }

    /// Run `f` on each group's settings and its parameters that have gradients.
    pub fn each(
        &mut self,
        mut f: impl FnMut(&Settings, &mut Parm, &Tensor) -> Result<()>,
    ) -> Result<()> {
        let kind = self.kind;
        for g in &mut self.groups {
            let s = Settings {
                kind,
                vals: &g.opts,
            };
            for p in &mut g.parms {
                let grad = p.t.grad();
                if !grad.defined() {
                    continue;
                }
                if grad.is_sparse() {
                    anyhow::bail!("{}: sparse gradients not implemented", kind.name);
                }
                f(&s, p, &grad)?;
            }
        }
        Ok(())
    }
}

/// An optimizer in the registry (class `optimizer`): its tensors are its buffers (ktorch's
/// tensorcount, elements and bytes of an optimizer); `zerograd` resets its parameters' gradients.
impl crate::registry::Object for Optimizer {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Optimizer
    }
    fn objtype(&self) -> &'static str {
        self.kind.name
    }
    fn tensors(&self) -> Vec<&Tensor> {
        self.buffers()
    }
    fn grad_tensors(&self) -> Vec<&Tensor> {
        self.parameters()
    }
    // its count of parameters
    fn counts(&self) -> Vec<i64> {
        vec![self.parameters().len() as i64]
    }
    // `addref`: an optimizer on the same parameter and buffer tensors (shared_copy): a step
    // through either updates the same tensors; options set later are each one's own
    fn shared(&self) -> Option<Box<dyn crate::registry::Object>> {
        Some(Box::new(self.shared_copy()))
    }
}

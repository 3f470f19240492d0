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
//! Files: `layers` (the layer table: one entry per type, its options and forward), `spec`
//! (reading module definitions: trees, depth-value pairs, options), `api` (the `module` and `seq`
//! q functions and the definition retrieved from a module), `forward` (`forward`, `nforward`,
//! `eforward`, `evaluate`, `training`), `parms` (`parms`, `parmnames`, `names`, `childnames`),
//! `functional` (`relu x`, `softmax(x;dim)`, ...), `tree` (`dv` and `tree`: a definition's two
//! written forms, each from the other).
pub mod api;
pub mod forward;
pub mod functional;
pub mod layers;
pub mod parms;
pub mod spec;
pub mod tree;

use tch::{Device, Tensor};

pub use layers::{Layer, Val};

/// One module: a layer of the table with its options, parameters and children.
pub struct Module {
    pub layer: &'static Layer,
    /// The name given in the definition (the key among its parent's children, when a child).
    pub name: Option<String>,
    /// One value per option of the layer, in the layer's order.
    pub opts: Vec<Val>,
    /// Parameters by name (`weight`, `bias`): leaf tensors that require gradients.
    pub parms: Vec<(&'static str, Tensor)>,
    /// Children, each with its key in this module: its name, else its position.
    pub children: Vec<(String, Module)>,
    pub training: bool,
}

impl Module {
    /// Option `i` as a long (the table guarantees the type).
    pub fn long(&self, i: usize) -> i64 {
        match self.opts[i] {
            Val::Long(j) => j,
            Val::Bool(b) => b as i64,
            Val::Float(f) => f as i64,
        }
    }
    pub fn flag(&self, i: usize) -> bool {
        matches!(self.opts[i], Val::Bool(true))
    }
    pub fn float(&self, i: usize) -> f64 {
        match self.opts[i] {
            Val::Float(f) => f,
            Val::Long(j) => j as f64,
            Val::Bool(b) => b as i64 as f64,
        }
    }
    /// A parameter of this module by name.
    pub fn parm(&self, name: &str) -> Option<&Tensor> {
        self.parms.iter().find(|(k, _)| *k == name).map(|(_, t)| t)
    }

    /// Add a child: its key is its name, else its position (as PyTorch's Sequential).
    pub fn push(&mut self, child: Module) {
        let key = child.name.clone().unwrap_or_else(|| self.children.len().to_string());
        self.children.push((key, child));
    }

    /// Every parameter with its full name, this module's own first, then each child's in order
    /// (PyTorch's `named_parameters`).
    pub fn named_parameters(&self) -> Vec<(String, &Tensor)> {
        let mut v: Vec<(String, &Tensor)> = self.parms.iter().map(|(k, t)| (k.to_string(), t)).collect();
        for (key, c) in &self.children {
            v.extend(c.named_parameters().into_iter().map(|(k, t)| (format!("{key}.{k}"), t)));
        }
        v
    }

    /// Mutable slots of every parameter, in `named_parameters` order.
    pub fn parameters_mut(&mut self) -> Vec<&mut Tensor> {
        let mut v: Vec<&mut Tensor> = self.parms.iter_mut().map(|(_, t)| t).collect();
        for (_, c) in &mut self.children {
            v.extend(c.parameters_mut());
        }
        v
    }

    /// This module (key "") and every descendant with its dotted name, depth first.
    pub fn named_modules(&self) -> Vec<(String, &Module)> {
        let mut v = vec![(String::new(), self)];
        for (key, c) in &self.children {
            for (k, m) in c.named_modules() {
                v.push((if k.is_empty() { key.clone() } else { format!("{key}.{k}") }, m));
            }
        }
        v
    }

    /// Set the training flag here and below (PyTorch's `train(flag)`).
    pub fn train(&mut self, b: bool) {
        self.training = b;
        for (_, c) in &mut self.children {
            c.train(b);
        }
    }

    /// The device of the first parameter (CPU when there is none): where q inputs go.
    pub fn device(&self) -> Device {
        self.named_parameters().first().map_or(Device::Cpu, |(_, t)| t.device())
    }

    /// The module found by a child name (a full dotted name) or an index into all descendants
    /// (ktorch's `(module;name)` and `(module;index)` forms).
    pub fn find(&self, key: Result<&str, i64>) -> anyhow::Result<&Module> {
        let all = self.named_modules();
        match key {
            Ok(s) => all.into_iter().find(|(k, _)| k == s).map(|(_, m)| m).ok_or_else(|| anyhow::anyhow!("no child module named `{s}")),
            Err(j) => {
                let n = all.len() - 1;
                if j < 0 || j as usize >= n {
                    anyhow::bail!("invalid index[{j}] for {n} child module{}", if n == 1 { "" } else { "s" });
                }
                Ok(all[j as usize + 1].1)
            }
        }
    }
}

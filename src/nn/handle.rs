//! What a module handle holds: the tree's root, shared, and the module of it the handle is for
//! (the root itself, or a child: ktorch hands a callback its own module, and `child` returns a
//! handle to a child that shares its parent's tensors).
use std::sync::Arc;

use anyhow::{bail, Result};

use super::Module;

pub struct ModRef {
    root: Arc<Module>,
    /// The module inside `root`'s tree this handle is for: the positions among the children,
    /// from the root down (none for the root). The tree keeps its shape while shared: it
    /// changes only through `get_mut`, which needs the only reference and changes only the
    /// subtree of the module at the end of this path.
    at: Vec<usize>,
}

/// The module at `path` below `m`.
fn walk<'a>(m: &'a Module, path: &[usize]) -> &'a Module {
    path.iter().fold(m, |m, &i| &m.children[i].1)
}

/// The positions from `root` down to `m` (compared by address), if `m` is in the tree.
fn path_to(root: &Module, m: &Module) -> Option<Vec<usize>> {
    if std::ptr::eq(root, m) {
        return Some(vec![]);
    }
    root.children.iter().enumerate().find_map(|(i, (_, c))| {
        path_to(c, m).map(|mut p| {
            p.insert(0, i);
            p
        })
    })
}

impl ModRef {
    pub fn new(m: Module) -> ModRef {
        ModRef {
            root: Arc::new(m),
            at: vec![],
        }
    }

    /// The module this handle is for.
    pub fn get(&self) -> &Module {
        walk(&self.root, &self.at)
    }

    pub fn root(&self) -> &Arc<Module> {
        &self.root
    }

    /// Another handle to the same module.
    /// The module's address (ktorch's `ptr` of a module).
    pub fn address(&self) -> i64 {
        self.get() as *const Module as i64
    }

    /// How many handles (and models) share the module's tree (ktorch's `ref` of a module).
    pub fn count(&self) -> i64 {
        Arc::strong_count(&self.root) as i64
    }

    pub fn share(&self) -> ModRef {
        ModRef {
            root: self.root.clone(),
            at: self.at.clone(),
        }
    }

    /// A handle to `m`, a module inside the tree of `root`.
    pub fn inside(root: &Arc<Module>, m: &Module) -> ModRef {
        ModRef {
            root: root.clone(),
            at: path_to(root, m).expect("a module inside the tree of its root"),
        }
    }

    /// The module to change, when this is the only reference to its tree.
    pub fn get_mut(&mut self) -> Result<&mut Module> {
        let Some(root) = Arc::get_mut(&mut self.root) else {
            bail!("module is in use (by a running forward call or another handle to its tree), cannot change its structure");
        };
        Ok(self.at.iter().fold(root, |m, &i| &mut m.children[i].1))
    }

    /// Is this handle the only reference to its tree, and for its root?
    pub fn sole_root(&self) -> bool {
        self.at.is_empty() && Arc::strong_count(&self.root) == 1 && Arc::weak_count(&self.root) == 0
    }

    /// The tree itself, when this handle is its root's only reference (`module(m;depth;q)`
    /// moves q's tree into m).
    pub fn into_module(self) -> std::result::Result<Module, ModRef> {
        if !self.at.is_empty() {
            return Err(self);
        }
        Arc::try_unwrap(self.root).map_err(|root| ModRef { root, at: vec![] })
    }
}

/// A module in the registry (class `module`).
impl crate::registry::Object for ModRef {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Module
    }
    fn objtype(&self) -> &'static str {
        self.get().layer.name
    }
    fn tensors(&self) -> Vec<&tch::Tensor> {
        let m = self.get();
        m.named_parameters()
            .into_iter()
            .chain(m.named_buffers())
            .map(|(_, t)| t)
            .collect()
    }
    // its count of parameter tensors
    fn counts(&self) -> Vec<i64> {
        vec![self.get().named_parameters().len() as i64]
    }
    fn root(&self) -> Option<*const ()> {
        Some(Arc::as_ptr(self.root()) as *const ())
    }
    // one tree under both handles
    fn shared(&self) -> Option<Box<dyn crate::registry::Object>> {
        Some(Box::new(self.share()))
    }
}

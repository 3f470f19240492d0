//! What a module handle holds: the tree's root, shared, and the module of it the handle is for
//! (the root itself, or a child: ktorch hands a callback its own module, and `child` returns a
//! handle to a child that shares its parent's tensors).
use std::sync::Arc;

use anyhow::{bail, Result};

use super::Module;

pub struct ModRef {
    root: Arc<Module>,
    /// A module inside `root`'s tree. Valid while `root` lives, and the tree keeps its shape
    /// while shared: it changes only through `get_mut`, which needs the only reference.
    at: *const Module,
}

// SAFETY: See `Module`'s Sync: the tree is read concurrently, changed only when unshared.
unsafe impl Send for ModRef {}
// SAFETY: as Send above.
unsafe impl Sync for ModRef {}

impl ModRef {
    pub fn new(m: Module) -> ModRef {
        let root = Arc::new(m);
        let at = Arc::as_ptr(&root);
        ModRef { root, at }
    }

    /// The module this handle is for.
    pub fn get(&self) -> &Module {
        // SAFETY: `at` points into the tree `root` keeps alive, which no one can change while
        // this reference to it exists (see `get_mut`).
        unsafe { &*self.at }
    }

    pub fn root(&self) -> &Arc<Module> {
        &self.root
    }

    /// Another handle to the same module.
    /// The module's address (ktorch's `ptr` of a module).
    pub fn address(&self) -> i64 {
        self.at as i64
    }

    /// How many handles (and models) share the module's tree (ktorch's `ref` of a module).
    pub fn count(&self) -> i64 {
        Arc::strong_count(&self.root) as i64
    }

    pub fn share(&self) -> ModRef {
        ModRef {
            root: self.root.clone(),
            at: self.at,
        }
    }

    /// A handle to `m`, a module inside the tree of `root`.
    pub fn inside(root: &Arc<Module>, m: &Module) -> ModRef {
        debug_assert!(root
            .named_modules()
            .iter()
            .any(|(_, c)| std::ptr::eq(*c, m)));
        ModRef {
            root: root.clone(),
            at: m as *const Module,
        }
    }

    /// The module to change, when this is the only reference to its tree.
    pub fn get_mut(&mut self) -> Result<&mut Module> {
        if Arc::get_mut(&mut self.root).is_none() {
            bail!("module is in use (by a running forward call or another handle to its tree), cannot change its structure");
        }
        // SAFETY: the tree is unshared (checked above) and we hold it mutably, so no other
        // reference to any of its modules exists.
        Ok(unsafe { &mut *(self.at as *mut Module) })
    }

    /// Is this handle the only reference to its tree, and for its root?
    pub fn sole_root(&self) -> bool {
        std::ptr::eq(self.at, Arc::as_ptr(&self.root))
            && Arc::strong_count(&self.root) == 1
            && Arc::weak_count(&self.root) == 0
    }

    /// The tree itself, when this handle is its root's only reference (`module(m;depth;q)`
    /// moves q's tree into m).
    pub fn into_module(self) -> std::result::Result<Module, ModRef> {
        if !std::ptr::eq(self.at, Arc::as_ptr(&self.root)) {
            return Err(self);
        }
        let at = self.at;
        Arc::try_unwrap(self.root).map_err(|root| ModRef { root, at })
    }
}

/// A module in the registry (class `module`).
impl crate::registry::Object for ModRef {
    fn class(&self) -> &'static str {
        "module"
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

//! The `callback` module (kmodules.rst): its forward calls a q function, by name or given as a
//! string, with the callback module itself and its input tensors as handles, and takes the
//! tensor of the handle the function returns. The handles made for the call are freed after it,
//! and the returned handle is taken (freed), as ktorch does; a q error in the function becomes an
//! error of the forward call. `kforward` (nn/forward.rs) runs a module inside the callback with
//! the training mode of the outer call, which this file keeps per thread. (`callbacks[]`, the
//! table of its forms, is nn/callback.rs.)
use std::cell::RefCell;
use std::ffi::CString;

use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::{Out, Run, Val};
use crate::k::{call, read, Owned, K};
use crate::nn::{ModRef, Module};
use crate::registry::{self, Obj};

thread_local! {
    /// Training modes of the forward calls running on this thread, innermost last.
    static MODES: RefCell<Vec<bool>> = const { RefCell::new(Vec::new()) };
}

/// The training mode of the innermost forward call running on this thread, if any.
pub fn current_mode() -> Option<bool> {
    MODES.with(|m| m.borrow().last().copied())
}

/// Run `f` with `training` as the current mode (for `kforward` inside callbacks).
pub fn with_mode<R>(training: bool, f: impl FnOnce() -> R) -> R {
    MODES.with(|m| m.borrow_mut().push(training));
    let r = f();
    MODES.with(|m| m.borrow_mut().pop());
    r
}

pub fn init(m: &mut Module) -> Result<()> {
    if m.text("fn").is_empty() {
        match &m.name {
            Some(n) => bail!(
                "callback: no k function defined, 2nd symbol, `{n}, defines callback module name"
            ),
            None => bail!("callback: no k function defined"),
        }
    }
    let n = match m.opt("in") {
        Val::Syms(s) => s.len(),
        _ => 0,
    };
    if !(1..=3).contains(&n) {
        bail!("callback: expected 1-3 input types, given {n}");
    }
    Ok(())
}

/// Call the q function with (module; inputs..) and take the tensor it returns.
pub fn forward(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    // k(0,..) from a secondary thread (peach) is forbidden by q and may corrupt its state.
    if !crate::k::thread::on_q_thread() {
        bail!(
            "callback: module{} calls q function `{}, which only q's main thread may do (not inside peach or another thread)",
            m.name.as_ref().map(|n| format!(" `{n}")).unwrap_or_default(),
            m.text("fn")
        );
    }
    let n = match m.opt("in") {
        Val::Syms(s) => s.len(),
        _ => 1,
    };
    if x.len() != n {
        bail!(
            "callback: {} expects {n} input{}, given {}",
            m.text("fn"),
            if n == 1 { "" } else { "s" },
            x.len()
        );
    }
    let root = run
        .root
        .as_ref()
        .ok_or_else(|| anyhow!("callback: no module handle for the call"))?;
    let f = CString::new(m.text("fn"))
        .map_err(|_| anyhow!("callback: function text has a null byte"))?;
    let mh = registry::add(Obj::new(ModRef::inside(root, m)));
    let args: Vec<K> = x
        .iter()
        .map(|t| registry::add(Obj::Tensor(t.shallow_clone())))
        .collect();
    // the module handle and up to three tensor handles, each shared with the call (k takes
    // over the references it is given)
    let shared = std::iter::once(mh)
        .chain(args.iter().copied().take(3))
        .map(Owned::share)
        .collect();
    let r = with_mode(run.training, || call::named(&f, shared));
    let y = result(r);
    // free what was made for the call (the function may have freed some itself)
    for h in std::iter::once(mh).chain(args) {
        let _ = registry::free(h);
        drop(Owned::new(h));
    }
    Ok(Out::Tensor(y?))
}

/// The tensor of the function's result (a tensor handle, taken), or the q error it signalled.
fn result(r: Option<Owned>) -> Result<Tensor> {
    let Some(r) = r else {
        bail!("callback: unexpected null return from k function");
    };
    let r = r.k();
    if let Some(msg) = read::error_text(r) {
        Err(anyhow!("callback error from k: {msg}"))
    } else if registry::class_of(r) == Some(registry::Class::Tensor) {
        registry::take_tensor(r)
    } else {
        Err(anyhow!(
            "callback: unable to retrieve tensor from {}",
            crate::tensor::opargs::describe(r)
        ))
    }
}

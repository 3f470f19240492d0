//! `callbacks[]`: the forms a `callback` module's q function can take (the module itself is
//! nn/layers/callback.rs).
use crate::k::{make, KResult};

/// The training mode of the forward calls running on this thread (kept with the `callback`
/// layer), for the layers above nn that run a module inside a callback's forward (model/graph.rs).
pub use super::layers::callback::{current_mode, with_mode};

crate::qfn! {
    /// `callbacks[]`: the forms a callback can take, as ktorch's table (fn, in, out).
    pub fn callbacks() -> KResult {
        let fns = ["{[m;x]}", "{[m;x;y]}", "{[m;x;y;z]}"];
        let fn_col = make::list(fns.iter().map(|s| make::string(s)).collect());
        // ktorch.cpp arglist: one argument type a symbol atom (kmodules.rst:1071 shows `tensor)
        let in_col = make::list(
            (1..=3)
                .map(|n| crate::nn::help::arglist(&vec!["tensor"; n]))
                .collect(),
        );
        let out_col = make::symbols(&["tensor"; 3]);
        Ok(make::table(
            &["fn", "in", "out"],
            vec![fn_col, in_col, out_col],
        ))
    }
}

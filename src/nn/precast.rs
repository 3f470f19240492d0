//! `` setting`precast `` (issue 31, item 5): under autocast, the float32 parameters that
//! autocast would cast to bf16 or fp16 one at a time, at their first use in each forward pass
//! (a linear layer's weight and bias, attention's projections), cast together in one pass when
//! the forward pass starts, and their gradients cast back together.
//!
//! Why: on char.q's GPT (bf16, an H100) autocast's casts of the weights were 83 kernels of ~12 µs
//! a step and the casts of their gradients back to float32 67 more, ~1.9 ms of a ~19 ms step,
//! while the bytes they move take ~0.1 ms: each kernel is too small to fill the GPU. Here the
//! parameters are concatenated (one kernel), cast (one), and split into views (none); autograd
//! takes the gradients back through the same three steps (a concatenation, a cast, and slices
//! that each parameter's gradient becomes). The values are the same, bit for bit: the same
//! rounding of the same numbers, only in fewer, larger kernels.
//!
//! The cost: every such parameter's gradient is ready only when the whole backward pass is
//! done (the concatenation's backward waits for all of them), so a synchronising model
//! (`distmodel`) cannot overlap its all-reduce with the backward pass: leave it off there.
use std::cell::RefCell;
use std::collections::HashMap;

use anyhow::Result;
use tch::{Device, Kind, Tensor};

use super::Module;

/// The parameters each layer reads through [`parm`]: those that feed the matmuls autocast runs
/// in reduced precision (a layer norm's weight stays float32: autocast runs layer norm so).
const CAST: &[(&str, &[&str])] = &[
    ("linear", &["weight", "bias"]),
    (
        "selfattention",
        &["in.weight", "in.bias", "out.weight", "out.bias"],
    ),
    (
        "encoderlayer",
        &[
            "linear1.weight",
            "linear1.bias",
            "linear2.weight",
            "linear2.bias",
        ],
    ),
    (
        "decoderlayer",
        &[
            "linear1.weight",
            "linear1.bias",
            "linear2.weight",
            "linear2.bias",
        ],
    ),
];

thread_local! {
    /// Within a forward pass under the setting: each cast parameter's reduced copy, by the
    /// address of the parameter's TensorImpl.
    static CASTS: RefCell<Option<HashMap<usize, Tensor>>> = const { RefCell::new(None) };
}

/// The key of a parameter: its handle as the module holds it (what [`parm`] is given back).
fn key(t: &Tensor) -> usize {
    t.as_ptr() as usize
}

/// Parameter `name` of `m` as its layer uses it in a matmul: the copy cast with the others when
/// a forward pass under the setting made one, else the parameter itself (autocast casts it).
pub fn parm(m: &Module, name: &str) -> Result<Tensor> {
    let p = m.parm(name)?;
    Ok(CASTS.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|map| map.get(&key(p)).map(|t| t.shallow_clone()))
            .unwrap_or_else(|| p.shallow_clone())
    }))
}

/// The parameter of `m` if it has it (an optional bias).
pub fn parm_opt(m: &Module, name: &str) -> Option<Tensor> {
    parm(m, name).ok()
}

/// Clears the casts when the forward pass ends, however it ends.
struct Scope;

impl Drop for Scope {
    fn drop(&mut self) {
        CASTS.with(|c| *c.borrow_mut() = None);
    }
}

/// Run `f`, a forward pass of `module` on `device`: with the setting on, autocast applying
/// there, and no forward pass of this thread already casting, the parameters of [`CAST`] in the
/// tree (float32, on the module's device) cast together first.
pub fn scope<T>(module: &Module, device: Device, f: impl FnOnce() -> Result<T>) -> Result<T> {
    let kind = match crate::session::precision::autocast_kind(device) {
        Some(k) if crate::session::setting::precast() => k,
        _ => return f(),
    };
    if CASTS.with(|c| c.borrow().is_some()) {
        return f();
    }
    let mut ps: Vec<&Tensor> = vec![];
    gather(module, device, &mut ps);
    let mut seen = std::collections::HashSet::new();
    ps.retain(|p| seen.insert(key(p)));
    if ps.is_empty() {
        return f();
    }
    let casts = cast_together(&ps, kind)?;
    let map = ps.iter().map(|p| key(p)).zip(casts).collect();
    CASTS.with(|c| *c.borrow_mut() = Some(map));
    let _scope = Scope;
    f()
}

/// The float32 parameters of [`CAST`] in the tree, on `device`.
fn gather<'a>(m: &'a Module, device: Device, out: &mut Vec<&'a Tensor>) {
    if let Some((_, names)) = CAST.iter().find(|(l, _)| *l == m.layer.name) {
        for n in *names {
            if let Ok(p) = m.parm(n) {
                if p.kind() == Kind::Float && p.device() == device {
                    out.push(p);
                }
            }
        }
    }
    for (_, c) in &m.children {
        gather(c, device, out);
    }
}

/// `ps` cast to `kind` in one concatenation, one cast and views (gradients flow back through
/// them to each parameter).
pub fn cast_together(ps: &[&Tensor], kind: Kind) -> Result<Vec<Tensor>> {
    let flat: Vec<Tensor> = ps
        .iter()
        .map(|p| p.f_reshape([-1]))
        .collect::<Result<_, _>>()?;
    let sizes: Vec<i64> = ps.iter().map(|p| p.numel() as i64).collect();
    let low = Tensor::f_cat(&flat, 0)?.f_to_kind(kind)?;
    low.f_split_with_sizes(&sizes, 0)?
        .iter()
        .zip(ps)
        .map(|(t, p)| Ok(t.f_view(p.size().as_slice())?))
        .collect()
}

//! The layer table: one entry per module type, with ktorch's name, PyTorch's class, its options
//! (ktorch's option names, types and defaults, in positional order), how its parameters and
//! buffers are made, how many inputs its forward takes, and the forward itself.
//!
//! Each family of layers has its own file with its own table (`basic::LAYERS`, ...); `FAMILIES`
//! lists them, so adding a family is one line here and adding a type is one entry in its file.
use anyhow::Result;
use tch::Tensor;

use super::Module;

pub mod act;
pub mod attention;
pub mod basic;
pub mod callback;
pub mod coders;
pub mod containers;
pub mod conv;
pub mod cxx;
pub mod distance;
pub mod dropout;
pub mod embed;
pub mod foreign;
pub mod kmodules;
pub mod norm;
pub mod pad;
pub mod pool;
pub mod recurrent;
pub mod sdpa;
pub mod seqs;
pub mod transformer;
pub mod upsample;

/// Every family's table.
static FAMILIES: &[&[Layer]] = &[
    basic::LAYERS,
    containers::LAYERS,
    conv::LAYERS,
    pool::LAYERS,
    pad::LAYERS,
    upsample::LAYERS,
    // recurrent, attention, transformer layers, embeddings, bilinear
    recurrent::LAYERS,
    attention::LAYERS,
    transformer::LAYERS,
    coders::LAYERS,
    embed::LAYERS,
    kmodules::LAYERS,
    seqs::LAYERS,
    act::LAYERS,
    norm::LAYERS,
    dropout::LAYERS,
    distance::LAYERS,
    // models made in Python: TorchScript modules and AOTInductor packages
    foreign::LAYERS,
];

/// The layer of a ktorch module name.
pub fn find(name: &str) -> Option<&'static Layer> {
    FAMILIES
        .iter()
        .flat_map(|f| f.iter())
        .find(|l| l.name == name)
}

/// Every module type, in table order (`moduletypes`, the names test).
pub fn all() -> impl Iterator<Item = &'static Layer> {
    FAMILIES.iter().flat_map(|f| f.iter())
}

/// An option value.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// An optional option left unset (PyTorch's None; q's `::`).
    None,
    Bool(bool),
    Long(i64),
    Float(f64),
    /// Sizes: a kernel size, strides, a shape.
    Longs(Vec<i64>),
    Floats(Vec<f64>),
    Sym(&'static str),
    Syms(Vec<&'static str>),
    /// Text: a callback's q function given as a string.
    Str(String),
}

/// The type an option's value must have.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ty {
    Bool,
    Long,
    Float,
    /// A long, or a list of n longs (0: any count); a single long is repeated n times, as
    /// PyTorch's `ExpandingArray` does.
    Size(usize),
    /// A double or a list of n doubles (0: any count), expanded like `Size`.
    Floats(usize),
    /// A `Size(n)`, or instead one symbol of the choices (a convolution's padding: sizes, or
    /// `same or `valid).
    SizeOrSym(usize, &'static [&'static str]),
    /// A symbol from the given choices (any symbol when empty).
    Sym(&'static [&'static str]),
    /// A list of symbols from the given choices (any when empty).
    Syms(&'static [&'static str]),
    /// A symbol or a string, kept as text.
    Str,
}

/// A default, as a constant (a `Val` holds vectors, which a static table can't build).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Def {
    /// No default: the definition must give a value.
    Required,
    /// Optional, unset by default (`Val::None`); `::` sets it back to unset.
    Null,
    Bool(bool),
    Long(i64),
    Float(f64),
    /// Sizes, expanded to the option's count when a single value is given.
    Longs(&'static [i64]),
    Floats(&'static [f64]),
    Sym(&'static str),
    Syms(&'static [&'static str]),
}

impl Def {
    /// The default as a value for an option of type `ty`, None when required.
    pub fn val(self, ty: Ty) -> Option<Val> {
        Some(match self {
            Def::Required => return None,
            Def::Null => Val::None,
            Def::Bool(b) => Val::Bool(b),
            Def::Long(j) => Val::Long(j),
            Def::Float(f) => Val::Float(f),
            Def::Longs(v) => Val::Longs(expand(v, ty)),
            Def::Floats(v) => Val::Floats(expand(v, ty)),
            Def::Sym(s) => Val::Sym(s),
            Def::Syms(s) => Val::Syms(s.to_vec()),
        })
    }
}

/// A single value repeated to the count of a `Size`/`Floats` option.
pub fn expand<T: Copy>(v: &[T], ty: Ty) -> Vec<T> {
    match ty {
        Ty::Size(n) | Ty::Floats(n) | Ty::SizeOrSym(n, _) if n > 1 && v.len() == 1 => {
            vec![v[0]; n]
        }
        _ => v.to_vec(),
    }
}

/// One option: name, type and default.
pub struct Opt {
    pub name: &'static str,
    pub ty: Ty,
    pub default: Def,
}

/// Option makers for the tables: `long("in")` is required, `long_or("start", 1)` has a default.
pub const fn long(name: &'static str) -> Opt {
    Opt {
        name,
        ty: Ty::Long,
        default: Def::Required,
    }
}
pub const fn long_or(name: &'static str, d: i64) -> Opt {
    Opt {
        name,
        ty: Ty::Long,
        default: Def::Long(d),
    }
}
/// A long that may be left unset (`Val::None`).
pub const fn long_null(name: &'static str) -> Opt {
    Opt {
        name,
        ty: Ty::Long,
        default: Def::Null,
    }
}
pub const fn flag(name: &'static str, d: bool) -> Opt {
    Opt {
        name,
        ty: Ty::Bool,
        default: Def::Bool(d),
    }
}
pub const fn float(name: &'static str, d: f64) -> Opt {
    Opt {
        name,
        ty: Ty::Float,
        default: Def::Float(d),
    }
}
pub const fn float_req(name: &'static str) -> Opt {
    Opt {
        name,
        ty: Ty::Float,
        default: Def::Required,
    }
}
pub const fn float_null(name: &'static str) -> Opt {
    Opt {
        name,
        ty: Ty::Float,
        default: Def::Null,
    }
}
/// Sizes of n dimensions (a kernel size), required.
pub const fn size(name: &'static str, n: usize) -> Opt {
    Opt {
        name,
        ty: Ty::Size(n),
        default: Def::Required,
    }
}
/// Sizes of n dimensions with a default (one value repeated, or n values).
pub const fn size_or(name: &'static str, n: usize, d: &'static [i64]) -> Opt {
    Opt {
        name,
        ty: Ty::Size(n),
        default: Def::Longs(d),
    }
}
/// Sizes of n dimensions that may be left unset (a pooling stride defaults to the kernel size).
pub const fn size_null(name: &'static str, n: usize) -> Opt {
    Opt {
        name,
        ty: Ty::Size(n),
        default: Def::Null,
    }
}
pub const fn floats_null(name: &'static str, n: usize) -> Opt {
    Opt {
        name,
        ty: Ty::Floats(n),
        default: Def::Null,
    }
}
/// One symbol of `choices`, default `d`.
pub const fn sym(name: &'static str, choices: &'static [&'static str], d: &'static str) -> Opt {
    Opt {
        name,
        ty: Ty::Sym(choices),
        default: Def::Sym(d),
    }
}
pub const fn opt(name: &'static str, ty: Ty, default: Def) -> Opt {
    Opt { name, ty, default }
}

/// What a forward call gives back: one tensor, or several (rnn output and hidden state, ...).
pub enum Out {
    Tensor(Tensor),
    Tensors(Vec<Tensor>),
    /// Tensors by name: a TorchScript module's dictionary result.
    Dict(Vec<(String, Tensor)>),
}

impl Out {
    /// The one tensor, or an error naming the layer that gave several.
    pub fn tensor(self, name: &str) -> Result<Tensor> {
        match self {
            Out::Tensor(t) => Ok(t),
            Out::Tensors(v) => anyhow::bail!(
                "{name}: forward gives {} tensors where one is expected",
                v.len()
            ),
            Out::Dict(v) => anyhow::bail!(
                "{name}: forward gives a dictionary of {} tensors where one tensor is expected",
                v.len()
            ),
        }
    }
    /// The first tensor (a scorer's output: an rnn's output before its hidden state).
    pub fn first(self) -> Result<Tensor> {
        self.into_vec()
            .into_iter()
            .next()
            .ok_or_else(|| anyhow::anyhow!("module gave no output"))
    }
    pub fn into_vec(self) -> Vec<Tensor> {
        match self {
            Out::Tensor(t) => vec![t],
            Out::Tensors(v) => v,
            Out::Dict(v) => v.into_iter().map(|(_, t)| t).collect(),
        }
    }
}

/// How a forward call runs: training mode (dropout on, batch norm statistics updated) or not.
/// Gradient mode is libtorch's own thread state, set by the caller. `root` is the tree being
/// run, so a callback can hand q a handle to the module it is in.
pub struct Run {
    pub training: bool,
    pub root: Option<std::sync::Arc<Module>>,
}

impl Run {
    pub fn new(training: bool) -> Self {
        Run {
            training,
            root: None,
        }
    }
}

/// One tensor in, one out: most layers.
pub type OneFn = fn(&Module, &Run, &Tensor) -> Result<Tensor>;
/// Several inputs (from `Layer::inputs`) or outputs.
pub type ManyFn = fn(&Module, &Run, &[Tensor]) -> Result<Out>;

#[derive(Clone, Copy)]
pub enum Fwd {
    One(OneFn),
    Many(ManyFn),
}

/// A module type.
pub struct Layer {
    /// ktorch's name, e.g. `linear`.
    pub name: &'static str,
    /// PyTorch's class (or ktorch's own, `knn::...`), as `str` shows it.
    pub pytorch: &'static str,
    /// A container: children are added to it in a definition, and its forward runs them.
    pub container: bool,
    pub opts: &'static [Opt],
    /// Check the options and make the parameters and buffers (initialised as PyTorch does).
    pub init: fn(&mut Module) -> Result<()>,
    /// The least and most inputs the forward takes.
    pub inputs: (usize, usize),
    pub forward: Fwd,
    /// A container's check of a child being added (`parent`, `child`): an error when the child
    /// doesn't fit, else the key the child gets when it has no name (None: its position).
    pub adopt: AdoptFn,
    /// How a container stores a child it adopted, under its key: most append it; `encoder`
    /// makes its repeated layers from the one layer given.
    pub place: PlaceFn,
}

pub type AdoptFn = fn(&Module, &Module) -> Result<Option<String>>;
pub type PlaceFn = fn(&mut Module, String, Module) -> Result<()>;

/// Append the child under its key.
pub fn place_last(p: &mut Module, key: String, c: Module) -> Result<()> {
    p.children.push((key, c));
    Ok(())
}

pub fn no_init(_: &mut Module) -> Result<()> {
    Ok(())
}

/// Any child, keyed by its position.
pub fn adopt_any(_: &Module, _: &Module) -> Result<Option<String>> {
    Ok(None)
}

/// Every maker's layer: no init, any child accepted and added last.
const fn made(
    name: &'static str,
    pytorch: &'static str,
    container: bool,
    opts: &'static [Opt],
    inputs: (usize, usize),
    forward: Fwd,
) -> Layer {
    Layer {
        name,
        pytorch,
        container,
        opts,
        init: no_init,
        inputs,
        forward,
        adopt: adopt_any,
        place: place_last,
    }
}

/// A layer of one input and one output.
pub const fn layer(
    name: &'static str,
    pytorch: &'static str,
    opts: &'static [Opt],
    forward: OneFn,
) -> Layer {
    made(name, pytorch, false, opts, (1, 1), Fwd::One(forward))
}

/// A layer of `inputs` (least, most) inputs and one or more outputs.
pub const fn many(
    name: &'static str,
    pytorch: &'static str,
    opts: &'static [Opt],
    inputs: (usize, usize),
    forward: ManyFn,
) -> Layer {
    made(name, pytorch, false, opts, inputs, Fwd::Many(forward))
}

/// A container.
pub const fn container(
    name: &'static str,
    pytorch: &'static str,
    opts: &'static [Opt],
    inputs: (usize, usize),
    forward: ManyFn,
) -> Layer {
    made(name, pytorch, true, opts, inputs, Fwd::Many(forward))
}

/// A new leaf parameter: uniform on (-bound, bound), requiring gradients.
pub fn uniform(size: &[i64], bound: f64) -> Result<Tensor> {
    let mut t = Tensor::f_empty(
        size,
        (crate::tensor::options::default_kind(), tch::Device::Cpu),
    )?;
    let _ = tch::no_grad(|| t.f_uniform_(-bound, bound))?;
    Ok(t.f_set_requires_grad(true)?)
}

/// A new leaf parameter filled with `value`, requiring gradients.
pub fn filled(size: &[i64], value: f64) -> Result<Tensor> {
    let t = Tensor::f_full(
        size,
        value,
        (crate::tensor::options::default_kind(), tch::Device::Cpu),
    )?;
    Ok(t.f_set_requires_grad(true)?)
}

/// A child its parent's init makes (the parts of `attention`, `selfattention` and the
/// transformer layers, as libtorch registers them): layer `ty` keyed `key`, the options given
/// by name, the others at their defaults.
pub fn part(key: &str, ty: &str, given: &[(&str, Val)]) -> Result<Module> {
    let l = find(ty).ok_or_else(|| anyhow::anyhow!("no {ty} layer"))?;
    let opts = l
        .opts
        .iter()
        .map(|o| {
            given
                .iter()
                .find(|(n, _)| *n == o.name)
                .map(|(_, v)| v.clone())
                .or_else(|| o.default.val(o.ty))
                .ok_or_else(|| anyhow::anyhow!("{ty}: option `{} required", o.name))
        })
        .collect::<Result<Vec<_>>>()?;
    Module::new(l, Some(key.to_string()), opts)
}

/// Move the parameters an init made flat under dotted names (`self_attn.out_proj.weight`) into
/// the children made for them (`part`), replacing the values those drew: the values keep the
/// parent's initialisation (PyTorch's: MultiheadAttention zeroes `out_proj.bias`), the tree and
/// names become libtorch's. A name no child takes stays flat.
pub fn settle(m: &mut Module) {
    fn put(m: &mut Module, name: &str, t: Tensor) -> Option<Tensor> {
        if let Some(slot) = m.parms.iter_mut().find(|(k, _)| k == name) {
            slot.1 = t;
            return None;
        }
        let Some((key, rest)) = name.split_once('.') else {
            return Some(t);
        };
        match m.children.iter_mut().find(|(k, _)| k == key) {
            Some((_, c)) => put(c, rest, t),
            None => Some(t),
        }
    }
    let flat = std::mem::take(&mut m.parms);
    for (k, t) in flat {
        if let Some(t) = put(m, &k, t) {
            m.parms.push((k, t));
        }
    }
}

//! The `loss` object (loss.rst "loss"): a loss function with its options, made once and applied
//! to outputs and targets many times (by q, or by a model's training loop).
//! - `loss name`, `loss(name;options..)`: a new loss object (options as the functional forms take
//!   them after their inputs: positional, then by name, the reduction last);
//! - `loss l`: its definition, a dictionary of `module` (the loss's name) and `options` (those
//!   given, and the reduction);
//! - `loss(l;x;y..)`: the loss of inputs `x;y..` (tensor handles or q data): a new tensor handle.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::{args, Inputs, Spec, SPECS};
use crate::k::from::{self, FromQ, Sym};
use crate::k::{make, read, KResult, K};
use crate::math::pointwise;
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

#[derive(Clone)]
pub struct Loss {
    pub spec: &'static Spec,
    pub opts: args::Opts,
}

impl Loss {
    /// The loss of `inputs` (the output(s) first, then the target(s)).
    pub fn calc(&self, inputs: &[Tensor]) -> Result<Tensor> {
        (self.spec.calc)(inputs, &self.opts)
    }
    /// The loss of a module's output against its target(s).
    /// The loss of a model's output against its targets (a training step's loss).
    pub fn output(&self, out: Tensor, targets: &[Tensor]) -> Result<Tensor> {
        let mut v = vec![out];
        v.extend(targets.iter().map(Tensor::shallow_clone));
        // the calculations index their inputs: the count is checked here as `loss` checks it
        let (lo, hi) = self.inputs();
        if v.len() < lo || v.len() > hi {
            bail!(
                "{}: expects the output and {} target tensor(s), given {}",
                self.name(),
                if lo == hi {
                    (lo - 1).to_string()
                } else {
                    format!("{}-{}", lo - 1, hi - 1)
                },
                targets.len()
            );
        }
        self.calc(&v)
    }
    pub fn name(&self) -> &'static str {
        self.spec.name
    }
    /// How many tensors a calculation takes (bce: 2, or 3 with batch weights).
    pub fn inputs(&self) -> (usize, usize) {
        match self.spec.inputs {
            Inputs::N(n) => (n, n),
            Inputs::Bce => (2, 3),
        }
    }
}

pub fn is_loss(x: K) -> bool {
    registry::class_of(x) == Some(registry::Class::Loss)
}

/// A loss from its definition: a name and options.
pub fn make_loss(name: &str, opts: &[K]) -> Result<Loss> {
    let spec = SPECS
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| anyhow!("unrecognized loss: `{name}"))?;
    let opts = args::Opts::of(opts, spec.slots, spec.modes).map_err(|e| anyhow!("{name}: {e}"))?;
    Ok(Loss { spec, opts })
}

/// The loss of a definition dictionary (`module`options), None for other arguments.
fn from_definition(x: K) -> Result<Option<Loss>> {
    let Some((k, v)) = read::dict_parts(x) else {
        return Ok(None);
    };
    if Vec::<&str>::of(k).as_deref() != Some(&["module", "options"][..]) {
        return Ok(None);
    }
    if read::len(v) != 2 {
        bail!(
            "definition: expected `module`options!(name;options), given {} value(s)",
            read::len(v)
        );
    }
    let e = crate::k::Owned::new(make::explode(v));
    let items = e.items().unwrap();
    let r = match Sym::of(items[0]).map(|s| s.0) {
        Some(name) if read::dict_parts(items[1]).is_some_and(|(k, _)| read::len(k) > 0) => {
            make_loss(name, &items[1..2])
        }
        Some(name) => make_loss(name, &[]),
        None => Err(anyhow!(
            "definition: module expected as a symbol, given {}",
            describe(items[0])
        )),
    };
    r.map(Some)
}

/// `loss l`: `module`options!(name;options), the options all or only those not at their defaults.
pub fn definition(l: &Loss, all: bool) -> KResult {
    let given = l.opts.listed(l.name(), l.spec.slots, l.spec.modes, all)?;
    let keys: Vec<&str> = given.iter().map(|(k, _)| *k).collect();
    let opts = make::dict(&keys, given.into_iter().map(|(_, v)| v).collect());
    Ok(make::dict(
        &["module", "options"],
        vec![make::symbol(l.name()), opts],
    ))
}

/// `loss`'s forms, read: a new loss (`` loss`mse ``, `` loss(`ce;..) ``, a definition as `loss l`
/// answers it, or a model's loss copied), a definition to show (`loss l`, `loss(l;flag)`), or
/// the loss of a loss object or model applied to inputs (`loss(l;x;y)`, `loss(m;x;y)`).
pub enum LossCall {
    New(Loss),
    Show(Held, bool),
    Apply(Held, Vec<Tensor>),
}

/// The handle of a loss object or of a model (its loss), alive for the call.
#[derive(Clone, Copy)]
pub struct Held(K);

impl FromQ for LossCall {
    const TYPE: &'static str = "loss name or (loss;inputs..)";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<LossCall>> {
        if let Some(Sym(s)) = Sym::of(x) {
            return Ok(Some(LossCall::New(make_loss(s, &[])?)));
        }
        if is_loss(x) {
            return Ok(Some(LossCall::Show(
                Held(x),
                crate::session::setting::alloptions(),
            )));
        }
        // a model's loss (ktorch's `loss m`): a loss object of its own with the same options (a
        // loss object never changes, so it answers as the model's does)
        if registry::holds::<Loss>(x) {
            return Ok(Some(LossCall::New(registry::with(x, |o| {
                Ok(of(o)?.clone())
            })?)));
        }
        // a definition, as `loss l` answers it: `module`options!(name;options)
        if let Some(l) = from_definition(x)? {
            return Ok(Some(LossCall::New(l)));
        }
        // `(`mse;`none)` is a symbol list: its items as atoms
        if let Some(s) = Vec::<&str>::of(x).filter(|s| !s.is_empty()) {
            let e = crate::k::Owned::new(make::explode(x));
            let v = e.items().unwrap();
            return Ok(Some(LossCall::New(make_loss(s[0], &v[1..])?)));
        }
        let v = from::list(&x).filter(|v| !v.is_empty()).ok_or_else(|| {
            anyhow!(
                "expected loss name or (loss;inputs..), given {}",
                describe(x)
            )
        })?;
        if let Some(Sym(s)) = Sym::of(v[0]) {
            return Ok(Some(LossCall::New(make_loss(s, &v[1..])?)));
        }
        if !registry::holds::<Loss>(v[0]) {
            bail!(
                "expected loss name, loss object or model as 1st arg, given {}",
                describe(v[0])
            );
        }
        if let (2, Some(all)) = (v.len(), bool::of(v[v.len() - 1])) {
            return Ok(Some(LossCall::Show(Held(v[0]), all)));
        }
        // inputs as a model's: tensor, vector and dictionary handles, (vector;indices) pairs
        // (rnn/charsteps.q's `loss(m;(v;0);y)`), q arrays, lists of these (kloss.cpp's lossarg)
        let ts = if v[1..].iter().any(|a| wants_side(*a)) {
            let dev = if crate::nn::api::has_module(v[0]) {
                Some(crate::nn::api::modref(v[0])?.get().device())
            } else {
                None
            };
            crate::tensor::side::side_on(&v[1..], dev)?.cloned()
        } else {
            pointwise::inputs(&v[1..])?.0
        };
        Ok(Some(LossCall::Apply(Held(v[0]), ts)))
    }
}

crate::qfn! {
    /// `loss`'s forms (`LossCall`): a new loss object, a definition, or a loss.
    pub fn loss(call: LossCall) -> KResult {
        match call {
            LossCall::New(l) => Ok(registry::add(Obj::new(l))),
            LossCall::Show(h, all) => registry::with(h.0, |o| definition(of(o)?, all)),
            LossCall::Apply(h, ts) => {
                let r = registry::with(h.0, |o| {
                    let l = of(o)?;
                    let (lo, hi) = l.inputs();
                    if ts.len() < lo || ts.len() > hi {
                        bail!(
                            "{}: expected {} input{}, given {}",
                            l.name(),
                            if lo == hi {
                                lo.to_string()
                            } else {
                                format!("{lo}-{hi}")
                            },
                            if hi == 1 { "" } else { "s" },
                            ts.len()
                        );
                    }
                    l.calc(&ts)
                })?;
                Ok(registry::add(Obj::Tensor(r)))
            }
        }
    }
}

/// Is `a` an input that only a model's reading takes: a vector or dictionary handle, a
/// (vector;indices) pair, or a general list holding handles?
fn wants_side(a: K) -> bool {
    matches!(
        registry::class_of(a),
        Some(registry::Class::Vector | registry::Class::Dictionary)
    ) || crate::tensor::side::holds_handle(a)
}

/// The loss object, or a model's loss (`loss(m;x;y)`).
pub fn of(o: &mut Obj) -> Result<&mut Loss> {
    if o.part::<Loss>().is_none() {
        bail!("expected a loss, given {}", o.class());
    }
    Ok(o.part_mut::<Loss>().unwrap())
}

/// A loss in the registry (class `loss`).
impl crate::registry::Object for Loss {
    fn class(&self) -> crate::registry::Class {
        crate::registry::Class::Loss
    }
    fn objtype(&self) -> &'static str {
        self.name()
    }
    // `addref`: a loss never changes once made, so a copy answers as the object itself would
    fn shared(&self) -> Option<Box<dyn crate::registry::Object>> {
        Some(Box::new(self.clone()))
    }
}

//! Copies and averages of parameters (swa.rst, kmodel.cpp): `clone` (an independent copy of a
//! tensor, or of the module of a module or model), `copyparms m` (a dictionary of detached
//! copies of the parameters), `copyparms(m;d)` (the dictionary's values copied back, by name:
//! a q dictionary of which names were found), `avgparms(m;d)` (the running average of the
//! parameters kept in d, counted in d's `.n`), and `batchnorm` (batch norm statistics made again
//! as a plain average for averaged weights: over the model's training data, or by the caller).
//! Objects: a module, a model (its module) or an optimizer (its parameters, named as in their
//! modules).
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::of;
use crate::device::Handle;
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::nn::{ModRef, Run};
use crate::optim::Optimizer;
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

/// The parameters of a module, model or optimizer by name (shallow copies: the same tensors).
fn named_parms(h: K, what: &str) -> Result<Vec<(String, Tensor)>> {
    registry::with(h, |o| {
        let shallow = |v: Vec<(String, &Tensor)>| {
            v.into_iter().map(|(k, t)| (k, t.shallow_clone())).collect()
        };
        if let Some(m) = o.part::<ModRef>() {
            return Ok(shallow(m.get().named_parameters()));
        }
        Ok(match o.get::<Optimizer>() {
            Some(z) => z
                .groups
                .iter()
                .flat_map(|g| g.parms.iter())
                .enumerate()
                .map(|(i, p)| {
                    (
                        if p.name.is_empty() {
                            i.to_string()
                        } else {
                            p.name.clone()
                        },
                        p.t.shallow_clone(),
                    )
                })
                .collect(),
            None => bail!(
                "expected model, module or optimizer{what}, given {}",
                o.class()
            ),
        })
    })
}

fn is_object(x: K) -> bool {
    matches!(
        registry::class_of(x),
        Some(registry::Class::Module | registry::Class::Model | registry::Class::Optimizer)
    )
}

crate::qfn! {
    /// `clone t`: a detached copy of a tensor; `clone m`: a new module, a copy of a module's or
    /// a model's module.
    pub fn clone(x: Handle) -> KResult {
        let o = registry::with(x.k(), |o| {
            Ok(match o {
                Obj::Tensor(t) => Obj::Tensor(crate::tensor::detach::detached_copy(t)?),
                o if o.part::<ModRef>().is_some() => {
                    Obj::new(ModRef::new(o.part::<ModRef>().unwrap().get().deep_clone()?))
                }
                other => bail!(
                    "expected tensor, module or model, not implemented for {}",
                    other.class()
                ),
            })
        })?;
        Ok(registry::add(o))
    }
}

/// The parameters of `h` with a dictionary handle `d`'s tensors, for `f`.
fn with_dict<R>(
    h: Object,
    d: Dict,
    f: impl FnOnce(&[(String, Tensor)], &mut Vec<(String, Tensor)>) -> Result<R>,
) -> Result<R> {
    let p = named_parms(h.0, " for 1st arg")?;
    registry::with(d.0, |o| match o {
        Obj::Dict(v) => f(&p, v),
        _ => unreachable!(),
    })
}

/// The object of `copyparms` and `avgparms`: a model, module or optimizer alone, or the first
/// of `(object;dictionary)` (its class checked where its parameters are read).
#[derive(Clone, Copy)]
pub struct Object(K);

impl FromQ for Object {
    const TYPE: &'static str = "model, module or optimizer";
    fn read(x: K) -> Result<Option<Object>> {
        Ok(Some(Object(x)))
    }
    fn alone(x: K) -> Result<Option<Object>> {
        if is_object(x) {
            return Ok(Some(Object(x)));
        }
        match from::list(&x) {
            Some([_, _]) => Ok(None),
            _ => bail!(
                "expected model, module or optimizer, or (object;dictionary), given {}",
                describe(x)
            ),
        }
    }
}

/// A dictionary handle of parameters (the second of `(object;dictionary)`).
#[derive(Clone, Copy)]
pub struct Dict(K);

impl FromQ for Dict {
    const TYPE: &'static str = "dictionary of parameters";
    fn read(x: K) -> Result<Option<Dict>> {
        Ok((registry::class_of(x) == Some(registry::Class::Dictionary)).then_some(Dict(x)))
    }
    fn wrong(d: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expected dictionary of parameters for 2nd arg, given {}",
            registry::class_of(d).map_or_else(|| describe(d), |c| c.name().to_string())
        )
    }
}

crate::qfn! {
    /// `copyparms o`: a dictionary of detached copies of the parameters of a model, module or
    /// optimizer; `copyparms(o;d)`: the values of dictionary d copied into the parameters of the
    /// same names, answering which were found.
    pub fn copyparms(h: Object, d: Option<Dict>) -> KResult {
        match d {
            None => {
                let p = named_parms(h.0, "")?;
                let copies = p
                    .iter()
                    .map(|(k, t)| Ok((k.clone(), crate::tensor::detach::detached_copy(t)?)))
                    .collect::<Result<Vec<_>>>()?;
                Ok(registry::add(Obj::Dict(copies)))
            }
            Some(d) => {
                let found = with_dict(h, d, |p, dict| {
                    tch::no_grad(|| {
                        p.iter()
                            .map(|(k, t)| match dict.iter().find(|(n, _)| n == k) {
                                Some((_, v)) => {
                                    t.shallow_clone()
                                        .f_copy_(v)
                                        .map_err(|e| anyhow!("{k}: {e}"))?;
                                    Ok(true)
                                }
                                None => Ok(false),
                            })
                            .collect::<Result<Vec<bool>>>()
                    })
                })?;
                let names = named_parms(h.0, "")?;
                Ok(make::dict(
                    &names.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
                    found.into_iter().map(make::boolean).collect(),
                ))
            }
        }
    }

    /// `avgparms(o;d)`: the parameters' running average kept in dictionary d (`.n` the count).
    pub fn avgparms(h: Object, d: Option<Dict>) -> KResult {
        let Some(d) = d else {
            bail!(
                "expected 2 args, model/module/optimizer & dictionary of parameters w'averaged weights"
            )
        };
        let n = with_dict(h, d, |p, dict| {
            tch::no_grad(|| -> Result<i64> {
                // every parameter must be there before anything changes
                let mut avg = vec![];
                for (k, _) in p {
                    let a = dict
                        .iter()
                        .find(|(n, _)| n == k)
                        .ok_or_else(|| anyhow!("parameter {k} not found, unable to compute average"))?;
                    avg.push(a.1.shallow_clone());
                }
                if !dict.iter().any(|(k, _)| k == ".n") {
                    dict.push((".n".into(), Tensor::f_from_slice(&[1.0f64])?.f_reshape([])?));
                }
                let count = dict
                    .iter()
                    .find(|(k, _)| k == ".n")
                    .map(|(_, t)| t.shallow_clone())
                    .unwrap();
                let f = 1.0 / (1.0 + count.f_double_value(&[])?);
                for ((_, t), a) in p.iter().zip(avg) {
                    let step = t
                        .f_detach()?
                        .f_to_device(a.device())?
                        .f_to_kind(a.kind())?
                        .f_sub(&a)?
                        .f_mul_scalar(f)?;
                    let _ = a.shallow_clone().f_add_(&step)?;
                }
                let _ = count.shallow_clone().f_add_scalar_(1.0)?;
                Ok(count.f_double_value(&[])? as i64)
            })
        })?;
        Ok(make::long(n))
    }
}

const BATCHNORMS: &[&str] = &["batchnorm1d", "batchnorm2d", "batchnorm3d"];

/// The module tree of a module or model handle.
fn tree(h: K) -> Result<ModRef> {
    registry::with(h, |o| match o.part::<ModRef>() {
        Some(m) => Ok(m.share()),
        None => bail!("expected model or module, given {}", o.class()),
    })
}

/// `batchnorm`'s model or module and its module tree: a handle alone, or the first of
/// `(handle;momentum settings)`.
pub struct Normed {
    h: K,
    q: ModRef,
}

const BATCHNORM_USAGE: &str = "model or module, or (model/module;dictionary of momentum settings)";

impl FromQ for Normed {
    const TYPE: &'static str = "model or module";
    /// Every value is one or an error (`tree`'s: `expected model or module, given ..`).
    fn read(x: K) -> Result<Option<Normed>> {
        Ok(Some(Normed { h: x, q: tree(x)? }))
    }
    fn alone(x: K) -> Result<Option<Normed>> {
        if registry::is_handle(x) {
            return Self::read(x);
        }
        match from::list(&x) {
            Some([_, _]) => Ok(None),
            _ => bail!("expected {BATCHNORM_USAGE}, given {}", describe(x)),
        }
    }
}

/// Momentum settings to restore: a dictionary of batch norm layer names to momentum (null for
/// a cumulative average), `batchnorm`'s own answer.
pub struct Momenta(Vec<(&'static str, f64)>);

impl FromQ for Momenta {
    const TYPE: &'static str = "dictionary of momentum settings";
    fn read(x: K) -> Result<Option<Momenta>> {
        let Some((k, v)) = read::dict_parts(x) else {
            return Ok(None);
        };
        let keys =
            Vec::<&str>::of(k).ok_or_else(|| anyhow!("momentum settings: expected symbol keys"))?;
        let vals = Vec::<f64>::of(v).ok_or_else(|| {
            anyhow!(
                "dictionary of previous momentum settings expected as double(s), given {}",
                describe(v)
            )
        })?;
        Ok(Some(Momenta(keys.into_iter().zip(vals).collect())))
    }
    fn wrong(d: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "expected k dictionary of momentum settings for 2nd arg, given {}",
            describe(d)
        )
    }
}

crate::qfn! {
    /// `batchnorm m`: each batch norm layer's statistics reset (mean 0, variance 1, no batches)
    /// and averaged cumulatively from now on (momentum None); given a model with training data,
    /// the statistics are then made from one pass over it (no gradients, training mode) and the
    /// momentum restored. Answers each layer's name and momentum. `batchnorm(m;d)`: momentum back
    /// as before (from that answer).
    pub fn batchnorm(h: Normed, d: Option<Momenta>) -> KResult {
        let Normed { h, q } = h;
        let norms: Vec<(String, &crate::nn::Module)> = q
            .get()
            .named_modules()
            .into_iter()
            .filter(|(_, m)| BATCHNORMS.contains(&m.layer.name))
            .collect();
        if let Some(Momenta(settings)) = d {
            for (name, f) in settings {
                let (_, m) = norms.iter().find(|(n, _)| n == name).ok_or_else(|| {
                    anyhow!("unable to locate batch norm module '{name}' to restore momentum")
                })?;
                let own = m.float("momentum");
                if !(f.is_nan() && own.is_nan()) && f != own && !f.is_nan() {
                    bail!("'{name}': momentum {f} differs from the module's {own}");
                }
                m.set_cumulative(f.is_nan());
            }
            return Ok(make::null());
        }
        let mut momentum = vec![];
        for (_, m) in &norms {
            momentum.push(if m.cumulative() {
                f64::NAN
            } else {
                m.float("momentum")
            });
            m.set_cumulative(true);
            tch::no_grad(|| -> Result<()> {
                for (b, v) in [
                    ("running_mean", 0.0),
                    ("running_var", 1.0),
                    ("num_batches_tracked", 0.0),
                ] {
                    if let Ok(t) = m.buffer(b) {
                        let _ = t.shallow_clone().f_fill_(v)?;
                    }
                }
                Ok(())
            })?;
        }
        let names: Vec<&str> = norms.iter().map(|(n, _)| n.as_str()).collect();
        let answer = crate::k::Owned::new(make::dict_of(
            make::symbols(&names),
            make::floats(&momentum),
        ));
        if registry::class_of(h) == Some(registry::Class::Model) && !norms.is_empty() {
            let r = recalc(h, &q);
            for ((_, m), f) in norms.iter().zip(&momentum) {
                m.set_cumulative(f.is_nan());
            }
            r?;
        }
        Ok(answer.into_raw())
    }
}

/// One pass over a model's training data in training mode without gradients.
fn recalc(h: K, q: &ModRef) -> Result<()> {
    crate::k::interrupt::scope(|| {
        registry::lease(h, |o| {
            let m = of(o)?;
            if m.data.batches(&m.train) < 1 {
                bail!("no training data loaded for the model");
            }
            let module = q.get();
            let was = module.training();
            module.train(true);
            let run = Run {
                training: true,
                root: Some(q.root().clone()),
            };
            let s = m.train.clone();
            let r = tch::no_grad(|| -> Result<()> {
                // plain batches in order: no shuffle for this pass
                let s = super::Settings {
                    shuffle: false,
                    ..s
                };
                while m.data.next(&s, true)? {
                    crate::k::interrupt::check()?;
                    module.forward(&run, &m.data.x.cloned())?;
                }
                Ok(())
            });
            if r.is_err() {
                let _ = m.data.fullsize();
            }
            module.train(was);
            r
        })
    })
}

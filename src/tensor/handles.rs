//! Handle operations on tensors, as ktorch: `to(h;options)` moves or converts in place (a tensor,
//! vector or dictionary), `copyto(h;options)` a converted copy,
//! `use[h;x]` replaces h's tensor (taking x's when x is a handle, which is then freed),
//! `addref h` a second handle on the same tensor, `return h` the values and frees h.
use anyhow::{anyhow, bail};
use tch::Tensor;

use super::convert;
use super::options::{self, Options};
use crate::k::from::{self, FromQ};
use crate::k::{make, KResult, K};
use crate::registry::{self, Obj};

/// The arguments of `to` (`TO`) and `copyto`: the object's handle (its class checked where its
/// tensors are read), options or an example tensor's dtype and device, and the async flag (a
/// non-blocking host↔device copy).
pub struct Target<const TO: bool> {
    h: K,
    o: Options,
    non_blocking: bool,
}

impl<const TO: bool> FromQ for Target<TO> {
    const TYPE: &'static str = if TO {
        "(object;options) or (object;options;async flag)"
    } else {
        "(tensor;options) or (tensor;options;async flag)"
    };
    /// Every value is the list or an error.
    fn read(x: K) -> anyhow::Result<Option<Target<TO>>> {
        let items = from::list(&x)
            .filter(|v| (2..=3).contains(&v.len()))
            .ok_or_else(|| anyhow!("expected {}", Self::TYPE))?;
        let o = if registry::is_handle(items[1]) {
            let e = registry::tensor(items[1])?;
            if !e.defined() {
                bail!("example tensor is undefined");
            }
            Options {
                kind: Some(e.kind()),
                device: Some(e.device()),
                ..Options::default()
            }
        } else if options::is_options(items[1]) {
            options::parse(items[1])?
        } else {
            bail!("2nd argument not recognizable as option(s), e.g. device, data type, etc.")
        };
        let non_blocking = match items.get(2) {
            None => false,
            Some(a) => bool::of(*a)
                .ok_or_else(|| anyhow!("3rd argument expected as boolean async flag"))?,
        };
        Ok(Some(Target {
            h: items[0],
            o,
            non_blocking,
        }))
    }
}

/// `t` as options `o` say, or None when nothing but (perhaps) its gradient flag changes, which is
/// then set in place. A tensor that required gradients keeps the flag unless `o` says otherwise.
fn moved(t: &Tensor, o: &Options, non_blocking: bool) -> anyhow::Result<Option<Tensor>> {
    let change = o.kind.is_some_and(|k| k != t.kind())
        || o.device.is_some_and(|d| d != t.device())
        || o.sparse.is_some_and(|s| s != t.is_sparse())
        || o.memory.is_some()
        || o.pin == Some(true);
    if !change {
        if let Some(g) = o.grad {
            if g && !t.is_floating_point() && !t.is_complex() {
                bail!("only floating point and complex tensors can require gradients");
            }
            let _ = t.f_set_requires_grad(g)?;
        }
        return Ok(None);
    }
    let grad = o.grad.or(Some(t.requires_grad()).filter(|g| *g));
    Ok(Some(Options { grad, ..*o }.convert(
        t.f_detach()?,
        non_blocking,
        false,
    )?))
}

crate::qfn! {
    /// `to(h;options)`, `to(h;example)`, with an optional async flag: change a tensor, or every
    /// tensor of a vector or dictionary, or every parameter of a module (device and data type only,
    /// as ktorch), in place (the handle keeps working).
    pub fn to(x: Target<true>) -> KResult {
        let Target {
            h,
            o,
            non_blocking: nb,
        } = x;
        // a module also takes a memory format (ktorch's message kept for the rest): as PyTorch's
        // Module.to(memory_format=), for its 4-d tensors (channels-last 2d) or 5-d (3d), so that a
        // convolution net runs channels-last without a layout copy of each weight at every call
        let module = registry::class_of(h) == Some(registry::Class::Module);
        if module
            && (o.grad.is_some()
                || o.sparse.is_some()
                || o.pin.is_some()
                || o.memory == Some(super::options::Memory::Preserve))
        {
            bail!("converts device & type, but cannot be used for layout, gradient, pinned memory or memory format");
        }
        let ts = registry::tensors(h)?;
        if registry::class_of(h) == Some(registry::Class::Tensor) && !ts[0].defined() {
            bail!("cannot change attribute(s) of an undefined tensor");
        }
        // Convert all first, then swap in: an error leaves every tensor as it was.
        let new = ts
            .iter()
            .map(|t| {
                if !t.defined() {
                    return Ok(None);
                }
                if module && o.memory.is_some() {
                    use super::options::Memory;
                    let rank = t.dim();
                    let fits = match o.memory {
                        Some(Memory::Channel2d) => rank == 4,
                        Some(Memory::Channel3d) => rank == 5,
                        _ => rank == 4 || rank == 5,
                    };
                    if !fits {
                        return moved(t, &super::options::Options { memory: None, ..o }, nb);
                    }
                }
                moved(t, &o, nb)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        if registry::class_of(h) == Some(registry::Class::Module) {
            // in place, as PyTorch's Module.to: every handle and running call sees the change
            for (mut t, n) in ts.into_iter().zip(new) {
                if let Some(n) = n {
                    t.f_set_data(&n)?;
                }
            }
            return Ok(make::null());
        }
        registry::with(h, |obj| {
            let slots: Vec<&mut Tensor> = match obj {
                Obj::Tensor(t) => vec![t],
                Obj::Vector(v) => v.iter_mut().collect(),
                Obj::Dict(d) => d.iter_mut().map(|(_, t)| t).collect(),
                _ => bail!("not implemented for {}", obj.class()),
            };
            for (slot, n) in slots.into_iter().zip(new) {
                if let Some(n) = n {
                    *slot = n;
                }
            }
            Ok(())
        })?;
        Ok(make::null())
    }

    /// `copyto(h;options)`, `copyto(h;example)`, with an optional async flag: a new tensor, always a
    /// copy, as the options say (it requires gradients only when `` `grad `` is given).
    pub fn copyto(x: Target<false>) -> KResult {
        let Target {
            h,
            o,
            non_blocking: nb,
        } = x;
        let t = registry::tensor(h)?;
        if !t.defined() {
            bail!("cannot copy an undefined tensor");
        }
        let c = o.convert(t.f_detach()?, nb, true)?;
        Ok(registry::add(Obj::Tensor(c)))
    }
}

/// `use`'s `(x;y)`: handle x of a tensor, vector or dictionary, and y, a handle of a class it
/// can take (checked here, before anything changes) or q data; the classes as the registry
/// answers them.
pub struct Reuse {
    h: K,
    v: K,
    class: registry::Class,
    given: Option<registry::Class>,
}

impl FromQ for Reuse {
    const TYPE: &'static str = "[tensor, vector or dictionary;new value]";
    /// Every value is the pair or an error.
    fn read(x: K) -> anyhow::Result<Option<Reuse>> {
        let Some([h, v]) = from::list(&x) else {
            bail!("expected {}", Self::TYPE)
        };
        let (h, v) = (*h, *v);
        let class = match registry::class_of(h) {
            Some(
                c @ (registry::Class::Tensor
                | registry::Class::Vector
                | registry::Class::Dictionary),
            ) => c,
            class => {
                if registry::is_handle(h) && class.is_none() {
                    let _ = registry::tensor(h)?; // the registry's own message for a stale handle
                }
                bail!(
                    "1st arg must be tensor, vector or dictionary, given {}",
                    class.map_or_else(|| super::opargs::describe(h), |c| c.to_string())
                );
            }
        };
        let given = registry::class_of(v);
        let same = registry::is_handle(v) && registry::id_of(v) == registry::id_of(h);
        if !same
            && registry::is_handle(v)
            && !matches!(
                given,
                Some(
                    registry::Class::Tensor | registry::Class::Vector | registry::Class::Dictionary
                )
            )
        {
            bail!(
                "unable to re-assign {} to given {}",
                class,
                given.map_or("stale pointer", registry::Class::name)
            );
        }
        Ok(Some(Reuse { h, v, class, given }))
    }
}

crate::qfn! {
    /// `use[x;y]`: handle x (a tensor, vector or dictionary) takes y's value: a handle of its
    /// class (which goes stale) or q data (a vector's as `vector` reads it, a dictionary's a q
    /// dictionary), as ktorch.cpp's `use`.
    pub fn use_(x: Reuse) -> KResult {
        let Reuse { h, v, class, given } = x;
        if registry::is_handle(v) && registry::id_of(v) == registry::id_of(h) {
            return Ok(make::null());
        }
        let obj = match class {
            registry::Class::Tensor => {
                if registry::is_handle(v) && given != Some(registry::Class::Tensor) {
                    bail!("cannot re-assign tensor to {}", given.unwrap());
                }
                Obj::Tensor(if registry::is_handle(v) {
                    registry::take_tensor(v)?
                } else {
                    convert::to_tensor(v)?
                })
            }
            registry::Class::Vector => match given {
                Some(registry::Class::Vector) => registry::take(v)?,
                Some(registry::Class::Dictionary) => bail!("cannot re-assign vector to dictionary"),
                _ => Obj::Vector(super::vector::from_q(v)?),
            },
            _ => match given {
                Some(registry::Class::Dictionary) => registry::take(v)?,
                Some(c) => bail!("cannot re-assign dictionary to {c}"),
                None => Obj::Dict(super::dict::from_q(v)?),
            },
        };
        registry::replace(h, obj)?;
        Ok(make::null())
    }
}

/// A second handle's object, made from the one a handle holds: a tensor's shallow copy, or a
/// module's shared tree (not yet in the registry).
pub struct Shared(Obj);

impl FromQ for Shared {
    const TYPE: &'static str = "a tensor or module";
    /// Every value is the object or the registry's error.
    fn read(x: K) -> anyhow::Result<Option<Shared>> {
        registry::with(x, |o| match o {
            Obj::Tensor(t) => Ok(Obj::Tensor(t.shallow_clone())),
            Obj::Object(b) if b.shared().is_some() => Ok(Obj::Object(b.shared().unwrap())),
            other => anyhow::bail!("not implemented for {}", other.class()),
        })
        .map(|o| Some(Shared(o)))
    }
}

/// What `return` gives back before freeing the handle: a vector's or dictionary's values (as
/// `vector v` or `dict d` gives them), or a tensor's.
pub enum Returned {
    Vector(K),
    Dict(K),
    Tensor(K, Tensor),
}

impl FromQ for Returned {
    const TYPE: &'static str = "a tensor, vector or dictionary";
    /// Every value is one form or the registry's error.
    fn read(x: K) -> anyhow::Result<Option<Returned>> {
        Ok(Some(match registry::class_of(x) {
            Some(registry::Class::Vector) => Returned::Vector(x),
            Some(registry::Class::Dictionary) => Returned::Dict(x),
            _ => Returned::Tensor(x, registry::tensor(x)?),
        }))
    }
}

crate::qfn! {
    /// A second handle to the same object: a tensor, or a module (one tree under both handles,
    /// as ktorch's shared module pointer: a model made from one keeps the other usable).
    pub fn addref(x: Shared) -> KResult {
        Ok(registry::add(x.0))
    }

    /// `return h`: the values of a tensor, vector or dictionary (ktorch's `Return`), and the
    /// handle freed.
    pub fn return_(x: Returned) -> KResult {
        let (h, r) = match x {
            Returned::Vector(h) => (h, super::vector::vector::q(h)?),
            Returned::Dict(h) => (h, super::dict::dict::q(h)?),
            Returned::Tensor(h, t) => (h, convert::to_q(&t)?),
        };
        registry::free(h)?;
        Ok(r)
    }
}

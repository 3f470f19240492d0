//! Object management from q: `free`, `obj`, `tensorcount`, `class`, `mapped`, `resolve`.
use anyhow::{anyhow, bail, Result};

use super::route::{Given, Object};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::opargs::describe;

/// `free`'s forms: `free[]` (everything), a handle (freed, stale or busy: the registry's error),
/// or a list or q dictionary of handles (as `tensor d` gives), each checked here, before anything
/// is freed, so a bad item frees nothing.
pub enum Freed {
    All,
    One(K),
    Many(Vec<K>),
}

impl FromQ for Freed {
    const TYPE: &'static str = "a ktorch object, or a list or dictionary of them";
    #[inline]
    fn read(x: K) -> Result<Option<Freed>> {
        if read::is_nil(x) {
            return Ok(Some(Freed::All));
        }
        if registry::is_handle(x) {
            return Ok(Some(Freed::One(x)));
        }
        let parts = read::dict_parts(x);
        let (items, keys) = match &parts {
            Some((k, v)) => (from::list(v), Vec::<&str>::of(*k)),
            None => (from::list(&x), None),
        };
        let Some(items) = items else {
            return Ok(None);
        };
        let at = |i: usize| {
            keys.as_ref()
                .map_or(format!("element[{i}] of given list"), |k| {
                    format!("key[`{}] of given dictionary", k[i])
                })
        };
        for (i, h) in items.iter().enumerate() {
            if !registry::is_handle(*h) {
                bail!("expected a ktorch object but {} is not one", at(i));
            }
            if let Some(e) = registry::busy(*h) {
                bail!("{e}, {}", at(i));
            }
            if registry::class_of(*h).is_none() {
                bail!("stale pointer, {}", at(i));
            }
        }
        Ok(Some(Freed::Many(items.to_vec())))
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected a ktorch object, or a list or dictionary of them")
    }
}

/// `tensorcount`'s forms: a handle (its object's tensors), or anything else (the session's
/// tensors: `tensorcount[]`).
pub enum Counted {
    Of(K),
    All,
}

impl FromQ for Counted {
    const TYPE: &'static str = "a ktorch object, or ::";
    fn read(x: K) -> Result<Option<Counted>> {
        Ok(Some(if registry::is_handle(x) {
            Counted::Of(x)
        } else {
            Counted::All
        }))
    }
}

/// `obj[]`'s argument: `::` or `()`.
pub struct Empty;

impl FromQ for Empty {
    const TYPE: &'static str = "an empty argument";
    fn read(x: K) -> Result<Option<Empty>> {
        Ok(read::is_nil(x).then_some(Empty))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("empty arg expected, given {}", describe(x))
    }
}

crate::qfn! {
    /// `free h`, `free(h1;h2;..)`, a q dictionary of handles, or `free[]` (everything). A handle
    /// listed twice is freed once; a freed handle stays stale for good (ids are never reused), so
    /// `free h` again is `stale pointer`.
    pub fn free(x: Freed) -> KResult {
        match x {
            Freed::All => registry::free_all(),
            Freed::One(h) => registry::free(h)?,
            Freed::Many(hs) => {
                for h in hs {
                    if registry::class_of(h).is_some() {
                        registry::free(h)?;
                    }
                }
            }
        }
        // (K)0, as ktorch's Free returns: q reads it as `::` (KX: a C function with nothing to
        // return may return (K)0), and it spares q an allocation on the per-call path (`free`
        // follows every temporary tensor)
        Ok(std::ptr::null_mut())
    }

    /// `tensorcount h`: an object's tensors (a module's parameters and buffers, an optimizer's
    /// buffers); `tensorcount[]`: the session's tensors.
    pub fn tensorcount(x: Counted) -> Result<i64> {
        let Counted::Of(x) = x else {
            return Ok(registry::list().iter().filter(|(_, c)| *c == "tensor").count() as i64);
        };
        // an optimizer's step counts are no tensors in ktorch (Optimizer::buffer_counts)
        let opt = registry::with(x, |o| {
            if let Some(z) = o.get::<crate::optim::Optimizer>() {
                return Ok(Some(z.buffer_counts()?.0));
            }
            if let Some(m) = o.get::<crate::model::Model>() {
                let t = m.module.get();
                return Ok(Some(
                    (t.named_parameters().len() + t.named_buffers().len()) as i64
                        + m.opt.buffer_counts()?.0,
                ));
            }
            Ok(None)
        })?;
        match opt {
            Some(n) => Ok(n),
            None => Ok(registry::tensors(x)?.len() as i64),
        }
    }

    /// `mapped x`: is `x` a handle to a live object? (Never an error: any q value may be asked.)
    pub fn mapped(x: Given) -> Result<bool> {
        Ok(registry::class_of(x.0).is_some())
    }

    /// `class h`: the object's class (`tensor`, `module`, ..).
    pub fn class(x: Object) -> KResult {
        // through the registry: a busy object is the busy error
        registry::with(x.k, |o| Ok(make::symbol(o.class().name())))
    }
}

crate::qfn! {
/// `obj[]`: a table of live objects as ktorch.cpp's `kobj` makes it: ptr (the object's handle,
/// `enlist id`, as q holds it, so `free each exec ptr from obj[]` frees them all), class, device
/// (a tensor's; the first parameter's of a module, model or optimizer, the first buffer's of a
/// loss: `objdevice`; blank when there is none), dtype (tensors only, blank for every other class),
/// size (a tensor's sizes; a count for every other class: a vector's or dictionary's tensors, a
/// module's or model's parameters, an optimizer's parameters: `objsize`), elements, bytes.
pub fn obj(_x: Empty) -> KResult {
    // a tensor's sizes (a list), a count (an atom), counts (a graph's inputs and outputs)
    enum Size {
        Sizes(Vec<i64>),
        Count(i64),
        Counts(Vec<i64>),
    }
    type Row = (i64, &'static str, String, &'static str, Size, i64, i64);
    let rows = registry::each(|id, o| -> Row {
        let ts: Vec<&tch::Tensor> = o.tensors().into_iter().filter(|t| t.defined()).collect();
        // an optimizer's device is its parameters' (kobj's objdevice), its tensors are its buffers
        let dev: Vec<&tch::Tensor> = match o {
            Obj::Object(b) if o.class() == registry::Class::Optimizer => b.grad_tensors(),
            _ => ts.clone(),
        };
        (
            id,
            o.class().name(),
            dev.iter().find(|t| t.defined()).map_or(String::new(), |t| {
                crate::tensor::options::device_name(t.device())
            }),
            match o {
                Obj::Tensor(t) if t.defined() => crate::tensor::options::kind_name(t.kind()),
                _ => "",
            },
            match o {
                Obj::Tensor(t) if !t.defined() => Size::Sizes(vec![]),
                Obj::Tensor(t) => Size::Sizes(t.size()),
                Obj::Vector(v) => Size::Count(v.len() as i64),
                Obj::Dict(d) => Size::Count(d.len() as i64),
                // a module's count of parameter tensors, an optimizer's of parameters (a loss
                // has none: 0), a graph's of input and output tensors, a stream's, event's or
                // future's none (an empty list)
                Obj::Object(b) => match b.counts()[..] {
                    [n] => Size::Count(n),
                    [] if b.class() == registry::Class::Loss => Size::Count(0),
                    ref c => Size::Counts(c.to_vec()),
                },
            },
            ts.iter().map(|t| t.numel() as i64).sum::<i64>(),
            ts.iter()
                .map(|t| (t.numel() * t.kind().elt_size_in_bytes()) as i64)
                .sum::<i64>(),
        )
    });
    // objects lent to an async call: their class only, their tensors are in use
    let mut rows = rows;
    rows.extend(
        registry::busy_list()
            .into_iter()
            .map(|(id, c)| (id, c, String::new(), "", Size::Counts(vec![]), 0, 0)),
    );
    rows.sort_by_key(|r| r.0);
    let longs = |f: &dyn Fn(&Row) -> i64| make::longs(&rows.iter().map(f).collect::<Vec<i64>>());
    let syms = |f: &dyn Fn(&Row) -> String| {
        let s: Vec<String> = rows.iter().map(f).collect();
        make::symbols(&s.iter().map(|x| x.as_str()).collect::<Vec<_>>())
    };
    let sizes = make::list(
        rows.iter()
            .map(|r| match &r.4 {
                Size::Sizes(v) | Size::Counts(v) => make::longs(v),
                Size::Count(n) => make::long(*n),
            })
            .collect(),
    );
    let cols = vec![
        make::list(rows.iter().map(|r| registry::handle(r.0)).collect()),
        syms(&|r| r.1.to_string()),
        syms(&|r| r.2.clone()),
        syms(&|r| r.3.to_string()),
        sizes,
        longs(&|r| r.5),
        longs(&|r| r.6),
    ];
    let d = make::dict(
        &[
            "ptr", "class", "device", "dtype", "size", "elements", "bytes",
        ],
        cols,
    );
    Ok(make::table_of(d))
}

/// `resolve x`: `x` through q's own serialisation (`-9!-8!x`): the canonical form q itself would
/// hold, e.g. a general list of atoms of one type made a simple list.
pub fn resolve(x: Given) -> KResult {
    let x = x.0;
    match make::reserialized(x) {
        Ok(z) => Ok(z),
        Err(make::Failed::Serialize) => anyhow::bail!(
            "b9: failed to serialize {}",
            crate::tensor::opargs::describe(x)
        ),
        Err(make::Failed::Deserialize) => anyhow::bail!(
            "d9: failed to deserialize {}",
            crate::tensor::opargs::describe(x)
        ),
    }
}
}

//! Summaries: `info h` and `detail h` (a dictionary of a tensor's attributes; detail adds its
//! storage), `str h` (libtorch's printed form), `help topic`.
use anyhow::{bail, Result};
use tch::{Kind, Tensor};

use super::{attrs, facts, shape, with_tensor};
use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::tensor::{convert, options};

/// One value of an info dictionary, made into q after the registry is left.
enum V {
    S(String),
    B(bool),
    J(i64),
    Js(Vec<i64>),
}

const KEYS: [&str; 19] = [
    "device",
    "dtype",
    "layout",
    "gradient",
    "pin",
    "memory",
    "leaf",
    "gradfn",
    "dim",
    "sparsedim",
    "size",
    "stride",
    "numel",
    "itemsize",
    "contiguous",
    "coalesced",
    "offset",
    "ptr",
    "ref",
];

fn values(t: &Tensor) -> Result<Vec<V>> {
    let [device, dtype, layout, gradient, pin, memory] = attrs::options_of(t)?;
    let leaf = !t.defined() || t.f_is_leaf()?;
    let contiguous = facts::is_contiguous(t, 0)?;
    let coalesced = facts::is_coalesced(t)?;
    Ok(vec![
        V::S(device),
        V::S(dtype),
        V::S(layout),
        V::S(gradient),
        V::S(pin),
        V::S(memory),
        V::B(leaf),
        V::S(attrs::gradfn_of(t)?),
        V::J(shape::dims(t)?),
        V::J(crate::tensor::sparse::sparsedim_of(t)?),
        V::Js(shape::sizes(t)?),
        V::Js(shape::strides(t)?),
        V::J(shape::count(t)?),
        V::J(shape::item_size(t)?),
        V::B(contiguous),
        V::B(coalesced),
        V::J(facts::storage_offset(t)?),
        V::J(facts::impl_ptr(t)?),
        V::J(facts::use_count(t)?),
    ])
}

fn to_k(v: V) -> K {
    match v {
        V::S(s) => make::symbol(&s),
        V::B(b) => make::boolean(b),
        V::J(j) => make::long(j),
        V::Js(j) => make::longs(&j),
    }
}

/// The storage part of `detail`: elements, item size, references, data address, and a 1-dim
/// tensor over the whole storage (made into q data once the registry is left).
struct Storage {
    size: i64,
    itemsize: i64,
    sref: i64,
    sptr: i64,
    data: Option<Tensor>,
}

fn storage(t: &Tensor) -> Result<Storage> {
    // counts first: the view made for the data below adds references to the storage
    let (size, itemsize, sref, sptr) = (
        shape::storage_elements(t)?,
        shape::item_size(t)?,
        facts::storage_count(t)?,
        facts::storage_ptr(t)?,
    );
    let data = if t.defined() && !t.is_sparse() {
        let whole = t.f_detach()?.f_as_strided([size], [1], Some(0))?;
        // q has no half or complex types: half comes back as real; complex as real pairs.
        Some(match whole.f_kind()? {
            Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble => {
                whole.f_view_as_real()?.f_flatten(0, -1)?
            }
            _ => whole,
        })
    } else {
        None
    };
    Ok(Storage {
        size,
        itemsize,
        sref,
        sptr,
        data,
    })
}

fn summary(x: K, detail: bool) -> KResult {
    let (vals, stor) = with_tensor(x, |t| {
        let vals = values(t)?;
        let stor = if detail { Some(storage(t)?) } else { None };
        Ok((vals, stor))
    })?;
    // The storage's values first: the one step here that can fail.
    let data = match stor.as_ref().map(|s| s.data.as_ref()) {
        Some(Some(d)) => Some(convert::to_q(&d.f_to_device(tch::Device::Cpu)?)?),
        _ => None,
    };
    let mut keys: Vec<&str> = KEYS.to_vec();
    let mut ks: Vec<K> = vals.into_iter().map(to_k).collect();
    if let Some(s) = stor {
        let data = data.unwrap_or_else(|| make::list(vec![]));
        let v = vec![
            make::long(s.size),
            make::long(s.itemsize),
            make::long(s.sref),
            make::long(s.sptr),
            data,
        ];
        keys.push("storage");
        ks.push(make::dict(&["size", "itemsize", "ref", "ptr", "data"], v));
    }
    Ok(make::dict(&keys, ks))
}

pub fn info(x: K) -> KResult {
    summary(x, false)
}
pub fn detail(x: K) -> KResult {
    summary(x, true)
}

/// `str h`: the tensor as libtorch prints it (values, then type and sizes); for a module, its
/// PyTorch-like description (`nn::show`).
pub fn str(x: K) -> KResult {
    if crate::nn::api::is_module(x) {
        let m = crate::nn::api::modref(x)?;
        return Ok(make::string(&crate::nn::show::describe(m.get())));
    }
    let t = with_tensor(x, |t| Ok(t.shallow_clone()))?;
    let s = if t.defined() {
        t.to_string(80)?
    } else {
        "[ Tensor (undefined) ]".into()
    };
    Ok(make::string(s.trim_end_matches('\n')))
}

/// Help topics and what each gives (ktorch.cpp's `helpsym`).
const TOPICS: [(&str, &str); 8] = [
    ("backward", "backward calculation modes"),
    ("device", "PyTorch device mapped to random seed"),
    ("dtype", "PyTorch tensor types mapped to k types"),
    ("ktype", "k types mapped to PyTorch tensor types"),
    ("loss", "loss types, module options & forward args"),
    ("module", "module types, options & forward args"),
    ("optimizer", "optimizer types & options"),
    ("tensor", "tensor creation options"),
];

/// `backward`'s modes (ktorch.h's `backsym`): retain the graph, create one for higher order
/// derivatives.
const BACKWARD: [(&str, bool, bool, &str); 4] = [
    ("free", false, false, "free graph, no higher order derivatives"),
    ("retain", true, false, "retain graph, no higher order derivatives"),
    ("create", true, true, "retain graph, create graph for higher order derivatives"),
    ("createfree", false, true, "free graph & create graph for higher order derivatives (unused?)"),
];

/// An optimizer type's options at their defaults.
fn opt_defaults(k: &crate::optim::kinds::Kind) -> K {
    let vals: Vec<crate::nn::layers::Val> = k.opts.iter().map(|o| o.default.val(o.ty).unwrap_or(crate::nn::layers::Val::None)).collect();
    let keys: Vec<&str> = k.opts.iter().map(|o| o.name).collect();
    make::dict_of(make::symbols(&keys), make::uniform(vals.iter().map(crate::nn::api::atom).collect()))
}

/// `help`/`options` of a module or loss type or an optimizer's name; `help` gives the type's
/// row of the help table, `options` its example options. None for other names.
fn kind_help(name: &str, full: bool) -> Result<Option<K>> {
    if let Some(k) = crate::optim::kinds::find(name) {
        return Ok(Some(opt_defaults(k)));
    }
    if full {
        if let Some(r) = crate::nn::help::module_help(name, None)? {
            return Ok(Some(r));
        }
        crate::loss::help::help(name, None)
    } else {
        if let Some(r) = crate::nn::help::module_example(name)? {
            return Ok(Some(r));
        }
        crate::loss::help::example(name)
    }
}

/// `help`/`options` of a module or loss object: the type's help row with the object's own
/// options, or the options alone. None for other objects.
pub fn object_help(x: K, full: bool) -> Result<Option<K>> {
    let all = crate::session::setting::alloptions();
    if crate::nn::api::is_module(x) {
        let m = crate::nn::api::modref(x)?;
        let m = m.get();
        let o = crate::nn::api::options(m, all);
        return if full { crate::nn::help::module_help(m.layer.name, Some(o)) } else { Ok(Some(o)) };
    }
    if crate::loss::object::is_loss(x) {
        let (name, o) = registry::with(x, |ob| {
            let l = crate::loss::object::of(ob)?;
            Ok((l.name(), crate::loss::help::options(l, all)?))
        })?;
        return if full { crate::loss::help::help(name, Some(o)) } else { Ok(Some(o)) };
    }
    Ok(None)
}

/// Data types and the k type their values come back as, in ktorch's order (ktorch.h `dtype`),
/// then bfloat16, which ktorch 2.3 lacks.
const DTYPES: [Kind; 13] = [
    Kind::Float,
    Kind::Double,
    Kind::Half,
    Kind::Bool,
    Kind::Uint8,
    Kind::Int8,
    Kind::Int64,
    Kind::Int,
    Kind::Int16,
    Kind::ComplexHalf,
    Kind::ComplexFloat,
    Kind::ComplexDouble,
    Kind::BFloat16,
];

/// `help[]` the topics; `` help`dtype `` dtypes to k type letters; `` help`ktype `` k types to the
/// dtype a k array becomes; `` help`device `` devices to their generators' seeds;
/// `` help`tensor `` (or `` `vector `dictionary ``) the default tensor options.
pub fn help(x: K) -> KResult {
    topic(x, true)
}

/// `help` (`full`) or `options` of a topic or type name.
pub fn topic(x: K, full: bool) -> KResult {
    if registry::is_handle(x) {
        if let Some(r) = object_help(x, full)? {
            return Ok(r);
        }
        return super::attrs::options(x);
    }
    let topic = if read::is_nil(x) {
        Some("")
    } else {
        read::symbol(x)
    };
    let Some(topic) = topic else {
        bail!(
            "expects an empty argument or a topic symbol, given {}",
            super::qtype_name(x)
        );
    };
    Ok(match topic {
        "" => {
            let k: Vec<&str> = TOPICS.iter().map(|t| t.0).collect();
            make::dict(&k, TOPICS.iter().map(|t| make::string(t.1)).collect())
        }
        "dtype" => {
            let k: Vec<&str> = DTYPES.iter().map(|d| options::kind_name(*d)).collect();
            let v: Vec<u8> = DTYPES
                .iter()
                .map(|d| attrs::ktype_letter(*d).unwrap_or(b' '))
                .collect();
            make::dict_of(make::symbols(&k), make::chars(&v))
        }
        // ktorch's table as it prints it (ktorch.cpp `ktypes`): the k type letter of each of
        // its first 8 dtypes, so `e` shows for float and for half
        "ktype" => {
            let k: Vec<u8> = DTYPES[..8].iter().map(|d| attrs::ktype_letter(*d).unwrap_or(b' ')).collect();
            let v: Vec<&str> = DTYPES[..8].iter().map(|d| options::kind_name(*d)).collect();
            make::dict_of(make::chars(&k), make::symbols(&v))
        }
        "device" => {
            let n = tch::Cuda::device_count().max(0) as usize;
            let mut names = vec!["cpu".to_string()];
            let mut seeds = vec![facts::device_seed(None)?];
            if n > 0 {
                names.push("cuda".into());
                seeds.push(facts::device_seed(Some(0))?);
            }
            for i in 0..n {
                names.push(format!("cuda:{i}"));
                seeds.push(facts::device_seed(Some(i))?);
            }
            let k: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
            make::dict_of(make::symbols(&k), make::longs(&seeds))
        }
        "tensor" | "vector" | "dictionary" => attrs::default_options(),
        "module" => crate::nn::help::module_table()?,
        "loss" => crate::loss::help::table()?,
        "optimizer" => {
            let ks = crate::optim::kinds::KINDS;
            let names: Vec<&str> = ks.iter().map(|k| k.name).collect();
            let py = make::list(ks.iter().map(|k| make::string(k.pytorch)).collect());
            let opts = make::list(ks.iter().map(opt_defaults).collect());
            make::table(&["optimizer", "pytorch", "options"], vec![make::symbols(&names), py, opts])
        }
        "backward" => make::table(
            &["mode", "retain", "create", "description"],
            vec![
                make::symbols(&BACKWARD.map(|b| b.0)),
                make::booleans(&BACKWARD.map(|b| b.1)),
                make::booleans(&BACKWARD.map(|b| b.2)),
                make::list(BACKWARD.iter().map(|b| make::string(b.3)).collect()),
            ],
        ),
        other => match kind_help(other, full)? {
            Some(r) => r,
            None => {
                let k: Vec<&str> = TOPICS.iter().map(|t| t.0).collect();
                bail!(
                    "unrecognized help topic `{other}, expecting one of {}, or a module, loss or optimizer name",
                    k.join(",")
                )
            }
        },
    })
}

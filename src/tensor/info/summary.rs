//! Summaries: `info h` and `detail h` (a dictionary of a tensor's attributes; detail adds its
//! storage), `str h` (libtorch's printed form); `help topic` is dispatch/help.rs.
use anyhow::Result;
use tch::{Kind, Tensor};

use super::{attrs, facts, shape, TensorHandle};
use crate::k::{make, KResult, K};
use crate::tensor::convert;

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
        V::J(super::sparsedim_of(t)?),
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

fn summary(x: TensorHandle, detail: bool) -> KResult {
    let (vals, stor) = x.with(|t| {
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

crate::qfn! {
    /// `info t`: a tensor's options, flags, sizes and pointers, as a dictionary.
    pub fn info(x: TensorHandle) -> KResult {
        summary(x, false)
    }

    /// `detail t`: `info` and the tensor's storage (its size, item size, count, pointer, data).
    pub fn detail(x: TensorHandle) -> KResult {
        summary(x, true)
    }

    /// `str h`: the tensor as libtorch prints it (values, then type and sizes); a module's is
    /// dispatch/info.rs.
    pub fn str(x: TensorHandle) -> KResult {
        let t = x.with(|t| Ok(t.shallow_clone()))?;
        let s = if t.defined() {
            t.to_string(80)?
        } else {
            "[ Tensor (undefined) ]".into()
        };
        Ok(make::string(s.trim_end_matches('\n')))
    }
}

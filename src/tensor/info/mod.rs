//! Tensor information (ktorch's info.rst): one attribute of every tensor an object holds, shaped
//! as ktorch does: an atom for a tensor, a list for a vector, a dictionary for a dictionary.
//!
//! - `shape`: size stride dim numel itemsize elements bytes offset
//! - `pointers`: ptr sptr ref sref weakref same alias
//! - `attrs`: dtype device layout gradient memory gradfn ktype objtype options
//! - `flags`: contiguous coalesced defined gradflag leaf pinned sparseflag
//! - `summary`: info detail str help
//! - `facts`: the libtorch facts tch does not wrap (src/cxx/tensor_info.cpp)
pub mod attrs;
pub use crate::cxx::tensor_info as facts;
pub mod flags;
pub mod pointers;
pub mod shape;
pub mod summary;

use anyhow::{bail, Result};
use tch::Tensor;

use crate::k::from::FromQ;
use crate::k::{make, read, KResult, K};
use crate::registry;

/// One attribute of a tensor, by the q type it comes back as.
pub enum Attr<'a> {
    Long(&'a dyn Fn(&Tensor) -> Result<i64>),
    Longs(&'a dyn Fn(&Tensor) -> Result<Vec<i64>>),
    Sym(&'a dyn Fn(&Tensor) -> Result<String>),
    Bool(&'a dyn Fn(&Tensor) -> Result<bool>),
    Char(&'a dyn Fn(&Tensor) -> Result<u8>),
}

/// Attribute values, computed before any q value is made (so an error leaks nothing).
pub enum Vals {
    Long(Vec<i64>),
    Longs(Vec<Vec<i64>>),
    Sym(Vec<String>),
    Bool(Vec<bool>),
    Char(Vec<u8>),
}

/// What the values came from: one tensor, a vector, or a dictionary with its keys.
enum From {
    Tensor,
    Vector,
    Dict(Vec<String>),
}

impl Attr<'_> {
    fn eval(&self, ts: &[&Tensor]) -> Result<Vals> {
        fn all<T>(ts: &[&Tensor], f: &dyn Fn(&Tensor) -> Result<T>) -> Result<Vec<T>> {
            ts.iter().map(|t| f(t)).collect()
        }
        Ok(match self {
            Attr::Long(f) => Vals::Long(all(ts, *f)?),
            Attr::Longs(f) => Vals::Longs(all(ts, *f)?),
            Attr::Sym(f) => Vals::Sym(all(ts, *f)?),
            Attr::Bool(f) => Vals::Bool(all(ts, *f)?),
            Attr::Char(f) => Vals::Char(all(ts, *f)?),
        })
    }
}

impl Vals {
    /// The first value as an atom (or a long list for `Longs`).
    fn atom(self) -> K {
        match self {
            Vals::Long(v) => make::long(v[0]),
            Vals::Longs(v) => make::longs(&v[0]),
            Vals::Sym(v) => make::symbol(&v[0]),
            Vals::Bool(v) => make::boolean(v[0]),
            Vals::Char(v) => make::char(v[0]),
        }
    }
    /// All values as a q list.
    fn list(self) -> K {
        match self {
            Vals::Long(v) => make::longs(&v),
            Vals::Longs(v) => make::list(v.iter().map(|s| make::longs(s)).collect()),
            Vals::Sym(v) => make::symbols(&v.iter().map(|s| s.as_str()).collect::<Vec<_>>()),
            Vals::Bool(v) => make::booleans(&v),
            Vals::Char(v) => make::chars(&v),
        }
    }
}

/// What an information function reads: a tensor, vector or dictionary handle (its class checked
/// in the registry, where the values are computed on the stored tensors, so reference counts
/// stay as stored), or, where `DATA` allows it, q data made into a tensor.
pub enum Held<const DATA: bool> {
    Handle(K),
    Data(Tensor),
}

impl<const DATA: bool> FromQ for Held<DATA> {
    const TYPE: &'static str = if DATA {
        "a tensor, vector or dictionary, or q data"
    } else {
        "a tensor, vector or dictionary"
    };
    /// A handle of any class (another class is `not implemented for ..` when queried); q data
    /// that no tensor can be made of is the conversion's error.
    fn read(x: K) -> Result<Option<Held<DATA>>> {
        if registry::is_handle(x) {
            Ok(Some(Held::Handle(x)))
        } else if DATA && !read::is_unset(x) {
            Ok(Some(Held::Data(super::convert::to_tensor(x)?)))
        } else {
            Ok(None)
        }
    }
    /// ktorch's words: `expects a tensor, vector or dictionary, given ..`.
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow::anyhow!("{}", expected(x, DATA))
    }
}

/// The values of `attr` for the object `x` holds: an atom for a tensor, a list for a vector, a
/// dictionary for a dictionary.
pub fn query<const DATA: bool>(x: Held<DATA>, attr: Attr) -> KResult {
    let (from, vals) = match x {
        Held::Handle(h) => registry::with(h, |o| {
            let from = match o {
                registry::Obj::Tensor(_) => From::Tensor,
                registry::Obj::Vector(_) => From::Vector,
                registry::Obj::Dict(_) => From::Dict(
                    o.keys()
                        .unwrap_or_default()
                        .iter()
                        .map(|k| k.to_string())
                        .collect(),
                ),
                _ => anyhow::bail!("not implemented for {}", o.class()),
            };
            Ok((from, attr.eval(&o.tensors())?))
        })?,
        Held::Data(t) => (From::Tensor, attr.eval(&[&t])?),
    };
    Ok(match from {
        From::Tensor => vals.atom(),
        From::Vector => vals.list(),
        From::Dict(keys) => {
            let keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
            make::dict_of(make::symbols(&keys), vals.list())
        }
    })
}

/// The error for an argument that is not what a function takes.
pub fn expected(x: K, data: bool) -> String {
    let what = if data {
        "a tensor, vector or dictionary, or q data"
    } else {
        "a tensor, vector or dictionary"
    };
    format!("expects {what}, given {}", qtype_name(x))
}

/// A q value's type in words, for error messages.
pub fn qtype_name(x: K) -> String {
    // q's names as k::read::type_name words them; here the empty list is a general list, `::`
    // is null, and enumerations and functions go by their type number
    match read::ktype(x) {
        101 => "null".into(),
        0 => "general list".into(),
        t @ (-19..=-1 | 1..=19 | 98 | 99) => read::type_name(t),
        t => format!("type {t}h"),
    }
}

/// A handle whose one tensor a function reads in the registry (`with_tensor`: no clone, so
/// reference counts stay as stored); its class is checked there. q data is `expected a tensor,
/// given ..`.
pub struct TensorHandle(K);

impl FromQ for TensorHandle {
    const TYPE: &'static str = "a tensor";
    fn read(x: K) -> Result<Option<TensorHandle>> {
        Ok(registry::is_handle(x).then_some(TensorHandle(x)))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow::anyhow!("expected a tensor, given {}", qtype_name(x))
    }
}

impl TensorHandle {
    /// Run `f` on the stored tensor.
    pub fn with<R>(&self, f: impl FnOnce(&Tensor) -> Result<R>) -> Result<R> {
        with_tensor(self.0, f)
    }
}

/// Run `f` on the one tensor of handle `x` (no clone: reference counts stay as stored).
pub fn with_tensor<R>(x: K, f: impl FnOnce(&Tensor) -> Result<R>) -> Result<R> {
    if !registry::is_handle(x) {
        bail!("expected a tensor, given {}", qtype_name(x));
    }
    registry::with(x, |o| match o {
        registry::Obj::Tensor(t) => f(t),
        other => bail!("expected a tensor, given a {}", other.class()),
    })
}

/// The number of sparse dimensions of `t` (0 for a dense or undefined tensor).
pub fn sparsedim_of(t: &Tensor) -> Result<i64> {
    Ok(if t.defined() && t.is_sparse() {
        t.f_sparse_dim()?
    } else {
        0
    })
}

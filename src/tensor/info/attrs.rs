//! Tensor options as symbols: `dtype device layout gradient memory gradfn ktype objtype options`.
//! An undefined tensor answers null symbols (a blank char for `ktype`).
use anyhow::{anyhow, Result};
use tch::{Kind, Tensor};

use super::{facts, query, Attr, Held};
use crate::k::from::FromQ;
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};
use crate::tensor::options as topts;

fn defined_or_null(t: &Tensor, f: impl FnOnce(&Tensor) -> Result<String>) -> Result<String> {
    if t.defined() {
        f(t)
    } else {
        Ok(String::new())
    }
}
pub fn dtype_of(t: &Tensor) -> Result<String> {
    defined_or_null(t, |t| Ok(topts::kind_name(t.f_kind()?).into()))
}
pub fn device_of(t: &Tensor) -> Result<String> {
    defined_or_null(t, |t| Ok(topts::device_name(t.device())))
}
pub fn layout_of(t: &Tensor) -> Result<String> {
    defined_or_null(t, |t| Ok(facts::layout(t)?.into()))
}
pub fn gradient_of(t: &Tensor) -> Result<String> {
    defined_or_null(t, |t| {
        Ok(if t.requires_grad() { "grad" } else { "nograd" }.into())
    })
}
pub fn pin_of(t: &Tensor) -> Result<String> {
    defined_or_null(t, |t| {
        Ok(if facts::is_pinned(t)? {
            "pinned"
        } else {
            "unpinned"
        }
        .into())
    })
}
pub fn memory_of(t: &Tensor) -> Result<String> {
    defined_or_null(t, |t| Ok(facts::MEMORY[facts::memory_format(t)?].into()))
}
pub fn gradfn_of(t: &Tensor) -> Result<String> {
    defined_or_null(t, facts::grad_fn)
}

/// The k type letter a dtype's values come back as (ktorch's `help`dtype` map).
pub fn ktype_letter(k: Kind) -> Option<u8> {
    Some(match k {
        Kind::Float | Kind::Half | Kind::BFloat16 | Kind::ComplexHalf | Kind::ComplexFloat => b'e',
        Kind::Double | Kind::ComplexDouble => b'f',
        Kind::Bool => b'b',
        Kind::Uint8 => b'x',
        Kind::Int8 => b'c',
        Kind::Int64 => b'j',
        Kind::Int => b'i',
        Kind::Int16 => b'h',
        _ => return None,
    })
}
pub fn ktype_of(t: &Tensor) -> Result<u8> {
    if !t.defined() {
        return Ok(b' ');
    }
    let k = t.f_kind()?;
    ktype_letter(k).ok_or_else(|| anyhow!("no k type for data type `{}", topts::kind_name(k)))
}

/// `dtype`'s forms: `dtype[]` (`::` or `()`), `` dtype`double `` (a data type to make the
/// default), or an object or q data whose dtypes it answers.
pub enum DtypeArg {
    Default,
    Set(Kind),
    Of(Held<true>),
}

impl FromQ for DtypeArg {
    const TYPE: &'static str = Held::<true>::TYPE;
    /// A symbol is a data type's name (another name is an error), else as `Held` reads it.
    fn read(x: K) -> Result<Option<DtypeArg>> {
        if read::is_nil(x) {
            return Ok(Some(DtypeArg::Default));
        }
        if let Some(s) = <&str>::of(x) {
            let k =
                topts::kind_from_name(s).ok_or_else(|| anyhow!("unrecognized data type: `{s}"))?;
            return Ok(Some(DtypeArg::Set(k)));
        }
        Ok(Held::<true>::read(x)?.map(DtypeArg::Of))
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        Held::<true>::wrong(x, arg)
    }
}

crate::qfn! {
    /// `dtype[]` the default dtype, `` dtype`double `` sets it, `dtype x` the dtype(s) of x.
    pub fn dtype(x: DtypeArg) -> KResult {
        match x {
            DtypeArg::Default => Ok(make::symbol(topts::kind_name(topts::default_kind()))),
            DtypeArg::Set(k) => {
                topts::set_default_kind(k)?;
                Ok(make::null())
            }
            DtypeArg::Of(h) => query(h, Attr::Sym(&dtype_of)),
        }
    }
}

/// The session's default device: `cuda` when a CUDA device is available, else `cpu`.
pub fn default_device() -> &'static str {
    if tch::Cuda::is_available() {
        "cuda"
    } else {
        "cpu"
    }
}

/// `device`'s forms: `device[]` (`::` or `()`), or an object or q data whose devices it answers.
pub enum DeviceArg {
    Default,
    Of(Held<true>),
}

impl FromQ for DeviceArg {
    const TYPE: &'static str = Held::<true>::TYPE;
    fn read(x: K) -> Result<Option<DeviceArg>> {
        if read::is_nil(x) {
            return Ok(Some(DeviceArg::Default));
        }
        Ok(Held::<true>::read(x)?.map(DeviceArg::Of))
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        Held::<true>::wrong(x, arg)
    }
}

crate::qfn! {
    /// `device[]` the default device, `device x` the device(s) of x.
    pub fn device(x: DeviceArg) -> KResult {
        match x {
            DeviceArg::Default => Ok(make::symbol(default_device())),
            DeviceArg::Of(h) => query(h, Attr::Sym(&device_of)),
        }
    }
}

crate::qfn! {
    pub fn layout(x: Held<true>) -> KResult {
        query(x, Attr::Sym(&layout_of))
    }
}
crate::qfn! {
    pub fn gradient(x: Held<false>) -> KResult {
        query(x, Attr::Sym(&gradient_of))
    }
}
crate::qfn! {
    pub fn memory(x: Held<true>) -> KResult {
        query(x, Attr::Sym(&memory_of))
    }
}
crate::qfn! {
    pub fn gradfn(x: Held<false>) -> KResult {
        query(x, Attr::Sym(&gradfn_of))
    }
}
crate::qfn! {
    pub fn ktype(x: Held<true>) -> KResult {
        query(x, Attr::Char(&ktype_of))
    }
}

/// Any object's handle (`objtype`'s argument): q data is `requires an allocated object ..`.
pub struct Allocated(K);

impl FromQ for Allocated {
    const TYPE: &'static str = "an allocated object";
    fn read(x: K) -> Result<Option<Allocated>> {
        Ok(registry::is_handle(x).then_some(Allocated(x)))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!(
            "requires an allocated object, e.g. tensor, vector or dictionary, given {}",
            super::qtype_name(x)
        )
    }
}

crate::qfn! {
    /// `objtype x`: the kind of tensor object (`tensor` for tensors, vectors and dictionaries).
    pub fn objtype(x: Allocated) -> KResult {
        let x = x.0;
        if let Some(t) = registry::objtype_tag(x) {
            return Ok(make::symbol(t));
        }
        registry::with(x, |o| match o {
            Obj::Tensor(_) | Obj::Vector(_) | Obj::Dict(_) => Ok(make::symbol("tensor")),
            // a module's type, as ktorch: `sequential, `linear, ..; an optimizer's or loss's name;
            // a model, stream, event or graph: its class
            Obj::Object(b) => Ok(make::symbol(b.objtype())),
        })
    }
}

/// The keys of an options dictionary or table.
pub const OPTION_KEYS: [&str; 6] = ["device", "dtype", "layout", "gradient", "pin", "memory"];

/// A tensor's options, in OPTION_KEYS order.
pub fn options_of(t: &Tensor) -> Result<[String; 6]> {
    Ok([
        device_of(t)?,
        dtype_of(t)?,
        layout_of(t)?,
        gradient_of(t)?,
        pin_of(t)?,
        memory_of(t)?,
    ])
}

/// The options of a tensor made with none given.
pub fn default_options() -> K {
    let vals = [
        "cpu",
        topts::kind_name(topts::default_kind()),
        "strided",
        "nograd",
        "unpinned",
        "contiguous",
    ];
    make::dict_of(make::symbols(&OPTION_KEYS), make::symbols(&vals))
}

/// `options`' forms here: `options[]` (`::` or `()`), or a tensor, vector or dictionary
/// handle (its class checked in the registry); q data is `expects a tensor, vector or
/// dictionary, given ..`.
pub enum OptionsOf {
    Defaults,
    Of(K),
}

impl FromQ for OptionsOf {
    const TYPE: &'static str = Held::<false>::TYPE;
    fn read(x: K) -> Result<Option<OptionsOf>> {
        if read::is_nil(x) {
            return Ok(Some(OptionsOf::Defaults));
        }
        Ok(registry::is_handle(x).then_some(OptionsOf::Of(x)))
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        Held::<false>::wrong(x, arg)
    }
}

crate::qfn! {
    /// `options[]` the defaults for new tensors; `options x` a tensor's options (a dictionary), a
    /// vector's (a table, a row per tensor), a dictionary's (keys to rows); the q function, which
    /// also takes topics, modules and losses, is dispatch/help.rs.
    pub fn options(x: OptionsOf) -> KResult {
        let x = match x {
            OptionsOf::Defaults => return Ok(default_options()),
            OptionsOf::Of(h) => h,
        };
        let (rows, keys) = registry::with(x, |o| {
            let rows = o
                .tensors()
                .into_iter()
                .map(options_of)
                .collect::<Result<Vec<_>>>()?;
            Ok((
                rows,
                o.keys()
                    .map(|k| k.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
            ))
        })?;
        let class = registry::class_of(x).unwrap_or(registry::Class::Tensor);
        if class == registry::Class::Tensor {
            let vals: Vec<&str> = rows[0].iter().map(|s| s.as_str()).collect();
            return Ok(make::dict_of(
                make::symbols(&OPTION_KEYS),
                make::symbols(&vals),
            ));
        }
        let cols = (0..OPTION_KEYS.len())
            .map(|c| make::symbols(&rows.iter().map(|r| r[c].as_str()).collect::<Vec<_>>()))
            .collect();
        let table = make::table(&OPTION_KEYS, cols);
        Ok(match keys {
            Some(k) => make::dict_of(
                make::symbols(&k.iter().map(|s| s.as_str()).collect::<Vec<_>>()),
                table,
            ),
            None => table,
        })
    }
}

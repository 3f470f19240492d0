//! `help` and `options` of a topic, of a module, loss or optimizer type, or of an object: a
//! module's or loss's options, else a tensor's (tensor/info/attrs.rs).
use anyhow::{anyhow, bail, Result};
use tch::Kind;

use super::route::{classes, Classes, Object, Routed, ANY};
use crate::k::from::FromQ;
use crate::k::{make, KResult, K};
use crate::registry::{self, Class};
use crate::session::setting::alloptions;
use crate::tensor::info::attrs::OptionsOf;
use crate::tensor::info::{self, attrs, facts};
use crate::tensor::options as topts;
use crate::{loss, nn, optim};

/// A module, loss or optimizer: its options here.
const HELPED: Classes = classes(&[Class::Module, Class::Loss, Class::Optimizer]);

/// `help`'s and `options`' argument (`HELP` tells which, for the error of other q data): a topic
/// or a module, loss or optimizer type's name, or an object: a module's, loss's or optimizer's
/// options are answered here, any other object's (a tensor's, vector's or dictionary's, a
/// model's parameters') are tensor/info's (`OptionsOf`, which also reads `::` and `()`).
pub enum Asked<const HELP: bool> {
    Name(&'static str),
    Of(Routed<HELPED, ANY, OptionsOf>),
}

impl<const HELP: bool> FromQ for Asked<HELP> {
    const TYPE: &'static str = "an empty argument, a topic symbol or an object";
    fn read(x: K) -> Result<Option<Self>> {
        if let Some(s) = <&str>::of(x) {
            return Ok(Some(Asked::Name(s)));
        }
        Ok(Routed::read(x)?.map(Asked::Of))
    }
    /// `help`: ktorch's words; `options`: tensor/info's.
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        if HELP {
            anyhow!(
                "expected an empty argument or a topic symbol, given {}",
                info::qtype_name(x)
            )
        } else {
            OptionsOf::wrong(x, arg)
        }
    }
}

crate::qfn! {
    /// `options[]` the defaults for new tensors; `options x` a tensor's options (a dictionary), a
    /// vector's (a table, a row per tensor), a dictionary's (keys to rows); a module's, loss's or
    /// optimizer's options; `options`topic` as help, a type's example options.
    pub fn options(x: Asked<false>) -> KResult {
        match x {
            Asked::Name(s) => topic(s, false),
            Asked::Of(Routed::Here(o)) => object_help(o, false),
            Asked::Of(Routed::There(t)) => attrs::options(t),
        }
    }

    /// `help[]` the topics; `` help`dtype `` dtypes to k type letters; `` help`ktype `` k types
    /// to the dtype a k array becomes; `` help`device `` devices to their generators' seeds;
    /// `` help`tensor `` (or `` `vector `dictionary ``) the default tensor options; a type's
    /// help; an object's: its options.
    pub fn help(x: Asked<true>) -> KResult {
        match x {
            Asked::Name(s) => topic(s, true),
            Asked::Of(Routed::Here(o)) => object_help(o, true),
            Asked::Of(Routed::There(OptionsOf::Defaults)) => topic("", true),
            Asked::Of(Routed::There(t)) => attrs::options(t),
        }
    }
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
    (
        "free",
        false,
        false,
        "free graph, no higher order derivatives",
    ),
    (
        "retain",
        true,
        false,
        "retain graph, no higher order derivatives",
    ),
    (
        "create",
        true,
        true,
        "retain graph, create graph for higher order derivatives",
    ),
    (
        "createfree",
        false,
        true,
        "free graph & create graph for higher order derivatives (unused?)",
    ),
];

/// An optimizer type's options at their defaults, as kopt.cpp's `optdefaults` shows them: a long
/// option with no value is a long null (LBFGS's `eval`: `kj(nj)`), and LBFGS shows its line
/// search (optdefaults sets `line_search_fn`; its `strong_wolf` is a typo libtorch refuses at the
/// first step, "only 'strong_wolfe' is supported": here the value libtorch takes).
fn opt_defaults(k: &optim::kinds::Kind) -> K {
    use nn::layers::{Ty, Val};
    let vals: Vec<Val> = k
        .opts
        .iter()
        .map(|o| match (o.default.val(o.ty).unwrap_or(Val::None), o.ty) {
            (Val::None, Ty::Long) => Val::Long(i64::MIN),
            (Val::None, Ty::Sym(s)) if k.name == "lbfgs" && o.name == "search" => Val::Sym(s[0]),
            (v, _) => v,
        })
        .collect();
    let keys: Vec<&str> = k.opts.iter().map(|o| o.name).collect();
    make::dict_of(
        make::symbols(&keys),
        make::uniform(vals.iter().map(nn::api::atom).collect()),
    )
}

/// `help`/`options` of a module or loss type or an optimizer's name; `help` gives the type's
/// row of the help table, `options` its example options. None for other names.
fn kind_help(name: &str, full: bool) -> Result<Option<K>> {
    if let Some(k) = optim::kinds::find(name) {
        return Ok(Some(opt_defaults(k)));
    }
    if full {
        if let Some(r) = nn::help::module_help(name, None)? {
            return Ok(Some(r));
        }
        loss::help::help(name, None)
    } else {
        if let Some(r) = nn::help::module_example(name)? {
            return Ok(Some(r));
        }
        loss::help::example(name)
    }
}

/// `help`/`options` of a module or loss object: the type's help row with the object's own
/// options, or the options alone; of an optimizer, its options, one row per group (ktorch.cpp
/// `khelp`: `optsettings` for both).
fn object_help(x: Object, full: bool) -> KResult {
    let all = alloptions();
    match x.class {
        Class::Optimizer => registry::with(x.k, |o| {
            Ok(optim::api::options_table(optim::api::optimizer(o)?, all))
        }),
        Class::Loss => {
            let (name, o) = registry::with(x.k, |ob| {
                let l = loss::object::of(ob)?;
                Ok((l.name(), loss::help::options(l, all)?))
            })?;
            if !full {
                return Ok(o);
            }
            let h = loss::help::help(name, Some(o))?;
            h.ok_or_else(|| anyhow!("no help for loss `{name}"))
        }
        _ => {
            let m = nn::api::modref(x.k)?;
            let m = m.get();
            let o = nn::api::options(m, all);
            if !full {
                return Ok(o);
            }
            let h = nn::help::module_help(m.layer.name, Some(o))?;
            h.ok_or_else(|| anyhow!("no help for module `{}", m.layer.name))
        }
    }
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

/// `help` (`full`) or `options` of a topic (`""`: the list of topics) or type name.
fn topic(topic: &str, full: bool) -> KResult {
    Ok(match topic {
        "" => {
            let k: Vec<&str> = TOPICS.iter().map(|t| t.0).collect();
            make::dict(&k, TOPICS.iter().map(|t| make::string(t.1)).collect())
        }
        "dtype" => {
            let k: Vec<&str> = DTYPES.iter().map(|d| topts::kind_name(*d)).collect();
            let v: Vec<u8> = DTYPES
                .iter()
                .map(|d| attrs::ktype_letter(*d).unwrap_or(b' '))
                .collect();
            make::dict_of(make::symbols(&k), make::chars(&v))
        }
        // ktorch's table as it prints it (ktorch.cpp `ktypes`): the k type letter of each of
        // its first 8 dtypes, so `e` shows for float and for half
        "ktype" => {
            let k: Vec<u8> = DTYPES[..8]
                .iter()
                .map(|d| attrs::ktype_letter(*d).unwrap_or(b' '))
                .collect();
            let v: Vec<&str> = DTYPES[..8].iter().map(|d| topts::kind_name(*d)).collect();
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
        "module" => nn::help::module_table()?,
        "loss" => loss::help::table()?,
        "optimizer" => {
            let ks = optim::kinds::KINDS;
            let names: Vec<&str> = ks.iter().map(|k| k.name).collect();
            let py = make::list(ks.iter().map(|k| make::string(k.pytorch)).collect());
            let opts = make::list(ks.iter().map(opt_defaults).collect());
            make::table(
                &["optimizer", "pytorch", "options"],
                vec![make::symbols(&names), py, opts],
            )
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
                    "unrecognized help topic `{other}, expected one of {}, or a module, loss or optimizer name",
                    k.join(",")
                )
            }
        },
    })
}

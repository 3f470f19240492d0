//! `help` and `options` of a topic, of a module, loss or optimizer type, or of an object: a
//! module's or loss's options, else a tensor's (tensor/info/attrs.rs).
use anyhow::{bail, Result};
use tch::Kind;

use crate::k::from::{FromQ, Sym};
use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::session::setting::alloptions;
use crate::tensor::info::{self, attrs, facts};
use crate::tensor::options;
use crate::{loss, nn, optim};

/// `options[]` the defaults for new tensors; `options x` a tensor's options (a dictionary), a
/// vector's (a table, a row per tensor), a dictionary's (keys to rows); a module's or loss's
/// options; `options`topic` as help.
pub fn options(x: K) -> KResult {
    if read::is_nil(x) {
        return Ok(attrs::default_options());
    }
    if Sym::of(x).is_some() {
        return topic(x, false);
    }
    if let Some(r) = object_help(x, false)? {
        return Ok(r);
    }
    attrs::options::q(x)
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
/// `khelp`: `optsettings` for both). None for other objects.
pub fn object_help(x: K, full: bool) -> Result<Option<K>> {
    let all = alloptions();
    if registry::class_of(x) == Some(registry::Class::Optimizer) {
        return registry::with(x, |o| {
            Ok(Some(optim::api::options_table(
                optim::api::optimizer(o)?,
                all,
            )))
        });
    }
    if nn::api::is_module(x) {
        let m = nn::api::modref(x)?;
        let m = m.get();
        let o = nn::api::options(m, all);
        return if full {
            nn::help::module_help(m.layer.name, Some(o))
        } else {
            Ok(Some(o))
        };
    }
    if loss::object::is_loss(x) {
        let (name, o) = registry::with(x, |ob| {
            let l = loss::object::of(ob)?;
            Ok((l.name(), loss::help::options(l, all)?))
        })?;
        return if full {
            loss::help::help(name, Some(o))
        } else {
            Ok(Some(o))
        };
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
        return attrs::options::q(x);
    }
    let topic = if read::is_nil(x) {
        Some("")
    } else {
        Sym::of(x).map(|s| s.0)
    };
    let Some(topic) = topic else {
        bail!(
            "expected an empty argument or a topic symbol, given {}",
            info::qtype_name(x)
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
            let k: Vec<u8> = DTYPES[..8]
                .iter()
                .map(|d| attrs::ktype_letter(*d).unwrap_or(b' '))
                .collect();
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

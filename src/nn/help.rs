//! `help` and `options` for module and loss types (ktorch.cpp's `modulehelp`, knn.cpp's
//! `modexample`, kloss.cpp's `lossexample`): `` help`module `` a table of every module type,
//! `` help`conv2d `` one row of it as a dictionary (module, PyTorch's name, whether its forward
//! is fixed, its result type, the least number of inputs, the input types, example options),
//! `` options`conv2d `` the example options alone; the same for losses (`` help`loss ``).
//! The example options are ktorch's, made through the same option reader as `module` uses, so
//! they show every option with its default where the example sets none.
use anyhow::{anyhow, Result};

use super::layers::{self, Layer};
use super::spec;
use crate::k::{make, KResult, Owned, K};

/// ktorch's module types (knn.cpp's `moduleattrs`): name, the least number of inputs ktorch
/// gives (0: the count of its forward's arguments), and the example options of `modexample` as
/// `name:value` pairs (PyTorch's name is the layer table's, `Layer::pytorch`) (a value: a long, a float, a list of either separated by
/// spaces, or a `symbol).
static MODULES: &[(&str, usize, &str)] = &[
    ("adaptavg1d", 0, "size:3"),
    ("adaptavg2d", 0, "size:3 2"),
    ("adaptavg3d", 0, "size:3 2 4"),
    ("adaptmax1d", 0, "size:3"),
    ("adaptmax2d", 0, "size:3 2"),
    ("adaptmax3d", 0, "size:3 2 4"),
    ("adrop", 0, ""),
    // ours: AOTInductor packages and TorchScript modules made in Python (docs/pymodels.md)
    ("aoti", 1, "file:`model.pt2"),
    ("attention", 3, "dim:2048;heads:8"),
    ("avgpool1d", 0, "size:3"),
    ("avgpool2d", 0, "size:3 2"),
    ("avgpool3d", 0, "size:3 2 2"),
    ("batchnorm1d", 0, "in:32"),
    ("batchnorm2d", 0, "in:32"),
    ("batchnorm3d", 0, "in:32"),
    ("bilinear", 0, "in1:20;in2:30;out:40"),
    ("callback", 1, "fn:`f"),
    ("cat", 0, ""),
    ("celu", 0, ""),
    ("conv1d", 0, "in:16;out:32;size:3"),
    ("conv2d", 0, "in:16;out:32;size:3 5"),
    ("conv3d", 0, "in:16;out:32;size:3 5 2"),
    ("convtranspose1d", 1, "in:128;out:64;size:5"),
    ("convtranspose2d", 1, "in:128;out:64;size:3 5"),
    ("convtranspose3d", 1, "in:128;out:64;size:3 5 2"),
    ("crossmap2d", 0, "size:2"),
    ("decoder", 2, "layers:6"),
    ("decoderlayer", 2, "in:512;heads:8"),
    ("drop", 0, ""),
    ("drop2d", 0, ""),
    ("drop3d", 0, ""),
    ("droppath", 0, "p:0.1"),
    ("elu", 0, ""),
    ("embed", 0, "rows:1000;cols:64"),
    ("embedbag", 1, "rows:1000;cols:64"),
    ("embedpos", 0, "rows:120;cols:512"),
    ("embedseq", 0, "rows:5000;cols:512;length:120"),
    ("encoder", 1, "layers:6"),
    ("encoderlayer", 1, "in:512;heads:8"),
    ("expand", 0, "size:-1 -1 28 28"),
    ("fadrop", 0, ""),
    ("flatten", 0, ""),
    ("fmaxpool2d", 0, "size:2 4;outsize:16 32"),
    ("fmaxpool3d", 0, "size:2 4 3;outsize:16 32 24"),
    ("fold", 0, "out:4 6;size:2 3"),
    ("fork", 0, ""),
    ("gelu", 0, ""),
    ("glu", 0, ""),
    ("groupnorm", 0, "groups:3;channels:6"),
    ("gru", 1, "in:10;hidden:20"),
    ("hardshrink", 0, ""),
    ("hardtanh", 0, ""),
    ("identity", 0, ""),
    ("indexselect", 0, "dim:1;ind:0 1 2"),
    ("instancenorm1d", 0, "in:100"),
    ("instancenorm2d", 0, "in:100"),
    ("instancenorm3d", 0, "in:100"),
    ("interpolate", 1, "size:4"),
    ("layernorm", 0, "shape:32 10"),
    ("leakyrelu", 0, ""),
    ("linear", 0, "in:784;out:10"),
    ("localnorm", 0, "size:2"),
    ("logsigmoid", 0, ""),
    ("logsoftmax", 0, "dim:1"),
    ("lppool1d", 0, "p:2;size:3"),
    ("lppool2d", 0, "p:1.2;size:2 3"),
    ("lstm", 1, "in:10;hidden:20"),
    ("matmul", 0, ""),
    ("maxpool1d", 0, "size:3"),
    ("maxpool2d", 0, "size:3 2"),
    ("maxpool3d", 0, "size:3 2 2"),
    ("mish", 0, ""),
    ("moduledict", 0, ""),
    ("modulelist", 0, ""),
    ("mul", 0, ""),
    ("nbeats", 0, ""),
    ("normalize", 1, ""),
    ("onehot", 0, "classes:10"),
    ("pad", 0, "pad:1 2 2 1 1 2"),
    ("pad1d", 0, "pad:1 2;value:0"),
    ("pad2d", 0, "pad:1 1 2 2;value:0"),
    ("pad3d", 0, "pad:3 3 6 6 0 1;value:3.5"),
    ("pairwise", 0, ""),
    ("parmdict", 0, ""),
    ("permute", 0, "size:0 2 3 1"),
    ("prelu", 0, ""),
    ("randomcrop", 0, "size:32;pad:4;padmode:`reflect"),
    ("randomflip", 0, "p:0.5;dim:-1"),
    ("recur", 1, ""),
    ("reflect1d", 0, "pad:1 2"),
    ("reflect2d", 0, "pad:1 1 2 0"),
    ("relu", 0, ""),
    ("relu6", 0, ""),
    ("replicate1d", 0, "pad:1 2"),
    ("replicate2d", 0, "pad:1 1 2 0"),
    ("replicate3d", 0, "pad:3 3 6 6 1 1"),
    ("reshape", 0, "size:-1 1 28 28"),
    ("residual", 1, ""),
    ("rnn", 1, "in:10;hidden:20"),
    ("rrelu", 0, ""),
    ("select", 0, "dim:1;ind:-1"),
    ("selfattention", 1, "dim:512;heads:8;dropout:0.1"),
    ("selu", 0, ""),
    ("seqjoin", 1, ""),
    ("seqdict", 1, ""),
    ("seqlist", 1, ""),
    ("seqnest", 1, ""),
    ("sequential", 1, ""),
    ("sigmoid", 0, ""),
    ("silu", 0, ""),
    ("similar", 0, ""),
    ("softmax", 0, "dim:1"),
    ("softmax2d", 0, ""),
    ("softmin", 0, "dim:1"),
    ("softplus", 0, ""),
    ("softshrink", 0, ""),
    ("softsign", 0, ""),
    ("squeeze", 0, "dim:1"),
    ("tanh", 0, ""),
    ("tanhshrink", 0, ""),
    ("threshold", 0, "threshold:0.1;value:0"),
    ("torchscript", 1, "file:`model.pt;device:`cpu"),
    ("transform", 0, ""),
    ("transformer", 2, ""),
    ("transpose", 0, ""),
    ("unfold", 0, "size:2 3"),
    ("unsqueeze", 0, "dim:0"),
    ("upsample", 0, ""),
    ("zeropad2d", 0, "pad:1 1 2 0"),
    ("zscore", 0, "mean:0.51 0.49 0.47;std:0.25 0.25 0.21"),
];

/// The forward call of module `name` (knn.cpp's `attrs`, from each module's forward signature):
/// whether it has one fixed forward (containers with a templated one do not), its result type,
/// the least number of inputs and the type of each input.
fn forward(name: &str, n: usize, l: &Layer) -> (bool, &'static str, i64, Vec<&'static str>) {
    let t = |k: usize| vec!["tensor"; k];
    match name {
        "callback" | "sequential" | "seqdict" | "seqlist" => (false, "tensor", n as i64, t(1)),
        "moduledict" | "modulelist" | "parmdict" => (false, "tensor", 0, t(1)),
        "rnn" | "gru" => (true, "tuple", 1, t(2)),
        "lstm" => (true, "nested", 1, vec!["tensor", "tuple"]),
        "fork" => (true, "tuple", 1, t(1)),
        "recur" => (true, "vector", 1, t(3)),
        "attention" => (
            true,
            "tuple",
            3,
            vec![
                "tensor", "tensor", "tensor", "tensor", "boolean", "tensor", "boolean",
            ],
        ),
        "decoder" | "decoderlayer" => (true, "tensor", 2, t(6)),
        "encoder" | "encoderlayer" => (true, "tensor", 1, t(3)),
        "transformer" => (true, "tensor", 2, t(8)),
        "embedbag" => (true, "tensor", 1, t(3)),
        _ => {
            let (lo, hi) = l.inputs;
            let least = if n > 0 { n } else { lo.max(1) };
            (true, "tensor", least as i64, t(hi.max(1)))
        }
    }
}

/// A ktorch module type's row, None for other names.
fn module_row(
    name: &str,
) -> Option<(&'static (&'static str, usize, &'static str), &'static Layer)> {
    let r = MODULES.iter().find(|r| r.0 == name)?;
    Some((r, layers::find(name)?))
}

/// The example options of module type `name` (`` options`linear ``), None for other names.
pub fn module_example(name: &str) -> Result<Option<K>> {
    let Some(((_, _, ex), l)) = module_row(name) else {
        return Ok(None);
    };
    let vals = (|| -> Result<Vec<layers::Val>> {
        let mut made = vec![];
        let named = pairs(ex, &mut made)?;
        spec::options(l, &[], &named)
    })()
    .map_err(|e| anyhow!("{name} example: {e}"))?;
    Ok(Some(super::api::options_of(l, &vals, true)))
}

/// `name:value;..` as (name, q value) pairs, the values owned by `made`.
fn pairs(ex: &'static str, made: &mut Vec<Owned>) -> Result<spec::Pairs> {
    let mut v = vec![];
    for p in ex.split(';').filter(|p| !p.is_empty()) {
        let (k, x) = p
            .split_once(':')
            .ok_or_else(|| anyhow!("bad example {p}"))?;
        let q = if let Some(s) = x.strip_prefix('`') {
            make::symbol(s)
        } else if x.contains(' ') {
            let w: Vec<&str> = x.split(' ').collect();
            if x.contains('.') {
                make::floats(
                    &w.iter()
                        .map(|s| s.parse::<f64>())
                        .collect::<Result<Vec<_>, _>>()?,
                )
            } else {
                make::longs(
                    &w.iter()
                        .map(|s| s.parse::<i64>())
                        .collect::<Result<Vec<_>, _>>()?,
                )
            }
        } else if x.contains('.') {
            make::float(x.parse()?)
        } else {
            make::long(x.parse()?)
        };
        let q = Owned::new(q);
        v.push((k, q.k()));
        made.push(q);
    }
    Ok(v.into_iter().collect())
}

const KEYS: [&str; 7] = [
    "module", "pytorch", "forward", "result", "n", "args", "options",
];

/// One type's help as its 7 values, `opts` its options (the example's when None).
fn module_values(name: &str, opts: Option<K>) -> Result<Option<Vec<K>>> {
    let Some((&(_, n, _), l)) = module_row(name) else {
        return Ok(None);
    };
    let (f, r, least, args) = forward(name, n, l);
    let o = match opts {
        Some(o) => o,
        None => module_example(name)?.unwrap(),
    };
    Ok(Some(vec![
        make::symbol(name),
        make::string(l.pytorch),
        make::boolean(f),
        make::symbol(r),
        make::long(least),
        arglist(&args),
        o,
    ]))
}

/// A list of argument types as ktorch.cpp's `arglist` gives it: one type as a symbol atom,
/// several (or none) as a symbol list (help rows' `args`, `callbacks()`' `in`, a callback's `in`).
pub fn arglist(a: &[&str]) -> K {
    match a {
        [one] => make::symbol(one),
        _ => make::symbols(a),
    }
}

/// `` help`linear ``: the dictionary of one module type, None for other names; `opts`: a
/// module's own options in place of the example (`help m`).
pub fn module_help(name: &str, opts: Option<K>) -> Result<Option<K>> {
    Ok(module_values(name, opts)?.map(|v| make::dict(&KEYS, v)))
}

/// `` help`module ``: every module type, a row each.
pub fn module_table() -> KResult {
    table(
        MODULES
            .iter()
            .map(|r| module_values(r.0, None).map(|v| v.unwrap())),
    )
}

/// A table of rows of the 7 help values.
pub fn table(rows: impl Iterator<Item = Result<Vec<K>>>) -> KResult {
    let rows = rows.collect::<Result<Vec<_>>>()?;
    let mut cols: Vec<Vec<K>> = (0..KEYS.len()).map(|_| vec![]).collect();
    for r in rows {
        for (c, k) in cols.iter_mut().zip(r) {
            c.push(k);
        }
    }
    Ok(make::table(
        &KEYS,
        cols.into_iter().map(make::uniform).collect(),
    ))
}

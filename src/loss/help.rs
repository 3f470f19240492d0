//! `` help`loss ``, `` help`ce ``, `` options`ce ``, and `help`/`options` of a loss object
//! (kloss.cpp's `lossattrs` and `lossexample`): ktorch's 21 loss modules, each with PyTorch's
//! name, its result (a tensor), the least number of tensors its forward takes, their types, and
//! its options (every option at its default for a type's example).
use anyhow::Result;

use super::{args, object::Loss, SPECS};
use crate::k::{make, KResult, K};
use crate::nn::help;

/// Name, PyTorch's name, least and most tensors of the forward call (kloss.cpp `lossattrs`).
static LOSSES: &[(&str, &str, i64, usize)] = &[
    ("bce", "torch.nn.BCELoss", 2, 3),
    ("bcelogits", "torch.nn.BCEWithLogitsLoss", 2, 3),
    ("ce", "torch.nn.CrossEntropyLoss", 2, 2),
    ("cosineloss", "torch.nn.CosineEmbeddingLoss", 3, 3),
    ("ctc", "torch.nn.CTCLoss", 4, 4),
    ("hinge", "torch.nn.HingeEmbeddingLoss", 2, 2),
    ("huber", "torch.nn.HuberLoss", 2, 2),
    ("kl", "torch.nn.KLDivLoss", 2, 2),
    ("l1", "torch.nn.L1Loss", 2, 2),
    ("margin", "torch.nn.MarginRankingLoss", 3, 3),
    ("mse", "torch.nn.MSELoss", 2, 2),
    ("multilabel", "torch.nn.MultiLabelMarginLoss", 2, 2),
    ("multimargin", "torch.nn.MultiMarginLoss", 2, 2),
    ("multisoft", "torch.nn.MultiLabelSoftMarginLoss", 2, 2),
    ("nll", "torch.nn.NLLLoss", 2, 2),
    ("pairwise", "torch.nn.PairwiseDistance", 2, 2),
    ("poissonloss", "torch.nn.PoissonNLLLoss", 2, 2),
    ("similar", "torch.nn.CosineSimilarity", 2, 2),
    ("smoothl1", "torch.nn.SmoothL1Loss", 2, 2),
    ("softmargin", "torch.nn.SoftMarginLoss", 2, 2),
    ("triplet", "torch.nn.TripletMarginLoss", 3, 3),
];

/// The options of a loss object as a dictionary: all, or those not at their defaults.
pub fn options(l: &Loss, all: bool) -> Result<K> {
    let v = l.opts.listed(l.name(), l.spec.slots, l.spec.modes, all)?;
    let keys: Vec<&str> = v.iter().map(|(k, _)| *k).collect();
    Ok(make::dict(&keys, v.into_iter().map(|(_, x)| x).collect()))
}

/// `` options`ce ``: a loss type's options at their defaults; None for other names.
pub fn example(name: &str) -> Result<Option<K>> {
    if let Some(s) = SPECS.iter().find(|s| s.name == name) {
        let opts = args::Opts::of(&[], s.slots, s.modes)?;
        return options(&Loss { spec: s, opts }, true).map(Some);
    }
    match name {
        // the distance modules, also losses: their module examples
        "pairwise" | "similar" => help::module_example(name),
        // kloss.cpp's `classwt` options of BCEWithLogitsLoss
        "bcelogits" => Ok(Some(make::dict(
            &["weight", "reduce"],
            vec![make::null(), make::symbol("mean")],
        ))),
        _ => Ok(None),
    }
}

fn values(name: &str, opts: Option<K>) -> Result<Option<Vec<K>>> {
    let Some(&(_, pytorch, least, most)) = LOSSES.iter().find(|r| r.0 == name) else {
        return Ok(None);
    };
    let o = match opts {
        Some(o) => o,
        None => match example(name)? {
            Some(o) => o,
            None => return Ok(None),
        },
    };
    Ok(Some(vec![
        make::symbol(name),
        make::string(pytorch),
        make::boolean(true),
        make::symbol("tensor"),
        make::long(least),
        crate::nn::help::arglist(&vec!["tensor"; most]),
        o,
    ]))
}

/// `` help`ce `` (None for other names); `opts`: a loss object's own options (`help l`).
pub fn help(name: &str, opts: Option<K>) -> Result<Option<K>> {
    Ok(values(name, opts)?.map(|v| {
        make::dict(
            &[
                "module", "pytorch", "forward", "result", "n", "args", "options",
            ],
            v,
        )
    }))
}

/// `` help`loss ``: every loss module type, a row each.
pub fn table() -> KResult {
    help::table(LOSSES.iter().map(|r| values(r.0, None).map(|v| v.unwrap())))
}

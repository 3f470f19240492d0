//! Stacks of transformer layers (ktorch's knn/transformer.cpp): `encoder` and `decoder`
//! (libtorch's TransformerEncoder/TransformerDecoder) and `transformer` (Transformer).
//!
//! ktorch gives an encoder its layer and final norm as nested definitions in its options; our
//! options hold no definitions, so these are containers and the nested definitions are their
//! children. An `encoder` takes one `encoderlayer` child, the layer to repeat, and optionally a
//! `layernorm` child, the final norm (a `decoder` likewise with a `decoderlayer`). As PyTorch
//! deep-copies the layer given, the child is copied `layers` times, every copy starting with the
//! same values, into a `modulelist` child keyed `layers`, the norm keyed `norm`: the tree and the
//! parameter names are PyTorch's (`layers.0.self_attn.in_proj_weight`, `norm.weight`). A
//! `modulelist` keyed `layers` is taken as it is: that is how `module state m` rebuilds one.
//!
//! A `transformer` has ktorch's options and makes its `encoder` and `decoder` children from them
//! (each with a final layer norm, parameters of 2 or more dimensions Xavier-uniform, as
//! PyTorch); an `encoder` or `decoder` child given replaces the one made (ktorch's custom
//! encoder and decoder options, and the way a state rebuilds it).
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::{container, float, long, long_or, sym, Layer, Opt, Out, Run, Val};
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    Layer {
        init: check_layers,
        adopt: coder_adopt,
        place: coder_place,
        ..container(
            "encoder",
            "torch.nn.TransformerEncoder",
            &[long("layers")],
            (1, 3),
            coder,
        )
    },
    Layer {
        init: check_layers,
        adopt: coder_adopt,
        place: coder_place,
        ..container(
            "decoder",
            "torch.nn.TransformerDecoder",
            &[long("layers")],
            (2, 6),
            coder,
        )
    },
    Layer {
        init: transformer_init,
        adopt: transformer_adopt,
        place: transformer_place,
        ..container(
            "transformer",
            "torch.nn.Transformer",
            TRANSFORMER,
            (2, 8),
            transformer,
        )
    },
];

const TRANSFORMER: &[Opt] = &[
    long_or("in", 512),
    long_or("heads", 8),
    long_or("elayers", 6),
    long_or("dlayers", 6),
    long_or("dim", 2048),
    float("dropout", 0.1),
    sym("fn", &["relu", "gelu"], "relu"),
];

fn check_layers(m: &mut Module) -> Result<()> {
    if m.long("layers") < 0 {
        bail!(
            "{}: non-negative number of layers must be defined",
            m.layer.name
        );
    }
    Ok(())
}

/// The layer an encoder or decoder repeats.
fn layer_type(m: &Module) -> &'static str {
    if m.layer.name == "encoder" {
        "encoderlayer"
    } else {
        "decoderlayer"
    }
}

fn child<'a>(m: &'a Module, key: &str) -> Option<&'a Module> {
    m.children.iter().find(|(k, _)| k == key).map(|(_, c)| c)
}

// encoder, decoder: the layer to repeat, or the copies already made (a `modulelist` keyed
// `layers`), and an optional final `layernorm`
fn coder_adopt(p: &Module, c: &Module) -> Result<Option<String>> {
    let (name, want) = (p.layer.name, layer_type(p));
    let key = match c.layer.name {
        "layernorm" => "norm",
        "modulelist" if c.name.as_deref() == Some("layers") => {
            let n = p.long("layers");
            if c.children.len() as i64 != n || c.children.iter().any(|(_, l)| l.layer.name != want)
            {
                bail!("{name}: layers expected as a list of {n} {want} modules");
            }
            "layers"
        }
        t if t == want => "layers",
        t => bail!("{name}: cannot add {t} module, expected {want} or layernorm"),
    };
    if child(p, key).is_some() {
        bail!(
            "{name}: cannot add {} module, {} already defined",
            c.layer.name,
            if key == "norm" {
                "layer norm"
            } else {
                "layers"
            }
        );
    }
    Ok(Some(key.into()))
}

/// Keys are PyTorch's whatever the child is named: `norm`, and `layers` for the copies.
fn coder_place(p: &mut Module, _: String, c: Module) -> Result<()> {
    if c.layer.name == "layernorm" {
        p.children.push(("norm".into(), c));
        return Ok(());
    }
    let key = "layers".to_string();
    let list = if c.layer.name == "modulelist" {
        c
    } else {
        repeat(&c, p.long("layers"))?
    };
    // the layers come before the norm, as PyTorch registers them
    p.children.insert(0, (key, list));
    Ok(())
}

/// A `modulelist` keyed `layers` of n copies of `layer`, keyed 0, 1, ...
fn repeat(layer: &Module, n: i64) -> Result<Module> {
    let l = super::find("modulelist").ok_or_else(|| anyhow!("no modulelist type"))?;
    let mut list = Module::new(l, Some("layers".into()), vec![])?;
    for i in 0..n {
        list.children
            .push((i.to_string(), copy(layer, Some(i.to_string()))?));
    }
    Ok(list)
}

/// A deep copy of `m`: same options, new parameters and buffers with the same values.
fn copy(m: &Module, name: Option<String>) -> Result<Module> {
    let mut c = Module::new(m.layer, name, m.opts.clone())?;
    let dup = |v: &[(String, Tensor)]| -> Result<Vec<(String, Tensor)>> {
        v.iter()
            .map(|(k, t)| {
                let d = crate::tensor::detach::detached_copy(t)?
                    .f_set_requires_grad(t.requires_grad())?;
                Ok((k.clone(), d))
            })
            .collect()
    };
    c.parms = dup(&m.parms)?;
    c.buffers = dup(&m.buffers)?;
    c.children = m
        .children
        .iter()
        .map(|(k, x)| Ok((k.clone(), copy(x, x.name.clone())?)))
        .collect::<Result<_>>()?;
    c.train(m.training());
    Ok(c)
}

/// Each layer on the previous one's output with the same other inputs, then the final norm:
/// an encoder's `(src)`, `(src;mask)`, `(src;mask;padmask)`; a decoder's `(tgt;memory)`, then
/// optionally tgt mask, memory mask, tgt padding mask, memory padding mask.
fn coder(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let name = m.layer.name;
    let layers =
        child(m, "layers").ok_or_else(|| anyhow!("{name}: no {} defined", layer_type(m)))?;
    let mut y = x[0].shallow_clone();
    for (_, l) in &layers.children {
        let mut a = vec![y];
        a.extend(x[1..].iter().map(Tensor::shallow_clone));
        y = l.forward(run, &a)?.tensor(name)?;
    }
    if let Some(n) = child(m, "norm") {
        y = n.forward1(run, &y)?;
    }
    Ok(Out::Tensor(y))
}

// transformer: an encoder and a decoder made from its options, either replaced by a child given

fn transformer_init(m: &mut Module) -> Result<()> {
    let name = m.layer.name;
    let (d, h) = (m.long("in"), m.long("heads"));
    if d <= 0 {
        bail!("{name}: positive number of input features required");
    }
    if h <= 0 {
        bail!("{name}: positive number of heads required");
    }
    for (i, kind) in ["encoder", "decoder"].into_iter().enumerate() {
        let n = m.long(if i == 0 { "elayers" } else { "dlayers" });
        let c = made_coder(m, kind, n).map_err(|e| anyhow!("{name}: {e}"))?;
        m.children.push((kind.into(), c));
    }
    xavier(m)
}

/// An encoder or decoder of n layers with the transformer's options, and a final norm.
fn made_coder(m: &Module, kind: &str, n: i64) -> Result<Module> {
    let find = |t: &str| super::find(t).ok_or_else(|| anyhow!("no {t} type"));
    let mut c = Module::new(find(kind)?, Some(kind.into()), vec![Val::Long(n)])?;
    let layer_opts = ["in", "heads", "dim", "dropout", "fn"]
        .iter()
        .map(|o| m.opt(o).clone())
        .collect();
    let layer = Module::new(find(layer_type(&c))?, None, layer_opts)?;
    c.push(layer)?;
    let l = find("layernorm")?;
    let norm_opts = l
        .opts
        .iter()
        .map(|o| match o.name {
            "shape" => Ok(Val::Longs(vec![m.long("in")])),
            _ => o
                .default
                .val(o.ty)
                .ok_or_else(|| anyhow!("layernorm: no default")),
        })
        .collect::<Result<_>>()?;
    c.push(Module::new(l, None, norm_opts)?)?;
    Ok(c)
}

/// PyTorch's Transformer `_reset_parameters`: Xavier uniform for every parameter of 2 or more
/// dimensions.
fn xavier(m: &Module) -> Result<()> {
    for (_, p) in m.named_parameters() {
        let s = p.size();
        if s.len() < 2 {
            continue;
        }
        let field: i64 = s[2..].iter().product();
        let (fan_in, fan_out) = (s[1] * field, s[0] * field);
        let bound = (6.0 / (fan_in + fan_out) as f64).sqrt();
        let _ = tch::no_grad(|| p.shallow_clone().f_uniform_(-bound, bound))?;
    }
    Ok(())
}

fn transformer_adopt(p: &Module, c: &Module) -> Result<Option<String>> {
    match c.layer.name {
        t @ ("encoder" | "decoder") => Ok(Some(t.into())),
        t => bail!(
            "{}: cannot add {t} module, expected encoder or decoder",
            p.layer.name
        ),
    }
}

/// A child encoder or decoder replaces the one of the same kind, under PyTorch's key.
fn transformer_place(p: &mut Module, _: String, c: Module) -> Result<()> {
    let key = c.layer.name;
    match p.children.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = c,
        None => p.children.push((key.into(), c)),
    }
    // keep the encoder first, as PyTorch registers it
    p.children.sort_by_key(|(k, _)| k != "encoder");
    Ok(())
}

/// `(src;tgt)`, then optionally src mask, tgt mask, memory mask, src padding mask, tgt padding
/// mask, memory padding mask (libtorch's order): the decoder's output.
fn transformer(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let name = m.layer.name;
    let part = |k: &str| child(m, k).ok_or_else(|| anyhow!("{name}: no {k} defined"));
    let none = || Tensor::new();
    let opt = |i: usize| x.get(i).map_or_else(none, Tensor::shallow_clone);
    let memory = part("encoder")?
        .forward(run, &[x[0].shallow_clone(), opt(2), opt(5)])?
        .tensor(name)?;
    part("decoder")?.forward(
        run,
        &[x[1].shallow_clone(), memory, opt(3), opt(4), opt(6), opt(7)],
    )
}

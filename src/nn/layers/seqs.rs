//! ktorch's containers of kmodules.rst (knn/fork.cpp, residual.cpp, seq.cpp, seqdict.h,
//! seqlist.h, recur.cpp, nbeats.cpp, transform.cpp) and PyTorch's ModuleDict, ModuleList and
//! ParameterDict (no children: its parameters, named as given, are made by `nn::api::parmdict`).
//! Each fixes which children it takes, in which order, and the keys unnamed children get
//! (`fork`'s `qa`/`qb`, `residual`'s `q1`/`q2`/`fn`, ...), as ktorch's `push_back` methods do.
use anyhow::{anyhow, bail, Result};
use tch::Tensor;

use super::{container, Layer, Out};
use crate::nn::{Module, Run};

/// A container with its own check of the children added.
const fn with_adopt(l: Layer, adopt: super::AdoptFn) -> Layer {
    Layer { adopt, ..l }
}

pub static LAYERS: &[Layer] = &[
    with_adopt(container("fork", "knn.Fork", &[], (1, 1), fork), fork_adopt),
    with_adopt(
        container("residual", "knn.Residual", &[], (1, 3), residual),
        residual_adopt,
    ),
    with_adopt(
        container("seqjoin", "knn.SeqJoin", &[], (1, 2), seqjoin),
        seqjoin_adopt,
    ),
    with_adopt(
        container("seqdict", "knn.SeqDict", &[], (1, 8), seqlist),
        seq_only,
    ),
    with_adopt(
        container("seqlist", "knn.SeqList", &[], (1, 8), seqlist),
        seq_only,
    ),
    with_adopt(
        container(
            "recur",
            "knn.Recur",
            &[super::flag("detach", true)],
            (1, 3),
            recur,
        ),
        recur_adopt,
    ),
    with_adopt(
        container("nbeats", "knn.NBeats", &[], (1, 1), nbeats),
        nbeats_adopt,
    ),
    with_adopt(
        container("transform", "knn.Transform", &[], (1, 1), transform),
        transform_adopt,
    ),
    container("moduledict", "torch.nn.ModuleDict", &[], (1, 1), no_forward),
    container("modulelist", "torch.nn.ModuleList", &[], (1, 1), no_forward),
    // parameters only, given as a q dictionary (see `nn::api::parmdict`)
    super::many(
        "parmdict",
        "torch.nn.ParameterDict",
        &[],
        (1, 1),
        no_forward,
    ),
];

/// Is `m` a sequential block (`sequential` or `seqnest`)?
fn is_seq(m: &Module) -> bool {
    matches!(m.layer.name, "sequential" | "seqnest")
}

/// Run a child on `x`: a sequential block passes all the inputs to its first module (as the
/// C++ Sequential's templated forward does), any other child checks its own count.
fn run_child(c: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    if is_seq(c) {
        super::containers::sequential(c, run, x)
    } else {
        c.forward(run, x)
    }
}

fn run1(c: &Module, run: &Run, x: &[Tensor]) -> Result<Tensor> {
    run_child(c, run, x)?.tensor(c.layer.name)
}

/// The most inputs a child takes (a sequential block: its first module's), knn's `maxargs`.
fn max_inputs(m: &Module) -> usize {
    if is_seq(m) {
        m.children.first().map_or(1, |(_, c)| max_inputs(c))
    } else {
        m.layer.inputs.1
    }
}

/// The child keyed `k`.
fn child<'a>(m: &'a Module, k: &str) -> Option<&'a Module> {
    m.children.iter().find(|(key, _)| key == k).map(|(_, c)| c)
}

fn no_forward(m: &Module, _: &Run, _: &[Tensor]) -> Result<Out> {
    bail!("{}: no forward calculation", m.layer.name)
}

fn seq_only(p: &Module, c: &Module) -> Result<Option<String>> {
    if !is_seq(c) {
        bail!(
            "{}: cannot add {} module, expected sequential block",
            p.layer.name,
            c.layer.name
        );
    }
    Ok(None)
}

// fork: (f x; g x), each branch a module or a sequential block (a missing one passes x on)
fn fork_adopt(p: &Module, c: &Module) -> Result<Option<String>> {
    let side = match p.children.len() {
        0 => "a",
        1 => "b",
        _ => bail!(
            "fork: cannot add {} module, both left & right forks already defined",
            c.layer.name
        ),
    };
    Ok(Some(if is_seq(c) {
        format!("q{side}")
    } else {
        side.to_string()
    }))
}

fn fork(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let side = |i: usize| match m.children.get(i) {
        Some((_, c)) => run1(c, run, x),
        None => Ok(x[0].shallow_clone()),
    };
    Ok(Out::Tensors(vec![side(0)?, side(1)?]))
}

// residual: f(x) + x, a(f(x) + x), f(x) + g(x), a(f(x) + g(x)); f, g sequential blocks
fn residual_adopt(p: &Module, c: &Module) -> Result<Option<String>> {
    let seqs = p.children.iter().filter(|(_, c)| is_seq(c)).count();
    let has_fn = p.children.len() > seqs;
    if is_seq(c) {
        if has_fn {
            bail!(
                "residual: activation function already defined, cannot add a 2nd sequential module"
            );
        }
        if seqs == 2 {
            bail!("residual: both sequential modules already defined");
        }
        return Ok(Some(format!("q{}", seqs + 1)));
    }
    if seqs == 0 {
        bail!(
            "residual: cannot add {} module until sequential module(s) defined",
            c.layer.name
        );
    }
    if has_fn {
        bail!(
            "residual: cannot add {} module, activation function already defined",
            c.layer.name
        );
    }
    Ok(Some("fn".into()))
}

fn residual(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let mut seqs = m.children.iter().filter(|(_, c)| is_seq(c)).map(|(_, c)| c);
    let act = m.children.iter().find(|(_, c)| !is_seq(c)).map(|(_, c)| c);
    let q1 = seqs
        .next()
        .ok_or_else(|| anyhow!("residual: no modules defined for forward calculation"))?;
    let q2 = seqs.next();
    // the other addend: the second block on x, or x itself
    let other = || -> Result<Tensor> {
        match q2 {
            Some(q2) => run1(q2, run, x),
            None => Ok(x[0].shallow_clone()),
        }
    };
    let y = match dropout_last(q1, run, x) {
        // setting`dropadd: q1 up to its last `drop`, then the dropout and the add in one kernel
        Some(p) => {
            // setting`lnres: q1's first layer norm computed here, handing x on to the sum
            let normed = match q2 {
                None => norm_first(q1, run, x, q1.children.len() - 1)?,
                Some(_) => None,
            };
            let (h, g) = match normed {
                Some(hx) => hx,
                None => {
                    let h = super::containers::sequential_upto(q1, run, x, q1.children.len() - 1)?
                        .tensor(q1.layer.name)?;
                    (h, other()?)
                }
            };
            crate::cxx::dropout_add::dropout_add(&g, &h, p)?.0
        }
        // setting`lnres without a fused dropout (a block without one, or with p 0, or dropadd
        // off): q1 whole, its first layer norm handing x on to the plain sum
        None => match lnres_whole(q1, q2, run, x)? {
            Some((h, g)) => h.f_add(&g)?,
            None => run1(q1, run, x)?.f_add(&other()?)?,
        },
    };
    Ok(Out::Tensor(match act {
        Some(a) => a.forward1(run, &y)?,
        None => y,
    }))
}

/// Where a residual block's fusions apply at all: training, on CUDA, q1 a sequential block.
fn fusable(q1: &Module, run: &Run, x: &[Tensor]) -> bool {
    run.training && is_seq(q1) && x.first().is_some_and(|t| t.device().is_cuda())
}

/// The dropout probability of q1's last child where setting`dropadd fuses it with the residual
/// add: training on CUDA, q1 a sequential block ending in `drop` with 0 < p < 1.
fn dropout_last(q1: &Module, run: &Run, x: &[Tensor]) -> Option<f64> {
    if !(crate::session::setting::dropadd() && fusable(q1, run, x)) {
        return None;
    }
    let (_, last) = q1.children.last()?;
    let p = (last.layer.name == "drop").then(|| last.float("p"))?;
    (p > 0.0 && p < 1.0).then_some(p)
}

/// norm_first for all of q1, where the residual adds x itself (no second block), in training on
/// CUDA: the sum's gradient then meets layer norm's in its backward kernel, as in the fused
/// dropout's branch.
fn lnres_whole(
    q1: &Module,
    q2: Option<&Module>,
    run: &Run,
    x: &[Tensor],
) -> Result<Option<(Tensor, Tensor)>> {
    if q2.is_some() || !fusable(q1, run, x) {
        return Ok(None);
    }
    norm_first(q1, run, x, q1.children.len())
}

/// Block q1 up to child `last` (its `drop` where the dropout is fused, else all of it), its
/// first child a layer norm computed through norm::layer_norm_res (setting`lnres): (the block's
/// output, the x to add). None where q1 does not start so, or the norm does not apply.
fn norm_first(
    q1: &Module,
    run: &Run,
    x: &[Tensor],
    last: usize,
) -> Result<Option<(Tensor, Tensor)>> {
    let Some((_, first)) = q1.children.first() else {
        return Ok(None);
    };
    let x0 = &x[0];
    let rest = |y: Tensor| -> Result<Tensor> {
        super::containers::sequential_span(q1, run, &[y], 1, last)?.tensor(q1.layer.name)
    };
    match first.layer.name {
        "layernorm" if x.len() == 1 => {
            let (w, b) = (first.parm("weight").ok(), first.parm("bias").ok());
            let shape = first.longs("shape");
            match super::norm::layer_norm_res(x0, shape, w, b, first.float("eps"))? {
                Some((y, x2)) => Ok(Some((rest(y)?, x2))),
                None => Ok(None),
            }
        }
        "selfattention" if first.flag("norm") && x0.dim() == 3 => {
            let (w, b) = super::attention::norm_parms(first)?;
            let d = x0.size()[2];
            match super::norm::layer_norm_res(x0, &[d], Some(w), Some(b), 1e-5)? {
                Some((y, x2)) => {
                    let a = super::attention::attend_normed(first, run, x, &y)?
                        .tensor("selfattention")?;
                    Ok(Some((rest(a)?, x2)))
                }
                None => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

// seqjoin: join(f x, g y), f and g sequential blocks (an empty or missing one passes its input
// on), y defaults to x
fn seqjoin_adopt(p: &Module, c: &Module) -> Result<Option<String>> {
    let seqs = p.children.iter().filter(|(_, c)| is_seq(c)).count();
    let joined = p.children.len() > seqs;
    if is_seq(c) {
        if joined || seqs == 2 {
            bail!("seqjoin: both sequential layers already defined");
        }
        return Ok(Some(if seqs == 0 { "qx" } else { "qy" }.into()));
    }
    if seqs == 0 {
        bail!("seqjoin: at least one sequential layer must be defined first");
    }
    if joined {
        bail!("seqjoin: join layer already defined");
    }
    Ok(Some("join".into()))
}

fn seqjoin(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let join = m
        .children
        .iter()
        .find(|(_, c)| !is_seq(c))
        .map(|(_, c)| c)
        .ok_or_else(|| anyhow!("seqjoin: join layer not defined"))?;
    let mut seqs = m.children.iter().filter(|(_, c)| is_seq(c)).map(|(_, c)| c);
    let y = x.get(1).unwrap_or(&x[0]);
    let side = |q: Option<&Module>, t: &Tensor| match q {
        Some(q) if !q.children.is_empty() => run1(q, run, std::slice::from_ref(t)),
        _ => Ok(t.shallow_clone()),
    };
    let a = side(seqs.next(), &x[0])?;
    let b = side(seqs.next(), y)?;
    join.forward(run, &[a, b])
}

// seqdict, seqlist: each block's output is the next one's first input; the other inputs go to
// every block whose first module takes them
fn seqlist(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let mut y = x[0].shallow_clone();
    for (_, q) in &m.children {
        if q.children.is_empty() {
            continue;
        }
        let n = x.len().min(max_inputs(q));
        let mut args = vec![y];
        args.extend(x[1..n].iter().map(Tensor::shallow_clone));
        y = run1(q, run, &args)?;
    }
    Ok(Out::Tensor(y))
}

// recur: an optional sequential block `in`, an rnn, gru or lstm, an optional block `out` for the
// first output; the inputs after the first (hidden state) go to the recurrent module
const RECURRENT: [&str; 3] = ["lstm", "gru", "rnn"];

fn recur_adopt(p: &Module, c: &Module) -> Result<Option<String>> {
    let has_rnn = p
        .children
        .iter()
        .any(|(_, c)| RECURRENT.contains(&c.layer.name));
    if is_seq(c) {
        if !has_rnn {
            if child(p, "in").is_some() {
                bail!("recur: cannot add a sequential module for output processing until a recurrent module(lstm,gru,rnn) defined");
            }
            return Ok(Some("in".into()));
        }
        if child(p, "out").is_some() {
            bail!("recur: sequential module for output processing already added, cannot add another sequential module");
        }
        return Ok(Some("out".into()));
    }
    if !RECURRENT.contains(&c.layer.name) {
        bail!(
            "recur: cannot add {} module, expected lstm, gru, rnn or sequential",
            c.layer.name
        );
    }
    if has_rnn {
        bail!(
            "recur: cannot add {} module, recurrent module already defined",
            c.layer.name
        );
    }
    Ok(Some(c.layer.name.into()))
}

fn recur(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let rnn = m
        .children
        .iter()
        .map(|(_, c)| c)
        .find(|c| RECURRENT.contains(&c.layer.name))
        .ok_or_else(|| anyhow!("recur: no recurrent lstm, gru or rnn module defined"))?;
    let before = m
        .children
        .iter()
        .take_while(|(_, c)| !RECURRENT.contains(&c.layer.name))
        .map(|(_, c)| c)
        .next();
    let after = m
        .children
        .iter()
        .skip_while(|(_, c)| !RECURRENT.contains(&c.layer.name))
        .nth(1)
        .map(|(_, c)| c);
    let mut args: Vec<Tensor> = x.iter().map(Tensor::shallow_clone).collect();
    if let Some(q) = before {
        args[0] = run1(q, run, &x[..1])?;
    }
    let mut v = rnn.forward(run, &args)?.into_vec();
    // knn/recur.cpp: with `detach (the default) the hidden state leaves the graph, so the next
    // batch that starts from it (the `hidden training option) does not backpropagate into a
    // batch already stepped
    if m.flag("detach") {
        for h in v.iter_mut().skip(1) {
            *h = h.f_detach()?;
        }
    }
    if let (Some(q), false) = (after, v.is_empty()) {
        v[0] = run1(q, run, &v[..1])?;
    }
    Ok(Out::Tensors(v))
}

// nbeats: each block (a sequential block giving backcast b and forecast f, or a modulelist of
// blocks) takes x to x - b and adds f to the result
fn nbeats_adopt(_: &Module, c: &Module) -> Result<Option<String>> {
    if !is_seq(c) && c.layer.name != "modulelist" {
        bail!(
            "nbeats: cannot add {} module, expected sequential or modulelist",
            c.layer.name
        );
    }
    Ok(None)
}

fn nbeats_block(q: &Module, run: &Run, x: &mut Tensor, y: &mut Option<Tensor>) -> Result<()> {
    if q.layer.name == "modulelist" {
        for (_, c) in &q.children {
            nbeats_block(c, run, x, y)?;
        }
        return Ok(());
    }
    if !is_seq(q) {
        bail!("nbeats: not a sequential or list module");
    }
    let v = run_child(q, run, std::slice::from_ref(x))?.into_vec();
    let [b, f] = v.as_slice() else {
        bail!(
            "nbeats: block gives {} tensor(s), expected backcast and forecast",
            v.len()
        )
    };
    *x = x.f_sub(b)?;
    *y = Some(match y.take() {
        Some(t) => t.f_add(f)?,
        None => f.shallow_clone(),
    });
    Ok(())
}

fn nbeats(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let mut v = x[0].shallow_clone();
    let mut y = None;
    for (_, q) in &m.children {
        nbeats_block(q, run, &mut v, &mut y)?;
    }
    y.map(Out::Tensor)
        .ok_or_else(|| anyhow!("nbeats: no blocks defined for forward calculation"))
}

// transform: a sequential block `train` run in training mode, `eval` in evaluation mode
fn transform_adopt(p: &Module, c: &Module) -> Result<Option<String>> {
    if !is_seq(c) {
        bail!(
            "transform: cannot add {} module, expected sequential block",
            c.layer.name
        );
    }
    Ok(Some(
        match p.children.len() {
            0 => "train",
            1 => "eval",
            _ => bail!("transform: both training and evaluation transforms already defined"),
        }
        .into(),
    ))
}

fn transform(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let i = if run.training { 0 } else { 1 };
    match m.children.get(i) {
        Some((_, q)) if !q.children.is_empty() => run_child(q, run, x),
        _ => Ok(Out::Tensor(x[0].shallow_clone())),
    }
}

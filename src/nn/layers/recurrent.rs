//! Recurrent layers (ktorch's knn/recur.cpp): `rnn`, `gru`, `lstm`. Options as ktorch reads them,
//! in its positional order: in, hidden, layers, (fn for rnn), bias, batchfirst, dropout, bi.
//! Parameters are named as PyTorch names them (`weight_ih_l0`, `weight_hh_l0`, `bias_ih_l0`,
//! `bias_hh_l0`, `..._reverse` for the backward direction), in PyTorch's order, which is also the
//! flat order libtorch's `lstm`/`gru`/`rnn_tanh` kernels expect.
//!
//! Forward: `(x)` or `(x;h)` (lstm: `(x;h;c)`); the result is a vector of output and final
//! hidden state (lstm: output, hidden state, cell state), as ktorch returns.
use anyhow::{bail, Result};
use tch::Tensor;

use super::{flag, float, long, long_or, many, sym, uniform, Layer, Opt, Out, Run};
use crate::nn::Module;

const FN: Opt = sym("fn", &["tanh", "relu"], "tanh");

/// Options shared by gru and lstm (rnn adds `fn` after `layers`).
const RECUR: &[Opt] = &[
    long("in"),
    long("hidden"),
    long_or("layers", 1),
    flag("bias", true),
    flag("batchfirst", false),
    float("dropout", 0.0),
    flag("bi", false),
];

pub static LAYERS: &[Layer] = &[
    Layer {
        init,
        ..many(
            "rnn",
            "torch.nn.RNN",
            &[
                long("in"),
                long("hidden"),
                long_or("layers", 1),
                FN,
                flag("bias", true),
                flag("batchfirst", false),
                float("dropout", 0.0),
                flag("bi", false),
            ],
            (1, 2),
            forward,
        )
    },
    Layer {
        init,
        ..many("gru", "torch.nn.GRU", RECUR, (1, 2), forward)
    },
    Layer {
        init,
        ..many("lstm", "torch.nn.LSTM", RECUR, (1, 3), forward)
    },
];

/// Rows of each weight per hidden unit: one gate for rnn, three for gru, four for lstm.
fn gates(name: &str) -> i64 {
    match name {
        "gru" => 3,
        "lstm" => 4,
        _ => 1,
    }
}

fn directions(m: &Module) -> i64 {
    if m.flag("bi") {
        2
    } else {
        1
    }
}

/// Check the options as PyTorch's RNNBase does and make the weights, U(-1/√hidden, 1/√hidden).
fn init(m: &mut Module) -> Result<()> {
    let name = m.layer.name;
    let (input, hidden, layers) = (m.long("in"), m.long("hidden"), m.long("layers"));
    let p = m.float("dropout");
    if input <= 0 {
        bail!("{name}: input size should be greater than zero");
    }
    if hidden <= 0 {
        bail!("{name}: hidden size should be greater than zero");
    }
    if layers <= 0 {
        bail!("{name}: number of layers should be greater than zero");
    }
    if !(0.0..=1.0).contains(&p) {
        bail!("{name}: dropout should be a number in range [0, 1] representing the probability of an element being zeroed, given {p}");
    }
    let bound = 1.0 / (hidden as f64).sqrt();
    let rows = gates(name) * hidden;
    let dirs = directions(m);
    for l in 0..layers {
        let cols = if l == 0 { input } else { hidden * dirs };
        for d in 0..dirs {
            let s = if d == 0 { "" } else { "_reverse" };
            m.add_parm(
                &format!("weight_ih_l{l}{s}"),
                uniform(&[rows, cols], bound)?,
            );
            m.add_parm(
                &format!("weight_hh_l{l}{s}"),
                uniform(&[rows, hidden], bound)?,
            );
            if m.flag("bias") {
                m.add_parm(&format!("bias_ih_l{l}{s}"), uniform(&[rows], bound)?);
                m.add_parm(&format!("bias_hh_l{l}{s}"), uniform(&[rows], bound)?);
            }
        }
    }
    Ok(())
}

/// Run libtorch's recurrent kernel on `x` with optional initial state(s); an input without a
/// batch dimension (2-d) is run as a batch of one, as PyTorch does, and the batch dimension
/// taken off the results.
fn forward(m: &Module, run: &Run, x: &[Tensor]) -> Result<Out> {
    let name = m.layer.name;
    let batchfirst = m.flag("batchfirst");
    let batched = match x[0].dim() {
        3 => true,
        2 => false,
        d => bail!("{name}: expected input to be 2-d or 3-d but received {d}-d tensor"),
    };
    let input = if batched {
        x[0].shallow_clone()
    } else {
        x[0].f_unsqueeze(if batchfirst { 0 } else { 1 })?
    };
    let batch = input.size()[if batchfirst { 0 } else { 1 }];
    let state_dim = if batched { 3 } else { 2 };
    let hidden = m.long("hidden");
    let shape = [m.long("layers") * directions(m), batch, hidden];
    let state = |t: Option<&Tensor>, what: &str| -> Result<Tensor> {
        match t {
            Some(t) if t.dim() != state_dim => bail!(
                "{name}: for {} input, {what} should be {state_dim}-d, given {}-d",
                if batched {
                    "batched 3-d"
                } else {
                    "unbatched 2-d"
                },
                t.dim()
            ),
            Some(t) if batched => Ok(t.shallow_clone()),
            Some(t) => Ok(t.f_unsqueeze(1)?),
            None => Ok(Tensor::f_zeros(shape, (input.kind(), input.device()))?),
        }
    };
    let parms: Vec<&Tensor> = m.parms.iter().map(|(_, t)| t).collect();
    flatten_for_cudnn(m, &parms, batchfirst);
    let (bias, layers, p, bi) = (
        m.flag("bias"),
        m.long("layers"),
        m.float("dropout"),
        m.flag("bi"),
    );
    let train = run.training;
    let mut v = if name == "lstm" {
        if x.len() == 2 {
            bail!("lstm: initial hidden state and cell state expected together, given hidden state only");
        }
        let h = [
            state(x.get(1), "hidden state")?,
            state(x.get(2), "cell state")?,
        ];
        let hx: Vec<&Tensor> = h.iter().collect();
        let (y, h, c) = input.f_lstm(&hx, &parms, bias, layers, p, train, bi, batchfirst)?;
        vec![y, h, c]
    } else {
        let h = state(x.get(1), "hidden state")?;
        let (y, h) = if name == "gru" {
            input.f_gru(&h, &parms, bias, layers, p, train, bi, batchfirst)?
        } else if m.sym("fn") == "relu" {
            input.f_rnn_relu(&h, &parms, bias, layers, p, train, bi, batchfirst)?
        } else {
            input.f_rnn_tanh(&h, &parms, bias, layers, p, train, bi, batchfirst)?
        };
        vec![y, h]
    };
    if !batched {
        v[0] = v[0].f_squeeze_dim(if batchfirst { 0 } else { 1 })?;
        for t in v.iter_mut().skip(1) {
            *t = t.f_squeeze_dim(1)?;
        }
    }
    Ok(Out::Tensors(v))
}

/// Are the weights one contiguous run of memory, in order (what cuDNN's kernel takes as is)?
fn flat(parms: &[&Tensor]) -> bool {
    parms.windows(2).all(|w| {
        let end = w[0].data_ptr() as usize + w[0].numel() * w[0].kind().elt_size_in_bytes();
        w[1].data_ptr() as usize == end
    }) && parms.iter().all(|t| t.is_contiguous())
}

/// On CUDA with cuDNN, put the weights into one flat buffer once, as libtorch's
/// `RNNImplBase::flatten_parameters` does when a recurrent module moves to CUDA (ktorch's C++
/// modules do it there): `_cudnn_rnn_flatten_weight` copies them into it and re-points each
/// parameter at its slice (`set_`), so every handle, optimizer and later call sees the same
/// tensors. Without it cuDNN copies the weights at every call and libtorch warns each time
/// ("RNN module weights are not part of single contiguous chunk of memory": ktorch's
/// mnist/lstm.q printed it once a batch). A failure here leaves the weights as they were: the
/// kernel takes them either way, so the results do not change.
fn flatten_for_cudnn(m: &Module, parms: &[&Tensor], batchfirst: bool) {
    let Some(w) = parms.first() else { return };
    if !w.device().is_cuda() || !tch::Cuda::cudnn_is_available() || flat(parms) {
        return;
    }
    if !matches!(
        w.kind(),
        tch::Kind::Float | tch::Kind::Half | tch::Kind::Double
    ) || parms.iter().any(|t| t.kind() != w.kind())
    {
        return;
    }
    // cuDNN's modes: RNN_RELU 0, RNN_TANH 1, LSTM 2, GRU 3
    let mode = match m.layer.name {
        "lstm" => 2,
        "gru" => 3,
        _ if m.sym("fn") == "relu" => 0,
        _ => 1,
    };
    let stride = if m.flag("bias") { 4 } else { 2 };
    let _nograd = tch::no_grad_guard();
    let _ = Tensor::f_internal_cudnn_rnn_flatten_weight(
        parms,
        stride,
        m.long("in"),
        mode,
        m.long("hidden"),
        0,
        m.long("layers"),
        batchfirst,
        m.flag("bi"),
    );
}

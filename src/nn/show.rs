//! `str m`: a module described as libtorch's `pretty_print` does (ktorch's modules.rst):
//!
//! ```text
//! torch::nn::Sequential(
//!   (0): torch::nn::Linear(in_features=784, out_features=10, bias=true)
//!   (1): torch::nn::ReLU()
//! )
//! ```
//!
//! A layer shows its class (the table's PyTorch class in C++ form) and its options under
//! libtorch's labels where `LABELS` lists them, else all its set options under ktorch's names.
//! A family adds its layers' labels to `LABELS`.
use super::layers::Val;
use super::Module;

/// libtorch's labels of a layer's options, in its order: (ktorch option, label). A label
/// starting with `?` shows only when the option is set (true, non-zero), as `ReLU(inplace=true)`;
/// an empty label shows the value alone (`LayerNorm([256], ..)`). Options left out are not shown.
static LABELS: &[(&str, &[(&str, &str)])] = &[
    // libtorch's MultiheadAttention prints its class and its `out_proj` child only
    ("attention", &[]),
    ("cat", &[("dim", "dim")]),
    (
        "layernorm",
        &[
            ("shape", ""),
            ("eps", "eps"),
            ("affine", "elementwise_affine"),
        ],
    ),
    // knn::Recur prints its class alone (knn/recur.cpp), its detach flag not shown
    ("recur", &[]),
    ("drop", &[("p", "p"), ("inplace", "inplace")]),
    (
        "embed",
        &[
            ("rows", "num_embeddings"),
            ("cols", "embedding_dim"),
            ("padindex", "?padding_idx"),
            ("maxnorm", "?max_norm"),
            ("scale", "?scale_grad_by_freq"),
            ("sparse", "?sparse"),
        ],
    ),
    ("expand", &[("size", "size")]),
    ("flatten", &[("start", "start_dim"), ("end", "end_dim")]),
    ("gelu", &[]),
    ("identity", &[]),
    (
        "linear",
        &[
            ("in", "in_features"),
            ("out", "out_features"),
            ("bias", "bias"),
        ],
    ),
    ("logsoftmax", &[("dim", "dim")]),
    ("lstm", RNN),
    ("gru", RNN),
    ("rnn", RNN),
    ("matmul", &[]),
    ("mul", &[]),
    ("onehot", &[("classes", "num_classes")]),
    ("permute", &[("size", "size")]),
    ("randomcrop", &[("size", "size"), ("pad", "?pad")]),
    ("randomflip", &[("p", "p"), ("dim", "dim")]),
    ("relu", &[("inplace", "?inplace")]),
    ("sequential", &[]),
    ("sigmoid", &[]),
    ("reshape", &[("size", "size")]),
    ("softmax", &[("dim", "dim")]),
    ("squeeze", &[("dim", "dim"), ("inplace", "inplace")]),
    ("tanh", &[]),
    ("transpose", &[("dim0", "dim0"), ("dim1", "dim1")]),
    ("unsqueeze", &[("dim", "dim"), ("inplace", "inplace")]),
];

/// libtorch's recurrent layers (`RNNImplBase::pretty_print`).
const RNN: &[(&str, &str)] = &[
    ("in", "input_size"),
    ("hidden", "hidden_size"),
    ("layers", "num_layers"),
    ("bias", "bias"),
    ("batchfirst", "batch_first"),
    ("dropout", "dropout"),
    ("bi", "bidirectional"),
];

/// The class ktorch's own modules print (their `pretty_print` in knn/*.cpp) where it is not the
/// PyTorch function the module wraps.
static CLASSES: &[(&str, &str)] = &[
    ("cat", "knn::Cat"),
    ("expand", "knn::Expand"),
    ("matmul", "knn::Matmul"),
    ("mul", "knn::Mul"),
    ("onehot", "knn::OneHot"),
    ("permute", "knn::Permute"),
    ("randomcrop", "knn::RandomCrop"),
    ("randomflip", "knn::RandomFlip"),
    ("reshape", "knn::Reshape"),
    ("squeeze", "knn::Squeeze"),
    ("transpose", "knn::Transpose"),
    ("unsqueeze", "knn::Unsqueeze"),
];

/// The description of module `m`, lines joined by newlines.
pub fn describe(m: &Module) -> String {
    let mut s = String::new();
    write(m, "", &mut s);
    s
}

fn write(m: &Module, indent: &str, s: &mut String) {
    match CLASSES.iter().find(|(n, _)| *n == m.layer.name) {
        Some((_, c)) => s.push_str(c),
        None => s.push_str(&class(m.layer.pytorch)),
    }
    let opts = options(m);
    if !opts.is_empty() || m.children.is_empty() {
        s.push('(');
        s.push_str(&opts.join(", "));
        s.push(')');
    }
    if !m.children.is_empty() {
        s.push_str("(\n");
        let next = format!("{indent}  ");
        for (k, c) in &m.children {
            s.push_str(&format!("{next}({k}): "));
            write(c, &next, s);
            s.push('\n');
        }
        s.push_str(indent);
        s.push(')');
    }
}

/// `torch.nn.Linear` as libtorch names it, `torch::nn::Linear`; ktorch's own classes as they are.
fn class(pytorch: &str) -> String {
    pytorch.replace('.', "::")
}

/// `label=value` for each option shown.
fn options(m: &Module) -> Vec<String> {
    // knn/callback.h prints each input type followed by a comma, then ` out=`:
    // `in=tensor,tensor, out=tensor` (kmodules.rst:1100)
    if m.layer.name == "callback" {
        let ins = match m.opt("in") {
            Val::Syms(v) => v.iter().map(|s| format!("{s},")).collect::<String>(),
            v => format!("{},", value(v)),
        };
        return vec![
            format!("fn={}", value(m.opt("fn"))),
            format!("in={}", ins.trim_end_matches(',')),
            format!("out={}", value(m.opt("out"))),
        ];
    }
    let vals = m.layer.opts.iter().zip(&m.opts);
    match LABELS.iter().find(|(n, _)| *n == m.layer.name) {
        Some((_, labels)) => labels
            .iter()
            .filter_map(|(opt, label)| {
                let v = m.opt(opt);
                match label.strip_prefix('?') {
                    Some(l) => is_set(v).then(|| format!("{l}={}", value(v))),
                    None if label.is_empty() => Some(value(v)),
                    None => Some(format!("{label}={}", value(v))),
                }
            })
            .collect(),
        None => vals
            .filter(|(_, v)| **v != Val::None)
            .map(|(o, v)| format!("{}={}", o.name, value(v)))
            .collect(),
    }
}

fn is_set(v: &Val) -> bool {
    match v {
        Val::Longs(l) => l.iter().any(|j| *j != 0),
        _ => !matches!(v, Val::None | Val::Bool(false) | Val::Long(0)),
    }
}

/// A value as C++'s stream shows it: booleans as true/false, doubles in 6 significant digits,
/// sizes as `[3, 3]`.
fn value(v: &Val) -> String {
    let list = |v: Vec<String>| format!("[{}]", v.join(", "));
    match v {
        Val::None => "None".into(),
        Val::Bool(b) => b.to_string(),
        Val::Long(j) => j.to_string(),
        Val::Float(f) => double(*f),
        Val::Longs(v) => list(v.iter().map(i64::to_string).collect()),
        Val::Floats(v) => list(v.iter().map(|f| double(*f)).collect()),
        Val::Sym(s) => s.to_string(),
        Val::Syms(v) => list(v.iter().map(|s| s.to_string()).collect()),
        Val::Str(s) => s.clone(),
    }
}

/// A double as C++'s default stream format (`%g`, 6 significant digits).
fn double(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "nan".into()
        } else if f > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    if f == 0.0 {
        return "0".into();
    }
    // the exponent after rounding to 6 significant digits decides the form, as %g
    let sci = format!("{:.5e}", f);
    let (m, e) = sci.split_once('e').unwrap_or((&sci, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    if !(-4..6).contains(&e) {
        let sign = if e < 0 { '-' } else { '+' };
        return format!("{}e{sign}{:02}", trim(m), e.abs());
    }
    let decimals = (5 - e).max(0) as usize;
    trim(&format!("{:.*}", decimals, f)).to_string()
}

fn trim(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::double;

    #[test]
    fn doubles_as_cpp_streams() {
        assert_eq!(double(0.5), "0.5");
        assert_eq!(double(1.0), "1");
        assert_eq!(double(1e-5), "1e-05");
        assert_eq!(double(0.1), "0.1");
        assert_eq!(double(123456.7), "123457");
        assert_eq!(double(1234567.0), "1.23457e+06");
        assert_eq!(double(-0.01), "-0.01");
        assert_eq!(double(0.0001), "0.0001");
        assert_eq!(double(999999.7), "1e+06");
    }
}

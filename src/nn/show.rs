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

/// Modules whose `pretty_print` is their class alone, children (if any) following in libtorch's
/// `(\n ..)`: libtorch's containers (sequential.h, modulelist.h, moduledict.h), its attention
/// and transformer modules (MultiheadAttention; the transformer modules have no pretty_print of
/// their own, so libtorch prints their C++ type, `torch::nn::TransformerEncoderImpl`), and
/// ktorch's own (knn/*.cpp: `knn::Residual`, ...; knn/transform.cpp prints `knn::Transform(`,
/// which with its children's `(` makes `knn::Transform((`).
static BARE: &[(&str, &str)] = &[
    ("sequential", "torch::nn::Sequential"),
    ("modulelist", "torch::nn::ModuleList"),
    ("moduledict", "torch::nn::ModuleDict"),
    ("attention", "torch::nn::MultiheadAttention"),
    ("transformer", "torch::nn::TransformerImpl"),
    ("encoder", "torch::nn::TransformerEncoderImpl"),
    ("decoder", "torch::nn::TransformerDecoderImpl"),
    ("encoderlayer", "torch::nn::TransformerEncoderLayerImpl"),
    ("decoderlayer", "torch::nn::TransformerDecoderLayerImpl"),
    ("recur", "knn::Recur"),
    ("residual", "knn::Residual"),
    ("seqjoin", "knn::SeqJoin"),
    ("fork", "knn::Fork"),
    ("nbeats", "knn::NBeats"),
    ("seqnest", "knn::SeqNest"),
    ("seqdict", "knn::SeqDict"),
    ("seqlist", "knn::SeqList"),
    ("transform", "knn::Transform("),
];

/// An expanding array of `d` elements as libtorch prints it (c10's `ExpandingArray` stream: one
/// element alone, else `[a, b]`): a single value stands for all `d`.
fn ea(v: &Val, d: usize) -> String {
    let v: Vec<String> = match v {
        Val::Long(j) => vec![j.to_string(); d],
        Val::Float(f) => vec![double(*f); d],
        Val::Longs(l) if l.len() == 1 => vec![l[0].to_string(); d],
        Val::Longs(l) => l.iter().map(i64::to_string).collect(),
        Val::Floats(f) if f.len() == 1 => vec![double(f[0]); d],
        Val::Floats(f) => f.iter().map(|x| double(*x)).collect(),
        v => vec![value(v)],
    };
    if v.len() == 1 {
        v[0].clone()
    } else {
        format!("[{}]", v.join(", "))
    }
}

/// Every element of an expanding array equal to `x`.
fn all_eq(v: &Val, x: i64) -> bool {
    match v {
        Val::Long(j) => *j == x,
        Val::Longs(l) => l.iter().all(|j| *j == x),
        _ => false,
    }
}

/// libtorch's enum names (torch::enumtype::get_enum_name): `zeros` -> `kZeros`.
fn enum_name(v: &Val) -> String {
    let s = value(v);
    let mut c = s.chars();
    match c.next() {
        Some(f) => format!("k{}{}", f.to_uppercase(), c.as_str()),
        None => s,
    }
}

/// The first three elements of a tensor's values as ktorch's `print_tensor` shows them
/// (ktorch.cpp: comma-separated, `..` when there are more).
fn print_tensor(v: &Val) -> String {
    let x: Vec<String> = match v {
        Val::Floats(f) => f.iter().map(|x| double(*x)).collect(),
        Val::Longs(l) => l.iter().map(i64::to_string).collect(),
        v => return value(v),
    };
    let n = x.len().min(3);
    format!(
        "{}{}",
        x[..n].join(","),
        if x.len() > 3 { ".." } else { "" }
    )
}

/// c10's name of a data type (its ScalarType stream): `Float`, `Long`, ...
fn scalar_type(k: tch::Kind) -> &'static str {
    use tch::Kind::*;
    match k {
        Uint8 => "Byte",
        Int8 => "Char",
        Int16 => "Short",
        Int => "Int",
        Int64 => "Long",
        Half => "Half",
        Float => "Float",
        Double => "Double",
        ComplexHalf => "ComplexHalf",
        ComplexFloat => "ComplexFloat",
        ComplexDouble => "ComplexDouble",
        Bool => "Bool",
        BFloat16 => "BFloat16",
        _ => "Undefined",
    }
}

/// The whole first line of a module that libtorch prints itself (its `pretty_print` in
/// torch/csrc/api/src/nn/modules/*.cpp and the headers, checked against libtorch's own output:
/// tests/gen/pretty_print.cpp, tests/data/libtorch_pretty_print.txt) or ktorch's own with a
/// format of its own (knn/*.cpp). None for the layers `LABELS` describes.
fn torch_head(m: &Module) -> Option<String> {
    let o = |n: &str| m.opt(n);
    let n = m.layer.name;
    let d = n
        .chars()
        .rev()
        .nth(1)
        .and_then(|c| c.to_digit(10))
        .unwrap_or(1) as usize;
    let b = |v: &Val| value(v);
    let inplace = |v: &Val| if is_set(v) { ", inplace=true" } else { "" }.to_string();
    let opt_or = |v: &Val, k: &Val| {
        if *v == Val::None {
            k.clone()
        } else {
            v.clone()
        }
    };
    let c = class(m.layer.pytorch);
    Some(match n {
        "adaptavg1d" | "adaptavg2d" | "adaptavg3d" | "adaptmax1d" | "adaptmax2d" | "adaptmax3d" => {
            format!("{c}(output_size={})", ea(o("size"), d))
        }
        "adrop" | "fadrop" | "drop" | "drop2d" | "drop3d" => {
            format!("{c}(p={}, inplace={})", b(o("p")), b(o("inplace")))
        }
        "avgpool1d" | "avgpool2d" | "avgpool3d" => format!(
            "{c}(kernel_size={}, stride={}, padding={})",
            ea(o("size"), d),
            ea(&opt_or(o("stride"), o("size")), d),
            ea(o("pad"), d)
        ),
        "maxpool1d" | "maxpool2d" | "maxpool3d" => format!(
            "{c}(kernel_size={}, stride={}, padding={}, dilation={}, ceil_mode={})",
            ea(o("size"), d),
            ea(&opt_or(o("stride"), o("size")), d),
            ea(o("pad"), d),
            ea(o("dilate"), d),
            b(o("ceiling"))
        ),
        "lppool1d" | "lppool2d" => format!(
            "{c}(norm_type={}, kernel_size={}, stride={}, ceil_mode={})",
            b(o("p")),
            ea(o("size"), d),
            ea(&opt_or(o("stride"), o("size")), d),
            b(o("ceiling"))
        ),
        "fmaxpool2d" | "fmaxpool3d" => format!("{c}()"),
        "batchnorm1d" | "batchnorm2d" | "batchnorm3d" | "instancenorm1d" | "instancenorm2d"
        | "instancenorm3d" => format!(
            "{c}({}, eps={}, momentum={}, affine={}, track_running_stats={})",
            b(o("in")),
            b(o("eps")),
            b(o("momentum")),
            b(o("affine")),
            b(o("track"))
        ),
        "groupnorm" => format!(
            "{c}({}, {}, eps={}, affine={})",
            b(o("groups")),
            b(o("channels")),
            b(o("eps")),
            b(o("affine"))
        ),
        "localnorm" | "crossmap2d" => format!(
            "{c}({}, alpha={}, beta={}, k={})",
            b(o("size")),
            b(o("alpha")),
            b(o("beta")),
            b(o("k"))
        ),
        "bilinear" => format!(
            "{c}(in1_features={}, in2_features={}, out_features={}, bias={})",
            b(o("in1")),
            b(o("in2")),
            b(o("out")),
            b(o("bias"))
        ),
        "conv1d" | "conv2d" | "conv3d" | "convtranspose1d" | "convtranspose2d"
        | "convtranspose3d" => {
            let t = n.starts_with("convtranspose");
            let mut s = format!(
                "{c}({}, {}, kernel_size={}, stride={}",
                b(o("in")),
                b(o("out")),
                ea(o("size"), d),
                ea(o("stride"), d)
            );
            match o("pad") {
                Val::Sym(p) => s.push_str(&format!(", padding='{p}'")),
                p if !all_eq(p, 0) => s.push_str(&format!(", padding={}", ea(p, d))),
                _ => {}
            }
            if !all_eq(o("dilate"), 1) {
                s.push_str(&format!(", dilation={}", ea(o("dilate"), d)));
            }
            if t && !all_eq(o("outpad"), 0) {
                s.push_str(&format!(", output_padding={}", ea(o("outpad"), d)));
            }
            if b(o("groups")) != "1" {
                s.push_str(&format!(", groups={}", b(o("groups"))));
            }
            if !is_set(o("bias")) {
                s.push_str(", bias=false");
            }
            if b(o("padmode")) != "zeros" {
                s.push_str(&format!(", padding_mode={}", enum_name(o("padmode"))));
            }
            s + ")"
        }
        "embedbag" => {
            let mut s = format!(
                "{c}(num_embeddings={}, embedding_dim={}",
                b(o("rows")),
                b(o("cols"))
            );
            if *o("maxnorm") != Val::None {
                s.push_str(&format!(", max_norm={}", b(o("maxnorm"))));
            }
            if b(o("p")) != "2" {
                s.push_str(&format!(", norm_type={}", b(o("p"))));
            }
            if is_set(o("scale")) {
                s.push_str(", scale_grad_by_freq=true");
            }
            if is_set(o("sparse")) {
                s.push_str(", sparse=true");
            }
            if b(o("mode")) != "mean" {
                s.push_str(&format!(", mode={}", enum_name(o("mode"))));
            }
            if is_set(o("lastoffset")) {
                s.push_str(", include_last_offset=true");
            }
            if *o("padindex") != Val::None {
                s.push_str(&format!(", padding_idx={}", b(o("padindex"))));
            }
            s + ")"
        }
        // libtorch's Embedding (embedding.cpp): padding_idx and max_norm when set, norm_type
        // when not 2, the two flags when on
        "embed" => {
            let mut s = format!(
                "{c}(num_embeddings={}, embedding_dim={}",
                b(o("rows")),
                b(o("cols"))
            );
            if *o("padindex") != Val::None {
                s.push_str(&format!(", padding_idx={}", b(o("padindex"))));
            }
            if *o("maxnorm") != Val::None {
                s.push_str(&format!(", max_norm={}", b(o("maxnorm"))));
            }
            if b(o("p")) != "2" {
                s.push_str(&format!(", norm_type={}", b(o("p"))));
            }
            if is_set(o("scale")) {
                s.push_str(", scale_grad_by_freq=true");
            }
            if is_set(o("sparse")) {
                s.push_str(", sparse=true");
            }
            s + ")"
        }
        "fold" => format!(
            "{c}(output_size={}, kernel_size={}, dilation={}, padding={}, stride={})",
            ea(o("out"), 2),
            ea(o("size"), 2),
            ea(o("dilate"), 2),
            ea(o("pad"), 2),
            ea(o("stride"), 2)
        ),
        "unfold" => format!(
            "{c}(kernel_size={}, dilation={}, padding={}, stride={})",
            ea(o("size"), 2),
            ea(o("dilate"), 2),
            ea(o("pad"), 2),
            ea(o("stride"), 2)
        ),
        "celu" | "elu" => format!("{c}(alpha={}{})", b(o("alpha")), inplace(o("inplace"))),
        "relu" | "relu6" | "selu" => {
            format!("{c}({})", inplace(o("inplace")).trim_start_matches(", "))
        }
        "hardtanh" => format!(
            "{c}(min_val={}, max_val={}{})",
            b(o("min")),
            b(o("max")),
            inplace(o("inplace"))
        ),
        "leakyrelu" => format!(
            "{c}(negative_slope={}{})",
            b(o("slope")),
            inplace(o("inplace"))
        ),
        "rrelu" => format!(
            "{c}(lower={}, upper={}{})",
            b(o("lower")),
            b(o("upper")),
            inplace(o("inplace"))
        ),
        "threshold" => format!(
            "{c}(threshold={}, value={}{})",
            b(o("threshold")),
            b(o("value")),
            inplace(o("inplace"))
        ),
        "hardshrink" | "softshrink" => format!("{c}({})", b(o("lambda"))),
        "softplus" => format!(
            "{c}(beta={}, threshold={})",
            b(o("beta")),
            b(o("threshold"))
        ),
        "glu" | "softmin" => format!("{c}(dim={})", b(o("dim"))),
        "prelu" => format!("{c}(num_parameters={})", b(o("in"))),
        "similar" => format!("{c}(dim={}, eps={})", b(o("dim")), b(o("eps"))),
        "pairwise" => format!(
            "{c}(p={}, eps={}, keepdim={})",
            b(o("p")),
            b(o("eps")),
            b(o("keepdim"))
        ),
        "pad1d" | "pad2d" | "pad3d" => format!(
            "{c}(padding={}, value={})",
            ea(o("pad"), 2 * d),
            b(o("value"))
        ),
        "reflect1d" | "reflect2d" | "replicate1d" | "replicate2d" | "replicate3d" | "zeropad2d" => {
            format!("{c}(padding={})", ea(o("pad"), 2 * d))
        }
        "upsample" => {
            let sz = if *o("scale") != Val::None {
                format!("scale_factor={}", value(o("scale")))
            } else {
                format!("size={}", value(o("size")))
            };
            format!("{c}({sz}, mode={})", enum_name(o("mode")))
        }
        "logsigmoid" | "mish" | "silu" | "softmax2d" | "softsign" | "tanhshrink" | "gelu" => {
            format!("{c}()")
        }
        // a parameter dictionary (parameterdict.h): each parameter's key, type and size
        "parmdict" => {
            let mut s = format!("{c}(\n");
            for (k, t) in &m.parms {
                s.push_str(&format!(
                    "({k}): Parameter containing: [{} of size {}]\n",
                    scalar_type(t.kind()),
                    value(&Val::Longs(t.size()))
                ));
            }
            s + ")"
        }
        // ktorch's own (knn/transform.cpp, knn/select.cpp, knn/pad.cpp)
        "zscore" => format!(
            "knn::Zscore(mean={}, stddev={}, inplace={})",
            print_tensor(o("mean")),
            print_tensor(o("std")),
            b(o("inplace"))
        ),
        "select" => format!("knn::Select(dim={},ind={})", b(o("dim")), b(o("ind"))),
        "indexselect" => format!(
            "knn::IndexSelect(dim={},ind={})",
            b(o("dim")),
            print_tensor(o("ind"))
        ),
        "pad" => format!(
            "knn::Pad(pad={}, mode={}, value={})",
            value(o("pad")),
            enum_name(o("mode")),
            b(o("value"))
        ),
        _ => return None,
    })
}

/// The description of module `m`, lines joined by newlines.
pub fn describe(m: &Module) -> String {
    let mut s = String::new();
    write(m, "", &mut s, &mut false);
    s
}

/// `alpha`: whether the stream libtorch prints into has `std::boolalpha` set by now. libtorch's
/// modules that print a flag set it themselves and it stays set for the rest of the string;
/// knn::Squeeze and knn::Unsqueeze print their `inplace` flag without setting it
/// (knn/squeeze.cpp), as `0`/`1` unless a module printed before them set it.
fn write(m: &Module, indent: &str, s: &mut String, alpha: &mut bool) {
    let start = s.len();
    if let Some(h) = torch_head(m) {
        s.push_str(&h);
    } else if let Some((_, c)) = BARE.iter().find(|(n, _)| *n == m.layer.name) {
        s.push_str(c);
    } else {
        match CLASSES.iter().find(|(n, _)| *n == m.layer.name) {
            Some((_, c)) => s.push_str(c),
            None => s.push_str(&class(m.layer.pytorch)),
        }
        let mut opts = options(m);
        if matches!(m.layer.name, "squeeze" | "unsqueeze") && !*alpha {
            for o in opts.iter_mut() {
                if let Some(v) = o.strip_prefix("inplace=") {
                    *o = format!("inplace={}", if v == "true" { 1 } else { 0 });
                }
            }
        }
        if !opts.is_empty() || m.children.is_empty() {
            s.push('(');
            s.push_str(&opts.join(", "));
            s.push(')');
        }
    }
    if !matches!(m.layer.name, "squeeze" | "unsqueeze")
        && (s[start..].contains("=true") || s[start..].contains("=false"))
    {
        *alpha = true;
    }
    if !m.children.is_empty() {
        s.push_str("(\n");
        let next = format!("{indent}  ");
        for (k, c) in &m.children {
            s.push_str(&format!("{next}({k}): "));
            write(c, &next, s, alpha);
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

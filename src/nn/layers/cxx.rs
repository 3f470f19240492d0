//! Calls into src/cxx/nn_act.cpp: activations whose scalar options tch's generated functions
//! leave out (elu's alpha, leaky_relu's slope, ...), and libtorch's local response norms, which
//! are C++ API functions rather than ATen operators.
use anyhow::Result;
use tch::Tensor;

/// The activations of the shim, with their one or two scalar options (`a`, `b`).
#[derive(Clone, Copy)]
pub enum Act {
    Elu,
    Celu,
    LeakyRelu,
    Hardshrink,
    Softshrink,
    Hardtanh,
    Softplus,
    /// rrelu: random slopes in training, their mean otherwise.
    Rrelu {
        training: bool,
    },
}

/// Activation `op` of `x` with options `a` and `b`, in place (same tensor back) when asked.
pub fn act(op: Act, x: &Tensor, a: f64, b: f64, inplace: bool) -> Result<Tensor> {
    let (code, training) = match op {
        Act::Elu => (0, false),
        Act::Celu => (1, false),
        Act::LeakyRelu => (2, false),
        Act::Hardshrink => (3, false),
        Act::Softshrink => (4, false),
        Act::Hardtanh => (5, false),
        Act::Softplus => (6, false),
        Act::Rrelu { training } => (7, training),
    };
    crate::cxx::ops::act(code, x, a, b, training, inplace)
}

/// Local response norm (`cross` false) or libtorch's CrossMapLRN2d (`cross` true, k whole).
pub fn lrn(cross: bool, x: &Tensor, size: i64, alpha: f64, beta: f64, k: f64) -> Result<Tensor> {
    crate::cxx::ops::lrn(cross, x, size, alpha, beta, k)
}

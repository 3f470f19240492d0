//! Pointwise math (math-pointwise.rst): one line per function in the tables below. Unary
//! functions take `x`, `(x;out)` or `(x;[])` (in place); binary ones `(x;y)`, `(x;y;out)` or
//! `(x;y;[])`, broadcasting as PyTorch does. Names capitalised where q has the word (ktorch's
//! rule): `Abs`, `Exp`, `Div`, ...
use tch::{TchError, Tensor};

use super::forms::{self, Out};
use crate::k::{KResult, K};

type R = Result<Tensor, TchError>;

/// A unary function: new result, into an output tensor, in place.
fn unary(x: K, f: fn(&Tensor) -> R, into: fn(&Tensor, &Tensor) -> R, inplace: fn(&mut Tensor) -> R) -> KResult {
    let (inputs, out) = forms::split(x, 1, "x, (x;output) or (x;[])")?;
    let (mut ts, h) = forms::tensors(&inputs)?;
    let r = match &out {
        Out::New => f(&ts[0])?,
        Out::Into(o) => into(&ts[0], o)?,
        Out::InPlace => inplace(&mut ts[0])?,
    };
    forms::finish(r, h, &out)
}

/// A binary function: new result, into an output tensor, in place into the first input.
fn binary(x: K, f: fn(&Tensor, &Tensor) -> R, into: fn(&Tensor, &Tensor, &Tensor) -> R, inplace: fn(&mut Tensor, &Tensor) -> R) -> KResult {
    let (inputs, out) = forms::split(x, 2, "(x;y), (x;y;output) or (x;y;[])")?;
    let (mut ts, h) = forms::tensors(&inputs)?;
    let y = ts.pop().expect("two inputs");
    let r = match &out {
        Out::New => f(&ts[0], &y)?,
        Out::Into(o) => into(&ts[0], &y, o)?,
        Out::InPlace => inplace(&mut ts[0], &y)?,
    };
    forms::finish(r, h, &out)
}

/// `name: f` makes q function `name` from tch's `f_<f>`, `f_<f>_out`, `f_<f>_`.
macro_rules! unary {
    ($($name:ident: $f:ident, $out:ident, $inplace:ident;)*) => {$(
        pub fn $name(x: K) -> KResult {
            unary(x, |t| t.$f(), |t, o| t.$out(o), |t| t.$inplace())
        }
    )*};
}

macro_rules! binary {
    ($($name:ident: $f:ident, $out:ident, $inplace:ident;)*) => {$(
        pub fn $name(x: K) -> KResult {
            binary(x, |a, b| a.$f(b), |a, b, o| a.$out(o, b), |a, b| a.$inplace(b))
        }
    )*};
}

unary! {
    abs: f_abs, f_abs_out, f_abs_;
    exp: f_exp, f_exp_out, f_exp_;
    neg: f_neg, f_neg_out, f_neg_;
    sqrt: f_sqrt, f_sqrt_out, f_sqrt_;
    log: f_log, f_log_out, f_log_;
}

binary! {
    add: f_add, f_add_out, f_add_;
    mul: f_mul, f_mul_out, f_mul_;
    div: f_div, f_div_out, f_div_;
}

//! Norms (math-reduce.rst): `dist` the p-norm of a difference; `fnorm`, `nnorm` the Frobenius and
//! nuclear matrix norms; `mnorm` a matrix norm of numeric order; `vnorm` a vector norm. Matrix
//! norms reduce two dimensions (the last two unless given); vector norms all or the given ones.
//! The order is a float atom, telling it from a long dimension.
use anyhow::{anyhow, bail};
use tch::{Kind, TchError, Tensor};

use super::forms;
use super::forms::{finish_op as finish, usage, OpCall, ToTensor};
use crate::k::from::Number as Num;
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::tensor::opargs;
use crate::tensor::{convert, result};

type R = Result<Tensor, TchError>;

/// `dist`'s arguments: `(x;y)`, `(x;y;p)`, or a simple list `1 2` or `1 2 3` read as x, y
/// and p (default 2).
pub struct DistArgs {
    a: Tensor,
    b: Tensor,
    h: bool,
    p: f64,
}

impl FromQ for DistArgs {
    const TYPE: &'static str = "(x;y;p)";
    /// Every value is a form or an error.
    fn read(x: K) -> anyhow::Result<Option<DistArgs>> {
        if read::ktype(x) < 0 {
            bail!("not implemented for {}", opargs::describe(x));
        }
        if read::ktype(x) > 0 {
            let t = convert::to_tensor(x)?;
            if !(2..=3).contains(&t.size()[0]) {
                bail!("expected 2-3 args, (x;y;p), {} given", t.size()[0]);
            }
            let p = if t.size()[0] == 3 {
                t.f_get(2)?.f_double_value(&[])?
            } else {
                2.0
            };
            let (a, b) = (t.f_get(0)?, t.f_get(1)?);
            return Ok(Some(DistArgs { a, b, h: false, p }));
        }
        let v = from::list(&x).ok_or_else(|| anyhow!("expected 2-3 args, (x;y;p)"))?;
        let p = match v.len() {
            2 => 2.0,
            3 => match Num::of(v[2]) {
                Some(Num::Int(i)) => i as f64,
                Some(Num::Float(f)) => f,
                None => bail!(
                    "expected 2-3 args, (x;y;p), 3rd arg is {}",
                    opargs::describe(v[2])
                ),
            },
            n => bail!("expected 2-3 args, (x;y;p), {n} arg(s) given"),
        };
        let (mut ts, h) = forms::tensors(&v[..2])?;
        let b = ts.pop().expect("two");
        Ok(Some(DistArgs {
            a: ts.pop().expect("two"),
            b,
            h,
            p,
        }))
    }
}

crate::qfn! {
    /// `dist(x;y)`, `dist(x;y;p)`: the p-norm (default 2) of `x-y`, broadcasting; also a simple
    /// list `dist 1 2` or `dist 1 2 3` read as x, y and p.
    pub fn dist(x: DistArgs) -> KResult {
        result(pnorm(&x.a, &x.b, x.p)?, x.h)
    }
}

fn pnorm(a: &Tensor, b: &Tensor, p: f64) -> R {
    if p == 2.0 {
        a.f_dist(b)
    } else {
        a.f_sub(b)?.f_norm_scalaropt_dim(p, [0i64; 0], false)
    }
}

const MATRIX: &str = "(input;dim;keepdim;dtype;output)";
const ORD: &str = "(input;ord;dim;keepdim;dtype;output)";

usage! {
    Matrix = MATRIX;
    Ord = ORD;
}

/// `f x` or `f(x;dim;keepdim;dtype;output)`.
type MatrixCall = OpCall<(Vec<i64>, bool, Kind), (ToTensor,), Matrix>;
/// `f x` or `f(x;ord;dim;keepdim;dtype;output)`.
type OrdCall = OpCall<(f64, Vec<i64>, bool, Kind), (ToTensor,), Ord>;

/// The two dimensions of a matrix norm: the last two unless given.
fn matrix_dims(d: &Option<Vec<i64>>) -> anyhow::Result<Vec<i64>> {
    match d {
        None => Ok(vec![-2, -1]),
        Some(d) if d.len() == 2 => Ok(d.clone()),
        Some(d) => bail!("matrix norm needs 2 dimensions, given {}", d.len()),
    }
}

/// A matrix norm of ord "fro" or "nuc": (input;dim;keepdim;dtype;output).
fn strnorm(a: MatrixCall, ord: &str) -> KResult {
    let a = a.0;
    let d = matrix_dims(&a.opts.0)?;
    let (k, t) = (a.opts.1.unwrap_or(false), a.opts.2);
    finish(
        &a,
        |x| x.f_linalg_norm_ord_str(ord, Some(d.as_slice()), k, t),
        |x, o| x.f_linalg_norm_ord_str_out(o, ord, Some(d.as_slice()), k, t),
    )
}

crate::qfn! {
    pub fn fnorm(x: MatrixCall) -> KResult {
        strnorm(x, "fro")
    }
    pub fn nnorm(x: MatrixCall) -> KResult {
        strnorm(x, "nuc")
    }
}

crate::qfn! {
    /// `mnorm(input;ord;dim;keepdim;dtype;output)`: Frobenius when no order is given.
    pub fn mnorm(a: OrdCall) -> KResult {
        let a = a.0;
        let d = matrix_dims(&a.opts.1)?;
        let (k, t) = (a.opts.2.unwrap_or(false), a.opts.3);
        let d = Some(d.as_slice());
        match a.opts.0 {
            Some(p) => finish(
                &a,
                |x| x.f_linalg_norm(p, d, k, t),
                |x, o| x.f_linalg_norm_out(o, p, d, k, t),
            ),
            None => finish(
                &a,
                |x| x.f_linalg_norm_ord_str("fro", d, k, t),
                |x, o| x.f_linalg_norm_ord_str_out(o, "fro", d, k, t),
            ),
        }
    }

    /// `vnorm(input;ord;dim;keepdim;dtype;output)`: order 2 unless given, over all dimensions unless
    /// given; a dtype converts the input first (as linalg.vector_norm does).
    pub fn vnorm(a: OrdCall) -> KResult {
        let mut a = a.0;
        let p = a.opts.0.unwrap_or(2.0);
        let d = a.opts.1.clone().unwrap_or_default();
        let k = a.opts.2.unwrap_or(false);
        if let Some(t) = a.opts.3 {
            a.x = a.x.f_to_kind(t)?;
        }
        if !(a.x.is_floating_point() || a.x.is_complex()) {
            bail!(
                "expected a floating point or complex tensor as input, given {}",
                crate::tensor::options::kind_name(a.x.kind())
            );
        }
        finish(
            &a,
            |x| x.f_norm_scalaropt_dim(p, d.as_slice(), k),
            |x, o| x.f_norm_out(o, p, d.as_slice(), k),
        )
    }
}

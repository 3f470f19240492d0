//! Matrix products (math-linalg.rst, "Matrix products"): one line per function in the tables.
//! - `blas2!`: two inputs and an optional output tensor, `f(x;y)`, `f(x;y;output)`: bmm dot
//!   householder matmul mm mmt mtm mv outer.
//! - `addmat!`: `beta*x + alpha*f(y;z)`, `f(x;y;z)`, `f(x;y;z;beta)`, `f(x;y;z;beta;alpha)`, each
//!   with an optional output tensor: addbmm addmm addmv addr baddbmm (through the C++ shim, since
//!   tch has no beta/alpha forms).
//! - `Cross(x;y;dim;output)`, `power(matrix;n;output)`, `multidot` of a list or vector.
use anyhow::{anyhow, bail, Result};
use tch::{TchError, Tensor};

use super::forms::{self, inputs};
use crate::k::from::{self, Args, FromQ, Number as Num};
use crate::k::{make, read, KResult, K};
use crate::registry;
use crate::tensor::opargs::{self, Input, OutTensor};
use crate::tensor::result;

type R = Result<Tensor, TchError>;

/// `f(x;y)` or `f(x;y;output)`: two inputs and an optional output tensor.
pub struct Blas2 {
    a: Tensor,
    b: Tensor,
    h: bool,
    out: Option<Tensor>,
}

impl FromQ for Blas2 {
    const TYPE: &'static str = "(x;y) or (x;y;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Blas2>> {
        let mut a = Args::list(x, 2, 3, "(x;y;output)")?;
        let out = a.opt::<OutTensor>(2)?.map(|o| o.0);
        let (mut ts, h) = inputs(&a, None, 2, Blas2::TYPE)?;
        let b = ts.pop().expect("two");
        Ok(Some(Blas2 {
            a: ts.pop().expect("two"),
            b,
            h,
            out,
        }))
    }
}

impl Blas2 {
    /// `f(a;b)` into the output tensor (null), else the new tensor.
    pub fn run(
        self,
        f: fn(&Tensor, &Tensor) -> R,
        into: fn(&Tensor, &Tensor, &Tensor) -> R,
    ) -> KResult {
        match &self.out {
            Some(o) => {
                let _ = into(&self.a, &self.b, o)?;
                Ok(make::null())
            }
            None => result(f(&self.a, &self.b)?, self.h),
        }
    }
}

/// `name: |a, b| f, |o| into;` makes typed q function `name` of two inputs and an optional
/// output tensor.
macro_rules! blas2 {
    ($($name:ident: |$a:ident, $b:ident| $f:expr, |$o:ident| $into:expr;)*) => {$(
        $crate::qfn! {
            pub fn $name(x: $crate::math::linalg::Blas2) -> $crate::k::KResult {
                x.run(|$a, $b| $f, |$a, $b, $o| $into)
            }
        }
    )*};
}

blas2! {
    bmm:         |a, b| a.f_bmm(b),                        |o| a.f_bmm_out(o, b);
    dot:         |a, b| a.f_dot(b),                        |o| a.f_dot_out(o, b);
    householder: |a, b| a.f_linalg_householder_product(b), |o| a.f_linalg_householder_product_out(o, b);
    matmul:      |a, b| a.f_matmul(b),                     |o| a.f_matmul_out(o, b);
    mm:          |a, b| a.f_mm(b),                         |o| a.f_mm_out(o, b);
    mmt:         |a, b| a.f_mm(&b.f_tr()?),                |o| a.f_mm_out(o, &b.f_tr()?);
    mtm:         |a, b| a.f_tr()?.f_mm(b),                 |o| a.f_tr()?.f_mm_out(o, b);
    mv:          |a, b| a.f_mv(b),                         |o| a.f_mv_out(o, b);
    outer:       |a, b| a.f_outer(b),                      |o| a.f_outer_out(o, b);
}

/// A number as the shim's (is float, float, integer).
fn scalar(n: Num) -> (libc::c_int, f64, libc::c_long) {
    match n {
        Num::Int(j) => (0, 0.0, j as libc::c_long),
        Num::Float(f) => (1, f, 0),
    }
}

/// `(x;y;z;beta;alpha;output)`, beta and alpha optional numbers (default 1), read from the back.
pub struct AddMat {
    xyz: Vec<Tensor>,
    h: bool,
    beta: Num,
    alpha: Num,
    out: Option<Tensor>,
}

impl FromQ for AddMat {
    const TYPE: &'static str = "(x;y;z;beta;alpha;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<AddMat>> {
        let usage = AddMat::TYPE;
        let mut a = Args::list(x, 3, 6, usage)?;
        let out = a.opt::<OutTensor>(3)?.map(|o| o.0);
        let (beta, alpha) = match a.opt2::<Num, Num>(3)? {
            Some((b, al)) => (b, al),
            None => (a.opt::<Num>(3)?.unwrap_or(Num::Int(1)), Num::Int(1)),
        };
        let (xyz, h) = inputs(&a, None, 3, usage)?;
        Ok(Some(AddMat {
            xyz,
            h,
            beta,
            alpha,
            out,
        }))
    }
}

impl AddMat {
    /// The shim's `addmm` of `mode` (0 addbmm, 1 addmm, 2 addmv, 3 addr, 4 baddbmm).
    fn run(self, mode: i32) -> KResult {
        let t = &self.xyz;
        let xyz = [&t[0], &t[1], &t[2]];
        let (beta, alpha) = (scalar(self.beta), scalar(self.alpha));
        match crate::cxx::ops::addmm(mode, self.out.as_ref(), xyz, beta, alpha)? {
            Some(r) => result(r, self.h),
            None => Ok(make::null()),
        }
    }
}

/// `(x;y;dim;output)`: dim an optional long (default -1).
pub struct CrossArgs {
    a: Tensor,
    b: Tensor,
    h: bool,
    dim: i64,
    out: Option<Tensor>,
}

impl FromQ for CrossArgs {
    const TYPE: &'static str = "(x;y;dim;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<CrossArgs>> {
        let usage = CrossArgs::TYPE;
        let mut a = Args::list(x, 2, 4, usage)?;
        let out = a.opt::<OutTensor>(2)?.map(|o| o.0);
        let dim = a.opt::<i64>(2)?.unwrap_or(-1);
        let (mut ts, h) = inputs(&a, None, 2, usage)?;
        let b = ts.pop().expect("two");
        Ok(Some(CrossArgs {
            a: ts.pop().expect("two"),
            b,
            h,
            dim,
            out,
        }))
    }
}

/// `(matrix;n)` or `(matrix;n;output)`: n a long, not null.
pub struct PowerArgs {
    t: Tensor,
    h: bool,
    n: i64,
    out: Option<Tensor>,
}

impl FromQ for PowerArgs {
    const TYPE: &'static str = "(matrix;n) or (matrix;n;output)";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<PowerArgs>> {
        let usage = PowerArgs::TYPE;
        let mut a = Args::list(x, 2, 3, usage)?;
        let out = a.opt::<OutTensor>(2)?.map(|o| o.0);
        let n = a
            .opt::<i64>(1)?
            .ok_or_else(|| anyhow!("2nd argument of long integer n-th power expected"))?;
        if n == i64::MIN {
            // libtorch negates n for a negative power: -0N overflows and its loop never ends
            bail!("n-th power: n is null (0N)");
        }
        let (mut ts, h) = inputs(&a, None, 1, usage)?;
        Ok(Some(PowerArgs {
            t: ts.remove(0),
            h,
            n,
            out,
        }))
    }
}

/// `multidot`'s matrices: the tensors of a tensor, a vector, one q array or a list of arrays
/// and tensors; whether any came from a handle.
pub struct Matrices(Vec<Tensor>, bool);

impl FromQ for Matrices {
    const TYPE: &'static str = "a vector, or a list of arrays and tensors";
    /// Every value is a form or an error.
    fn read(x: K) -> Result<Option<Matrices>> {
        match registry::class_of(x) {
            Some(registry::Class::Tensor) => {
                return Ok(Some(Matrices(vec![registry::tensor(x)?], true)))
            }
            Some(registry::Class::Vector) => return Ok(Some(Matrices(opargs::vector(x)?, true))),
            Some(c) => bail!("unexpected arg, {c}"),
            None if registry::is_handle(x) => bail!("stale pointer"),
            None => {}
        }
        if read::ktype(x) != 0 {
            return Ok(Some(Matrices(vec![Input::from_q(x, "input")?.t], false)));
        }
        let v = from::list(&x).unwrap_or(&[]);
        for (i, y) in v.iter().enumerate() {
            if registry::is_handle(*y) && !opargs::is_tensor(*y) {
                bail!("arg[{i}] unexpected, given {}", opargs::describe(*y));
            }
        }
        let (ts, h) = forms::tensors(v)?;
        Ok(Some(Matrices(ts, h)))
    }
}

crate::qfn! {
    /// `addbmm(x;y;z;beta;alpha;output)`: beta*x + alpha*(the sum of y's and z's batch products).
    pub fn addbmm(x: AddMat) -> KResult {
        x.run(0)
    }

    /// `addmm(x;y;z;beta;alpha;output)`: beta*x + alpha*mm(y;z).
    pub fn addmm(x: AddMat) -> KResult {
        x.run(1)
    }

    /// `addmv(x;y;z;beta;alpha;output)`: beta*x + alpha*mv(y;z).
    pub fn addmv(x: AddMat) -> KResult {
        x.run(2)
    }

    /// `addr(x;y;z;beta;alpha;output)`: beta*x + alpha*outer(y;z).
    pub fn addr(x: AddMat) -> KResult {
        x.run(3)
    }

    /// `baddbmm(x;y;z;beta;alpha;output)`: beta*x + alpha*bmm(y;z).
    pub fn baddbmm(x: AddMat) -> KResult {
        x.run(4)
    }

    /// `Cross(x;y)`, `Cross(x;y;dim)`, with an optional output tensor; dim defaults to -1.
    pub fn cross(x: CrossArgs) -> KResult {
        match &x.out {
            Some(o) => {
                let _ = x.a.f_cross_out(o, &x.b, x.dim)?;
                Ok(make::null())
            }
            None => result(x.a.f_cross(&x.b, x.dim)?, x.h),
        }
    }

    /// `power(matrix;n)`, `power(matrix;n;output)`: the n-th power of square matrices.
    pub fn power(x: PowerArgs) -> KResult {
        match &x.out {
            Some(o) => {
                let _ = x.t.f_matrix_power_out(o, x.n)?;
                Ok(make::null())
            }
            None => result(x.t.f_matrix_power(x.n)?, x.h),
        }
    }

    /// `multidot(x;y;..)` of arrays and tensors, or `multidot v` of a vector: the product of the
    /// matrices, in the cheapest order.
    pub fn multidot(x: Matrices) -> KResult {
        result(Tensor::f_linalg_multi_dot(&x.0)?, x.1)
    }
}

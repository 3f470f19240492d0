//! Complex tensors (complex.rst): `real h`, `imag h` the real and imaginary parts of a complex
//! tensor and `isreal h` where the imaginary part is zero, as q data; `real enlist h` (and so on)
//! as a new handle. Complex tensors are made and read back by `tensor` (src/tensor/modes.rs,
//! src/tensor/convert.rs).
use anyhow::Result;
use tch::{TchError, Tensor};

use crate::k::{KResult, K};
use crate::tensor::sparse::part;

/// One line per function: the q name's Rust function and the tch method it applies.
macro_rules! parts {
    ($($name:ident: $f:ident;)*) => {$(
        pub fn $name(x: K) -> KResult {
            part(x, "complex", Tensor::is_complex, |t| complex(t, Tensor::$f))
        }
    )*};
}

/// `f` of a complex tensor; a sparse one is made dense first (as ktorch does).
fn complex(t: &Tensor, f: fn(&Tensor) -> Result<Tensor, TchError>) -> Result<Tensor> {
    Ok(if t.is_sparse() {
        f(&t.f_to_dense(None, false)?)?
    } else {
        f(t)?
    })
}

parts! {
    real: f_real;
    imag: f_imag;
    isreal: f_isreal;
}

//! Complex tensors (complex.rst): `real h`, `imag h` the real and imaginary parts of a complex
//! tensor and `isreal h` where the imaginary part is zero, as q data; `real enlist h` (and so on)
//! as a new handle. Complex tensors are made and read back by `tensor` (src/tensor/modes.rs,
//! src/tensor/convert.rs).
use anyhow::Result;
use tch::Tensor;

use crate::k::from::FromQ;
use crate::k::{KResult, K};
use crate::tensor::result;
use crate::tensor::sparse::part_of;

/// A complex tensor given as `h` (its part comes back as q data) or `enlist h` (as a handle);
/// a sparse one is made dense (as ktorch does).
pub struct ComplexPart {
    t: Tensor,
    handle: bool,
}

impl FromQ for ComplexPart {
    const TYPE: &'static str = "a complex tensor (enlist to return tensor ptr)";
    /// Every value is the tensor or ktorch's error.
    fn read(x: K) -> Result<Option<ComplexPart>> {
        let (t, handle) = part_of(x, "complex", Tensor::is_complex)?;
        let t = if t.is_sparse() {
            t.f_to_dense(None, false)?
        } else {
            t
        };
        Ok(Some(ComplexPart { t, handle }))
    }
}

crate::qfn! {
    /// `real h`: the real part of a complex tensor.
    pub fn real(x: ComplexPart) -> KResult {
        result(x.t.f_real()?, x.handle)
    }

    /// `imag h`: the imaginary part.
    pub fn imag(x: ComplexPart) -> KResult {
        result(x.t.f_imag()?, x.handle)
    }

    /// `isreal h`: true where the imaginary part is zero.
    pub fn isreal(x: ComplexPart) -> KResult {
        result(x.t.f_isreal()?, x.handle)
    }
}

//! Tensor math, ktorch's forms: arguments are tensor handles or q data; the result is a tensor
//! handle when any input is a handle, q data otherwise.
pub mod forms;
// linear algebra and spectral math (math-linalg.rst and math-spectral.rst)
pub mod args;
pub mod decomp;
pub mod spectral;
pub mod linalg;
pub mod pointwise;
pub mod reduce;

//! Tensor math, ktorch's forms: arguments are tensor handles or q data; the result is a tensor
//! handle when any input is a handle, q data otherwise. Arguments are read with the extraction
//! trait `k::from::FromQ` (trailing optional arguments from the end: `k::from::Args`, and
//! `forms::op` for one input with optional arguments and an output).
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod complex;
pub mod forms;
// linear algebra and spectral math (math-linalg.rst and math-spectral.rst)
pub mod decomp;
pub mod linalg;
pub mod pointwise;
pub mod reduce;
pub mod spectral;
// reductions, other math and random (math-reduce.rst, math-other.rst, math-random.rst)
pub mod norms;
pub mod other;
pub mod random;
pub mod unique;
// pointwise and comparison math (math-pointwise.rst and math-compare.rst)
pub mod compare;
pub mod pointargs;
pub mod sorting;

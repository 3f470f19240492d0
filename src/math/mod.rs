//! Tensor math, ktorch's forms: arguments are tensor handles or q data; the result is a tensor
//! handle when any input is a handle, q data otherwise.
pub mod forms;
pub mod linalg;
pub mod pointwise;
pub mod reduce;
// reductions, other math and random (math-reduce.rst, math-other.rst, math-random.rst)
pub mod args;
pub mod norms;
pub mod other;
pub mod random;
pub mod unique;

//! Tensor math, ktorch's forms: arguments are tensor handles or q data; the result is a tensor
//! handle when any input is a handle, q data otherwise.
pub mod forms;
pub mod linalg;
pub mod pointwise;
pub mod reduce;
// pointwise and comparison math (math-pointwise.rst and math-compare.rst)
pub mod compare;
pub mod pointargs;
pub mod sorting;

//! Tensor math, ktorch's forms: arguments are tensor handles or q data; the result is a tensor
//! handle when any input is a handle, q data otherwise.
pub mod complex;
pub mod forms;
pub mod linalg;
pub mod pointwise;
pub mod reduce;

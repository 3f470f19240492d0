//! Pinned (page-locked) host memory for copies to CUDA that do not block: the q data of
//! convert.rs and the table columns of table.rs are copied into it.
#![deny(unsafe_code)]
use tch::{Device, Kind, Tensor};

/// An empty CPU tensor in pinned memory (libtorch's caching host allocator), for a copy to
/// CUDA that does not block; kinds q data makes.
pub fn empty_pinned(size: &[i64], kind: Kind) -> anyhow::Result<Tensor> {
    // c10::ScalarType's codes of the kinds q data makes
    let code = match kind {
        Kind::Uint8 => 0,
        Kind::Int8 => 1,
        Kind::Int16 => 2,
        Kind::Int => 3,
        Kind::Int64 => 4,
        Kind::Float => 6,
        Kind::Double => 7,
        Kind::Bool => 11,
        _ => return Ok(Tensor::f_empty(size, (kind, Device::Cpu))?),
    };
    crate::cxx::tensor::empty_pinned(size, code)
}

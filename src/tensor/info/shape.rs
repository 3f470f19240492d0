//! Sizes and memory: `size stride dim numel itemsize elements bytes offset`. Each takes a tensor,
//! vector or dictionary (or q data, made into a tensor); an undefined tensor has no dimensions,
//! no elements and no storage.
use anyhow::Result;
use tch::Tensor;

use super::{facts, query, Attr, Held};
use crate::k::KResult;

pub fn sizes(t: &Tensor) -> Result<Vec<i64>> {
    Ok(if t.defined() { t.size() } else { vec![] })
}
pub fn strides(t: &Tensor) -> Result<Vec<i64>> {
    Ok(if t.defined() && !t.is_sparse() {
        t.stride()
    } else {
        vec![]
    })
}
pub fn dims(t: &Tensor) -> Result<i64> {
    Ok(if t.defined() { t.dim() as i64 } else { 0 })
}
/// Elements; for a sparse tensor, the elements of its values (as ktorch counts them).
pub fn count(t: &Tensor) -> Result<i64> {
    Ok(if !t.defined() {
        0
    } else if t.is_sparse() {
        t.f_internal_values()?.numel() as i64
    } else {
        t.numel() as i64
    })
}
pub fn item_size(t: &Tensor) -> Result<i64> {
    Ok(if t.defined() {
        t.f_kind()?.elt_size_in_bytes() as i64
    } else {
        0
    })
}
/// Elements in the whole underlying storage (a view may see fewer); a sparse tensor's values'.
pub fn storage_elements(t: &Tensor) -> Result<i64> {
    if t.defined() && t.is_sparse() {
        return storage_elements(&t.f_internal_values()?);
    }
    let n = item_size(t)?;
    Ok(if n > 0 {
        facts::storage_bytes(t)? / n
    } else {
        0
    })
}

crate::qfn! {
    pub fn size(x: Held<true>) -> KResult {
        query(x, Attr::Longs(&sizes))
    }
}
crate::qfn! {
    /// Strides (elements to step in each dimension); none for an undefined or sparse tensor.
    pub fn stride(x: Held<true>) -> KResult {
        query(x, Attr::Longs(&strides))
    }
}
crate::qfn! {
    pub fn dim(x: Held<true>) -> KResult {
        query(x, Attr::Long(&dims))
    }
}
crate::qfn! {
    pub fn numel(x: Held<true>) -> KResult {
        query(x, Attr::Long(&count))
    }
}
crate::qfn! {
    pub fn itemsize(x: Held<true>) -> KResult {
        query(x, Attr::Long(&item_size))
    }
}
crate::qfn! {
    pub fn elements(x: Held<true>) -> KResult {
        query(x, Attr::Long(&storage_elements))
    }
}
/// Bytes of the underlying storage; a sparse tensor's indices and values.
pub fn storage_bytes(t: &Tensor) -> Result<i64> {
    if t.defined() && t.is_sparse() {
        return Ok(facts::storage_bytes(&t.f_internal_indices()?)?
            + facts::storage_bytes(&t.f_internal_values()?)?);
    }
    facts::storage_bytes(t)
}
crate::qfn! {
    pub fn bytes(x: Held<true>) -> KResult {
        query(x, Attr::Long(&storage_bytes))
    }
}
crate::qfn! {
    /// Offset (in elements) of the tensor's first element in its storage.
    pub fn offset(x: Held<true>) -> KResult {
        query(x, Attr::Long(&facts::storage_offset))
    }
}

//! Pointers and references: `ptr sptr ref sref weakref` per tensor of a tensor, vector or
//! dictionary handle (handles only: q data has no tensor to point at), and `same(a;b)`,
//! `alias(a;b)` for two tensor handles. Counts are read on the stored tensors, never on clones.
use anyhow::Result;

use super::{facts, query, with_tensor, Attr};
use crate::k::{make, KResult, K};

pub fn ptr(x: K) -> KResult {
    query(x, Attr::Long(&facts::impl_ptr), false)
}
pub fn sptr(x: K) -> KResult {
    query(x, Attr::Long(&facts::storage_ptr), false)
}
pub fn ref_(x: K) -> KResult {
    query(x, Attr::Long(&facts::use_count), false)
}
pub fn sref(x: K) -> KResult {
    query(x, Attr::Long(&facts::storage_count), false)
}
pub fn weakref(x: K) -> KResult {
    query(x, Attr::Long(&facts::weak_count), false)
}

/// The two tensor handles of `(a;b)`.
fn pair(x: K) -> Result<[K; 2]> {
    match crate::k::from::list(&x) {
        Some([a, b]) => Ok([*a, *b]),
        _ => anyhow::bail!("expected (tensor;tensor)"),
    }
}

/// `same(a;b)`: both handles hold the same tensor (one TensorImpl, as after `addref`).
pub fn same(x: K) -> KResult {
    let [a, b] = pair(x)?;
    let pa = with_tensor(a, facts::impl_ptr)?;
    let pb = with_tensor(b, facts::impl_ptr)?;
    Ok(make::boolean(pa == pb))
}

/// `alias(a;b)`: the tensors share their underlying storage.
pub fn alias(x: K) -> KResult {
    let [a, b] = pair(x)?;
    let ta = with_tensor(a, |t| Ok(t.shallow_clone()))?;
    let tb = with_tensor(b, |t| Ok(t.shallow_clone()))?;
    Ok(make::boolean(facts::is_alias(&ta, &tb)?))
}

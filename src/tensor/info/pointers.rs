//! Pointers and references: `ptr sptr ref sref weakref` per tensor of a tensor, vector or
//! dictionary handle (handles only: q data has no tensor to point at), and `same(a;b)`,
//! `alias(a;b)` for two tensor handles. Counts are read on the stored tensors, never on clones.
use anyhow::Result;

use super::{facts, query, with_tensor, Attr, Held};
use crate::k::from::FromQ;
use crate::k::{make, KResult, K};

crate::qfn! {
    pub fn ptr(x: Held<false>) -> KResult {
        query(x, Attr::Long(&facts::impl_ptr))
    }
}
crate::qfn! {
    pub fn sptr(x: Held<false>) -> KResult {
        query(x, Attr::Long(&facts::storage_ptr))
    }
}
crate::qfn! {
    pub fn ref_(x: Held<false>) -> KResult {
        query(x, Attr::Long(&facts::use_count))
    }
}
crate::qfn! {
    pub fn sref(x: Held<false>) -> KResult {
        query(x, Attr::Long(&facts::storage_count))
    }
}
crate::qfn! {
    pub fn weakref(x: Held<false>) -> KResult {
        query(x, Attr::Long(&facts::weak_count))
    }
}

/// The two tensor handles of `(a;b)` (their class checked where their tensors are read).
pub struct Pair(K, K);

impl FromQ for Pair {
    const TYPE: &'static str = "(tensor;tensor)";
    /// Every value is the pair or an error.
    fn read(x: K) -> Result<Option<Pair>> {
        match crate::k::from::list(&x) {
            Some([a, b]) => Ok(Some(Pair(*a, *b))),
            _ => anyhow::bail!("expected (tensor;tensor)"),
        }
    }
}

crate::qfn! {
    /// `same(a;b)`: both handles hold the same tensor (one TensorImpl, as after `addref`).
    pub fn same(x: Pair) -> KResult {
        let pa = with_tensor(x.0, facts::impl_ptr)?;
        let pb = with_tensor(x.1, facts::impl_ptr)?;
        Ok(make::boolean(pa == pb))
    }

    /// `alias(a;b)`: the tensors share their underlying storage.
    pub fn alias(x: Pair) -> KResult {
        let ta = with_tensor(x.0, |t| Ok(t.shallow_clone()))?;
        let tb = with_tensor(x.1, |t| Ok(t.shallow_clone()))?;
        Ok(make::boolean(facts::is_alias(&ta, &tb)?))
    }
}

//! Batching of a tensor, vector, dictionary (tensor/batch.rs) or model (model/data.rs):
//! `batch`, `restore`, `shuffle`.
use anyhow::{bail, Result};

use super::route::{classes, Given, Routed, TENSORS};
use crate::k::from::FromQ;
use crate::k::{make, KResult, K};
use crate::model::{data, ModelArg};
use crate::registry::{self, Class};
use crate::tensor::batch::handle_dim;

/// `restore`'s and `shuffle`'s argument (`SHUFFLE` tells which, for tensor/batch.rs's error):
/// `x` or `(x;dim)`, a model (its data is batched along dimension 0 only), or a tensor, vector
/// or dictionary handle and the dimension.
pub enum Batched<const SHUFFLE: bool> {
    Model(ModelArg),
    Tensors(K, i64),
}

impl<const SHUFFLE: bool> FromQ for Batched<SHUFFLE> {
    const TYPE: &'static str = "a tensor, vector, dictionary or model, and optional dimension";
    /// Every value is one form or an error.
    fn read(x: K) -> Result<Option<Self>> {
        let (h, d) = handle_dim(x, if SHUFFLE { "shuffle" } else { "restore" })?;
        if registry::class_of(h) != Some(Class::Model) {
            return Ok(Some(Batched::Tensors(h, d)));
        }
        if d != 0 {
            bail!("model data is only batched on dimension 0, but given dimension {d}");
        }
        Ok(Some(Batched::Model(ModelArg(h))))
    }
}

crate::qfn! {
    /// `batch m`: a model's next batch; `batch(x;size..)`: tensor/batch.rs's forms.
    pub fn batch(x: Routed<{ classes(&[Class::Model]) }, TENSORS, Given>) -> KResult {
        match x {
            Routed::Here(m) => Ok(make::boolean(data::batch(ModelArg(m.k))?)),
            Routed::There(x) => crate::tensor::batch::batch(x.0),
        }
    }

    /// `restore m` the full size of a model's data; `restore x`, `restore(x;dim)` of tensors.
    pub fn restore(x: Batched<false>) -> KResult {
        match x {
            Batched::Model(m) => Ok(make::long(data::restore(m)?)),
            Batched::Tensors(h, d) => crate::tensor::batch::restore(h, d),
        }
    }

    /// `shuffle m` a model's training data; `shuffle x`, `shuffle(x;dim)` of tensors.
    pub fn shuffle(x: Batched<true>) -> KResult {
        match x {
            Batched::Model(m) => {
                data::shuffle(m)?;
                Ok(make::null())
            }
            Batched::Tensors(h, d) => crate::tensor::batch::shuffle(h, d),
        }
    }
}

//! Batching of a tensor, vector, dictionary (tensor/batch.rs) or model (model/data.rs):
//! `batch`, `restore`, `shuffle`.
use anyhow::{bail, Result};

use crate::k::from::FromQ;
use crate::k::{make, KResult, K};
use crate::model::ModelArg;
use crate::registry;
use crate::tensor::batch::handle_dim;

fn is_model(h: K) -> bool {
    registry::class_of(h) == Some(registry::Class::Model)
}

/// A model handle (its data is batched along dimension 0 only), or false for other objects.
fn model_dim0(h: K, d: i64) -> Result<bool> {
    if !is_model(h) {
        return Ok(false);
    }
    if d != 0 {
        bail!("model data is only batched on dimension 0, but given dimension {d}");
    }
    Ok(true)
}

pub fn batch(x: K) -> KResult {
    if let Some(m) = ModelArg::of(x) {
        return Ok(make::boolean(crate::model::data::batch(m)?));
    }
    crate::tensor::batch::batch(x)
}

pub fn restore(x: K) -> KResult {
    let (h, d) = handle_dim(x, "restore")?;
    if model_dim0(h, d)? {
        return Ok(make::long(crate::model::data::restore(ModelArg(h))?));
    }
    crate::tensor::batch::restore(h, d)
}

pub fn shuffle(x: K) -> KResult {
    let (h, d) = handle_dim(x, "shuffle")?;
    if model_dim0(h, d)? {
        crate::model::data::shuffle(ModelArg(h))?;
        return Ok(make::null());
    }
    crate::tensor::batch::shuffle(h, d)
}

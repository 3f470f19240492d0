//! `size`, `elements` and `bytes` of a module, loss, optimizer or model, as ktorch.cpp counts them
//! (`moduleattr`, `optattr`, `modelattr`); of anything else, the tensor's (tensor/info/shape.rs).
use anyhow::Result;

use crate::k::{make, KResult, K};
use crate::model::Model;
use crate::nn::{ModRef, Module};
use crate::optim::Optimizer;
use crate::registry;
use crate::tensor::info::shape;

/// What `size`, `elements` and `bytes` count of an object.
#[derive(Clone, Copy)]
enum Count {
    Size,
    Elements,
    Bytes,
}

pub fn size(x: K) -> KResult {
    match object_count(x, Count::Size)? {
        Some(n) => Ok(make::long(n)),
        None => shape::size::q(x),
    }
}

pub fn elements(x: K) -> KResult {
    match object_count(x, Count::Elements)? {
        Some(n) => Ok(make::long(n)),
        None => shape::elements::q(x),
    }
}

pub fn bytes(x: K) -> KResult {
    match object_count(x, Count::Bytes)? {
        Some(n) => Ok(make::long(n)),
        None => shape::bytes::q(x),
    }
}

/// The size is the number of parameters (a module's, an optimizer's, a model's module's);
/// elements and bytes those of a module's parameters and buffers, of an optimizer's buffers
/// (Optimizer::buffer_counts), a model's module and optimizer together. None for other values
/// (tensors, vectors, dictionaries, q data).
fn object_count(x: K, what: Count) -> Result<Option<i64>> {
    if !matches!(
        registry::class_of(x),
        Some(
            registry::Class::Module
                | registry::Class::Loss
                | registry::Class::Optimizer
                | registry::Class::Model
        )
    ) {
        return Ok(None);
    }
    let module = |m: &Module| -> Result<i64> {
        let ts = m
            .named_parameters()
            .into_iter()
            .chain(m.named_buffers())
            .map(|(_, t)| t);
        Ok(match what {
            Count::Size => m.named_parameters().len() as i64,
            Count::Elements => ts.map(shape::storage_elements).sum::<Result<i64>>()?,
            Count::Bytes => ts.map(shape::storage_bytes).sum::<Result<i64>>()?,
        })
    };
    let opt = |o: &Optimizer| -> Result<i64> {
        let (_, e, b) = o.buffer_counts()?;
        Ok(match what {
            Count::Size => o.parameters().len() as i64,
            Count::Elements => e,
            Count::Bytes => b,
        })
    };
    registry::with(x, |o| {
        if let Some(m) = o.get::<Model>() {
            return Ok(Some(match what {
                Count::Size => module(m.module.get())?,
                _ => module(m.module.get())? + opt(&m.opt)?,
            }));
        }
        if let Some(m) = o.get::<ModRef>() {
            return Ok(Some(module(m.get())?));
        }
        if let Some(z) = o.get::<Optimizer>() {
            return Ok(Some(opt(z)?));
        }
        Ok(Some(0))
    })
}

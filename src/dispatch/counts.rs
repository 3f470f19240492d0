//! `size`, `elements` and `bytes` of a module, loss, optimizer or model, as ktorch.cpp counts them
//! (`moduleattr`, `optattr`, `modelattr`); of anything else, the tensor's (tensor/info/shape.rs).
use anyhow::Result;

use super::route::{classes, Classes, Object, Routed, TENSORS};
use crate::k::{make, KResult};
use crate::model::Model;
use crate::nn::{ModRef, Module};
use crate::optim::Optimizer;
use crate::registry::{self, Class};
use crate::tensor::info::{shape, Held};

/// What `size`, `elements` and `bytes` count of an object.
#[derive(Clone, Copy)]
enum Count {
    Size,
    Elements,
    Bytes,
}

/// A module, loss, optimizer or model: counted here; tensors, vectors, dictionaries and q data
/// are tensor/info's.
const OBJECTS: Classes = classes(&[Class::Module, Class::Loss, Class::Optimizer, Class::Model]);

/// `size`, `elements` and `bytes`' argument.
type Counted = Routed<OBJECTS, TENSORS, Held<true>>;

crate::qfn! {
    pub fn size(x: Counted) -> KResult {
        match x {
            Routed::Here(o) => Ok(make::long(object_count(o, Count::Size)?)),
            Routed::There(h) => shape::size(h),
        }
    }

    pub fn elements(x: Counted) -> KResult {
        match x {
            Routed::Here(o) => Ok(make::long(object_count(o, Count::Elements)?)),
            Routed::There(h) => shape::elements(h),
        }
    }

    pub fn bytes(x: Counted) -> KResult {
        match x {
            Routed::Here(o) => Ok(make::long(object_count(o, Count::Bytes)?)),
            Routed::There(h) => shape::bytes(h),
        }
    }
}

/// The size is the number of parameters (a module's, an optimizer's, a model's module's);
/// elements and bytes those of a module's parameters and buffers, of an optimizer's buffers
/// (Optimizer::buffer_counts), a model's module and optimizer together; a loss holds none.
fn object_count(x: Object, what: Count) -> Result<i64> {
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
    registry::with(x.k, |o| {
        if let Some(m) = o.get::<Model>() {
            return match what {
                Count::Size => module(m.module.get()),
                _ => Ok(module(m.module.get())? + opt(&m.opt)?),
            };
        }
        if let Some(m) = o.get::<ModRef>() {
            return module(m.get());
        }
        if let Some(z) = o.get::<Optimizer>() {
            return opt(z);
        }
        Ok(0)
    })
}

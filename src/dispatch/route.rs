//! The argument kinds of the dispatch layer: a q function here takes objects of several classes
//! and routes each to the domain that owns it, so its kind says which classes it answers itself
//! and which it hands down ([`Routed`]), and a handle of any other class is an error naming them
//! all (`expected a tensor, vector, dictionary, module or model, given loss`).
use std::fmt::Write;

use anyhow::{anyhow, Result};

use crate::k::from::FromQ;
use crate::k::K;
use crate::registry::{self, Class};

/// A set of classes as a bit mask (`Routed`'s const parameters): [`classes`] makes one.
pub type Classes = u16;

/// The set of `cs`.
pub const fn classes(cs: &[Class]) -> Classes {
    let mut m = 0;
    let mut i = 0;
    while i < cs.len() {
        m |= 1 << cs[i] as u16;
        i += 1;
    }
    m
}

/// A tensor, a vector or a dictionary: the classes tensor/info answers for.
pub const TENSORS: Classes = classes(&[Class::Tensor, Class::Vector, Class::Dictionary]);
/// A module, or a model (its module): what ktorch applies module functions to.
pub const MODULES: Classes = classes(&[Class::Module, Class::Model]);

/// Every class: a domain function that takes an object of any class (its tensors).
pub const ANY: Classes = classes(&ALL);

/// ktorch's classes in their order (`Class`'s), for the words of a set.
const ALL: [Class; 11] = [
    Class::Tensor,
    Class::Vector,
    Class::Dictionary,
    Class::Module,
    Class::Loss,
    Class::Optimizer,
    Class::Model,
    Class::Stream,
    Class::Event,
    Class::Graph,
    Class::Future,
];

/// Is `c` in `set`?
pub fn has(set: Classes, c: Class) -> bool {
    set & classes(&[c]) != 0
}

/// The classes of `set` in words: `a tensor, vector, dictionary, module or model`.
pub fn words(set: Classes) -> String {
    let names: Vec<&str> = ALL
        .iter()
        .filter(|c| has(set, **c))
        .map(|c| c.name())
        .collect();
    let mut s = String::from(match names.first().map(|n| n.as_bytes()[0]) {
        Some(b'a' | b'e' | b'i' | b'o' | b'u') => "an ",
        _ => "a ",
    });
    for (i, n) in names.iter().enumerate() {
        let sep = match i {
            0 => "",
            _ if i + 1 == names.len() => " or ",
            _ => ", ",
        };
        let _ = write!(s, "{sep}{n}");
    }
    s
}

/// The error of a handle of class `c` given where the classes of `set` are taken; a busy
/// handle's is the busy error (it is of a class taken once its call is awaited).
fn wrong_class(x: K, set: Classes, c: Class) -> anyhow::Error {
    registry::busy(x).unwrap_or_else(|| anyhow!("expected {}, given {c}", words(set)))
}

/// A handle of a live object (or of one lent to an async call: using it is the busy error),
/// with its class.
#[derive(Clone, Copy)]
pub struct Object {
    pub k: K,
    pub class: Class,
}

impl FromQ for Object {
    const TYPE: &'static str = "a ktorch object";
    fn read(x: K) -> Result<Option<Object>> {
        Ok(registry::class_of(x).map(|class| Object { k: x, class }))
    }
    /// A freed handle is `stale pointer`, as on every use; q data is ktorch's words.
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        if registry::is_handle(x) {
            return anyhow!("stale pointer");
        }
        // ktorch's words (its pointers.rst)
        anyhow!(
            "need allocated torch object, e.g. tensor, module, given {}",
            crate::k::from::describe(x)
        )
    }
}

/// The argument of a function over several classes: a handle of one of the classes `HERE`,
/// which the dispatch function answers itself, or the argument of the domain function it routes
/// the rest to, read as that function's kind `D` (handles of the classes `THERE`, q data, lists).
/// A handle of any other class is `expected <HERE and THERE>, given <class>`; a stale handle and
/// other values are `D`'s to read (`stale pointer`, its own errors).
pub enum Routed<const HERE: Classes, const THERE: Classes, D> {
    Here(Object),
    There(D),
}

impl<const HERE: Classes, const THERE: Classes, D: FromQ> FromQ for Routed<HERE, THERE, D> {
    const TYPE: &'static str = D::TYPE;
    fn read(x: K) -> Result<Option<Self>> {
        if let Some(class) = registry::class_of(x) {
            if has(HERE, class) {
                return Ok(Some(Routed::Here(Object { k: x, class })));
            }
            if !has(THERE, class) {
                return Err(wrong_class(x, HERE | THERE, class));
            }
        }
        Ok(D::read(x)?.map(Routed::There))
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        D::wrong(x, arg)
    }
}

/// The argument as given, for a domain function that still reads its own (`nn::api::module`,
/// `tensor::batch::batch`): any q value.
#[derive(Clone, Copy)]
pub struct Given(pub K);

impl FromQ for Given {
    const TYPE: &'static str = "any value";
    fn read(x: K) -> Result<Option<Given>> {
        Ok(Some(Given(x)))
    }
}

/// `Ok` unless `x` is a handle of a class outside `set` (its error names the classes of `set`):
/// for a kind whose forms are lists as well as handles.
pub fn expect(x: K, set: Classes) -> Result<()> {
    match registry::class_of(x) {
        Some(c) if !has(set, c) => Err(wrong_class(x, set, c)),
        _ => Ok(()),
    }
}

//! A model made in Python inside a ktorch module: a TorchScript module or an AOTInductor
//! package. The module node (layer `torchscript` or `aoti`) keeps it here; its forward, deep
//! copy and device go through it.
use anyhow::Result;
use tch::{Device, Tensor};

pub mod aoti;
pub mod torchscript;

use crate::nn::Out;
use aoti::Aoti;
use torchscript::Script;

pub enum Foreign {
    Script(Script),
    /// Shared, not copied, by a module's deep copy: it holds no state that changes.
    Aoti(std::sync::Arc<Aoti>),
}

type Named = Vec<(String, Tensor)>;

impl Foreign {
    pub fn forward(&self, training: bool, x: &[Tensor]) -> Result<Out> {
        match self {
            Foreign::Script(s) => s.forward(training, x),
            Foreign::Aoti(a) => a.forward(x),
        }
    }

    /// An independent copy with its parameters and buffers (to list in the module's node).
    pub fn deep_clone(&self) -> Result<(Foreign, Named, Named)> {
        Ok(match self {
            Foreign::Script(s) => {
                let c = s.deep_clone()?;
                let (p, b) = (c.parameters()?, c.buffers()?);
                (Foreign::Script(c), p, b)
            }
            Foreign::Aoti(a) => (Foreign::Aoti(a.clone()), vec![], vec![]),
        })
    }

    /// Where inputs go, when the node itself says (an AOTInductor package's device).
    pub fn device(&self) -> Option<Device> {
        match self {
            Foreign::Script(_) => None,
            Foreign::Aoti(a) => Some(a.device()),
        }
    }

    pub fn script(&self) -> Option<&Script> {
        match self {
            Foreign::Script(s) => Some(s),
            Foreign::Aoti(_) => None,
        }
    }
}

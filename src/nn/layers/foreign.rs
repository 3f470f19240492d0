//! Models made in Python as module types: `torchscript` (a `torch.jit.save`d module) and `aoti`
//! (an AOTInductor package), each defined by its file. Loading happens in the layer's init, so
//! `module(`torchscript;file)` and a child of a container defined that way both work; `loadscript`
//! and `loadaoti` (src/io/pyapi.rs) are the direct forms.
use std::sync::Arc;

use anyhow::{anyhow, Result};

use super::{many, opt, Def, Layer, Out, Run, Ty};
use crate::nn::foreign::aoti::Aoti;
use crate::nn::foreign::torchscript::Script;
use crate::nn::foreign::Foreign;
use crate::nn::Module;

pub static LAYERS: &[Layer] = &[
    Layer {
        init: script_init,
        ..many(
            "torchscript",
            "torch.jit.ScriptModule",
            &[
                opt("file", Ty::Str, Def::Required),
                opt("device", Ty::Sym(&[]), Def::Sym("cpu")),
            ],
            (1, 1024),
            run,
        )
    },
    Layer {
        init: aoti_init,
        ..many(
            "aoti",
            "torch._inductor.AOTIModelPackageLoader",
            &[opt("file", Ty::Str, Def::Required)],
            (1, 1024),
            run,
        )
    },
];

/// A file option as a path: a symbol's leading colon (q's file handle form) dropped.
pub fn path(s: &str) -> &str {
    s.strip_prefix(':').unwrap_or(s)
}

fn script_init(m: &mut Module) -> Result<()> {
    let d = m.sym("device");
    let device = crate::tensor::options::device_from_name(d)
        .ok_or_else(|| anyhow!("torchscript: unrecognized device `{d} (`cpu, `cuda or `cuda:n)"))?;
    let s = Script::load(path(m.text("file")), device)?;
    attach_script(m, s)
}

/// Put a loaded script module into node `m`, listing its parameters and buffers.
pub fn attach_script(m: &mut Module, s: Script) -> Result<()> {
    m.parms = s.parameters()?;
    m.buffers = s.buffers()?;
    m.foreign = Some(Foreign::Script(s));
    Ok(())
}

fn aoti_init(m: &mut Module) -> Result<()> {
    let a = Aoti::load(path(m.text("file")))?;
    m.foreign = Some(Foreign::Aoti(Arc::new(a)));
    Ok(())
}

fn run(m: &Module, r: &Run, x: &[tch::Tensor]) -> Result<Out> {
    m.foreign
        .as_ref()
        .ok_or_else(|| anyhow!("{}: module has no model loaded", m.layer.name))?
        .forward(r.training, x)
}

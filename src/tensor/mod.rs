//! Tensors: q data ⇄ tensors (`convert`; tables: `table`), options (`options`), creation and
//! retrieval (`create`), handle operations (`handles`), properties (`info`), gradients
//! (`autograd`).
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![forbid(unsafe_code)]
pub mod autograd;
pub mod batch;
pub mod convert;
pub mod create;
pub mod dict;
pub mod handles;
pub mod info;
pub mod known;
pub mod modes;
pub mod options;
pub mod pinned;
pub mod retrieve;
pub mod vector;
// tensor operations (tensorop.rst)
pub mod detach;
pub mod fill;
pub mod join;
pub mod opargs;
pub mod select;
pub mod shape;
pub mod side;
pub mod table;
pub mod windows;
// sparse tensors (sparse.rst)
pub mod sparse;

use tch::Tensor;

use crate::k::K;
use crate::registry;

/// A tensor argument: a tensor handle, or q data made into a CPU tensor. The flag says whether
/// it came from a handle (results then stay tensors, as in ktorch).
pub fn arg(x: K) -> anyhow::Result<(Tensor, bool)> {
    if registry::is_handle(x) {
        Ok((registry::tensor(x)?, true))
    } else {
        Ok((convert::to_tensor(x)?, false))
    }
}

/// Return a result as ktorch does: a new handle if any input was a handle, else q data.
pub fn result(t: Tensor, as_handle: bool) -> crate::k::KResult {
    if as_handle {
        Ok(registry::add(registry::Obj::Tensor(t)))
    } else {
        convert::to_q(&t)
    }
}

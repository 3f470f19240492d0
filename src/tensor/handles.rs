//! Handle operations on tensors, as ktorch: `to(h;options)` moves or converts in place,
//! `use[h;x]` replaces h's tensor (taking x's when x is a handle, which is then freed),
//! `addref h` a second handle on the same tensor, `return h` the values and frees h.
use super::{convert, options};
use crate::k::{make, KResult, K};
use crate::registry::{self, Obj};

pub fn to(x: K) -> KResult {
    let [h, o] = super::args(x, 2..=2, "(tensor;options)")? else { unreachable!() };
    let t = registry::tensor(*h)?;
    let o = options::parse(*o)?;
    // A tensor that required gradients keeps the flag unless the options say otherwise.
    let grad = o.grad.or(Some(t.requires_grad()).filter(|g| *g));
    let moved = options::Options { grad, ..o }.apply(t.f_detach()?)?;
    registry::replace(*h, Obj::Tensor(moved))?;
    Ok(make::null())
}

pub fn use_(x: K) -> KResult {
    let [h, v] = super::args(x, 2..=2, "[tensor;tensor or q data]")? else { unreachable!() };
    let _ = registry::tensor(*h)?; // h must be a live tensor before anything changes
    let t = if registry::is_handle(*v) {
        let t = registry::tensor(*v)?;
        registry::free(*v)?;
        t
    } else {
        convert::to_tensor(*v)?
    };
    registry::replace(*h, Obj::Tensor(t))?;
    Ok(make::null())
}

pub fn addref(x: K) -> KResult {
    let t = registry::tensor(x)?;
    Ok(registry::add(Obj::Tensor(t)))
}

pub fn return_(x: K) -> KResult {
    let t = registry::tensor(x)?;
    let r = convert::to_q(&t)?;
    registry::free(x)?;
    Ok(r)
}

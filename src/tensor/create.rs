//! `tensor`, ktorch's one function for making tensors and reading them back:
//! - `tensor data`, `tensor(data;options)`: a new tensor from q data; `tensor()` an empty tensor
//!   of the default dtype; `tensor[]` (or `tensor(::)`) an undefined tensor, a placeholder;
//! - `tensor(data;out)`: new values for an existing tensor, keeping its dtype and device;
//! - `tensor(`mode;..)`: creation modes (see `modes`);
//! - `tensor h`, `tensor(h;..)`: values back as q data, or handles to the tensors of a vector or
//!   dictionary (see `retrieve`).
use super::{convert, modes, options, retrieve};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};
use crate::registry::{self, Obj};

pub fn tensor(x: K) -> KResult {
    if read::is_unset(x) {
        return Ok(registry::add(Obj::Tensor(tch::Tensor::new())));
    }
    if registry::is_handle(x) {
        return retrieve::all(x);
    }
    if let Some(items) = from::list(&x) {
        if let Some(h) = items.first().filter(|h| registry::is_handle(**h)) {
            return retrieve::part(*h, &items[1..]);
        }
        if let Some(mode) = items.first().and_then(|m| <&str>::of(*m)) {
            if modes::MODES.contains(&mode) {
                let made = modes::create(mode, &items[1..])?;
                return match made.out {
                    Some(out) => fill_out(out, made.tensor),
                    None => Ok(registry::add(Obj::Tensor(made.tensor))),
                };
            }
            anyhow::bail!(
                "unrecognized creation mode `{mode}, expected one of {}",
                modes::MODES.join(",")
            );
        }
        if let [data, last] = items {
            if registry::is_handle(*last) {
                return fill_out(*last, convert::to_tensor(*data)?);
            }
            if options::is_options(*last) && !options::is_options(*data) {
                let o = options::parse(*last)?;
                let t = o.apply(convert::to_tensor(*data)?)?;
                return Ok(registry::add(Obj::Tensor(t)));
            }
        }
    }
    Ok(registry::add(Obj::Tensor(convert::to_tensor(x)?)))
}

/// Put the values of `src` into the output tensor of handle `out`, converted to its dtype and
/// device. The change is in place (resize and copy without recording gradients), so every handle
/// sharing the tensor (`addref`) sees it; an undefined output tensor takes `src` as it is.
pub fn fill_out(out: K, src: tch::Tensor) -> KResult {
    let t = registry::tensor(out)?;
    if !t.defined() {
        registry::replace(out, Obj::Tensor(src))?;
        return Ok(make::null());
    }
    let src = src.f_to_device(t.device())?.f_to_kind(t.kind())?;
    tch::no_grad(|| -> anyhow::Result<()> {
        let mut t = t;
        let _ = t.f_resize_(src.size())?;
        t.f_copy_(&src)?;
        Ok(())
    })?;
    Ok(make::null())
}

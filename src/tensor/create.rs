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

/// `tensor`'s forms, told apart as ktorch does: `::` an undefined tensor, a handle's values,
/// `(h;..)` part of them, `` (`mode;..) `` a creation mode (its arguments read by `modes`),
/// `(data;out)` new values for an output tensor, `(data;options)`, or q data.
pub enum Making {
    Undefined,
    All(K),
    Part(K, Vec<K>),
    Mode(&'static str, Vec<K>),
    Out(tch::Tensor, K),
    Options(tch::Tensor, options::Options),
    Data(tch::Tensor),
}

impl FromQ for Making {
    const TYPE: &'static str = "q data, a handle, (handle;..), (`mode;..) or (data;options)";
    /// Every value is one form or an error (an unknown mode, data no tensor can be made of).
    fn read(x: K) -> anyhow::Result<Option<Making>> {
        if read::is_unset(x) {
            return Ok(Some(Making::Undefined));
        }
        if registry::is_handle(x) {
            return Ok(Some(Making::All(x)));
        }
        if let Some(items) = from::list(&x) {
            if let Some(h) = items.first().filter(|h| registry::is_handle(**h)) {
                return Ok(Some(Making::Part(*h, items[1..].to_vec())));
            }
            if let Some(mode) = items.first().and_then(|m| <&str>::of(*m)) {
                if modes::MODES.contains(&mode) {
                    return Ok(Some(Making::Mode(mode, items[1..].to_vec())));
                }
                anyhow::bail!(
                    "unrecognized creation mode `{mode}, expected one of {}",
                    modes::MODES.join(",")
                );
            }
            if let [data, last] = items {
                if registry::is_handle(*last) {
                    return Ok(Some(Making::Out(convert::to_tensor(*data)?, *last)));
                }
                if options::is_options(*last) && !options::is_options(*data) {
                    let o = options::parse(*last)?;
                    return Ok(Some(Making::Options(convert::to_tensor(*data)?, o)));
                }
            }
        }
        Ok(Some(Making::Data(convert::to_tensor(x)?)))
    }
}

crate::qfn! {
    /// `tensor`: make a tensor, or read one back (see the module's doc).
    pub fn tensor(x: Making) -> KResult {
        match x {
            Making::Undefined => Ok(registry::add(Obj::Tensor(tch::Tensor::new()))),
            Making::All(h) => retrieve::all(h),
            Making::Part(h, rest) => retrieve::part(h, &rest),
            Making::Mode(mode, args) => {
                let made = modes::create(mode, &args)?;
                match made.out {
                    Some(out) => fill_out(out, made.tensor),
                    None => Ok(registry::add(Obj::Tensor(made.tensor))),
                }
            }
            Making::Out(t, out) => fill_out(out, t),
            Making::Options(t, o) => Ok(registry::add(Obj::Tensor(o.apply(t)?))),
            Making::Data(t) => Ok(registry::add(Obj::Tensor(t))),
        }
    }
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

//! Tensor properties: `size`, `dim`, `numel`, `dtype`, `device`.
use super::{arg, options};
use crate::k::{make, KResult, K};

pub fn size(x: K) -> KResult {
    let (t, _) = arg(x)?;
    let s = t.size();
    let v = unsafe { crate::k::native::ktn(7, s.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut(make::data::<i64>(v), s.len()) }.copy_from_slice(&s);
    Ok(v)
}

pub fn dim(x: K) -> KResult {
    Ok(make::long(arg(x)?.0.dim() as i64))
}

pub fn numel(x: K) -> KResult {
    Ok(make::long(arg(x)?.0.numel() as i64))
}

pub fn dtype(x: K) -> KResult {
    Ok(make::symbol(options::kind_name(arg(x)?.0.kind())))
}

pub fn device(x: K) -> KResult {
    Ok(make::symbol(&options::device_name(arg(x)?.0.device())))
}

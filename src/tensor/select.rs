//! ktorch's `index(input;dim;ind)`: PyTorch's `select` when `ind` is a long atom (the dimension
//! is removed), `index_select` when `ind` is longs or a tensor of indices (the dimension is kept).
//! Given q data input the result is q data; given a tensor handle, a new tensor handle.
use anyhow::bail;

use super::opargs;
use super::{arg, convert, known, result};
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::registry;

pub fn index(x: K) -> KResult {
    let [input, dim, ind] = from::items(&x, 3..=3, "(input;dim;index or indices)")? else {
        unreachable!()
    };
    let Some(d) = i64::of(*dim) else {
        bail!(
            "2nd argument of dimension expected, given {}",
            opargs::describe(*dim)
        )
    };
    let (t, h) = arg(*input)?;
    let r = if let Some(i) = i64::of(*ind) {
        t.f_select(d, i)?
    } else if registry::is_handle(*ind) {
        let i = registry::tensor(*ind)?;
        known::check_select(&t, d, &i)?;
        t.f_index_select(d, &i)?
    } else if read::ktype(*ind) == 7 {
        // checked on the host, before the indices go where the tensor is
        let i = convert::to_tensor(*ind)?;
        known::check_select(&t, d, &i)?;
        t.f_index_select(d, &i.f_to_device(t.device())?)?
    } else {
        bail!(
            "3rd argument of index/indices expected, given {}",
            opargs::describe(*ind)
        )
    };
    result(r, h)
}

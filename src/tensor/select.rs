//! ktorch's `index(input;dim;ind)`: PyTorch's `select` when `ind` is a long atom (the dimension
//! is removed), `index_select` when `ind` is longs or a tensor of indices (the dimension is kept).
//! Given q data input the result is q data; given a tensor handle, a new tensor handle.
use anyhow::bail;

use tch::Tensor;

use super::opargs::{self, Input};
use super::{convert, known, result};
use crate::k::from::{self, FromQ};
use crate::k::{read, KResult, K};
use crate::registry;

/// The index of `index`: a long atom (PyTorch's `select`), a tensor of indices, or longs
/// (checked on the host, before they go where the tensor is).
enum Ind {
    One(i64),
    Tensor(Tensor),
    Longs(Tensor),
}

/// `index`'s `(input;dim;index or indices)`: the dimension checked before the input is read,
/// the indices after.
pub struct Indexed {
    input: Input,
    dim: i64,
    ind: Ind,
}

impl FromQ for Indexed {
    const TYPE: &'static str = "(input;dim;index or indices)";
    /// Every value is the list or an error.
    fn read(x: K) -> anyhow::Result<Option<Indexed>> {
        let [input, dim, ind] = from::items(&x, 3..=3, Self::TYPE)? else {
            unreachable!()
        };
        let Some(dim) = i64::of(*dim) else {
            bail!(
                "2nd argument of dimension expected, given {}",
                opargs::describe(*dim)
            )
        };
        let input = Input::from_q(*input, "input")?;
        let ind = if let Some(i) = i64::of(*ind) {
            Ind::One(i)
        } else if registry::is_handle(*ind) {
            Ind::Tensor(registry::tensor(*ind)?)
        } else if read::ktype(*ind) == 7 {
            Ind::Longs(convert::to_tensor(*ind)?)
        } else {
            bail!(
                "3rd argument of index/indices expected, given {}",
                opargs::describe(*ind)
            )
        };
        Ok(Some(Indexed { input, dim, ind }))
    }
}

crate::qfn! {
    /// `index(input;dim;ind)`: PyTorch's `select` for one index, `index_select` for several.
    pub fn index(x: Indexed) -> KResult {
        let Indexed {
            input: Input { t, handle },
            dim: d,
            ind,
        } = x;
        let r = match ind {
            Ind::One(i) => t.f_select(d, i)?,
            Ind::Tensor(i) => {
                known::check_select(&t, d, &i)?;
                t.f_index_select(d, &i)?
            }
            Ind::Longs(i) => {
                known::check_select(&t, d, &i)?;
                t.f_index_select(d, &i.f_to_device(t.device())?)?
            }
        };
        result(r, handle)
    }
}

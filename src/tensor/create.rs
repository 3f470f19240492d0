//! `tensor`: make a tensor from q data (`tensor data`, `tensor(data;options)`), or get a tensor's
//! values back as q data (`tensor h`), or use a creation mode (`tensor(`zeros;2 3;`float)`).
use super::{convert, modes, options};
use crate::k::{read, KResult, K};
use crate::registry::{self, Obj};

pub fn tensor(x: K) -> KResult {
    if registry::is_handle(x) {
        return convert::to_q(&registry::tensor(x)?);
    }
    if let Some(items) = read::items(x) {
        if let Some(mode) = items.first().and_then(|m| read::symbol(*m)) {
            if modes::MODES.contains(&mode) {
                return Ok(registry::add(Obj::Tensor(modes::create(mode, &items[1..])?)));
            }
            anyhow::bail!("unrecognized creation mode `{mode}, expecting one of {}", modes::MODES.join(","));
        }
    }
    if let Some([data, opts]) = read::items(x) {
        if options::is_options(*opts) && !options::is_options(*data) {
            let o = options::parse(*opts)?;
            let t = o.apply(convert::to_tensor(*data)?)?;
            return Ok(registry::add(Obj::Tensor(t)));
        }
    }
    if read::is_unset(x) {
        anyhow::bail!("expects q data, (data;options) or a tensor handle");
    }
    Ok(registry::add(Obj::Tensor(convert::to_tensor(x)?)))
}

//! `version`: ktorch's form (`version()` a string, `version[]` a number major+minor/100+patch/10000)
//! plus named facts: `version`ktorch`libtorch`cuda`cudadevices`, and `version`all` for all of them.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use anyhow::{bail, Result};

use crate::k::from::FromQ;
use crate::k::{make, read, K};

pub const KTORCH_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The loaded libtorch's version, e.g. "2.11.0".
pub fn libtorch() -> &'static str {
    crate::cxx::session::torch_version()
}

/// 2.11.0 -> 2.11, as ktorch's `version[]` (1.8.1 -> 1.0801).
fn number(v: &str) -> f64 {
    let p: Vec<f64> = v
        .split(['.', '+'])
        .take(3)
        .map(|s| s.parse().unwrap_or(0.0))
        .collect();
    p.first().unwrap_or(&0.0)
        + p.get(1).unwrap_or(&0.0) / 100.0
        + p.get(2).unwrap_or(&0.0) / 10000.0
}

/// `version`'s argument: `::` (a number), `()` (a string), or the name of a fact.
pub enum Form {
    Number,
    Text,
    Name(&'static str),
}

impl FromQ for Form {
    const TYPE: &'static str = "(), ::, or one of `all`ktorch`libtorch`cuda`cudadevices";
    fn read(x: K) -> Result<Option<Form>> {
        Ok(if read::is_unset(x) {
            Some(Form::Number)
        } else if read::is_nil(x) {
            Some(Form::Text)
        } else {
            <&str>::of(x).map(Form::Name)
        })
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow::anyhow!("expected {}", Self::TYPE)
    }
}

crate::qfn! {
    pub fn version(form: Form) -> Result<K> {
        let s = match form {
            Form::Number => return Ok(make::float(number(libtorch()))),
            Form::Text => return Ok(make::string(libtorch())),
            Form::Name(s) => s,
        };
        let cuda = tch::Cuda::is_available();
        let devices = tch::Cuda::device_count();
        Ok(match s {
            "ktorch" => make::string(KTORCH_VERSION),
            "libtorch" => make::string(libtorch()),
            "cuda" => make::boolean(cuda),
            "cudadevices" => make::long(devices),
            "all" => make::dict(
                &["ktorch", "libtorch", "cuda", "cudadevices"],
                vec![
                    make::string(KTORCH_VERSION),
                    make::string(libtorch()),
                    make::boolean(cuda),
                    make::long(devices),
                ],
            ),
            _ => bail!(
                "unrecognized version `{s}, expected one of `all`ktorch`libtorch`cuda`cudadevices"
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn number_form_matches_ktorch() {
        assert!((super::number("1.8.1") - 1.0801).abs() < 1e-12);
        assert!((super::number("2.11.0+cu130") - 2.11).abs() < 1e-12);
    }
}

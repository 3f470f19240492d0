//! `config`: libtorch's build configuration and parallel settings, as ktorch: `config()` returns
//! the lines as a list of strings, `config[]` prints them to stderr.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use anyhow::anyhow;

use crate::k::from::FromQ;
use crate::k::{make, read, K};

/// The text of at::show_config() followed by at::get_parallel_info().
pub fn text() -> anyhow::Result<String> {
    let cfg =
        crate::cxx::session::show_config().ok_or_else(|| anyhow!("libtorch show_config failed"))?;
    let par = crate::cxx::session::parallel_info()
        .ok_or_else(|| anyhow!("libtorch parallel info failed"))?;
    Ok(format!("{cfg}{par}"))
}

/// `config`'s argument: `::` prints the text, `()` answers its lines.
pub enum Form {
    Print,
    Lines,
}

impl FromQ for Form {
    const TYPE: &'static str = "() or ::";
    fn read(x: K) -> anyhow::Result<Option<Form>> {
        Ok(if read::is_unset(x) {
            Some(Form::Print)
        } else if read::is_nil(x) {
            Some(Form::Lines)
        } else {
            None
        })
    }
    /// ktorch's wording
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected () for a list of strings or :: to print")
    }
}

crate::qfn! {
    pub fn config(form: Form) -> anyhow::Result<K> {
        let t = text()?;
        Ok(match form {
            Form::Print => {
                eprint!("{t}");
                make::null()
            }
            Form::Lines => make::list(t.lines().map(make::string).collect()),
        })
    }
}

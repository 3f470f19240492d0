//! The q functions of the log: `loglevel` (get or set the level) and `logto` (get or set the route).
use anyhow::{anyhow, bail};
use std::ffi::CString;

use super::route::{self, Route};
use super::{Level, LEVELS};
use crate::k::from::{FromQ, Whole};
use crate::k::{make, read, KResult, K};

/// `loglevel[]`: the current level as a symbol; `` loglevel`debug `` or `loglevel 1` sets it.
pub fn loglevel(x: K) -> KResult {
    if read::is_nil(x) {
        return Ok(make::symbol(super::level().name()));
    }
    let names = || {
        LEVELS
            .iter()
            .map(|l| format!("`{}", l.name()))
            .collect::<String>()
    };
    let level = if let Some(s) = <&str>::of(x) {
        Level::from_name(s)
            .ok_or_else(|| anyhow!("unrecognized level `{s}, expecting one of {}", names()))?
    } else if matches!(read::ktype(x), -7..=-5) {
        let n = Whole::of(x).map(|w| w.0).unwrap_or(-1);
        Level::from_number(n)
            .ok_or_else(|| anyhow!("level {n} out of range, expecting 0-4 ({})", names()))?
    } else {
        bail!("expected a level: one of {} or 0-4", names())
    };
    super::set_level(level);
    Ok(make::null())
}

/// `logto[]`: the current route; `` logto`stderr ``, `` logto` `` or `` logto`none ``, a q
/// function, or a symbol naming one sets it.
pub fn logto(x: K) -> KResult {
    if read::is_nil(x) {
        return Ok(route::current());
    }
    const USAGE: &str = "expected `stderr, `none (or `), or a q function or its name";
    let route = if let Some(s) = <&str>::of(x) {
        match s {
            "stderr" => Route::Stderr,
            "" | "none" => Route::None,
            name => {
                check_function_name(name)?;
                Route::Name(name.to_string())
            }
        }
    } else if is_function(x) {
        route::function(x)
    } else {
        bail!("{USAGE}, given {}", crate::registry::describe(x))
    };
    route::set(route);
    Ok(make::null())
}

/// q's function types: lambda 100 up to the dynamic-library function 112.
fn is_function(x: K) -> bool {
    (100..=112).contains(&read::ktype(x)) && read::ktype(x) != 101
}

/// A symbol route must name a q function now (it is looked up again for each message).
fn check_function_name(name: &str) -> anyhow::Result<()> {
    // Only a name is looked up: k(0,..) evaluates q text, and `` logto`$"a:1" `` must not assign
    // a global (the fuzzer's `` logto`cuda:99 `` did).
    let ident = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    if !ident {
        bail!("`{name} is not a q function name");
    }
    let c = CString::new(name).map_err(|_| anyhow!("name holds a null byte"))?;
    let ok = crate::k::call::named(&c, vec![]).is_some_and(|v| is_function(v.k()));
    if !ok {
        bail!("`{name} is not a q function");
    }
    Ok(())
}

//! The q functions of the log: `loglevel` (get or set the level) and `logto` (get or set the route).
use anyhow::{anyhow, Result};
use std::ffi::CString;

use super::route::{self, Route};
use super::{Level, LEVELS};
use crate::k::from::{FromQ, Whole};
use crate::k::{make, read, Owned, K};

/// The names of the levels, for errors: `` `error`warn`info`debug`trace ``.
fn names() -> String {
    LEVELS
        .iter()
        .map(|l| format!("`{}", l.name()))
        .collect::<String>()
}

/// `loglevel`'s argument: `()` asks for the level; a name or a number 0-4 sets it.
pub enum LevelArg {
    Get,
    Set(Level),
}

impl FromQ for LevelArg {
    const TYPE: &'static str = "a level";
    fn read(x: K) -> Result<Option<LevelArg>> {
        Ok(Some(if read::is_nil(x) {
            LevelArg::Get
        } else if let Some(s) = <&str>::of(x) {
            LevelArg::Set(
                Level::from_name(s).ok_or_else(|| {
                    anyhow!("unrecognized level `{s}, expecting one of {}", names())
                })?,
            )
        } else if matches!(read::ktype(x), -7..=-5) {
            let n = Whole::of(x).map(|w| w.0).unwrap_or(-1);
            LevelArg::Set(
                Level::from_number(n).ok_or_else(|| {
                    anyhow!("level {n} out of range, expecting 0-4 ({})", names())
                })?,
            )
        } else {
            return Ok(None);
        }))
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected a level: one of {} or 0-4", names())
    }
}

crate::qfn! {
    /// `loglevel[]`: the current level as a symbol; `` loglevel`debug `` or `loglevel 1` sets it.
    pub fn loglevel(level: LevelArg) -> Result<K> {
        Ok(match level {
            LevelArg::Get => make::symbol(super::level().name()),
            LevelArg::Set(l) => {
                super::set_level(l);
                make::null()
            }
        })
    }
}

const USAGE: &str = "expected `stderr, `none (or `), or a q function or its name";

/// `logto`'s argument: `()` asks for the route; a route sets it.
pub enum RouteArg {
    Get,
    Set(Route),
}

impl FromQ for RouteArg {
    const TYPE: &'static str = "a route";
    fn read(x: K) -> Result<Option<RouteArg>> {
        Ok(Some(if read::is_nil(x) {
            RouteArg::Get
        } else if let Some(s) = <&str>::of(x) {
            RouteArg::Set(match s {
                "stderr" => Route::Stderr,
                "" | "none" => Route::None,
                name => {
                    check_function_name(name)?;
                    Route::Name(name.to_string())
                }
            })
        } else if is_function(read::ktype(x)) {
            RouteArg::Set(route::function(Owned::share(x)))
        } else {
            return Ok(None);
        }))
    }
    fn wrong(x: K, _arg: &str) -> anyhow::Error {
        anyhow!("{USAGE}, given {}", crate::registry::describe(x))
    }
}

crate::qfn! {
    /// `logto[]`: the current route; `` logto`stderr ``, `` logto` `` or `` logto`none ``, a q
    /// function, or a symbol naming one sets it.
    pub fn logto(route: RouteArg) -> Result<K> {
        Ok(match route {
            RouteArg::Get => route::current(),
            RouteArg::Set(r) => {
                route::set(r);
                make::null()
            }
        })
    }
}

/// q's function types: lambda 100 up to the dynamic-library function 112.
fn is_function(ktype: i8) -> bool {
    (100..=112).contains(&ktype) && ktype != 101
}

/// A symbol route must name a q function now (it is looked up again for each message).
fn check_function_name(name: &str) -> Result<()> {
    // Only a name is looked up: k(0,..) evaluates q text, and `` logto`$"a:1" `` must not assign
    // a global (the fuzzer's `` logto`cuda:99 `` did).
    let ident = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    if !ident {
        anyhow::bail!("`{name} is not a q function name");
    }
    let c = CString::new(name).map_err(|_| anyhow!("name holds a null byte"))?;
    let ok = crate::k::call::named(&c, vec![]).is_some_and(|v| is_function(read::ktype(v.k())));
    if !ok {
        anyhow::bail!("`{name} is not a q function");
    }
    Ok(())
}

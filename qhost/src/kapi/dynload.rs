//! `2:`: load a shared library and look up a function, as q does.
//!
//! `` `lib 2:(`fn;n) `` (lib also `` `:lib ``, `` `:path/lib ``, with or without `.so`). A name
//! without a `/` is looked for in the current directory, then `$QHOME/l64`, then beside the
//! qhost executable, and last by dlopen's own search (LD_LIBRARY_PATH...), as q's dlopen does.
//! Libraries are opened RTLD_NOW|RTLD_GLOBAL (so one extension's symbols serve the next) and
//! kept open for the life of the process. Errors carry dlerror's text, as q shows them:
//! `'ktorch.so: cannot open shared object file: No such file or directory`.
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use std::path::PathBuf;
use std::sync::Mutex;

use super::exports::dl;
use super::kobj::*;
use crate::kapi::error::{err, QErr, QResult};

/// Open handles by the path given to dlopen (dlopen counts references; we keep one each).
static HANDLES: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

/// `lib 2: (fn; n)`: the function as a q function object (type 112) of rank n.
pub fn load(lib: &KObj, spec: &KObj) -> QResult {
    let file = lib_file(lib)?;
    let (name, n) = fn_spec(spec)?;
    let h = open(&file)?;
    let cname = CString::new(name.as_str()).map_err(|_| err("type"))?;
    unsafe {
        libc::dlerror();
        let f = libc::dlsym(h as *mut libc::c_void, cname.as_ptr());
        if f.is_null() {
            return Err(QErr(
                dlerror().unwrap_or_else(|| format!("{file}: undefined symbol: {name}")),
            ));
        }
        Ok(KObj::from_raw(dl(f, n)).unwrap())
    }
}

/// The library file name from a symbol (or string): drop the leading `:`, add `.so`.
fn lib_file(lib: &KObj) -> Result<String, QErr> {
    let s = match lib.t() {
        t if t == -KS => lib.get_sym().to_string(),
        KC => lib.as_string(),
        _ => return Err(err("type")),
    };
    // an empty name goes to dlopen as ".so", as q's would (its error is dlerror's text)
    let s = s.strip_prefix(':').unwrap_or(&s);
    Ok(if s.ends_with(".so") {
        s.to_string()
    } else {
        format!("{s}.so")
    })
}

/// `(`fn;n)`: the function name and its rank (1..8).
fn fn_spec(spec: &KObj) -> Result<(String, i64), QErr> {
    if spec.t() != 0 || spec.len() != 2 {
        return Err(err("type"));
    }
    let (f, n) = (spec.item(0), spec.item(1));
    if f.t() != -KS {
        return Err(err("type"));
    }
    let n = match n.t() {
        t if t == -KJ => n.get_long(),
        t if t == -KI => n.get_int() as i64,
        t if t == -KH => n.get_short() as i64,
        _ => return Err(err("type")),
    };
    if !(1..=8).contains(&n) {
        return Err(err("rank"));
    }
    Ok((f.get_sym().to_string(), n))
}

/// Where to try `file`, in order; the bare name last (dlopen's own search).
fn candidates(file: &str) -> Vec<String> {
    if file.contains('/') {
        return vec![file.to_string()];
    }
    let mut dirs: Vec<PathBuf> = vec![PathBuf::from(".")];
    if let Ok(q) = std::env::var("QHOME") {
        dirs.push(PathBuf::from(q).join("l64"));
    }
    if let Some(d) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|p| p.to_path_buf()))
    {
        dirs.push(d);
    }
    let mut v: Vec<String> = dirs
        .into_iter()
        .map(|d| d.join(file))
        .filter(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    v.push(file.to_string());
    v
}

fn open(file: &str) -> Result<usize, QErr> {
    let mut cache = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    let mut last = None;
    for path in candidates(file) {
        if let Some(&h) = cache.get(&path) {
            return Ok(h);
        }
        let c = CString::new(path.as_str()).map_err(|_| err("type"))?;
        let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
        if !h.is_null() {
            cache.insert(path, h as usize);
            return Ok(h as usize);
        }
        last = unsafe { dlerror() };
        // A file that is there but fails to load (a missing dependency, an undefined symbol)
        // is the error to show, not a later "cannot open".
        if std::path::Path::new(&path).is_file() {
            break;
        }
    }
    Err(QErr(last.unwrap_or_else(|| {
        format!("{file}: cannot open shared object file")
    })))
}

unsafe fn dlerror() -> Option<String> {
    let e = libc::dlerror();
    (!e.is_null()).then(|| CStr::from_ptr(e).to_string_lossy().into_owned())
}

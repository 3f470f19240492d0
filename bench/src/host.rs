//! ktorch.so as q sees it: loaded with qhost's `2:` loader (dlopen RTLD_NOW|RTLD_GLOBAL; its k.h
//! imports resolve against this executable's exports), `fns[]` called for the dictionary, and
//! each entry point called through the C function pointer that `dl` stored, with K arguments
//! and a K result, exactly as q applies a type-112 function.
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use qhost::kapi::dynload::load;
use qhost::kapi::exports::{call_dl, result_of};
use qhost::kapi::*;
use qhost::q::func::Func;

/// A one-argument q entry point (every ktorch function takes one K; two-argument ones take `(x;y)`
/// as one list or two K's).
pub type F1 = unsafe extern "C" fn(K) -> K;

pub struct Ktorch {
    pub path: PathBuf,
    fns: HashMap<String, (*const libc::c_void, i64)>,
}

impl Ktorch {
    /// `` (`:path/ktorch 2:`fns,1)[] ``, keeping each function's pointer and rank by name.
    pub fn load(path: &Path) -> Result<Ktorch, String> {
        let stem = path.with_extension("");
        let lib = KObj::sym(&format!(":{}", stem.display()));
        let fns =
            load(&lib, &KObj::list(vec![KObj::sym("fns"), KObj::long(1)])).map_err(|e| e.0)?;
        let Func::Dl { ptr, n } = fns.func_ref() else {
            return Err("fns: not a dl function".into());
        };
        let d = call_dl(*ptr, *n, &[KObj::identity()]).map_err(|e| e.0)?;
        let (keys, vals) = (d.dict_keys(), d.dict_values());
        let mut map = HashMap::new();
        for (k, f) in keys.sym_list().into_iter().zip(vals.items()) {
            if let Func::Dl { ptr, n } = f.func_ref() {
                map.insert(k.to_string(), (*ptr, *n));
            }
        }
        Ok(Ktorch {
            path: path.to_path_buf(),
            fns: map,
        })
    }

    /// ktorch's functions as globals of qhost's interpreter, as a q session loads them
    /// (`` `$":path" `` since a path may hold characters a symbol literal cannot, such as `-`).
    pub fn q_globals(&self) -> Result<(), String> {
        let stem = self.path.with_extension("");
        qhost::q::eval::eval_text(&format!(
            "{{key[x]set'x}}((`$\":{}\") 2:`fns,1)[]",
            stem.display()
        ))
        .map(drop)
        .map_err(|e| format!("q: '{}", e.0))
    }

    /// The C entry point of a one-argument q function.
    pub fn f1(&self, name: &str) -> F1 {
        match self.fns.get(name) {
            Some(&(p, 1)) => unsafe { std::mem::transmute::<*const libc::c_void, F1>(p) },
            Some(&(_, n)) => panic!("ktorch `{name} takes {n} arguments"),
            None => panic!("ktorch has no `{name}"),
        }
    }

    /// Call a one-argument function: the result, or the q error it signalled.
    pub fn call(&self, name: &str, x: &KObj) -> Result<KObj, String> {
        let f = self.f1(name);
        result_of(unsafe { f(x.as_ptr()) }).map_err(|e| format!("{name}: {}", e.0))
    }
}

/// Where ktorch.so is: `--lib`, else $KTORCH_SO, else beside this executable (target/release).
pub fn find_lib(arg: Option<&str>) -> Result<PathBuf, String> {
    if let Some(a) = arg
        .map(String::from)
        .or_else(|| std::env::var("KTORCH_SO").ok())
    {
        let p = PathBuf::from(a);
        return std::fs::canonicalize(&p).map_err(|e| format!("{}: {e}", p.display()));
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = exe.parent().ok_or("no folder for the executable")?;
    for name in ["ktorch.so", "libktorch.so"] {
        let p = dir.join(name);
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(format!(
        "ktorch.so not found beside {} (run `make build`, or give --lib PATH)",
        exe.display()
    ))
}

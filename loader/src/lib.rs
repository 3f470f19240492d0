//! ktorch.so as q sees it: loaded with qhost's `2:` loader (dlopen RTLD_NOW|RTLD_GLOBAL; its k.h
//! imports resolve against the executable's exports, see `link.rs`), `fns[]` called for the
//! dictionary, and each entry point called through the C function pointer that `dl` stored, with
//! K arguments and a K result, exactly as q applies a type-112 function. The function list comes
//! from that dictionary, so a caller covers whatever the library exports, by construction.
//!
//! Used by ktorch-bench and ktorch-fuzz; their build scripts link as qhost does through
//! `include!("../../loader/src/link.rs")` (a build script cannot take link arguments from a
//! dependency).
use std::path::{Path, PathBuf};

use qhost::kapi::dynload::load;
use qhost::kapi::exports::{call_dl, result_of};
use qhost::kapi::func::Func;
use qhost::kapi::*;
use qhost::q::QResult;

/// A one-argument q entry point (every ktorch function takes one K; two-argument ones take `(x;y)`
/// as one list or two K's).
pub type F1 = unsafe extern "C" fn(K) -> K;

/// One q function of the library: its name, C entry point and rank.
#[derive(Clone)]
pub struct Entry {
    pub name: String,
    ptr: *const libc::c_void,
    pub rank: i64,
}

impl Entry {
    /// Apply to borrowed arguments, as q applies a type-112 function.
    pub fn call(&self, args: &[KObj]) -> QResult {
        call_dl(self.ptr, self.rank, args)
    }
    /// The C entry point.
    pub fn ptr(&self) -> *const libc::c_void {
        self.ptr
    }
}

pub struct Ktorch {
    pub path: PathBuf,
    /// In the order of the library's table.
    pub fns: Vec<Entry>,
}

impl Ktorch {
    /// `` (`:path/ktorch 2:`fns,1)[] ``.
    pub fn load(path: &Path) -> Result<Ktorch, String> {
        // the interpreter's entry points for the C API (k(0,..) from ktorch), as qhost's main
        // installs them before anything runs
        qhost::q::eval::install();
        let stem = path.with_extension("");
        let lib = KObj::sym(&format!(":{}", stem.display()));
        let f = load(&lib, &KObj::list(vec![KObj::sym("fns"), KObj::long(1)])).map_err(|e| e.0)?;
        let Func::Dl { ptr, n } = f.func_ref() else {
            return Err("fns: not a dl function".into());
        };
        let d = call_dl(*ptr, *n, &[KObj::identity()]).map_err(|e| e.0)?;
        let (keys, vals) = (d.dict_keys(), d.dict_values());
        let mut fns = Vec::new();
        for (k, f) in keys.sym_list().into_iter().zip(vals.items()) {
            if let Func::Dl { ptr, n } = f.func_ref() {
                fns.push(Entry {
                    name: k.to_string(),
                    ptr: *ptr,
                    rank: *n,
                });
            }
        }
        Ok(Ktorch {
            path: path.to_path_buf(),
            fns,
        })
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.fns.iter().find(|e| e.name == name)
    }

    /// Call by name with one argument (a harness's own calls: fixtures, frees, obj[]).
    pub fn call1(&self, name: &str, x: KObj) -> QResult {
        let e = self
            .get(name)
            .unwrap_or_else(|| panic!("ktorch.so has no `{name}"));
        e.call(&[x])
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

    /// The C entry point of a one-argument q function (a benchmark's direct calls).
    pub fn f1(&self, name: &str) -> F1 {
        match self.get(name) {
            // SAFETY: `dl` stored this pointer for a function of rank 1, which ktorch's table
            // makes as `extern "C" fn(K) -> K`.
            Some(e) if e.rank == 1 => unsafe {
                std::mem::transmute::<*const libc::c_void, F1>(e.ptr)
            },
            Some(e) => panic!("ktorch `{name} takes {} arguments", e.rank),
            None => panic!("ktorch has no `{name}"),
        }
    }

    /// Call a one-argument function: the result, or the q error it signalled.
    pub fn call(&self, name: &str, x: &KObj) -> Result<KObj, String> {
        let f = self.f1(name);
        // SAFETY: `f` is a rank-1 entry point (f1) and `x` a live K that the call borrows.
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

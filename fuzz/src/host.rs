//! ktorch.so as q sees it (as bench/src/host.rs): loaded with qhost's `2:` loader, `fns[]`
//! called for the dictionary, and each entry point called through the C pointer that `dl`
//! stored. The function list comes from that dictionary, so the fuzzer covers whatever the
//! library exports, by construction.
use std::path::{Path, PathBuf};

use qhost::kapi::dynload::load;
use qhost::kapi::exports::call_dl;
use qhost::kapi::*;
use qhost::q::func::Func;
use qhost::q::QResult;

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
    /// In the order of the library's table.
    pub fns: Vec<Entry>,
}

impl Ktorch {
    /// `` (`:path/ktorch 2:`fns,1)[] ``.
    pub fn load(path: &Path) -> Result<Ktorch, String> {
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
        Ok(Ktorch { fns })
    }

    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.fns.iter().find(|e| e.name == name)
    }

    /// Call by name with one argument (the harness's own calls: fixtures, frees, obj[]).
    pub fn call1(&self, name: &str, x: KObj) -> QResult {
        let e = self
            .get(name)
            .unwrap_or_else(|| panic!("ktorch.so has no `{name}"));
        e.call(&[x])
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

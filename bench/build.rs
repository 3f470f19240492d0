//! Link the bench binary as qhost's own binary is linked (loader/src/link.rs), so that
//! ktorch.so, dlopen'ed with RTLD_NOW, finds the k.h functions in the executable. Also an rpath
//! to the libtorch that tch links (the virtualenv's), the same one ktorch.so loads, so the
//! process holds one libtorch.
include!("../loader/src/link.rs");

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../loader/src/link.rs");
    link_as_qhost();
    if let Ok(lib) = std::env::var("DEP_TCH_LIBTORCH_LIB") {
        println!("cargo:rustc-link-arg-bins=-Wl,-rpath,{lib}");
    }
}

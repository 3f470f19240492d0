// Included by the build scripts of ktorch-bench and ktorch-fuzz (`include!`): link the binary
// as qhost's own binary is linked, so that ktorch.so, dlopen'ed with RTLD_NOW, finds the k.h
// functions in the executable: `-u name` for each (so qhost's rlib and C shim members are
// linked) and a `--dynamic-list` of exactly those names. qhost's build script hands both over
// through its `links` key, to packages that depend on qhost directly.
fn link_as_qhost() {
    let dynlist = std::env::var("DEP_QHOST_KAPI_DYNLIST")
        .expect("qhost's build script gives its export list");
    let exports = std::env::var("DEP_QHOST_KAPI_EXPORTS")
        .expect("qhost's build script gives its export names");
    println!("cargo:rustc-link-arg-bins=-Wl,--dynamic-list={dynlist}");
    for name in exports.split(',') {
        println!("cargo:rustc-link-arg-bins=-Wl,-u,{name}");
    }
}

//! Build the variadic half of the k.h API (src/kapi/shim.c) and make the qhost executable export
//! every k.h function, so that a kdb+ shared library dlopen'ed with RTLD_NOW finds them.
//!
//! Two things stand in the way and are handled here:
//! - the exports live in the qhost lib crate (an rlib) and in a static C archive; the linker only
//!   takes an archive member that something references. `-u name` makes each name referenced, so
//!   its object is linked (and kept by --gc-sections);
//! - an executable exports nothing dynamically unless told to: we give the linker a
//!   --dynamic-list of exactly these names (what -rdynamic does, minus the thousands of
//!   internal Rust symbols it would also export and let an extension bind to).
//!
//! The integration tests get the same flags: tests/capi.rs dlopens the test extension in-process.

/// Every k.h function q exports to a shared library, as KX's capiref lists them: not those only
/// in the c.o client library (khp, khpu, khpun, khpunc, kclose: "Standalone applications"), but
/// q's own vi and vk. Keep in step with src/kapi/exports.rs and shim.c (`nm -D` on the binary
/// checks it; tests/capi.rs checks the list).
const EXPORTS: &[&str] = &[
    "ka", "kb", "ku", "kg", "kh", "ki", "kj", "ke", "kf", "kc", "ks", "ktj", "kd", "kz", "kt",
    "knk", "ktn", "kp", "kpn", "ktd", "knt", "krr", "orr", "ja", "jv", "jk", "js", "sn", "ss",
    "ee", "k", "b9", "d9", "sd0", "sd0x", "sd1", "r0", "r1", "dot", "m9", "setm", "dl", "ymd",
    "dj", "xD", "xT", "vak", "vaknk", "okx", "ver", "vi", "vk",
];

fn main() {
    println!("cargo:rerun-if-changed=src/kapi/shim.c");
    println!("cargo:rerun-if-changed=build.rs");
    cc::Build::new()
        .file("src/kapi/shim.c")
        .flag_if_supported("-fvisibility=default")
        .warnings(true)
        .compile("qhost_shim");
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("kapi.dynlist");
    let list: String = EXPORTS.iter().map(|n| format!("  {n};\n")).collect();
    std::fs::write(&out, format!("{{\n{list}}};\n")).unwrap();
    for kind in ["bins", "tests"] {
        println!(
            "cargo:rustc-link-arg-{kind}=-Wl,--dynamic-list={}",
            out.display()
        );
        for name in EXPORTS {
            println!("cargo:rustc-link-arg-{kind}=-Wl,-u,{name}");
        }
    }
    // Other hosts in the workspace (bench/) link their binaries the same way: through `links`,
    // their build scripts get these as DEP_QHOST_KAPI_DYNLIST and DEP_QHOST_KAPI_EXPORTS.
    println!("cargo:dynlist={}", out.display());
    println!("cargo:exports={}", EXPORTS.join(","));
}

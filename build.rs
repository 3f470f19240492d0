//! Link ktorch.so to the libtorch of the PyPI wheel torch==2.11.0 so that it loads as is.
//!
//! torch-sys finds libtorch (LIBTORCH_USE_PYTORCH=1 or LIBTORCH) and links it, but puts no rpath
//! into our cdylib, and rustc's --as-needed drops libtorch_cuda.so since no symbol of it is used:
//! CUDA would then be invisible. So: rpath to the wheel's lib folder, and libtorch_cuda linked
//! with --no-as-needed whenever the wheel has it (CUDA is then reported absent only when no GPU).
use std::path::PathBuf;
use std::process::Command;

/// The libtorch root (holding lib/ and include/): $LIBTORCH, else the torch package of the
/// virtualenv's python (the layout of the PyPI wheel).
fn libtorch_root() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("LIBTORCH") {
        return Some(PathBuf::from(dir));
    }
    let python = match std::env::var("VIRTUAL_ENV") {
        Ok(v) => PathBuf::from(v).join("bin").join("python"),
        Err(_) => PathBuf::from("python3"),
    };
    let out = Command::new(python)
        .args([
            "-c",
            "import torch,os;print(os.path.dirname(torch.__file__))",
        ])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// The CUDA headers beside the wheel's torch package (nvidia/cu13/include, completed with crt/ and
/// CCCL by scripts/torch-venv.sh), if all that ATen's CUDA headers include is there.
fn cuda_include(root: &std::path::Path) -> Option<PathBuf> {
    let inc = root.parent()?.join("nvidia/cu13/include");
    ["cuda_runtime_api.h", "crt/host_config.h", "cccl/nv/target"]
        .iter()
        .all(|f| inc.join(f).exists())
        .then_some(inc)
}

/// src/cxx/cuda.cpp: streams, events, graphs and device memory through ATen's CUDA API. Without
/// the CUDA headers it compiles to entry points that each report CUDA support missing.
/// src/cxx/fused_ln.cpp, dropout_add.cpp and nvrtc.cpp: layer norm and dropout with a residual
/// add through kernels compiled by NVRTC at run time (setting`fusedln, `lncast, `dropadd);
/// without the CUDA headers, ATen's kernels only.
fn cuda_shim(root: &std::path::Path) {
    let mut b = cc::Build::new();
    b.cpp(true)
        .file("src/cxx/cuda.cpp")
        .file("src/cxx/fused_ln.cpp")
        .file("src/cxx/dropout_add.cpp")
        .file("src/cxx/nvrtc.cpp")
        .include(root.join("include"))
        .include(root.join("include/torch/csrc/api/include"))
        .flag("-std=c++17")
        .flag("-w");
    match cuda_include(root) {
        Some(inc) if root.join("lib/libtorch_cuda.so").exists() => {
            b.define("KTORCH_CUDA", None).include(&inc).include(inc.join("cccl"));
            // c10_cuda (streams, the caching allocator) is in torch/lib beside libtorch_cuda;
            // the CUDA runtime's own symbols are left to resolve through libtorch_cuda's
            // dependency on libcudart, so that ktorch.so names no library outside torch/lib.
            println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
            println!("cargo:rustc-link-arg=-lc10_cuda");
            println!("cargo:rustc-link-arg=-Wl,--as-needed");
            // Test executables link the rlib, and an executable must resolve every symbol at
            // link time: name the CUDA runtime for them (the cdylib leaves it to libtorch_cuda).
            // Their rpath finds it here; on the GPU machine scripts/gpu-run.sh adds its folder.
            if let Some(rt) = root.parent().map(|p| p.join("nvidia/cu13/lib")).filter(|d| d.join("libcudart.so.13").exists()) {
                println!("cargo:rustc-link-arg-tests=-L{}", rt.display());
                println!("cargo:rustc-link-arg-tests=-l:libcudart.so.13");
                println!("cargo:rustc-link-arg-tests=-Wl,-rpath,{}", rt.display());
            }
        }
        _ => println!("cargo:warning=ktorch: CUDA headers not found beside libtorch; streams, events and graphs will report CUDA support missing"),
    }
    b.compile("ktorch_cuda_shim");
}

/// src/cxx/dist.cpp, dist_reducer.cpp: c10d process groups, gradient buckets (docs/dist.md). Gloo is always there (libtorch_cpu);
/// NCCL (libtorch_cuda) when the CUDA headers and the wheel's NCCL header are beside libtorch.
fn dist_shim(root: &std::path::Path) {
    let mut b = cc::Build::new();
    b.cpp(true)
        .file("src/cxx/dist.cpp")
        .file("src/cxx/dist_reducer.cpp")
        .include("src/cxx/gloo_decl")
        .include(root.join("include"))
        .include(root.join("include/torch/csrc/api/include"))
        .flag("-std=c++17")
        .flag("-w");
    let nccl = root
        .parent()
        .map(|p| p.join("nvidia/nccl/include"))
        .filter(|d| d.join("nccl.h").exists());
    if let (Some(inc), Some(nccl)) = (cuda_include(root), nccl) {
        if root.join("lib/libtorch_cuda.so").exists() {
            b.define("KTORCH_NCCL", None)
                .include(&inc)
                .include(inc.join("cccl"))
                .include(nccl);
        }
    }
    b.compile("ktorch_dist_shim");
}

fn main() {
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    println!("cargo:rerun-if-env-changed=VIRTUAL_ENV");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/cxx/config.cpp");
    println!("cargo:rerun-if-changed=src/cxx/tensor_info.cpp");
    println!("cargo:rerun-if-changed=src/cxx/autograd_device.cpp");
    println!("cargo:rerun-if-changed=src/cxx/attempt.h");
    println!("cargo:rerun-if-changed=src/cxx/linalg.cpp");
    println!("cargo:rerun-if-changed=src/cxx/nn_act.cpp");
    println!("cargo:rerun-if-changed=src/cxx/cuda.cpp");
    println!("cargo:rerun-if-changed=src/cxx/fused_ln.cpp");
    println!("cargo:rerun-if-changed=src/cxx/fused_ln_kernel.h");
    println!("cargo:rerun-if-changed=src/cxx/dropout_add.cpp");
    println!("cargo:rerun-if-changed=src/cxx/dropout_add_kernel.h");
    println!("cargo:rerun-if-changed=src/cxx/nvrtc.cpp");
    println!("cargo:rerun-if-changed=src/cxx/nvrtc.h");
    println!("cargo:rerun-if-changed=src/cxx/warnings.cpp");
    println!("cargo:rerun-if-changed=src/cxx/jit.cpp");
    println!("cargo:rerun-if-changed=src/cxx/aoti.cpp");
    println!("cargo:rerun-if-changed=src/cxx/dist.cpp");
    println!("cargo:rerun-if-changed=src/cxx/dist_reducer.cpp");
    println!("cargo:rerun-if-changed=src/cxx/dist_group.h");
    println!("cargo:rerun-if-changed=src/cxx/gloo_decl");
    println!("cargo:rerun-if-changed=src/cxx/speed.cpp");
    println!("cargo:rerun-if-changed=src/cxx/profiler.cpp");
    let Some(root) = libtorch_root() else {
        panic!("ktorch: libtorch not found; run `make build` (it sets up the torch==2.11.0 virtualenv) or set LIBTORCH");
    };
    let lib = root.join("lib");
    // Small C++ files for what tch does not wrap (build config, Context flags; tensor facts;
    // libtorch's warnings into the log).
    cc::Build::new()
        .cpp(true)
        .file("src/cxx/config.cpp")
        .file("src/cxx/tensor_info.cpp")
        .file("src/cxx/autograd_device.cpp")
        .file("src/cxx/linalg.cpp")
        .file("src/cxx/nn_act.cpp")
        .file("src/cxx/warnings.cpp")
        .file("src/cxx/speed.cpp")
        .file("src/cxx/profiler.cpp")
        .include(root.join("include"))
        .include(root.join("include/torch/csrc/api/include"))
        .flag("-std=c++17")
        .flag("-w")
        .compile("ktorch_cxx");
    cuda_shim(&root);
    // Models made in Python: TorchScript modules (what tch's CModule lacks) and AOTInductor
    // packages. Their own library, so that its heavy headers compile only when they change.
    cc::Build::new()
        .cpp(true)
        .file("src/cxx/jit.cpp")
        .file("src/cxx/aoti.cpp")
        .include(root.join("include"))
        .include(root.join("include/torch/csrc/api/include"))
        .flag("-std=c++17")
        .flag("-w")
        .compile("ktorch_pymodels");
    dist_shim(&root);
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
    if lib.join("libtorch_cuda.so").exists() {
        println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
        println!("cargo:rustc-link-arg=-ltorch_cuda");
        println!("cargo:rustc-link-arg=-Wl,--as-needed");
    }
    // k.h functions come from the host process (q or qhost): leave them undefined in the cdylib.
    println!("cargo:rustc-cdylib-link-arg=-Wl,--allow-shlib-undefined");
}

//! The one table of q names: every exported q function is listed here with its Rust function and
//! arity, and `fns` hands q a dictionary of them. Go from a q name to its Rust in one hop.
use crate::k::{guard::guard, make, native, KResult, K};
use crate::{math, objects, session, tensor};

/// One q function: its name, the C entry point q calls (already guarded), its arity.
pub struct Entry {
    pub name: &'static str,
    pub call: extern "C" fn(K) -> K,
    pub arity: i64,
}

/// Declare the table: each `"name" => path` gets a C entry point that runs `path` in the guard.
macro_rules! table {
    ($($name:literal => $f:path),* $(,)?) => {
        pub static TABLE: &[Entry] = &[$(
            Entry {
                name: $name,
                call: {
                    extern "C" fn call(x: K) -> K { guard($name, x, $f) }
                    call
                },
                arity: 1,
            }
        ),*];
    };
}

table! {
    // session
    "config"      => session::config::config,
    "seed"        => session::seed::seed,
    "setting"     => session::setting::setting,
    "version"     => session::version::version,
    // objects
    "class"       => objects::class,
    "free"        => objects::free,
    "obj"         => objects::obj,
    "tensorcount" => objects::tensorcount,
    // tensors
    "tensor"      => tensor::create::tensor,
    "size"        => tensor::info::size,
    "dim"         => tensor::info::dim,
    "numel"       => tensor::info::numel,
    "dtype"       => tensor::info::dtype,
    "device"      => tensor::info::device,
    "backward"    => tensor::autograd::backward,
    "grad"        => tensor::autograd::grad,
    // math
    "Sum"         => math::reduce::sum,
    "add"         => math::pointwise::add,
    "Div"         => math::pointwise::div,
    "matmul"      => math::linalg::matmul,
    "mean"        => math::reduce::mean,
    "mul"         => math::pointwise::mul,
}

/// The library's entry point, loaded in q by `` (`ktorch 2:`fns,1)[] ``: a dictionary of every
/// q name to its function.
#[no_mangle]
pub extern "C" fn fns(x: K) -> K {
    crate::k::guard::install_panic_hook();
    guard("fns", x, dictionary)
}

fn dictionary(_: K) -> KResult {
    let names: Vec<&str> = TABLE.iter().map(|e| e.name).collect();
    let funcs = TABLE.iter().map(|e| unsafe { native::dl(e.call as *const libc::c_void as *mut _, e.arity) }).collect();
    Ok(unsafe { native::xD(make::symbols(&names), make::list(funcs)) })
}

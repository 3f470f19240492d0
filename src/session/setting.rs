//! `setting`: session-wide flags, as ktorch. `setting()` (or `setting[]`) a dictionary of all,
//! `setting`name` one value, `setting(`name;value)` (also written `setting`name,value`) sets one
//! where it can be changed.
#![deny(unsafe_code)]
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{anyhow, bail};

use super::precision;
use crate::cxx::session as cxx;
use crate::k::from::{self, FromQ, Whole};
use crate::k::{make, read, KResult, K};

/// A setting's new value, read each way a setting takes one (its name says which applies).
pub struct Value {
    /// a boolean atom
    flag: Option<bool>,
    /// an integral atom, not a boolean
    whole: Option<i64>,
    /// a symbol atom
    sym: Option<&'static str>,
}

/// ktorch's own flags (the others live in libtorch).
static STACKFRAME: AtomicBool = AtomicBool::new(false);
static ALLOPTIONS: AtomicBool = AtomicBool::new(true);
static COMPLEXFIRST: AtomicBool = AtomicBool::new(true);
/// Optimizer steps through ATen's fused kernels (one launch for all parameters) where they apply.
static FUSED: AtomicBool = AtomicBool::new(true);
/// Attention through libtorch's scaled_dot_product_attention (flash, memory-efficient, cuDNN).
/// The fused kernels for CPU parameters too.
static FUSEDCPU: AtomicBool = AtomicBool::new(false);
static SDPA: AtomicBool = AtomicBool::new(true);
/// `clip` reads the norm back to answer it (ktorch's API). Off, it answers null and the host
/// does not wait for the GPU there: a q loop that ignores the norm (char.q) runs ahead of the
/// GPU as PyTorch's does (issue 31).
static CLIPREAD: AtomicBool = AtomicBool::new(true);
/// Under autocast, the parameters that autocast would cast one at a time (linear layers',
/// attention's projections) cast together in one pass at the start of each forward pass, and
/// their gradients cast back together (src/nn/precast.rs; issue 31). Off by default.
static PRECAST: AtomicBool = AtomicBool::new(false);
/// Layer norm's backward through the NVRTC kernel of src/cxx/fused_ln.cpp for CUDA inputs (one
/// pass over x and dy for dx, dgamma and dbeta; issue 31). On by default: it changes how the
/// gradients are computed (the same within float32 rounding), and where NVRTC is missing ATen's
/// backward runs.
static FUSEDLN: AtomicBool = AtomicBool::new(true);
/// Under CUDA autocast, layer norm's output in autocast's type (bfloat16 or float16) rather than
/// float32: the forward kernel writes it so, in place of a float32 output that the next linear
/// layer casts, and the gradient comes back in that type (src/cxx/fused_ln.cpp; issue 31). Off by
/// default: autocast's own rule answers float32, which a layer other than a linear one may want.
static LNCAST: AtomicBool = AtomicBool::new(false);
/// A `residual` block whose sequential block ends in `drop` adds its input in the dropout's kernel
/// (src/cxx/dropout_add.cpp, CUDA, training; issue 31). On by default: it draws ATen's dropout's
/// random numbers from the same generator state and computes in ATen's order, so the results
/// are bit-identical to the unfused layers (tests/q/gpu/ktorch_dropadd.q); only the speed differs.
static DROPADD: AtomicBool = AtomicBool::new(true);
/// A `residual` block whose sequential block starts with layer norm (a `layernorm` module, or
/// `selfattention` with its norm) and ends in `drop` (setting`dropadd) computes the norm itself,
/// so that x's two gradients, through the norm and from the sum, are added by the fused
/// backward kernel as it writes dx (src/cxx/fused_ln.cpp; issue 31). The same values as apart.
static LNRES: AtomicBool = AtomicBool::new(true);

pub fn stackframe() -> bool {
    STACKFRAME.load(Ordering::Relaxed)
}
pub fn alloptions() -> bool {
    ALLOPTIONS.load(Ordering::Relaxed)
}
pub fn complexfirst() -> bool {
    COMPLEXFIRST.load(Ordering::Relaxed)
}
pub fn fused() -> bool {
    FUSED.load(Ordering::Relaxed)
}
pub fn fusedcpu() -> bool {
    FUSEDCPU.load(Ordering::Relaxed)
}
pub fn sdpa() -> bool {
    SDPA.load(Ordering::Relaxed)
}
pub fn clipread() -> bool {
    CLIPREAD.load(Ordering::Relaxed)
}
pub fn precast() -> bool {
    PRECAST.load(Ordering::Relaxed)
}
pub fn fusedln() -> bool {
    FUSEDLN.load(Ordering::Relaxed)
}
pub fn lncast() -> bool {
    LNCAST.load(Ordering::Relaxed)
}
pub fn dropadd() -> bool {
    DROPADD.load(Ordering::Relaxed)
}
pub fn lnres() -> bool {
    LNRES.load(Ordering::Relaxed)
}

const NAMES: [&str; 34] = [
    "mkl",
    "openmp",
    "threads",
    "interopthreads",
    "mps",
    "cuda",
    "magma",
    "cudnn",
    "cudnnversion",
    "cudadevices",
    "benchmark",
    "deterministic",
    "cudnndeterministic",
    "stackframe",
    "alloptions",
    "complexfirst",
    "tf32",
    "cudnntf32",
    "matmulprecision",
    "autocast",
    "autocastcpu",
    "fused",
    "fusedcpu",
    "sdpa",
    "sdpflash",
    "sdpmemeff",
    "sdpcudnn",
    "sdpmath",
    "clipread",
    "fusedln",
    "precast",
    "lncast",
    "dropadd",
    "lnres",
];

/// The attention backends libtorch's scaled_dot_product_attention may pick from, as
/// torch.backends.cuda's enable_flash_sdp, enable_mem_efficient_sdp, enable_cudnn_sdp and
/// enable_math_sdp: the index the shim's ktorch_get_sdp/ktorch_set_sdp take.
fn sdp_backend(name: &str) -> Option<libc::c_int> {
    ["sdpflash", "sdpmemeff", "sdpcudnn", "sdpmath"]
        .iter()
        .position(|n| *n == name)
        .map(|i| i as libc::c_int)
}

fn flag(v: libc::c_int, what: &str) -> anyhow::Result<bool> {
    if v < 0 {
        bail!("unable to read {what}")
    }
    Ok(v != 0)
}

/// The current value of setting `name` as a q value.
fn get(name: &str) -> KResult {
    Ok(match name {
        "mkl" => make::boolean(tch::utils::has_mkl()),
        "openmp" => make::boolean(tch::utils::has_openmp()),
        "threads" => make::long(tch::get_num_threads() as i64),
        "interopthreads" => make::long(tch::utils::get_num_interop_threads() as i64),
        // ktorch.cpp getsetting: globalContext().hasMPS() (Apple's Metal; false on Linux builds)
        "mps" => make::boolean(tch::utils::has_mps()),
        "cuda" => make::boolean(tch::Cuda::is_available()),
        "magma" => make::boolean(flag(cxx::has_magma(), "magma")?),
        "cudnn" => make::boolean(flag(cxx::has_cudnn(), "cudnn")?),
        "cudnnversion" => make::long(cxx::cudnn_version() as i64),
        "cudadevices" => make::long(tch::Cuda::device_count()),
        "benchmark" => make::boolean(flag(cxx::get_benchmark(), "benchmark")?),
        // ktorch's level: 0 off, 1 warn only, 2 error
        "deterministic" => match cxx::get_deterministic() {
            n if n >= 0 => make::long(n as i64),
            _ => bail!("unable to read deterministic"),
        },
        "cudnndeterministic" => {
            make::boolean(flag(cxx::get_cudnn_deterministic(), "cudnndeterministic")?)
        }
        "stackframe" => make::boolean(stackframe()),
        "alloptions" => make::boolean(alloptions()),
        "complexfirst" => make::boolean(complexfirst()),
        "tf32" => make::boolean(precision::tf32(true)?),
        "cudnntf32" => make::boolean(precision::tf32(false)?),
        "matmulprecision" => make::symbol(precision::matmul_precision()?),
        "autocast" => make::symbol(precision::autocast()),
        "autocastcpu" => make::boolean(precision::autocast_cpu()),
        "fused" => make::boolean(fused()),
        "fusedcpu" => make::boolean(fusedcpu()),
        "sdpa" => make::boolean(sdpa()),
        "clipread" => make::boolean(clipread()),
        "fusedln" => make::boolean(fusedln()),
        "precast" => make::boolean(precast()),
        "lncast" => make::boolean(lncast()),
        "dropadd" => make::boolean(dropadd()),
        "lnres" => make::boolean(lnres()),
        n if sdp_backend(n).is_some() => {
            make::boolean(flag(cxx::get_sdp(sdp_backend(n).unwrap_or(-1)), n)?)
        }
        _ => bail!("unrecognized setting `{name}"),
    })
}

fn set(name: &str, v: Value) -> anyhow::Result<()> {
    let want_bool = || v.flag.ok_or_else(|| anyhow!("`{name} expects a boolean"));
    let want_sym = || v.sym.ok_or_else(|| anyhow!("`{name} expects a symbol"));
    let want_threads = || match v.whole {
        Some(n) if n > 0 && n <= i32::MAX as i64 => Ok(n as i32),
        _ => Err(anyhow!("`{name} expects a positive long")),
    };
    let ok = |r: libc::c_int| {
        if r < 0 {
            Err(anyhow!("unable to set {name}"))
        } else {
            Ok(())
        }
    };
    match name {
        "threads" => tch::set_num_threads(want_threads()?),
        "interopthreads" => tch::utils::set_num_interop_threads(want_threads()?),
        "benchmark" => ok(cxx::set_benchmark(want_bool()? as i32))?,
        // 0 off, 1 warn only, 2 error (a boolean: off or error)
        "deterministic" => {
            let n = match (v.flag, v.whole) {
                (Some(b), _) => 2 * b as i32,
                (None, Some(n)) if (0..=2).contains(&n) => n as i32,
                _ => bail!("deterministic: use 0-turn off, 1-warn only, 2-error if non-deterministic algorithm"),
            };
            ok(cxx::set_deterministic(n))?
        }
        "cudnndeterministic" => ok(cxx::set_cudnn_deterministic(want_bool()? as i32))?,
        "stackframe" => STACKFRAME.store(want_bool()?, Ordering::Relaxed),
        "alloptions" => ALLOPTIONS.store(want_bool()?, Ordering::Relaxed),
        "complexfirst" => COMPLEXFIRST.store(want_bool()?, Ordering::Relaxed),
        "tf32" => precision::set_tf32(true, want_bool()?)?,
        "cudnntf32" => precision::set_tf32(false, want_bool()?)?,
        "matmulprecision" => precision::set_matmul_precision(want_sym()?)?,
        "autocast" => precision::set_autocast(want_sym()?)?,
        "autocastcpu" => precision::set_autocast_cpu(want_bool()?),
        "fused" => FUSED.store(want_bool()?, Ordering::Relaxed),
        "fusedcpu" => FUSEDCPU.store(want_bool()?, Ordering::Relaxed),
        "sdpa" => SDPA.store(want_bool()?, Ordering::Relaxed),
        "clipread" => CLIPREAD.store(want_bool()?, Ordering::Relaxed),
        "fusedln" => FUSEDLN.store(want_bool()?, Ordering::Relaxed),
        "precast" => PRECAST.store(want_bool()?, Ordering::Relaxed),
        "lncast" => LNCAST.store(want_bool()?, Ordering::Relaxed),
        "dropadd" => DROPADD.store(want_bool()?, Ordering::Relaxed),
        "lnres" => LNRES.store(want_bool()?, Ordering::Relaxed),
        n if sdp_backend(n).is_some() => ok(cxx::set_sdp(
            sdp_backend(n).unwrap_or(-1),
            want_bool()? as i32,
        ))?,
        _ if NAMES.contains(&name) => bail!("cannot set flag for {name}"),
        _ => bail!("unrecognized setting `{name}"),
    }
    Ok(())
}

/// `setting`'s argument: `()` all, `` `name `` one, `` `name`value `` a symbol setting set, or
/// `` (`name;value) `` one set.
pub enum Form {
    All,
    Get(&'static str),
    SetSym(&'static str, &'static str),
    Set(&'static str, Value),
}

impl FromQ for Form {
    const TYPE: &'static str = "(), `name or (`name;value)";
    fn read(x: K) -> anyhow::Result<Option<Form>> {
        if read::is_nil(x) {
            return Ok(Some(Form::All));
        }
        if let Some(name) = <&str>::of(x) {
            return Ok(Some(Form::Get(name)));
        }
        // `name`value: a symbol setting written as a list of two symbols
        if let Some([name, v]) = Vec::<&str>::of(x).as_deref() {
            return Ok(Some(Form::SetSym(name, v)));
        }
        // (`name;value): a general list of two.
        if let Some([name, v]) = from::list(&x) {
            let name = <&str>::of(*name).ok_or_else(|| anyhow!("expected (`name;value)"))?;
            let v = Value {
                flag: bool::of(*v),
                whole: Whole::of(*v).map(|w| w.0).filter(|_| read::ktype(*v) != -1),
                sym: <&str>::of(*v),
            };
            return Ok(Some(Form::Set(name, v)));
        }
        Ok(None)
    }
    fn wrong(_x: K, _arg: &str) -> anyhow::Error {
        anyhow!("expected {}", Self::TYPE)
    }
}

crate::qfn! {
    pub fn setting(form: Form) -> KResult {
        Ok(match form {
            Form::All => {
                let values = make::try_vec(NAMES.iter().map(|n| get(n)))?;
                make::dict(&NAMES, values)
            }
            Form::Get(name) => get(name)?,
            Form::SetSym(name, v) => {
                match name {
                    "matmulprecision" => precision::set_matmul_precision(v)?,
                    "autocast" => precision::set_autocast(v)?,
                    _ if NAMES.contains(&name) => bail!(
                        "`{name} expects a {}",
                        if ["threads", "interopthreads"].contains(&name) {
                            "positive long"
                        } else {
                            "boolean"
                        }
                    ),
                    _ => bail!("unrecognized setting `{name}"),
                }
                make::null()
            }
            Form::Set(name, v) => {
                set(name, v)?;
                make::null()
            }
        })
    }
}

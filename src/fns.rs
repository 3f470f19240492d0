//! The one table of q names: every exported q function is listed here with its Rust function and
//! arity, and `fns` hands q a dictionary of them. Go from a q name to its Rust in one hop.
use crate::k::{guard::guard, make, native, KResult, K};
use crate::{device, math, objects, session, tensor};

/// One q function: its name, the C entry point q calls (already guarded), its arity.
pub struct Entry {
    pub name: &'static str,
    pub call: *const libc::c_void,
    pub arity: i64,
}

// The table only holds function addresses, which are safe to share.
unsafe impl Sync for Entry {}

/// Declare the table: each `"name" => path` gets a C entry point that runs `path` in the guard.
/// A q function of two arguments (`"use" / 2 => path`) gets them as one list `(x;y)`, so every
/// Rust body has the same form.
macro_rules! table {
    ($($name:literal $(/ $two:literal)? => $f:path),* $(,)?) => {
        pub static TABLE: &[Entry] = &[$( table!(@entry $name $(/ $two)? => $f) ),*];
    };
    (@entry $name:literal => $f:path) => {
        Entry {
            name: $name,
            call: {
                extern "C" fn call(x: K) -> K { guard($name, x, $f) }
                call as *const libc::c_void
            },
            arity: 1,
        }
    };
    (@entry $name:literal / $two:literal => $f:path) => {
        Entry {
            // Only one- and two-argument entry points exist.
            #[allow(clippy::eq_op)]
            arity: { const _: () = assert!($two == 2, "q functions take one or two arguments"); 2 },
            name: $name,
            call: {
                extern "C" fn call(x: K, y: K) -> K {
                    let args = unsafe { native::knk(2, native::r1(x), native::r1(y)) };
                    let r = guard($name, args, $f);
                    unsafe { native::r0(args) };
                    r
                }
                call as *const libc::c_void
            },
        }
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
    "mapped"      => objects::mapped,
    "obj"         => objects::obj,
    "tensorcount" => objects::tensorcount,
    // tensors
    "tensor"      => tensor::create::tensor,
    "addref"      => tensor::handles::addref,
    "return"      => tensor::handles::return_,
    "to"          => tensor::handles::to,
    "copyto"      => tensor::handles::copyto,
    "use" / 2     => tensor::handles::use_,
    "vector"      => tensor::vector::vector,
    "dict"        => tensor::dict::dict,
    // tensor information (info.rst)
    "size"        => tensor::info::shape::size,
    "stride"      => tensor::info::shape::stride,
    "dim"         => tensor::info::shape::dim,
    "numel"       => tensor::info::shape::numel,
    "itemsize"    => tensor::info::shape::itemsize,
    "elements"    => tensor::info::shape::elements,
    "bytes"       => tensor::info::shape::bytes,
    "offset"      => tensor::info::shape::offset,
    "ptr"         => tensor::info::pointers::ptr,
    "sptr"        => tensor::info::pointers::sptr,
    "ref"         => tensor::info::pointers::ref_,
    "sref"        => tensor::info::pointers::sref,
    "weakref"     => tensor::info::pointers::weakref,
    "same"        => tensor::info::pointers::same,
    "alias"       => tensor::info::pointers::alias,
    "dtype"       => tensor::info::attrs::dtype,
    "device"      => tensor::info::attrs::device,
    "layout"      => tensor::info::attrs::layout,
    "gradient"    => tensor::info::attrs::gradient,
    "memory"      => tensor::info::attrs::memory,
    "gradfn"      => tensor::info::attrs::gradfn,
    "ktype"       => tensor::info::attrs::ktype,
    "objtype"     => tensor::info::attrs::objtype,
    "options"     => tensor::info::attrs::options,
    "contiguous"  => tensor::info::flags::contiguous,
    "coalesced"   => tensor::info::flags::coalesced,
    "defined"     => tensor::info::flags::defined,
    "gradflag"    => tensor::info::flags::gradflag,
    "leaf"        => tensor::info::flags::leaf,
    "pinned"      => tensor::info::flags::pinned,
    "sparseflag"  => tensor::info::flags::sparseflag,
    "info"        => tensor::info::summary::info,
    "detail"      => tensor::info::summary::detail,
    "str"         => tensor::info::summary::str,
    "help"        => tensor::info::summary::help,
    // gradients
    "backward"    => tensor::autograd::backward,
    "grad"        => tensor::autograd::grad,
    "zerograd"    => tensor::autograd::zerograd,
    "nograd"      => tensor::autograd::nograd,
    // devices
    "cudadevice"  => device::cudadevice,
    "cudadevices" => device::cudadevices,
    "sync"        => device::sync,
    // tensor operations (tensorop.rst)
    "amend"       => tensor::fill::amend,
    "cat"         => tensor::join::cat,
    "detach"      => tensor::detach::detach,
    "expand"      => tensor::shape::expand,
    "fill"        => tensor::fill::fill,
    "filldiagonal" => tensor::fill::filldiagonal,
    "index"       => tensor::select::index,
    "narrow"      => tensor::shape::narrow,
    "permute"     => tensor::shape::permute,
    "reshape"     => tensor::shape::reshape,
    "resize"      => tensor::shape::resize,
    "squeeze"     => tensor::shape::squeeze,
    "stack"       => tensor::join::stack,
    "transpose"   => tensor::shape::transpose,
    "unsqueeze"   => tensor::shape::unsqueeze,
    "View"        => tensor::shape::view,
    // math
    "Max"         => math::reduce::max,
    "Min"         => math::reduce::min,
    "Sum"         => math::reduce::sum,
    "add"         => math::pointwise::add,
    "Div"         => math::pointwise::div,
    "Abs"         => math::pointwise::abs,
    "Exp"         => math::pointwise::exp,
    "Log"         => math::pointwise::log,
    "Neg"         => math::pointwise::neg,
    "Sqrt"        => math::pointwise::sqrt,
    "mean"        => math::reduce::mean,
    "mul"         => math::pointwise::mul,
    // math: linear algebra and spectral math (math-linalg.rst and math-spectral.rst)
    "Cross"       => math::linalg::cross,
    "addbmm"      => math::linalg::addbmm,
    "addmm"       => math::linalg::addmm,
    "addmv"       => math::linalg::addmv,
    "addr"        => math::linalg::addr,
    "baddbmm"     => math::linalg::baddbmm,
    "bmm"         => math::linalg::bmm,
    "dot"         => math::linalg::dot,
    "householder" => math::linalg::householder,
    "matmul"      => math::linalg::matmul,
    "mm"          => math::linalg::mm,
    "mmt"         => math::linalg::mmt,
    "mtm"         => math::linalg::mtm,
    "mv"          => math::linalg::mv,
    "outer"       => math::linalg::outer,
    "multidot"    => math::linalg::multidot,
    "power"       => math::linalg::power,
    "det"         => math::decomp::det,
    "logdet"      => math::decomp::logdet,
    "slogdet"     => math::decomp::slogdet,
    "mrank"       => math::decomp::mrank,
    "pinverse"    => math::decomp::pinverse,
    "chol"        => math::decomp::chol,
    "cholx"       => math::decomp::cholx,
    "cholinverse" => math::decomp::cholinverse,
    "cholsolve"   => math::decomp::cholsolve,
    "eig"         => math::decomp::eig,
    "eigh"        => math::decomp::eigh,
    "eigvals"     => math::decomp::eigvals,
    "eigvalsh"    => math::decomp::eigvalsh,
    "qr"          => math::decomp::qr,
    "lu"          => math::decomp::lu,
    "lux"         => math::decomp::lux,
    "lun"         => math::decomp::lun,
    "lusolve"     => math::decomp::lusolve,
    "svd"         => math::decomp::svd,
    "svdvals"     => math::decomp::svdvals,
    "solve"       => math::decomp::solve,
    "trisolve"    => math::decomp::trisolve,
    "lstsq"       => math::decomp::lstsq,
    "inverse"     => math::decomp::inverse,
    "fft"         => math::spectral::fft,
    "ifft"        => math::spectral::ifft,
    "rfft"        => math::spectral::rfft,
    "irfft"       => math::spectral::irfft,
    "hfft"        => math::spectral::hfft,
    "ihfft"       => math::spectral::ihfft,
    "fft2"        => math::spectral::fft2,
    "ifft2"       => math::spectral::ifft2,
    "rfft2"       => math::spectral::rfft2,
    "irfft2"      => math::spectral::irfft2,
    "hfft2"       => math::spectral::hfft2,
    "ihfft2"      => math::spectral::ihfft2,
    "fftn"        => math::spectral::fftn,
    "ifftn"       => math::spectral::ifftn,
    "rfftn"       => math::spectral::rfftn,
    "irfftn"      => math::spectral::irfftn,
    "hfftn"       => math::spectral::hfftn,
    "ihfftn"      => math::spectral::ihfftn,
    "fftshift"    => math::spectral::fftshift,
    "ifftshift"   => math::spectral::ifftshift,
    "fftfreq"     => math::spectral::fftfreq,
    "rfftfreq"    => math::spectral::rfftfreq,
    "bartlett"    => math::spectral::bartlett,
    "blackman"    => math::spectral::blackman,
    "hann"        => math::spectral::hann,
    "hamming"     => math::spectral::hamming,
    "kaiser"      => math::spectral::kaiser,
    // math: reductions, other math and random (math-reduce.rst, math-other.rst and math-random.rst)
    "All"         => math::reduce::all,
    "Any"         => math::reduce::any,
    "amax"        => math::reduce::amax,
    "amin"        => math::reduce::amin,
    "aminmax"     => math::reduce::aminmax,
    "argmax"      => math::reduce::argmax,
    "argmin"      => math::reduce::argmin,
    "logsumexp"   => math::reduce::logsumexp,
    "nanmean"     => math::reduce::nanmean,
    "median"      => math::reduce::median,
    "nanmedian"   => math::reduce::nanmedian,
    "mode"        => math::reduce::mode,
    "nansum"      => math::reduce::nansum,
    "prod"        => math::reduce::prod,
    "std"         => math::reduce::std,
    "variance"    => math::reduce::variance,
    "meanstd"     => math::reduce::meanstd,
    "meanvar"     => math::reduce::meanvar,
    "unique"      => math::unique::unique,
    "uniquec"     => math::unique::uniquec,
    "dist"        => math::norms::dist,
    "fnorm"       => math::norms::fnorm,
    "nnorm"       => math::norms::nnorm,
    "mnorm"       => math::norms::mnorm,
    "vnorm"       => math::norms::vnorm,
    "bincount"    => math::other::bincount,
    "cumprod"     => math::other::cumprod,
    "cumsum"      => math::other::cumsum,
    "diag"        => math::other::diag,
    "diagflat"    => math::other::diagflat,
    "diagonal"    => math::other::diagonal,
    "Flip"        => math::other::flip,
    "histc"       => math::other::histc,
    "renorm"      => math::other::renorm,
    "roll"        => math::other::roll,
    "tensordot"   => math::other::tensordot,
    "trace"       => math::other::trace,
    "tril"        => math::other::tril,
    "triu"        => math::other::triu,
    "bernoulli"   => math::random::bernoulli,
    "multinomial" => math::random::multinomial,
    // math: complex and sparse tensors (complex.rst and sparse.rst (and the sparse parts of tensors.rst / info.rst))
    "real"        => math::complex::real,
    "imag"        => math::complex::imag,
    "isreal"      => math::complex::isreal,
    "sparse"      => tensor::sparse::sparse,
    "dense"       => tensor::sparse::dense,
    "coalesce"    => tensor::sparse::coalesce,
    "indices"     => tensor::sparse::indices,
    "values"      => tensor::sparse::values,
    "sparseindex" => tensor::sparse::sparseindex,
    "nnz"         => tensor::sparse::nnz,
    "sparsedim"   => tensor::sparse::sparsedim,
    "densedim"    => tensor::sparse::densedim,
    // math: pointwise and comparison math (math-pointwise.rst and math-compare.rst)
    "Acos"        => math::pointwise::acos,
    "angle"       => math::pointwise::angle,
    "Asin"        => math::pointwise::asin,
    "Atan"        => math::pointwise::atan,
    "atan2"       => math::pointwise::atan2,
    "bitwisenot"  => math::pointwise::bitwisenot,
    "ceil"        => math::pointwise::ceil,
    "Cos"         => math::pointwise::cos,
    "cosh"        => math::pointwise::cosh,
    "digamma"     => math::pointwise::digamma,
    "erf"         => math::pointwise::erf,
    "erfc"        => math::pointwise::erfc,
    "erfinv"      => math::pointwise::erfinv,
    "expm1"       => math::pointwise::expm1,
    "Floor"       => math::pointwise::floor,
    "fmod"        => math::pointwise::fmod,
    "frac"        => math::pointwise::frac,
    "lgamma"      => math::pointwise::lgamma,
    "log10"       => math::pointwise::log10,
    "log1p"       => math::pointwise::log1p,
    "log2"        => math::pointwise::log2,
    "Not"         => math::pointwise::not,
    "Reciprocal"  => math::pointwise::reciprocal,
    "remainder"   => math::pointwise::remainder,
    "round"       => math::pointwise::round,
    "rsqrt"       => math::pointwise::rsqrt,
    "sgn"         => math::pointwise::sgn,
    "sigmoid"     => math::pointwise::sigmoid,
    "sign"        => math::pointwise::sign,
    "Sin"         => math::pointwise::sin,
    "sinh"        => math::pointwise::sinh,
    "Tan"         => math::pointwise::tan,
    "tanh"        => math::pointwise::tanh,
    "trunc"       => math::pointwise::trunc,
    "xor"         => math::pointwise::xor,
    "addcmul"     => math::pointwise::addcmul,
    "addcdiv"     => math::pointwise::addcdiv,
    "clamp"       => math::pointargs::clamp,
    "lerp"        => math::pointargs::lerp,
    "mvlgamma"    => math::pointargs::mvlgamma,
    "pow"         => math::pointargs::pow,
    "fpow"        => math::pointargs::fpow,
    "eq"          => math::compare::eq,
    "ge"          => math::compare::ge,
    "gt"          => math::compare::gt,
    "le"          => math::compare::le,
    "lt"          => math::compare::lt,
    "ne"          => math::compare::ne,
    "fmax"        => math::compare::fmax,
    "fmin"        => math::compare::fmin,
    "maximum"     => math::compare::maximum,
    "minimum"     => math::compare::minimum,
    "finite"      => math::compare::finite,
    "inf"         => math::compare::inf,
    "nan"         => math::compare::nan,
    "neginf"      => math::compare::neginf,
    "posinf"      => math::compare::posinf,
    "close"       => math::compare::close,
    "allclose"    => math::compare::allclose,
    "equal"       => math::compare::equal,
    "sort"        => math::sorting::sort,
    "argsort"     => math::sorting::argsort,
    "msort"       => math::sorting::msort,
    "topk"        => math::sorting::topk,
    "kthvalue"    => math::sorting::kthvalue,
    "In"          => math::sorting::r#in,
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
    let funcs = TABLE.iter().map(|e| unsafe { native::dl(e.call as *mut _, e.arity) }).collect();
    Ok(unsafe { native::xD(make::symbols(&names), make::list(funcs)) })
}

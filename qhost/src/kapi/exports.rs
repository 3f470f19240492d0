//! The k.h functions exported from the qhost executable, with q's semantics and ownership.
//!
//! Ownership as in k.h: arguments are borrowed unless the function consumes them (knk, xD, xT,
//! ktd, knt, jk, k's and dot's arguments are noted below); results are new references.
//! Errors: `krr` records only the pointer it is given (as q: the text must outlive the call;
//! nothing is interned), `orr` formats into a thread-local 256-byte buffer (255 characters at
//! most), and both answer (K)0; `ee` turns that pending error into an error object (t = -128,
//! s = its own copy of the message). The pending error is per thread, as q's.
//! Strict mode (QHOST_STRICT=1, see `strict`) makes every rule KX documents loud.
//!
//! What an extension may rely on (and nothing more):
//! - it is called on q's main thread (or a peach secondary thread), with borrowed arguments
//!   that live for the call; which thread may call what is `threads`' job;
//! - a call back into q (`k(0,..)`, `dot`) never unwinds or longjmps through its frames: q errors
//!   come back as an error object (`k`) or (K)0 with the error pending (`dot`), and a Rust
//!   panic inside the interpreter is caught at this boundary and turned into an error;
//! - a panic or C++ exception escaping the extension aborts the process (Rust >= 1.81 aborts on
//!   unwinding out of an `extern "C"` function); it is never caught as a q error.
//!
//! The linker keeps every function here because build.rs passes `-u name` for each, and
//! `-rdynamic` exports them; keep build.rs's list in step with this file.
#![allow(non_snake_case, clippy::missing_safety_doc)]

mod fdloop;
mod incoming;
mod ipc;

use std::cell::{Cell, RefCell};
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;

use libc::{c_char, c_int, c_void};

use super::error::{err, ExitRequest, QErr, QResult};
use super::func::Func;
use super::hooks;
use super::kobj::*;
use super::sym;
use super::{strict, threads};

pub use fdloop::{poll_fds, registered_fds};
pub use incoming::check_incoming;
pub use ipc::{deserialize, serialize, FUNCTIONS};

type S = *mut c_char;

// ---- the pending error (krr/orr, read by ee and by the caller of an extension) --------------

thread_local! {
    /// The pointer the last krr/orr (or a failed API call) recorded on this thread, not yet
    /// taken: q keeps only the pointer.
    static PENDING: Cell<*const c_char> = const { Cell::new(std::ptr::null()) };
    /// Where qhost's own messages (a failed xD, dot's q error...) live until the next one on
    /// this thread, as orr's static thread-local buffer does in q.
    static OWN_TEXT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// orr's buffer: 255 characters and a NUL.
    static ORR_TEXT: RefCell<[u8; 256]> = const { RefCell::new([0; 256]) };
}

/// Record `msg` (qhost's own text) as the pending error.
pub fn set_error(msg: &str) {
    let p = OWN_TEXT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.extend(msg.bytes().take_while(|&c| c != 0));
        b.push(0);
        b.as_ptr() as *const c_char
    });
    PENDING.with(|c| c.set(p));
}

/// Whether an error is pending on this thread.
pub fn error_pending() -> bool {
    PENDING.with(|c| !c.get().is_null())
}

/// Take (and clear) the pending error message, if any: the text is read now, from the pointer
/// krr was given.
pub fn take_error() -> Option<String> {
    let p = PENDING.with(|c| c.replace(std::ptr::null()));
    (!p.is_null()).then(|| unsafe { String::from_utf8_lossy(cstr(p)).into_owned() })
}

/// A new error object (t = -128) whose `s` is its own copy of the message.
pub fn error_object(msg: &str) -> K {
    alloc_error(msg.as_bytes())
}

/// Text of a C string argument ("" for null).
unsafe fn cstr<'a>(s: *const c_char) -> &'a [u8] {
    if s.is_null() {
        b""
    } else {
        CStr::from_ptr(s).to_bytes()
    }
}

/// Run interpreter code for a caller in C: a panic becomes a q error instead of unwinding.
fn guarded(f: impl FnOnce() -> QResult) -> QResult {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        // `exit` inside a callback from C: no unwinding through the extension's frames, so
        // leave from here (the leak check then also counts what those frames hold).
        Err(e) if e.is::<ExitRequest>() => {
            hooks::exit(e.downcast_ref::<ExitRequest>().map_or(1, |x| x.0))
        }
        Err(e) => {
            let m = e
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| e.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(QErr(format!("qhost panic: {m}")))
        }
    }
}

// ---- atoms ------------------------------------------------------------------------------

fn atom_with<T: Copy>(t: i8, v: T) -> K {
    let x = alloc(t, 0);
    unsafe { *atom::<T>(x) = v };
    x
}

/// An atom of type t, its value unset (as from q's pool; poisoned in strict mode): the caller
/// fills it. A guid atom is laid out as a one-item vector (value at offset 16); `ka(101)` is a
/// unary primitive numbered by `->g` (0: the generic null `::`).
#[no_mangle]
pub unsafe extern "C" fn ka(t: c_int) -> K {
    alloc_uninit(t as i8, 0)
}
#[no_mangle]
pub unsafe extern "C" fn kb(b: c_int) -> K {
    atom_with(-KB, (b != 0) as u8)
}
#[repr(C)]
#[derive(Clone, Copy)]
pub struct U {
    pub g: [u8; 16],
}
#[no_mangle]
pub unsafe extern "C" fn ku(u: U) -> K {
    let x = ka(-UU as c_int);
    std::ptr::copy_nonoverlapping(u.g.as_ptr(), data::<u8>(x), 16);
    x
}
#[no_mangle]
pub unsafe extern "C" fn kg(b: c_int) -> K {
    atom_with(-KG, b as u8)
}
#[no_mangle]
pub unsafe extern "C" fn kh(h: c_int) -> K {
    atom_with(-KH, h as i16)
}
#[no_mangle]
pub unsafe extern "C" fn ki(i: c_int) -> K {
    atom_with(-KI, i)
}
#[no_mangle]
pub unsafe extern "C" fn kj(j: i64) -> K {
    atom_with(-KJ, j)
}
/// k.h: `K ke(F)` takes a double and stores a real.
#[no_mangle]
pub unsafe extern "C" fn ke(e: f64) -> K {
    atom_with(-KE, e as f32)
}
#[no_mangle]
pub unsafe extern "C" fn kf(f: f64) -> K {
    atom_with(-KF, f)
}
#[no_mangle]
pub unsafe extern "C" fn kc(c: c_int) -> K {
    atom_with(-KC, c as u8)
}
#[no_mangle]
pub unsafe extern "C" fn ks(s: *const c_char) -> K {
    atom_with(-KS, intern_checked("ks", cstr(s)))
}

/// Intern for an API call, refusing threads that may not (see `threads::interning`).
fn intern_checked(what: &str, text: &[u8]) -> *const c_char {
    // fatal in strict mode; otherwise intern anyway (qhost's table is locked)
    let _ = threads::interning(what);
    sym::intern(text)
}
/// Timestamp (t = -12) or timespan (t = -16) from nanoseconds.
#[no_mangle]
pub unsafe extern "C" fn ktj(t: c_int, j: i64) -> K {
    atom_with(t as i8, j)
}
#[no_mangle]
pub unsafe extern "C" fn kd(d: c_int) -> K {
    atom_with(-KD, d)
}
#[no_mangle]
pub unsafe extern "C" fn kz(z: f64) -> K {
    atom_with(-KZ, z)
}
#[no_mangle]
pub unsafe extern "C" fn kt(t: c_int) -> K {
    atom_with(-KT, t)
}

// ---- vectors and lists -------------------------------------------------------------------

/// A vector of n items of type t, its items unset as from q's pool (poisoned in strict mode):
/// "For a mixed or symbol list, all elements must be initialized prior to returning the list or
/// passing it to other API functions" (KX, capiref).
#[no_mangle]
pub unsafe extern "C" fn ktn(t: c_int, n: i64) -> K {
    alloc_uninit(t as i8, n.max(0))
}
/// Called by knk/vaknk in shim.c: a general list that takes ownership of the n items.
#[no_mangle]
pub unsafe extern "C" fn qhost_knk(n: c_int, items: *const K) -> K {
    if n < 0 {
        eprintln!("qhost: out of memory in knk");
        std::process::abort();
    }
    let x = alloc(0, n as i64);
    if n > 0 {
        std::ptr::copy_nonoverlapping(items, data::<K>(x), n as usize);
    }
    x
}
#[no_mangle]
pub unsafe extern "C" fn kp(s: *const c_char) -> K {
    let b = cstr(s);
    KObj::from_slice(KC, b).into_raw()
}
#[no_mangle]
pub unsafe extern "C" fn kpn(s: *const c_char, n: i64) -> K {
    let x = alloc(KC, n.max(0));
    if n > 0 {
        std::ptr::copy_nonoverlapping(s as *const u8, data::<u8>(x), n as usize);
    }
    x
}

/// Append one element of `*x`'s type, copied from `*y`, in place (may move `*x`).
#[no_mangle]
pub unsafe extern "C" fn ja(x: *mut K, y: *const c_void) -> K {
    let v = *x;
    let t = (*v).t;
    let es = elem_size(t);
    let n = (*v).n;
    let p = grow_for_join(v, n + 1);
    std::ptr::copy_nonoverlapping(y as *const u8, data::<u8>(p).add(n as usize * es), es);
    *x = p;
    p
}
/// The list `v` grown to `n` items for ja/js/jk/jv. KX's capiref (Joins): "The reallocation of
/// the list will cause the initial list's reference count to be decremented". A list with a
/// second reference is therefore copied into a new block (general lists' items gain a reference
/// each, as both lists hold them) and the old one r0'd: its other holder keeps it unchanged. A
/// list with one reference is reallocated in place.
unsafe fn grow_for_join(v: K, n: i64) -> K {
    if (*v).r == 0 {
        return resize(v, n);
    }
    let t = (*v).t;
    let old = (*v).n;
    let p = alloc_uninit(t, n);
    let es = elem_size(t);
    std::ptr::copy_nonoverlapping(data::<u8>(v), data::<u8>(p), old as usize * es);
    if t == 0 {
        for i in 0..old as usize {
            incref(*data::<K>(v).add(i));
        }
    }
    decref(v);
    p
}

/// Append a symbol (interned here, so any C string may be passed) to a symbol vector.
#[no_mangle]
pub unsafe extern "C" fn js(x: *mut K, s: *const c_char) -> K {
    let p = intern_checked("js", cstr(s));
    ja(x, &p as *const *const c_char as *const c_void)
}
/// Append `y` to the general list `*x`; consumes `y`.
#[no_mangle]
pub unsafe extern "C" fn jk(x: *mut K, y: K) -> K {
    ja(x, &y as *const K as *const c_void)
}
/// Join the items of `y` (same type as `*x`) onto `*x`; `y` stays the caller's.
#[no_mangle]
pub unsafe extern "C" fn jv(x: *mut K, y: K) -> K {
    let v = *x;
    let t = (*v).t;
    if t != (*y).t || !(0..XT).contains(&t) {
        set_error("type");
        return std::ptr::null_mut();
    }
    let (n, m) = ((*v).n, (*y).n);
    if m == 0 {
        return v;
    }
    if t == 0 {
        for i in 0..m as usize {
            incref(*data::<K>(y).add(i));
        }
    }
    let es = elem_size(t);
    // Copy y's items out first: y may be *x itself, which resize can move.
    let items: Vec<u8> = std::slice::from_raw_parts(data::<u8>(y), m as usize * es).to_vec();
    let p = grow_for_join(v, n + m);
    std::ptr::copy_nonoverlapping(
        items.as_ptr(),
        data::<u8>(p).add(n as usize * es),
        items.len(),
    );
    *x = p;
    p
}

// ---- dictionaries and tables ---------------------------------------------------------------

/// The dictionary keys!values; consumes both.
#[no_mangle]
pub unsafe extern "C" fn xD(keys: K, values: K) -> K {
    if keys.is_null() || values.is_null() {
        decref(keys);
        decref(values);
        set_error("type");
        return std::ptr::null_mut();
    }
    KObj::dict(
        KObj::from_raw(keys).unwrap(),
        KObj::from_raw(values).unwrap(),
    )
    .into_raw()
}

/// Flip a column dictionary (symbol keys, list of equal-length columns) into a table; consumes it.
#[no_mangle]
pub unsafe extern "C" fn xT(d: K) -> K {
    let Some(d) = KObj::from_raw(d) else {
        set_error("type");
        return std::ptr::null_mut();
    };
    match check_columns(&d) {
        Ok(()) => KObj::table(d).into_raw(),
        Err(e) => {
            set_error(&e);
            std::ptr::null_mut()
        }
    }
}

/// Is `d` a valid column dictionary for a table? Answers q's error name if not.
fn check_columns(d: &KObj) -> Result<(), String> {
    if d.t() != XD {
        return Err("type".into());
    }
    let (k, v) = (d.dict_keys(), d.dict_values());
    if k.t() != KS || v.t() != 0 {
        return Err("type".into());
    }
    if k.len() != v.len() {
        return Err("length".into());
    }
    let cols = v.items();
    if cols.iter().any(|c| !c.is_vector()) {
        return Err("type".into());
    }
    if cols.windows(2).any(|w| w[0].len() != w[1].len()) {
        return Err("length".into());
    }
    Ok(())
}

/// Column names and columns of a table.
fn table_parts(t: &KObj) -> (KObj, KObj) {
    let d = t.table_dict();
    (d.dict_keys(), d.dict_values())
}

/// A table from the columns `range` of (names, cols).
fn sub_table(names: &KObj, cols: &KObj, range: std::ops::Range<usize>) -> KObj {
    let ns: Vec<*const c_char> = names.slice::<*const c_char>()[range.clone()].to_vec();
    let cs: Vec<KObj> = range.map(|i| cols.item(i as i64)).collect();
    KObj::table(KObj::dict(KObj::from_slice(KS, &ns), KObj::list(cs)))
}

/// A keyed table to a simple one (a simple table is answered as is); consumes x.
#[no_mangle]
pub unsafe extern "C" fn ktd(x: K) -> K {
    let Some(x) = KObj::from_raw(x) else {
        set_error("type");
        return std::ptr::null_mut();
    };
    if x.t() == XT {
        return x.into_raw();
    }
    if x.t() != XD || x.dict_keys().t() != XT || x.dict_values().t() != XT {
        set_error("type");
        return std::ptr::null_mut();
    }
    let (kn, kc) = table_parts(&x.dict_keys());
    let (vn, vc) = table_parts(&x.dict_values());
    let names: Vec<*const c_char> = kn
        .slice::<*const c_char>()
        .iter()
        .chain(vn.slice::<*const c_char>())
        .copied()
        .collect();
    let cols: Vec<KObj> = kc.items().into_iter().chain(vc.items()).collect();
    KObj::table(KObj::dict(KObj::from_slice(KS, &names), KObj::list(cols))).into_raw()
}

/// A keyed table whose first n columns are the key; consumes the table.
#[no_mangle]
pub unsafe extern "C" fn knt(n: i64, x: K) -> K {
    let Some(x) = KObj::from_raw(x) else {
        set_error("type");
        return std::ptr::null_mut();
    };
    if x.t() != XT {
        set_error("type");
        return std::ptr::null_mut();
    }
    let (names, cols) = table_parts(&x);
    let m = names.len();
    if n <= 0 || n > m {
        set_error("length");
        return std::ptr::null_mut();
    }
    let n = n as usize;
    let keys = sub_table(&names, &cols, 0..n);
    let vals = sub_table(&names, &cols, n..m as usize);
    KObj::dict(keys, vals).into_raw()
}

// ---- errors ------------------------------------------------------------------------------

/// Signal an error: record the pointer (only the pointer, as q: "As krr records only the passed
/// pointer, you should ensure that the string remains valid after the return from your code
/// into kdb+") and answer (K)0, which the caller returns to q.
#[no_mangle]
pub unsafe extern "C" fn krr(s: *const c_char) -> K {
    if strict::on() && matches!(cstr(s), b"stop" | b"abort" | b"stack") {
        // KX: "The strings "stop", "abort" and "stack" are reserved values and krr must not be
        // called with those."
        eprintln!(
            "qhost strict: krr(\"{}\"): a value KX reserves for q itself",
            String::from_utf8_lossy(cstr(s))
        );
    }
    PENDING.with(|c| c.set(s));
    std::ptr::null_mut()
}
/// As krr, with the system error text: q's form `msg. OS reports: text`, copied into a static
/// thread-local buffer "valid until the next call to orr from that thread", the whole message
/// "limited to 255 characters and truncated if it exceeds this limit" (KX, capiref).
#[no_mangle]
pub unsafe extern "C" fn orr(s: *const c_char) -> K {
    let e = std::io::Error::last_os_error();
    let text = e.to_string();
    // io::Error's Display appends " (os error N)"; q prints strerror's text only.
    let text = text.split(" (os error").next().unwrap_or("").to_string();
    let mut msg = cstr(s).to_vec();
    msg.extend_from_slice(b". OS reports: ");
    msg.extend_from_slice(text.as_bytes());
    msg.truncate(255);
    let p = ORR_TEXT.with(|b| {
        let mut b = b.borrow_mut();
        b[..msg.len()].copy_from_slice(&msg);
        b[msg.len()] = 0;
        b.as_ptr() as *const c_char
    });
    PENDING.with(|c| c.set(p));
    std::ptr::null_mut()
}
/// Trap: a null result becomes an error object carrying (and clearing) the pending error; with
/// none pending its `s` is NULL (KX: "the error string pointer (x->s) may also be NULL").
#[no_mangle]
pub unsafe extern "C" fn ee(x: K) -> K {
    if !x.is_null() {
        return x;
    }
    match take_error() {
        Some(m) => error_object(&m),
        None => alloc(ERR, 0),
    }
}

// ---- symbols -----------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn ss(s: *const c_char) -> S {
    intern_checked("ss", cstr(s)) as S
}
#[no_mangle]
pub unsafe extern "C" fn sn(s: *const c_char, n: c_int) -> S {
    if s.is_null() || n <= 0 {
        return intern_checked("sn", b"") as S;
    }
    intern_checked("sn", std::slice::from_raw_parts(s as *const u8, n as usize)) as S
}

// ---- reference counts --------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn r0(x: K) {
    decref(x)
}
#[no_mangle]
pub unsafe extern "C" fn r1(x: K) -> K {
    incref(x)
}

// ---- calling q: k, dot --------------------------------------------------------------------

/// Called by k/vak in shim.c. h = 0: evaluate `s`; with arguments, apply its value to them.
/// Arguments are consumed. Errors come back as an error object (t = -128), as from q.
#[no_mangle]
pub unsafe extern "C" fn qhost_k(h: c_int, s: *const c_char, args: *const K, n: c_int) -> K {
    let args: Vec<KObj> = (0..n.max(0) as usize)
        .filter_map(|i| KObj::from_raw(*args.add(i)))
        .collect();
    if h != 0 {
        return error_object("nyi: qhost has no IPC handles");
    }
    if let Err(e) = threads::main_only("k") {
        return error_object(&e);
    }
    if args.len() > 8 {
        return error_object("rank");
    }
    if let Some(e) = args.iter().find_map(|a| check_incoming(a).err()) {
        return error_object(&e);
    }
    let text = String::from_utf8_lossy(cstr(s)).into_owned();
    let r = guarded(|| {
        let v = hooks::eval_text(&text)?;
        if args.is_empty() {
            Ok(v)
        } else {
            hooks::apply(&v, args)
        }
    });
    match r {
        Ok(v) => v.into_raw(),
        Err(e) => error_object(&e.0),
    }
}

/// The items of x as arguments: a general list's items, a vector's elements as atoms.
fn arg_list(x: &KObj) -> Vec<KObj> {
    match x.t() {
        0 => x.items(),
        t if (1..XT).contains(&t) => (0..x.len()).map(|i| ipc::element(x, i)).collect(),
        _ => vec![x.clone()],
    }
}

/// `.[f;x]`: apply f to the items of x (both borrowed). On error answers (K)0 with the error
/// pending (read it with ee).
#[no_mangle]
pub unsafe extern "C" fn dot(f: K, x: K) -> K {
    let (Some(f), Some(x)) = (KObj::from_borrowed(f), KObj::from_borrowed(x)) else {
        set_error("type");
        return std::ptr::null_mut();
    };
    if let Err(e) = threads::evaluating("dot")
        .and(check_incoming(&f))
        .and(check_incoming(&x))
    {
        set_error(&e);
        return std::ptr::null_mut();
    }
    match guarded(|| hooks::apply(&f, arg_list(&x))) {
        Ok(v) => v.into_raw(),
        Err(e) => {
            set_error(&e.0);
            std::ptr::null_mut()
        }
    }
}

/// A q function (type 112) calling the C function `f` with n arguments.
#[no_mangle]
pub unsafe extern "C" fn dl(f: *const c_void, n: i64) -> K {
    KObj::func(FN_DL, Func::Dl { ptr: f, n }).into_raw()
}

/// Call C function `ptr` with the n borrowed arguments (q's application of a `2:`/dl function).
/// (K)0 answers the pending krr message as the error, or with none pending the generic null
/// (KX: "If your C function, called from q, has nothing to return to q, it can return (K)0");
/// an error object answers its message (and is released). `ptr` comes from a `Func::Dl` (dlsym
/// or dl), whose maker vouched for it, so this stays a safe fn as the evaluator expects.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn call_dl(ptr: *const c_void, n: i64, args: &[KObj]) -> QResult {
    if args.len() as i64 != n || !(0..=8).contains(&n) {
        return Err(err("rank"));
    }
    let a: Vec<K> = args.iter().map(|x| x.as_ptr()).collect();
    if let Some(stale) = take_error() {
        // left by an earlier API call nobody took with ee: q would signal it "incorrectly
        // elsewhere"; strict mode says so, otherwise it must not be blamed on this call
        if strict::on() {
            return Err(QErr(format!(
                "qhost strict: stale error '{stale}' was pending (a krr/orr or failed API call \
                 whose error no ee took) before this call"
            )));
        }
    }
    type F0 = unsafe extern "C" fn() -> K;
    type F1 = unsafe extern "C" fn(K) -> K;
    type F2 = unsafe extern "C" fn(K, K) -> K;
    type F3 = unsafe extern "C" fn(K, K, K) -> K;
    type F4 = unsafe extern "C" fn(K, K, K, K) -> K;
    type F5 = unsafe extern "C" fn(K, K, K, K, K) -> K;
    type F6 = unsafe extern "C" fn(K, K, K, K, K, K) -> K;
    type F7 = unsafe extern "C" fn(K, K, K, K, K, K, K) -> K;
    type F8 = unsafe extern "C" fn(K, K, K, K, K, K, K, K) -> K;
    let r = unsafe {
        use std::mem::transmute as tr;
        match n {
            0 => tr::<*const c_void, F0>(ptr)(),
            1 => tr::<*const c_void, F1>(ptr)(a[0]),
            2 => tr::<*const c_void, F2>(ptr)(a[0], a[1]),
            3 => tr::<*const c_void, F3>(ptr)(a[0], a[1], a[2]),
            4 => tr::<*const c_void, F4>(ptr)(a[0], a[1], a[2], a[3]),
            5 => tr::<*const c_void, F5>(ptr)(a[0], a[1], a[2], a[3], a[4]),
            6 => tr::<*const c_void, F6>(ptr)(a[0], a[1], a[2], a[3], a[4], a[5]),
            7 => tr::<*const c_void, F7>(ptr)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]),
            _ => tr::<*const c_void, F8>(ptr)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]),
        }
    };
    if strict::on() && error_pending() {
        // overwrite what the extension left on the stack (scribble's frame lies where the
        // extension's frames were, just below this one) and the chunks it freed, so that a krr
        // text that did not outlive the call shows garbled instead of passing by luck
        strict::scribble();
    }
    result_of(r)
}

/// An extension's result as a QResult: (K)0 is the pending error (or, with none, nothing to
/// return: `::`), t = -128 its message.
pub fn result_of(r: K) -> QResult {
    match KObj::from_raw(r) {
        None => match take_error() {
            Some(m) => Err(QErr(m)),
            None => Ok(KObj::identity()),
        },
        Some(v) if v.t() == ERR => {
            let p = v.get_sym_ptr();
            Err(QErr(unsafe {
                String::from_utf8_lossy(cstr(p)).into_owned()
            }))
        }
        Some(v) => {
            if let Some(m) = take_error() {
                if strict::on() {
                    // KX: "Do not call krr() and then return a valid pointer!"; a failed
                    // API call's error must be taken with ee ("Otherwise the error status
                    // within the interpreter may still be set")
                    return Err(QErr(format!(
                        "qhost strict: a value was returned with error '{m}' pending (krr \
                         then a valid pointer, or a failed API call's error no ee took)"
                    )));
                }
            }
            check_incoming(&v).map_err(QErr)?;
            Ok(v)
        }
    }
}

// ---- serialization -----------------------------------------------------------------------

/// `-8!x`: x (borrowed) in kdb+ IPC form; (K)0 with the error pending if it cannot be.
#[no_mangle]
pub unsafe extern "C" fn b9(mode: c_int, x: K) -> K {
    borrowed_or_error(x, |x| serialize(x, mode))
}
/// `-9!x`: a byte vector (borrowed) in kdb+ IPC form back to a value.
#[no_mangle]
pub unsafe extern "C" fn d9(x: K) -> K {
    borrowed_or_error(x, deserialize)
}

/// Run `f` on a borrowed argument: its result as a new reference, or (K)0 with the error set.
unsafe fn borrowed_or_error(x: K, f: impl FnOnce(&KObj) -> QResult) -> K {
    let Some(x) = KObj::from_borrowed(x) else {
        set_error("type");
        return std::ptr::null_mut();
    };
    match f(&x) {
        Ok(v) => v.into_raw(),
        Err(e) => {
            set_error(&e.0);
            std::ptr::null_mut()
        }
    }
}
/// 1 if the byte vector x holds one complete, well-formed IPC message, else 0.
#[no_mangle]
pub unsafe extern "C" fn okx(x: K) -> c_int {
    KObj::from_borrowed(x).map_or(0, |x| ipc::valid(&x) as c_int)
}

// ---- event loop: sd1/sd0 -------------------------------------------------------------------

/// Call f(d) from the main loop whenever descriptor d is readable. "On success, sd1 returns a K
/// object of type integer, containing d. On error, NULL is returned and d is closed" (KX).
#[no_mangle]
pub unsafe extern "C" fn sd1(d: c_int, f: Option<unsafe extern "C" fn(c_int) -> K>) -> K {
    if let Err(e) = threads::main_only("sd1") {
        set_error(&e);
        return std::ptr::null_mut();
    }
    fdloop::register(d, f)
}
#[no_mangle]
pub unsafe extern "C" fn sd0(d: c_int) {
    if threads::main_only("sd0").is_ok() {
        fdloop::unregister(d, true)
    }
}
/// sd0x(d, 0) removes the callback but leaves d open.
#[no_mangle]
pub unsafe extern "C" fn sd0x(d: c_int, close: c_int) {
    if threads::main_only("sd0x").is_ok() {
        fdloop::unregister(d, close != 0)
    }
}

// ---- memory, threads, dates, version --------------------------------------------------------

/// Release this thread's memory pool: qhost uses malloc, so nothing to do.
#[no_mangle]
pub unsafe extern "C" fn m9() {}

/// "Set whether interning symbols uses a lock" (threads other than q's may intern only after
/// setm(1)); answers the previous setting.
#[no_mangle]
pub unsafe extern "C" fn setm(f: c_int) -> c_int {
    threads::SETM.swap(f, Ordering::SeqCst)
}

/// Days from 2000.01.01 to y.m.d (proleptic Gregorian).
#[no_mangle]
pub extern "C" fn ymd(y: c_int, m: c_int, d: c_int) -> c_int {
    // Days from civil (H. Hinnant's algorithm), shifted from 1970 to 2000.
    let y = y as i64 - (m <= 2) as i64;
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146097 + doe - 719468 - 10957) as c_int
}
/// The date `days` from 2000.01.01 as yyyymmdd.
#[no_mangle]
pub extern "C" fn dj(days: c_int) -> c_int {
    let z = days as i64 + 10957 + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    (y * 10000 + m * 100 + d) as c_int
}

/// The release date qhost reports (q's .z.k, 2024.10.01).
pub const RELEASE: (i32, i32, i32) = (2024, 10, 1);
/// KX: "Returns an int as yyyymmdd."
#[no_mangle]
pub extern "C" fn ver() -> c_int {
    RELEASE.0 * 10000 + RELEASE.1 * 100 + RELEASE.2
}

// ---- vi, vk: q's own (not in c.o) -----------------------------------------------------------

/// Item j of x as a new reference. KX documents it for types 77..97 (anymap and nested
/// homogeneous vectors, which qhost never makes) "akin to kK(x)[j] for x of type 0"; qhost
/// answers it for general lists (r1 of the item) and simple vectors (the item as an atom).
/// "If j is out of bounds, i.e. j>=xn, a null object for the first element's type is returned."
#[no_mangle]
pub unsafe extern "C" fn vi(x: K, j: u64) -> K {
    let Some(x) = KObj::from_borrowed(x) else {
        set_error("type");
        return std::ptr::null_mut();
    };
    let t = x.t();
    if !(0..=19).contains(&t) || (t == 0 && x.is_empty()) {
        set_error("type");
        return std::ptr::null_mut();
    }
    let n = x.len() as u64;
    if j < n {
        return x.elem(j as i64).into_raw();
    }
    let ft = if t == 0 { x.item(0).t() } else { -t };
    if (-KT..0).contains(&ft) {
        crate::q::values::null_atom(-ft).into_raw()
    } else {
        KObj::vector(ft.clamp(0, KT), 0).into_raw()
    }
}

/// Collapse a general list of atoms of one type into a simple vector, or of conforming
/// dictionaries into a table; anything else is answered as is. Takes ownership of x.
#[no_mangle]
pub unsafe extern "C" fn vk(x: K) -> K {
    let Some(x) = KObj::from_raw(x) else {
        set_error("type");
        return std::ptr::null_mut();
    };
    match guarded(|| Ok(collapse(x))) {
        Ok(v) => v.into_raw(),
        Err(e) => {
            set_error(&e.0);
            std::ptr::null_mut()
        }
    }
}

/// vk's work: atoms of one type to a vector; dictionaries with the same symbol keys to a table.
fn collapse(x: KObj) -> KObj {
    if x.t() != 0 || x.is_empty() {
        return x;
    }
    let items = x.items();
    let t = items[0].t();
    if (-KT..0).contains(&t) && items.iter().all(|a| a.t() == t) {
        return crate::q::values::from_items(items);
    }
    if t == XD {
        let keys = items[0].dict_keys();
        let same = |d: &KObj| {
            d.t() == XD && {
                let k = d.dict_keys();
                k.t() == KS && k.sym_list() == keys.sym_list()
            }
        };
        if keys.t() == KS && items.iter().all(same) {
            let cols: Vec<KObj> = (0..keys.len())
                .map(|c| {
                    crate::q::values::from_items(
                        items
                            .iter()
                            .map(|d| crate::q::values::elem(&d.dict_values(), c))
                            .collect(),
                    )
                })
                .collect();
            return KObj::table(KObj::dict(keys, KObj::list(cols)));
        }
    }
    x
}

// ---- leak check ----------------------------------------------------------------------------

/// For QHOST_LEAKCHECK=1: call after every global is dropped. Prints the count of live K
/// objects to stderr when there are any and answers it (0: no leak).
pub fn leak_report() -> i64 {
    let n = live_objects();
    if n != 0 {
        eprintln!("qhost: leak check: {n} K objects still live at exit");
    }
    n
}

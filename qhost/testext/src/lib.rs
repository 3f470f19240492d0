//! testext: a kdb+ shared library on kdbplus's `api` (k.h symbols left undefined, found in the
//! host at dlopen) that exercises every k.h function and answers values a q script checks.
//! Each function here is valid for real q as well as qhost: `` `testext 2:(`name;n) ``.
//! The q side is tests/q/capi.q; the expected values are written there.
#![allow(clippy::missing_safety_doc)]
use std::ffi::CStr;
use std::sync::atomic::{AtomicI64, Ordering};

use kdbplus::api::native::*;
use kdbplus::api::*;
use kdbplus::qtype;

/// A NUL-terminated literal as k.h's S.
macro_rules! s {
    ($lit:expr) => {
        concat!($lit, "\0").as_ptr() as S
    };
}

// Declared by k.h but left out of kdbplus 0.3.9's bindings. (khp, khpu, khpun, khpunc and
// kclose are c.o's, not q's: a library that references them does not load into q.)
extern "C" {
    fn okx(x: K) -> I;
    fn ver() -> I;
    fn sd0x(d: I, close: I);
    fn vi(x: K, j: u64) -> K;
    fn vk(x: K) -> K;
}

unsafe fn t(x: K) -> i8 {
    (*x).qtype
}
unsafe fn text(x: K) -> String {
    CStr::from_ptr((*x).value.symbol)
        .to_string_lossy()
        .into_owned()
}
unsafe fn set_i(x: K, v: I) -> K {
    (*x).value.int = v;
    x
}
/// An error object (from ee) as its message string, releasing it; anything else as is.
unsafe fn err_text(x: K) -> K {
    if t(x) == qtype::ERROR {
        let m = text(x);
        r0(x);
        let c = std::ffi::CString::new(m).unwrap();
        kp(c.as_ptr() as S)
    } else {
        x
    }
}

/// One atom of each type: b g x h i j e f c s p m d z n u v t (q: type each = -1 -2 -4 ... -19h).
#[no_mangle]
pub unsafe extern "C" fn atoms(_: K) -> K {
    let mut g = [0u8; 16];
    for (i, b) in g.iter_mut().enumerate() {
        *b = i as u8;
    }
    knk(
        18,
        kb(1),
        ku(U { guid: g }),
        kg(0x12),
        kh(3),
        ki(4),
        kj(5),
        ke(6.5),
        kf(7.25),
        kc(b'a' as I),
        ks(s!("sym")),
        ktj(-12, 1),
        set_i(ka(-13), 2),
        kd(3),
        kz(4.5),
        ktj(-16, 5),
        set_i(ka(-17), 6),
        set_i(ka(-18), 7),
        kt(8),
    )
}

/// Vectors built by ktn and appended in place: (1 2 3i; `a`b; (1;"xy"); 10 20 30; "hello"; 1.5 2.5 3.5).
#[no_mangle]
pub unsafe extern "C" fn vectors(_: K) -> K {
    let mut ints = ktn(qtype::INT_LIST as I, 0);
    for mut i in [1i32, 2, 3] {
        ja(&mut ints, &mut i as *mut I as *mut V);
    }
    let mut syms = ktn(qtype::SYMBOL_LIST as I, 0);
    js(&mut syms, ss(s!("a")));
    js(&mut syms, s!("b")); // not interned by us: the host interns
    let mut gen = ktn(0, 0);
    jk(&mut gen, kj(1));
    jk(&mut gen, kp(s!("xy")));
    let mut longs = ktn(qtype::LONG_LIST as I, 2);
    longs.as_mut_slice::<J>().copy_from_slice(&[10, 20]);
    let tail = ktn(qtype::LONG_LIST as I, 1);
    tail.as_mut_slice::<J>()[0] = 30;
    jv(&mut longs, tail);
    r0(tail);
    let floats = ktn(qtype::FLOAT_LIST as I, 3);
    floats.as_mut_slice::<F>().copy_from_slice(&[1.5, 2.5, 3.5]);
    knk(6, ints, syms, gen, longs, kpn(s!("hello world"), 5), floats)
}

/// (`a`b!1 2i; ([]x:1 2 3;y:`p`q`r); 1!that table; ktd of it, which is the table again).
#[no_mangle]
pub unsafe extern "C" fn dicts(_: K) -> K {
    let keys = ktn(qtype::SYMBOL_LIST as I, 2);
    keys.as_mut_slice::<S>()
        .copy_from_slice(&[ss(s!("a")), ss(s!("b"))]);
    let vals = ktn(qtype::INT_LIST as I, 2);
    vals.as_mut_slice::<I>().copy_from_slice(&[1, 2]);
    let d = xD(keys, vals);
    knk(4, d, table(), knt(1, table()), ktd(knt(1, table())))
}

unsafe fn table() -> K {
    let names = ktn(qtype::SYMBOL_LIST as I, 2);
    names
        .as_mut_slice::<S>()
        .copy_from_slice(&[ss(s!("x")), ss(s!("y"))]);
    let x = ktn(qtype::LONG_LIST as I, 3);
    x.as_mut_slice::<J>().copy_from_slice(&[1, 2, 3]);
    let y = ktn(qtype::SYMBOL_LIST as I, 3);
    y.as_mut_slice::<S>()
        .copy_from_slice(&[ss(s!("p")), ss(s!("q")), ss(s!("r"))]);
    xT(xD(names, knk(2, x, y)))
}

/// Signals 'custom.
#[no_mangle]
pub unsafe extern "C" fn fail(_: K) -> K {
    krr(s!("custom"))
}
/// Signals 'open. OS reports: No such file or directory (errno from a failed open).
#[no_mangle]
pub unsafe extern "C" fn oserr(_: K) -> K {
    libc::open(s!("/nonexistent/qhost-testext"), libc::O_RDONLY);
    orr(s!("open"))
}
/// (type and text of ee's error object; ee of a non-null value is that value): (-128h;"trapped";42).
#[no_mangle]
pub unsafe extern "C" fn trap(_: K) -> K {
    let e = ee(krr(s!("trapped")));
    let ty = kh(t(e) as I);
    let m = err_text(e);
    knk(3, ty, m, ee(kj(42)))
}

/// q callbacks: (k(0,"1+2"); k(0,"{x*2}",x); the text of k(0,"'boom")'s error object).
#[no_mangle]
pub unsafe extern "C" fn callback(x: K) -> K {
    let a = k(0, s!("1+2"), KNULL);
    let b = k(0, s!("{x*2}"), r1(x), KNULL);
    let c = err_text(k(0, s!("'boom"), KNULL));
    knk(3, err_text(a), err_text(b), c)
}
/// Apply the q function f to x both ways: (dot(f,enlist x); k(0,"{[f;x]f x}",f,x)).
#[no_mangle]
pub unsafe extern "C" fn apply(f: K, x: K) -> K {
    // dot borrows its arguments (as q's does): the list is ours to free.
    let args = knk(1, r1(x));
    let a = ee(dot(f, args));
    r0(args);
    let b = k(0, s!("{[f;x]f x}"), r1(f), r1(x), KNULL);
    knk(2, err_text(a), err_text(b))
}
/// dot's failure: (K)0 with the error pending; answers the error's text through ee.
#[no_mangle]
pub unsafe extern "C" fn dotfail(f: K, x: K) -> K {
    let args = knk(1, r1(x));
    let r = dot(f, args);
    r0(args);
    err_text(ee(r))
}

/// Reference counts as the r field shows them: fresh 0, after r1 1, after r0 0, held twice
/// by a list 1 (q: 0 1 0 1i).
#[no_mangle]
pub unsafe extern "C" fn refs(_: K) -> K {
    let y = ktn(qtype::LONG_LIST as I, 1);
    let a = (*y).refcount;
    r1(y);
    let b = (*y).refcount;
    r0(y);
    let c = (*y).refcount;
    let l = knk(2, r1(y), y);
    let d = (*y).refcount;
    r0(l);
    let v = ktn(qtype::INT_LIST as I, 4);
    v.as_mut_slice::<I>().copy_from_slice(&[a, b, c, d]);
    v
}
/// Answers its argument (a new reference to it): q sees x itself.
#[no_mangle]
pub unsafe extern "C" fn same(x: K) -> K {
    r1(x)
}

/// Interning: ss twice the same pointer; sn on a prefix; ks's symbol; a copy not the original
/// buffer (q: 1111b).
#[no_mangle]
pub unsafe extern "C" fn interned(_: K) -> K {
    let mut buf = *b"abcdef\0";
    let p = ss(s!("abc"));
    let r = [
        p == ss(s!("abc")),
        p == sn(buf.as_mut_ptr() as S, 3),
        {
            let x = ks(s!("abc"));
            let same = (*x).value.symbol == p;
            r0(x);
            same
        },
        ss(buf.as_mut_ptr() as S) != buf.as_mut_ptr() as S,
    ];
    let v = ktn(qtype::BOOL_LIST as I, 4);
    for (i, b) in r.iter().enumerate() {
        v.as_mut_slice::<G>()[i] = *b as G;
    }
    v
}

/// b9 (as -8!), d9 (as -9!), and the round trip d9 b9; okx of a message (1b) or not.
#[no_mangle]
pub unsafe extern "C" fn ser(x: K) -> K {
    b9(3, x)
}
#[no_mangle]
pub unsafe extern "C" fn deser(x: K) -> K {
    d9(x)
}
#[no_mangle]
pub unsafe extern "C" fn roundtrip(x: K) -> K {
    let b = b9(3, x);
    if b.is_null() {
        return b;
    }
    let r = d9(b);
    r0(b);
    r
}
#[no_mangle]
pub unsafe extern "C" fn isipc(x: K) -> K {
    kb(okx(x))
}

/// Dates: ymd 2000.01.01, 2024.02.29, 1999.12.31 and dj back (q: 0 8825 -1 20000101 20240229 19991231i).
#[no_mangle]
pub unsafe extern "C" fn dates(_: K) -> K {
    let v = ktn(qtype::INT_LIST as I, 6);
    let a = ymd(2000, 1, 1);
    let b = ymd(2024, 2, 29);
    let c = ymd(1999, 12, 31);
    v.as_mut_slice::<I>()
        .copy_from_slice(&[a, b, c, dj(a), dj(b), dj(c)]);
    v
}

/// setm answers the previous setting; m9 does nothing visible; ver is the release date as
/// yyyymmdd (KX: "Returns an int as yyyymmdd"), q's .z.k (q: 0 1i, then .z.k as yyyymmdd).
#[no_mangle]
pub unsafe extern "C" fn misc(_: K) -> K {
    let prev = setm(1);
    let now = setm(prev);
    m9();
    let r = [prev, now, ver()];
    let v = ktn(qtype::INT_LIST as I, r.len() as J);
    v.as_mut_slice::<I>().copy_from_slice(&r);
    v
}

/// Arity 3: x+y+z of longs; `mkdl` answers it as a q function made by dl.
#[no_mangle]
pub unsafe extern "C" fn add3(x: K, y: K, z: K) -> K {
    kj((*x).value.long + (*y).value.long + (*z).value.long)
}
#[no_mangle]
pub unsafe extern "C" fn mkdl(_: K) -> K {
    dl(add3 as *const V, 3)
}

/// sd1: `watch` registers the read end of a pipe with one byte written to it; the main loop
/// runs `on_ready`, which reads, counts, and unregisters (sd0 closes the read end). `fired[]`
/// answers the count. sd0x leaves a descriptor open (the write end is closed by us).
static FIRED: AtomicI64 = AtomicI64::new(0);
extern "C" fn on_ready(d: I) -> K {
    unsafe {
        let mut b = [0u8; 1];
        libc::read(d, b.as_mut_ptr() as *mut libc::c_void, 1);
        FIRED.fetch_add(1, Ordering::SeqCst);
        sd0(d);
    }
    KNULL
}
#[no_mangle]
pub unsafe extern "C" fn watch(_: K) -> K {
    let mut p = [0 as I; 2];
    if libc::pipe(p.as_mut_ptr()) != 0 {
        return orr(s!("pipe"));
    }
    let r = sd1(p[0], on_ready);
    if r.is_null() {
        return r;
    }
    // KX: "On success, sd1 returns a K object of type integer, containing d."
    let ok = t(r) == -qtype::INT_LIST && (*r).value.int == p[0];
    r0(r);
    if !ok {
        return krr(s!("sd1's answer is not the int d"));
    }
    libc::write(p[1], b"x".as_ptr() as *const libc::c_void, 1);
    sd0x(p[1], 0); // never registered: must be harmless and leave it open
    libc::close(p[1]);
    kb(1)
}
#[no_mangle]
pub unsafe extern "C" fn fired(_: K) -> K {
    kj(FIRED.load(Ordering::SeqCst))
}

/// Leaks one object on purpose (for the leak check's own test).
#[no_mangle]
pub unsafe extern "C" fn leak(_: K) -> K {
    ktn(qtype::LONG_LIST as I, 3);
    kb(1)
}

// ---- what KX documents that a lenient host would hide (tests/q/capi_strict.q, tests/capi.rs) --

/// Returns (K)0 with no error set: "If your C function, called from q, has nothing to return to
/// q, it can return (K)0" (KX, C client for q). q: `::`.
#[no_mangle]
pub unsafe extern "C" fn nothing(_: K) -> K {
    KNULL
}
/// KX's recipe for the generic null: `K id=ka(101); id->g=0;` (q: `::`).
#[no_mangle]
pub unsafe extern "C" fn identity(_: K) -> K {
    let x = ka(101);
    (*x).value.byte = 0;
    x
}
/// ka(101) with ->g never set: in strict mode the poisoned g is fatal.
#[no_mangle]
pub unsafe extern "C" fn badnull(_: K) -> K {
    ka(101)
}
/// ktn(0,2) with one item never set: in strict mode fatal when q reads it.
#[no_mangle]
pub unsafe extern "C" fn halflist(_: K) -> K {
    let x = ktn(0, 2);
    *(x.as_mut_slice::<K>().as_mut_ptr()) = kj(1);
    x
}
/// Whether ka/ktn hand out poisoned memory (strict) : the first byte of an atom's value and of a
/// vector's data, before they are set (q's pool gives whatever was there).
#[no_mangle]
pub unsafe extern "C" fn fresh(_: K) -> K {
    let a = ka(-(qtype::LONG_LIST as I));
    let v = ktn(qtype::LONG_LIST as I, 1);
    let l = ktn(0, 1);
    let r = ktn(qtype::BYTE_LIST as I, 3);
    let out = r.as_mut_slice::<G>();
    out[0] = (*a).value.byte;
    out[1] = *(v.as_mut_slice::<G>().as_ptr());
    out[2] = *(l.as_mut_slice::<G>().as_ptr());
    // set before r0, as KX asks
    *(l.as_mut_slice::<K>().as_mut_ptr()) = kj(0);
    r0(a);
    r0(v);
    r0(l);
    r
}

/// krr with a message in a buffer freed before the return: KX "As krr records only the passed
/// pointer, you should ensure that the string remains valid after the return" - this breaks it
/// on purpose (strict mode makes the text come out garbled).
#[no_mangle]
pub unsafe extern "C" fn krrtemp(_: K) -> K {
    let m = std::ffi::CString::new("a temporary message that dies with the call").unwrap();
    let r = krr(m.as_ptr() as S);
    drop(m);
    r
}
/// krr with a message that outlives the call, distinct per call (x: a long), in a thread-local
/// buffer reused by the next error, as KX recommends: q's symbol table must not grow with it.
#[no_mangle]
pub unsafe extern "C" fn krrbuf(x: K) -> K {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let p = BUF.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.extend_from_slice(format!("error number {}", (*x).value.long).as_bytes());
        b.push(0);
        b.as_ptr()
    });
    krr(p as S)
}
/// orr with a 300-character message: "the total message size (including both user and system
/// error) is limited to 255 characters and is truncated" (q: a 255-character error).
#[no_mangle]
pub unsafe extern "C" fn orrlong(_: K) -> K {
    libc::open(s!("/nonexistent/qhost-testext"), libc::O_RDONLY);
    let m = std::ffi::CString::new("x".repeat(300)).unwrap();
    let r = orr(m.as_ptr() as S);
    drop(m); // orr copied it: "copied to a static, thread-local buffer"
    r
}
/// krr then a valid pointer: KX "Do not call krr() and then return a valid pointer!" (strict:
/// an error saying so).
#[no_mangle]
pub unsafe extern "C" fn krrvalue(_: K) -> K {
    krr(s!("left behind"));
    kj(1)
}
/// dot fails and the error is never taken with ee: it stays pending (strict: the next call of
/// an extension reports it).
#[no_mangle]
pub unsafe extern "C" fn dotnoee(f: K, x: K) -> K {
    let args = knk(1, r1(x));
    let r = dot(f, args);
    r0(args);
    kb(r.is_null() as I)
}
/// vi: item j as a new reference (out of range: the null of the first item's type); vk:
/// collapse a general list. (q: (20;0N;1 2 3;([]a:1 2)))
#[no_mangle]
pub unsafe extern "C" fn vivk(x: K) -> K {
    let a = vi(x, 1);
    let b = vi(x, 99);
    let c = vk(knk(3, kj(1), kj(2), kj(3)));
    let d1 = xD(knk(1, ks(s!("a"))).pipe_syms(), knk(1, kj(1)).pipe_longs());
    let d2 = xD(knk(1, ks(s!("a"))).pipe_syms(), knk(1, kj(2)).pipe_longs());
    let d = vk(knk(2, d1, d2));
    knk(4, a, b, c, d)
}
trait Pipe {
    unsafe fn pipe_syms(self) -> K;
    unsafe fn pipe_longs(self) -> K;
}
impl Pipe for K {
    /// a one-item general list of a symbol atom as a symbol vector
    unsafe fn pipe_syms(self) -> K {
        let v = ktn(qtype::SYMBOL_LIST as I, 1);
        v.as_mut_slice::<S>()[0] = (*self.as_mut_slice::<K>()[0]).value.symbol;
        r0(self);
        v
    }
    unsafe fn pipe_longs(self) -> K {
        let v = ktn(qtype::LONG_LIST as I, 1);
        v.as_mut_slice::<J>()[0] = (*self.as_mut_slice::<K>()[0]).value.long;
        r0(self);
        v
    }
}

/// k(0,..) from a thread q did not start: "only q's main thread" (strict: fatal). Answers the
/// error text the call got.
#[no_mangle]
pub unsafe extern "C" fn kthread(_: K) -> K {
    let text = std::thread::spawn(|| unsafe {
        let r = k(0, s!("1+1"), KNULL);
        let m = if t(r) == qtype::ERROR {
            text(r)
        } else {
            String::from("no error")
        };
        r0(r);
        m
    })
    .join()
    .unwrap();
    let c = std::ffi::CString::new(text).unwrap();
    kp(c.as_ptr() as S)
}
/// k(0,"x+1",x): on a peach secondary thread q forbids it (strict: fatal); on the main thread it
/// answers x+1.
#[no_mangle]
pub unsafe extern "C" fn kcall(x: K) -> K {
    let r = k(0, s!("{x+1}"), r1(x), KNULL);
    err_text(r)
}
/// Atoms made and freed on a peach secondary thread (allowed: each thread has its own pool).
#[no_mangle]
pub unsafe extern "C" fn sq(x: K) -> K {
    kj((*x).value.long * (*x).value.long)
}
/// krr with a message in this call's stack frame (gone when it returns): another way to break
/// "the string remains valid after the return"; strict mode overwrites the stack it was on.
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn krrstack(_: K) -> K {
    let mut buf = [0u8; 64];
    let m = b"a message on the stack of the call";
    buf[..m.len()].copy_from_slice(m);
    let r = krr(std::hint::black_box(&mut buf).as_mut_ptr() as S);
    std::hint::black_box(&buf);
    r
}

//! The k.h API as an extension sees it: build qhost/testext (a kdbplus `api` cdylib), load it
//! with `2:`'s loader into this test process (linked like the qhost binary, so it exports k.h)
//! and check what each function answers; then run tests/q/capi.q through the qhost binary
//! with the leak check (qscripts.rs runs it without), and tests/q/capi/leak.q, which must fail it.
// An argument is its own reference (`x.clone()`), as q hands a function one it holds: the
// reference counts an extension sees stay as in q, which a borrowed slice would change.
#![allow(clippy::cloned_ref_to_slice_refs)]
#[path = "qhome/mod.rs"]
mod qhome;

use std::path::Path;
use std::time::Duration;

use qhost::kapi::dynload::load;
use qhost::kapi::exports::{call_dl, poll_fds, registered_fds};
use qhost::kapi::func::Func;
use qhost::kapi::*;

/// The folder holding testext.so (built on first use).
fn testext_dir() -> &'static Path {
    qhome::testext()
}

/// `` `:dir/testext 2:(`name;n) ``.
fn ext(name: &str, n: i64) -> KObj {
    let lib = KObj::sym(&format!(":{}/testext", testext_dir().display()));
    load(&lib, &KObj::list(vec![KObj::sym(name), KObj::long(n)])).expect(name)
}

/// Apply a loaded function (type 112) to arguments.
#[allow(irrefutable_let_patterns)] // Func gains variants as the evaluator grows
fn call(f: &KObj, args: &[KObj]) -> Result<KObj, String> {
    assert_eq!(f.t(), FN_DL);
    let Func::Dl { ptr, n } = f.func_ref() else {
        panic!("not a dl function")
    };
    call_dl(*ptr, *n, args).map_err(|e| e.0)
}
fn call0(name: &str) -> KObj {
    call(&ext(name, 1), &[KObj::identity()]).expect(name)
}

fn longs(x: &KObj) -> Vec<i64> {
    x.slice::<i64>().to_vec()
}
fn ints(x: &KObj) -> Vec<i32> {
    x.slice::<i32>().to_vec()
}

/// Everything in one test: the pending error and the live-object count are process-wide.
#[test]
fn api_in_process() {
    // this test's thread is q's main thread for the API (k(0,..) is allowed only there)
    qhost::kapi::threads::claim_main();
    let base = live_objects();
    check_loader_errors();
    check_atoms();
    check_vectors();
    check_dicts();
    check_errors();
    check_refs_and_symbols();
    check_serialization();
    check_misc();
    check_fd_loop();
    unsafe { check_direct() };
    assert_eq!(live_objects(), base, "K objects leaked by the checks");
    // Last: ktorch may keep objects of its own for the process.
    check_ktorch_loads();
}

/// When the release ktorch library is built, it loads here (its k.h imports resolve against
/// ours at RTLD_NOW) and `fns[]` answers the dictionary of its functions.
fn check_ktorch_loads() {
    let so = qhome::repo_root().join("target/release/libktorch.so");
    if !so.is_file() {
        eprintln!(
            "note: {} not built; ktorch load check skipped",
            so.display()
        );
        return;
    }
    let lib = KObj::sym(&format!(":{}", so.display()));
    let fns = load(&lib, &KObj::list(vec![KObj::sym("fns"), KObj::long(1)])).expect("ktorch loads");
    let d = call(&fns, &[KObj::identity()]).expect("fns[]");
    assert_eq!(d.t(), XD);
    assert!(!d.dict_keys().is_empty());
    assert!(d.dict_values().items().iter().all(|f| f.t() == FN_DL));
}

fn check_loader_errors() {
    let spec = KObj::list(vec![KObj::sym("atoms"), KObj::long(1)]);
    let e = load(&KObj::sym("nosuchlib_qhost"), &spec).unwrap_err();
    assert_eq!(
        e.0,
        "nosuchlib_qhost.so: cannot open shared object file: No such file or directory"
    );
    let lib = KObj::sym(&format!(":{}/testext", testext_dir().display()));
    let e = load(
        &lib,
        &KObj::list(vec![KObj::sym("nosuchfn"), KObj::long(1)]),
    )
    .unwrap_err();
    assert!(e.0.ends_with("undefined symbol: nosuchfn"), "{}", e.0);
    assert_eq!(
        load(&lib, &KObj::list(vec![KObj::sym("atoms"), KObj::long(9)]))
            .unwrap_err()
            .0,
        "rank"
    );
    // Rank mismatch when applying.
    assert_eq!(call(&ext("add3", 3), &[KObj::long(1)]).unwrap_err(), "rank");
}

fn check_atoms() {
    let a = call0("atoms");
    let types: Vec<i8> = a.items().iter().map(|x| x.t()).collect();
    assert_eq!(
        types,
        [-1, -2, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19]
    );
    let it = a.items();
    assert!(it[0].get_bool());
    let g = unsafe { std::slice::from_raw_parts(data::<u8>(it[1].as_ptr()), 16) };
    assert_eq!(g, (0u8..16).collect::<Vec<_>>().as_slice());
    assert_eq!(it[2].get_byte(), 0x12);
    assert_eq!(it[3].get_short(), 3);
    assert_eq!(it[4].get_int(), 4);
    assert_eq!(it[5].get_long(), 5);
    assert_eq!(it[6].get_real(), 6.5);
    assert_eq!(it[7].get_float(), 7.25);
    assert_eq!(it[8].get_byte(), b'a');
    assert_eq!(it[9].get_sym(), "sym");
    assert_eq!(it[10].get_long(), 1);
    assert_eq!(it[11].get_int(), 2);
    assert_eq!(it[12].get_int(), 3);
    assert_eq!(it[13].get_float(), 4.5);
    assert_eq!(it[14].get_long(), 5);
    assert_eq!(
        (it[15].get_int(), it[16].get_int(), it[17].get_int()),
        (6, 7, 8)
    );
}

fn check_vectors() {
    let v = call0("vectors").items();
    assert_eq!(ints(&v[0]), [1, 2, 3]);
    assert_eq!(v[1].sym_list(), ["a", "b"]);
    assert!(v[1].sym_list_ptrs_interned());
    assert_eq!(v[2].t(), 0);
    assert_eq!(v[2].item(0).get_long(), 1);
    assert_eq!(v[2].item(1).as_string(), "xy");
    assert_eq!(longs(&v[3]), [10, 20, 30]);
    assert_eq!(v[4].as_string(), "hello");
    assert_eq!(v[5].slice::<f64>(), [1.5, 2.5, 3.5]);
}

/// Symbols in a vector are the interned pointers (compare by identity).
trait Interned {
    fn sym_list_ptrs_interned(&self) -> bool;
}
impl Interned for KObj {
    fn sym_list_ptrs_interned(&self) -> bool {
        self.slice::<*const libc::c_char>()
            .iter()
            .all(|&p| p == sym::intern(sym::text(p).as_bytes()))
    }
}

fn check_dicts() {
    let r = call0("dicts").items();
    let d = &r[0];
    assert_eq!(d.t(), XD);
    assert_eq!(d.dict_keys().sym_list(), ["a", "b"]);
    assert_eq!(ints(&d.dict_values()), [1, 2]);
    let t = &r[1];
    assert_eq!(t.t(), XT);
    assert_eq!(t.len(), 3);
    let td = t.table_dict();
    assert_eq!(td.dict_keys().sym_list(), ["x", "y"]);
    assert_eq!(longs(&td.dict_values().item(0)), [1, 2, 3]);
    assert_eq!(td.dict_values().item(1).sym_list(), ["p", "q", "r"]);
    let kt = &r[2];
    assert_eq!(kt.t(), XD);
    assert_eq!(kt.dict_keys().t(), XT);
    assert_eq!(kt.dict_keys().table_dict().dict_keys().sym_list(), ["x"]);
    assert_eq!(kt.dict_values().table_dict().dict_keys().sym_list(), ["y"]);
    let u = &r[3];
    assert_eq!(u.t(), XT);
    assert_eq!(u.table_dict().dict_keys().sym_list(), ["x", "y"]);
    assert_eq!(longs(&u.table_dict().dict_values().item(0)), [1, 2, 3]);
}

fn check_errors() {
    assert_eq!(
        call(&ext("fail", 1), &[KObj::long(0)]).unwrap_err(),
        "custom"
    );
    assert_eq!(
        call(&ext("oserr", 1), &[KObj::long(0)]).unwrap_err(),
        "open. OS reports: No such file or directory"
    );
    let t = call0("trap").items();
    assert_eq!(t[0].get_short(), -128);
    assert_eq!(t[1].as_string(), "trapped");
    assert_eq!(t[2].get_long(), 42);
    // Without an interpreter callbacks answer q's errors as error objects, never crash. With
    // one (colleague A's eval), tests/q/capi.q checks the values.
    let c = call(&ext("callback", 1), &[KObj::long(21)]).unwrap();
    assert_eq!(c.len(), 3);
}

fn check_refs_and_symbols() {
    assert_eq!(ints(&call0("refs")), [0, 1, 0, 1]);
    let x = KObj::from_slice(KJ, &[1i64, 2]);
    let before = x.refcount();
    let y = call(&ext("same", 1), &[x.clone()]).unwrap();
    assert!(y.same(&x));
    assert_eq!(x.refcount(), before + 1);
    drop(y);
    assert_eq!(x.refcount(), before);
    assert_eq!(call0("interned").slice::<u8>(), [1, 1, 1, 1]);
}

fn check_serialization() {
    let ser = ext("ser", 1);
    // -8!1 in q: 0x0100000011000000f90100000000000000
    let b = call(&ser, &[KObj::long(1)]).unwrap();
    assert_eq!(
        b.slice::<u8>(),
        [1, 0, 0, 0, 17, 0, 0, 0, 0xf9, 1, 0, 0, 0, 0, 0, 0, 0]
    );
    // -8!`a`b: 0x0100000012000000 0b00 02000000 6100 6200
    let b = call(&ser, &[KObj::syms(&["a", "b"])]).unwrap();
    assert_eq!(
        b.slice::<u8>(),
        [1, 0, 0, 0, 18, 0, 0, 0, 11, 0, 2, 0, 0, 0, b'a', 0, b'b', 0]
    );
    let rt = ext("roundtrip", 1);
    let values = vec![
        KObj::long(7),
        KObj::sym("x"),
        KObj::guid([7; 16]),
        KObj::string("hello"),
        KObj::syms(&["a", "bc"]),
        KObj::list(vec![KObj::long(1), KObj::string("xy"), KObj::list(vec![])]),
        KObj::dict(KObj::syms(&["a"]), KObj::from_slice(KF, &[1.5f64])),
        call0("dicts"),
        KObj::identity(),
    ];
    for v in values {
        let a = call(&ser, &[v.clone()]).unwrap();
        let back = call(&rt, &[v.clone()]).unwrap();
        let b = call(&ser, &[back]).unwrap();
        assert_eq!(a.slice::<u8>(), b.slice::<u8>(), "round trip of {v:?}");
        assert!(call(&ext("isipc", 1), &[a.clone()]).unwrap().get_bool());
        let cut = KObj::from_slice(KG, &a.slice::<u8>()[..a.len() as usize - 1]);
        assert!(!call(&ext("isipc", 1), &[cut.clone()]).unwrap().get_bool());
        assert_eq!(call(&ext("deser", 1), &[cut]).unwrap_err(), "badmsg");
    }
    // A compressed message (-18!1000#0x01 from q, kdb+ 3.x) decompresses.
    let comp = compressed_sample();
    let v = call(&ext("deser", 1), &[comp]).unwrap();
    assert_eq!(v.t(), KG);
    assert_eq!(v.len(), 1000);
    assert!(v.slice::<u8>().iter().all(|&b| b == 1));
}

/// A compressed message built by the kdb+ scheme for 1000#0x01 (header, total, then flagged
/// items), made by hand: literal type/attr/count, literal 2 bytes of data, then back-references.
fn compressed_sample() -> KObj {
    // Uncompressed: 8 header + 1 type + 1 attr + 4 count + 1000 bytes = 1014.
    let mut body: Vec<u8> = Vec::new();
    let total: u32 = 1014;
    // Items: [4, 0, e8, 03, 00, 00, 01, 01] as 8 literals (flag 0), then back-refs to the pair
    // (01 01), whose hash index is 01^01 = 0, each copying 2 + 255 bytes.
    body.push(0);
    body.extend_from_slice(&[4, 0, 0xe8, 3, 0, 0, 1, 1]);
    let mut left = 1000 - 2;
    let mut items: Vec<(u8, u8)> = Vec::new();
    while left > 0 {
        let n = (left - 2).min(255);
        items.push((0, n as u8));
        left -= 2 + n;
        if left == 1 {
            unreachable!("sample sizes avoid a lone byte");
        }
    }
    for chunk in items.chunks(8) {
        body.push(((1u32 << chunk.len()) - 1) as u8);
        for (idx, n) in chunk {
            body.extend_from_slice(&[*idx, *n]);
        }
    }
    let mut msg = vec![1u8, 0, 1, 0];
    let len = (8 + 4 + body.len()) as u32;
    msg.extend_from_slice(&len.to_le_bytes());
    msg.extend_from_slice(&total.to_le_bytes());
    msg.extend_from_slice(&body);
    KObj::from_slice(KG, &msg)
}

fn check_misc() {
    assert_eq!(
        ints(&call0("dates")),
        [0, 8825, -1, 20000101, 20240229, 19991231]
    );
    // KX: ver "Returns an int as yyyymmdd" (qhost's release date, its .z.k 2024.10.01)
    assert_eq!(ints(&call0("misc")), [0, 1, 20241001]);
    let f = call0("mkdl");
    assert_eq!(f.t(), FN_DL);
    let r = call(&f, &[KObj::long(1), KObj::long(2), KObj::long(3)]).unwrap();
    assert_eq!(r.get_long(), 6);
}

/// Edge cases called directly (as an extension would), not through testext.
unsafe fn check_direct() {
    use qhost::kapi::exports as x;
    // jv of a list onto itself (realloc must not read freed memory); general lists r1 items.
    let mut v = x::ktn(KJ as i32, 2);
    *data::<i64>(v) = 1;
    *data::<i64>(v).add(1) = 2;
    x::jv(&mut v, v);
    assert_eq!(KObj::from_raw(v).map(|v| longs(&v)).unwrap(), [1, 2, 1, 2]);
    let mut g = x::qhost_knk(1, [x::kj(5)].as_ptr());
    let h = x::qhost_knk(1, [x::kp(c"s".as_ptr())].as_ptr());
    x::jv(&mut g, h);
    assert_eq!((*(*data::<K>(h))).r, 1, "jv shares y's items");
    x::r0(h);
    x::r0(g);
    // jv of mismatched types: (K)0, 'type pending, *x untouched.
    let mut a = x::ktn(KJ as i32, 0);
    let b = x::ktn(KI as i32, 1);
    assert!(x::jv(&mut a, b).is_null());
    assert_eq!(x::take_error().as_deref(), Some("type"));
    x::r0(a);
    x::r0(b);
    // xT of a bad dict consumes it and signals; ktd of a simple table answers it; knt errors.
    assert!(x::xT(x::xD(x::ktn(KS as i32, 0), x::ktn(KJ as i32, 0))).is_null());
    assert_eq!(x::take_error().as_deref(), Some("type"));
    let t = call0("dicts").item(1).into_raw();
    let t2 = x::ktd(t);
    assert_eq!(t2, t);
    assert!(x::knt(5, t2).is_null());
    assert_eq!(x::take_error().as_deref(), Some("length"));
    // ee passes a value through; krr answers (K)0 and keeps only the pointer (nothing is
    // interned: the symbol count stays); ee's error object holds the text.
    let j = x::kj(3);
    assert_eq!(x::ee(j), j);
    x::r0(j);
    let syms = qhost::kapi::sym::stats().0;
    let msg = c"m1 never interned";
    assert!(x::krr(msg.as_ptr()).is_null());
    let e = x::ee(std::ptr::null_mut());
    assert_eq!((*e).t, ERR);
    assert_eq!(
        std::ffi::CStr::from_ptr(*atom::<*const libc::c_char>(e)),
        msg
    );
    x::r0(e);
    assert_eq!(qhost::kapi::sym::stats().0, syms, "krr/ee intern nothing");
    assert_eq!(x::take_error(), None, "ee clears the error");
    // ee of (K)0 with nothing pending: an error object whose s is NULL (KX: "the error string
    // pointer (x->s) may also be NULL")
    let e = x::ee(std::ptr::null_mut());
    assert_eq!(
        ((*e).t, (*atom::<*const libc::c_char>(e)).is_null()),
        (ERR, true)
    );
    x::r0(e);
    // k on a handle other than 0 (IPC) answers an error object and releases the arguments.
    let e = x::qhost_k(5, c"f".as_ptr(), [x::kj(1)].as_ptr(), 1);
    assert_eq!((*e).t, ERR);
    x::r0(e);
    // sd1 on a closed descriptor: (K)0 with the error pending.
    extern "C" fn cb(_: i32) -> K {
        std::ptr::null_mut()
    }
    // KX: "On error, NULL is returned and d is closed."
    assert!(x::sd1(1_000_000, Some(cb)).is_null());
    assert!(x::take_error()
        .unwrap()
        .starts_with("sd1: bad file descriptor"));
    // ku keeps its 16 bytes at offset 16 (a one-item vector's layout), ka(-2) likewise.
    let u = x::ku(x::U { g: [9; 16] });
    assert_eq!(((*u).n, *data::<u8>(u).add(15)), (1, 9));
    x::r0(u);
    // kpn copies exactly n bytes; sn interns a prefix.
    let s = KObj::from_raw(x::kpn(c"abcdef".as_ptr(), 3)).unwrap();
    assert_eq!(s.as_string(), "abc");
    assert_eq!(x::sn(c"abcdef".as_ptr(), 3), x::ss(c"abc".as_ptr()));
}

fn check_fd_loop() {
    assert_eq!(call0("fired").get_long(), 0);
    assert!(call0("watch").get_bool());
    assert_eq!(registered_fds().len(), 1);
    assert_eq!(poll_fds(1000), 1);
    assert_eq!(call0("fired").get_long(), 1);
    assert!(
        registered_fds().is_empty(),
        "the callback's sd0 unregistered it"
    );
    assert_eq!(poll_fds(0), 0);
}

/// A script through the qhost binary (testext in QHOME/l64), optionally with the leak check.
fn run_script(script: &str, leakcheck: bool) -> qhome::Run {
    testext_dir();
    let env: &[(&str, &str)] = if leakcheck {
        &[("QHOST_LEAKCHECK", "1"), ("QHOST_STRICT", "1")]
    } else {
        &[("QHOST_STRICT", "1")]
    };
    qhome::run_qhost(script, env, Duration::from_secs(300))
}

#[test]
fn capi_q_script_leaks_nothing() {
    let r = run_script("tests/q/capi.q", true);
    assert_eq!(
        r.code,
        Some(0),
        "tests/q/capi.q under QHOST_LEAKCHECK=1:\n{}\n{}",
        r.stdout,
        r.stderr
    );
    assert!(r.stdout.contains(" passed, 0 failed"), "{}", r.stdout);
    assert!(!r.stderr.contains("leak check"), "{}", r.stderr);
}

#[test]
fn leak_check_reports_a_leak() {
    let r = run_script("tests/q/capi/leak.q", true);
    assert!(
        r.stdout.contains("1 passed, 0 failed"),
        "the script itself must pass:\n{}\n{}",
        r.stdout,
        r.stderr
    );
    assert_ne!(
        r.code,
        Some(0),
        "a leaking extension must fail the leak check:\n{}",
        r.stderr
    );
    assert!(r.stderr.contains("leak check: 1 K objects"), "{}", r.stderr);
}

/// The qhost binary exports exactly q's k.h functions: KX's capiref lists khp, khpu, khpun,
/// khpunc and kclose under "Standalone applications" (c.o only, so an extension using them does
/// not load into q), and vi, vk as q's own ("Available within shared library only").
#[test]
fn exports_are_qs() {
    let out = std::process::Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(env!("CARGO_BIN_EXE_qhost"))
        .output()
        .expect("nm runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let names: std::collections::BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|n| !n.starts_with('_') && !n.contains('@'))
        .collect();
    let expected: std::collections::BTreeSet<&str> = [
        "ka", "kb", "ku", "kg", "kh", "ki", "kj", "ke", "kf", "kc", "ks", "ktj", "kd", "kz", "kt",
        "knk", "ktn", "kp", "kpn", "ktd", "knt", "krr", "orr", "ja", "jv", "jk", "js", "sn", "ss",
        "ee", "k", "b9", "d9", "sd0", "sd0x", "sd1", "r0", "r1", "dot", "m9", "setm", "dl", "ymd",
        "dj", "xD", "xT", "vak", "vaknk", "okx", "ver", "vi", "vk",
    ]
    .into_iter()
    .collect();
    let stray: Vec<_> = names.difference(&expected).collect();
    let missing: Vec<_> = expected.difference(&names).collect();
    assert!(
        stray.is_empty() && missing.is_empty(),
        "stray {stray:?}, missing {missing:?}"
    );
}

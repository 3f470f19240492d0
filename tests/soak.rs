//! Soak (issue #10): a million tensor create/use/free cycles, thousands of module and model
//! cycles, with the process's resident memory read before and after. A leak of one tensor or one
//! K object per cycle would show as tens or hundreds of megabytes; the bound below is far under
//! that and far over what the allocators keep for reuse. Afterwards ktorch holds no object and
//! every K object the test made is freed (qhost's live count is back where it started).
//!
//! Entry points are called in-process through `ktorch::fns::TABLE`, as q calls them, with
//! qhost's k.h API linked in. `make soak` runs this test alone and prints the measures: about
//! 6 s in release on 2 shared cores (the million tensor cycles 4.8 s), resident growth 0.0 MB;
//! a trial leaking a third of the tensor cycles grew 213 MB.
// This test plays q: it calls k.h and ktorch's C entry points directly, on values it makes,
// as src/k does and under src/k's invariant (every K is a live q value made here), which
// stands for a SAFETY comment on each block.
#![allow(clippy::undocumented_unsafe_blocks)]
use kdbplus::api::{native, K};
use std::ffi::CString;
use std::time::Instant;

// Link qhost's k.h exports into this test binary.
use qhost as _;

const TENSOR_CYCLES: usize = 1_000_000;
const MODULE_CYCLES: usize = 3_000;
const MODEL_CYCLES: usize = 2_000;
/// Resident growth allowed over the whole soak: a leaked 4-float tensor per cycle would be
/// well over 100 MB for the tensor cycles alone.
const GROWTH_BOUND_MB: f64 = 32.0;

/// The C entry point of q function `name` (all take one argument: several arrive as a list).
fn func(name: &str) -> extern "C" fn(K) -> K {
    let e = ktorch::fns::TABLE
        .iter()
        .find(|e| e.name == name)
        .expect("function in fns");
    e.one().expect("{name}: one argument")
}

/// The data of a K vector, typed.
fn data<T>(x: K, n: usize) -> &'static mut [T] {
    unsafe { std::slice::from_raw_parts_mut((x as *mut u8).add(16) as *mut T, n) }
}
fn len(x: K) -> usize {
    unsafe { *((x as *const u8).add(8) as *const i64) as usize }
}
fn ktype(x: K) -> i8 {
    unsafe { *(x as *const i8).add(2) }
}

fn floats(v: &[f64]) -> K {
    let x = unsafe { native::ktn(9, v.len() as i64) };
    data::<f64>(x, v.len()).copy_from_slice(v);
    x
}
fn reals(v: &[f32]) -> K {
    let x = unsafe { native::ktn(8, v.len() as i64) };
    data::<f32>(x, v.len()).copy_from_slice(v);
    x
}
fn longs(v: &[i64]) -> K {
    let x = unsafe { native::ktn(7, v.len() as i64) };
    data::<i64>(x, v.len()).copy_from_slice(v);
    x
}
fn sym(s: &str) -> K {
    let c = CString::new(s).unwrap();
    unsafe { native::ks(c.as_ptr() as *mut _) }
}
fn long(j: i64) -> K {
    unsafe { native::kj(j) }
}
fn float(f: f64) -> K {
    unsafe { native::kf(f) }
}
/// A general list owning `items`.
fn list(items: Vec<K>) -> K {
    let x = unsafe { native::ktn(0, items.len() as i64) };
    data::<K>(x, items.len()).copy_from_slice(&items);
    x
}
/// A new reference to `x`, for a list that will own it while the caller keeps its own.
fn r1(x: K) -> K {
    unsafe { native::r1(x) }
}
fn r0(x: K) {
    unsafe { native::r0(x) };
}

/// Call `f` on `x` (borrowed, as q lends its arguments) and insist on a result, not an error.
fn call(f: extern "C" fn(K) -> K, what: &str, x: K) -> K {
    let r = f(x);
    assert!(!r.is_null() && ktype(r) != -128, "{what} failed");
    r
}

/// Resident memory in MB, from /proc/self/statm (second field, in pages).
fn rss_mb() -> f64 {
    let s = std::fs::read_to_string("/proc/self/statm").expect("statm");
    let pages: f64 = s
        .split_whitespace()
        .nth(1)
        .expect("resident field")
        .parse()
        .expect("pages");
    pages * unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as f64 / 1048576.0
}

struct Fns {
    tensor: extern "C" fn(K) -> K,
    free: extern "C" fn(K) -> K,
    add: extern "C" fn(K) -> K,
    mul: extern "C" fn(K) -> K,
    module: extern "C" fn(K) -> K,
    forward: extern "C" fn(K) -> K,
    loss: extern "C" fn(K) -> K,
    opt: extern "C" fn(K) -> K,
    model: extern "C" fn(K) -> K,
    train: extern "C" fn(K) -> K,
    run: extern "C" fn(K) -> K,
}

impl Fns {
    fn new() -> Fns {
        Fns {
            tensor: func("tensor"),
            free: func("free"),
            add: func("add"),
            mul: func("mul"),
            module: func("module"),
            forward: func("forward"),
            loss: func("loss"),
            opt: func("opt"),
            model: func("model"),
            train: func("train"),
            run: func("run"),
        }
    }
    fn free(&self, h: K) {
        // free answers (K)0 as ktorch's Free does: a failure is the error it leaves pending
        let r = (self.free)(h);
        if let Some(e) = qhost::kapi::exports::take_error() {
            panic!("free failed: {e}");
        }
        r0(r);
        r0(h);
    }
}

/// One tensor cycle, varied by `i`: q floats to a tensor and back; with an add or a multiply
/// between; a tensor made from a tensor-op result's handle kept and freed in the other order.
fn tensor_cycle(f: &Fns, i: usize) {
    let b = i as f64;
    let x = floats(&[b, b + 1.0, b + 2.0, b + 3.0]);
    let h = call(f.tensor, "tensor", x);
    match i % 3 {
        0 => {
            let back = call(f.tensor, "tensor", h);
            assert_eq!(data::<f64>(back, len(back))[3], b + 3.0, "cycle {i}");
            r0(back);
            f.free(h);
        }
        1 => {
            let args = list(vec![r1(h), r1(h)]);
            let s = call(f.add, "add", args);
            let back = call(f.tensor, "tensor", s);
            assert_eq!(data::<f64>(back, len(back))[0], 2.0 * b, "cycle {i}");
            r0(back);
            r0(args);
            f.free(h);
            f.free(s);
        }
        _ => {
            let args = list(vec![r1(h), float(0.5)]);
            let p = call(f.mul, "mul", args);
            r0(args);
            f.free(h);
            let back = call(f.tensor, "tensor", p);
            assert_eq!(
                data::<f64>(back, len(back))[2],
                0.5 * (b + 2.0),
                "cycle {i}"
            );
            r0(back);
            f.free(p);
        }
    }
    r0(x);
}

/// `seq(`sequential;(`linear;4;8);`relu;(`linear;8;3))`: the definition every module and model
/// cycle makes (made by ktorch's `seq`, as a q user would).
fn spec() -> K {
    let tree = list(vec![
        sym("sequential"),
        list(vec![sym("linear"), long(4), long(8)]),
        sym("relu"),
        list(vec![sym("linear"), long(8), long(3)]),
    ]);
    let s = call(func("seq"), "seq", tree);
    r0(tree);
    s
}

/// 12 x 4 real inputs and 12 class targets.
fn xy() -> (K, K) {
    let rows: Vec<K> = (0..12)
        .map(|i| {
            let b = i as f32 / 12.0;
            reals(&[b, 1.0 - b, b * b, 0.5 - b])
        })
        .collect();
    (
        list(rows),
        longs(&(0..12).map(|i| i % 3).collect::<Vec<_>>()),
    )
}

/// Make the module, run a forward pass, read its output, free both.
fn module_cycle(f: &Fns, spec: K, x: K) {
    let m = call(f.module, "module", spec);
    let args = list(vec![r1(m), r1(x)]);
    let y = call(f.forward, "forward", args);
    r0(args);
    let out = call(f.tensor, "tensor", y);
    assert_eq!(len(out), 12, "12 output rows");
    r0(out);
    f.free(y);
    f.free(m);
}

/// Make module, loss and optimizer, a model of them, give it the data, train one epoch (one
/// batch: the batch size is above the data size), free the model (which frees its parts).
fn model_cycle(f: &Fns, spec: K, x: K, y: K) {
    let q = call(f.module, "module", spec);
    let ce = sym("ce");
    let l = call(f.loss, "loss", ce);
    r0(ce);
    let oargs = list(vec![sym("sgd"), r1(q), float(0.1)]);
    let o = call(f.opt, "opt", oargs);
    r0(oargs);
    let margs = list(vec![q, l, o]);
    let m = call(f.model, "model", margs);
    r0(margs);
    let targs = list(vec![r1(m), r1(x), r1(y)]);
    r0(call(f.train, "train", targs));
    r0(targs);
    let loss = call(f.run, "run", m);
    assert_eq!(ktype(loss), -8, "run gives the mean loss, a real");
    r0(loss);
    f.free(m);
}

fn objects() -> usize {
    ktorch::registry::list().len()
}

#[test]
fn soak_frees_everything() {
    let f = Fns::new();
    let live0 = qhost::kapi::live_objects();
    let spec = spec();
    let (x, y) = xy();

    // Warm up: the allocators' pools, libtorch's lazy initialisation, the registry's map.
    for i in 0..5_000 {
        tensor_cycle(&f, i);
    }
    for _ in 0..100 {
        module_cycle(&f, spec, x);
        model_cycle(&f, spec, x, y);
    }
    assert_eq!(objects(), 0, "warm-up left objects");
    let before = rss_mb();

    let t = Instant::now();
    for i in 0..TENSOR_CYCLES {
        tensor_cycle(&f, i);
    }
    let t_tensor = t.elapsed().as_secs_f64();
    let after_tensor = rss_mb();
    let t = Instant::now();
    for _ in 0..MODULE_CYCLES {
        module_cycle(&f, spec, x);
    }
    let t_module = t.elapsed().as_secs_f64();
    let t = Instant::now();
    for _ in 0..MODEL_CYCLES {
        model_cycle(&f, spec, x, y);
    }
    let t_model = t.elapsed().as_secs_f64();
    let after = rss_mb();

    println!(
        "soak: {TENSOR_CYCLES} tensor cycles {t_tensor:.1}s, {MODULE_CYCLES} module cycles \
         {t_module:.1}s, {MODEL_CYCLES} model cycles {t_model:.1}s"
    );
    println!(
        "soak: resident {before:.1} MB before, {after_tensor:.1} MB after the tensor cycles, \
         {after:.1} MB after all; growth {:.1} MB (bound {GROWTH_BOUND_MB} MB)",
        after - before
    );
    assert_eq!(objects(), 0, "ktorch objects left");
    for k in [spec, x, y] {
        r0(k);
    }
    assert_eq!(qhost::kapi::live_objects(), live0, "K objects left");
    assert!(
        after - before < GROWTH_BOUND_MB,
        "resident memory grew {:.1} MB",
        after - before
    );
}

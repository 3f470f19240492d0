//! ktorch called from several threads at once, as q's `peach` does with secondary threads
//! (`q -s N`): the registry is behind a lock and every entry point only touches the K objects it
//! is given, so concurrent calls must neither crash nor mix up handles. qhost's lib provides the
//! k.h API in-process; each thread makes and frees its own K objects, as in q.
// This test plays q: it calls k.h and ktorch's C entry points directly, on values it makes,
// as src/k does and under src/k's invariant (every K is a live q value made here), which
// stands for a SAFETY comment on each block.
#![allow(clippy::undocumented_unsafe_blocks)]
use kdbplus::api::{native, K};
use std::thread;

// Link qhost's k.h exports into this test binary.
use qhost as _;

/// The C entry point of q function `name`, as q would call it.
fn func(name: &str) -> extern "C" fn(K) -> K {
    let e = ktorch::fns::TABLE
        .iter()
        .find(|e| e.name == name)
        .expect("function in fns");
    e.one().expect("{name}: one argument")
}

fn floats(v: &[f64]) -> K {
    let x = unsafe { native::ktn(9, v.len() as i64) };
    unsafe { std::slice::from_raw_parts_mut((x as *mut u8).add(16) as *mut f64, v.len()) }
        .copy_from_slice(v);
    x
}

fn read_floats(x: K) -> Vec<f64> {
    let t = unsafe { *(x as *const i8).add(2) };
    assert_eq!(t, 9, "a float vector");
    let n = unsafe { *((x as *const u8).add(8) as *const i64) } as usize;
    unsafe { std::slice::from_raw_parts((x as *const u8).add(16) as *const f64, n) }.to_vec()
}

fn is_error(x: K) -> bool {
    x.is_null() || unsafe { *(x as *const i8).add(2) } == -128
}

#[test]
fn concurrent_calls_keep_handles_apart() {
    let tensor = func("tensor");
    let mul = func("mul");
    let free = func("free");
    let threads = 4;
    let rounds = 300;
    let handles: Vec<_> = (0..threads)
        .map(|k| {
            thread::spawn(move || {
                for i in 0..rounds {
                    let base = (k * 1000 + i) as f64;
                    let data = floats(&[base, base + 1.0, base + 2.0]);
                    let h = tensor(data);
                    assert!(!is_error(h), "tensor failed in thread {k}");
                    let args = unsafe { native::knk(2, native::r1(h), native::r1(h)) };
                    let p = mul(args);
                    assert!(!is_error(p), "mul failed in thread {k}");
                    let back = tensor(p);
                    assert_eq!(
                        read_floats(back),
                        vec![base * base, (base + 1.0).powi(2), (base + 2.0).powi(2)],
                        "thread {k} round {i}"
                    );
                    for x in [free(h), free(p), back, data, args, h, p] {
                        unsafe { native::r0(x) };
                    }
                }
            })
        })
        .collect();
    for t in handles {
        t.join().expect("thread ran");
    }
    let count = func("tensorcount")(unsafe { native::ka(101) });
    assert_eq!(
        unsafe { *((count as *const u8).add(8) as *const i64) },
        0,
        "every tensor freed"
    );
    unsafe { native::r0(count) };
}

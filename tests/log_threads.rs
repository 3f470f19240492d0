//! The log across threads: messages logged on other threads (ktorch workers, libtorch warnings
//! raised there) never call q there; with a q function as the route they wait in the queue and
//! reach the function on the q thread at its next ktorch call. qhost's lib provides the k.h API
//! (and q itself) in-process.
// This test plays q: it calls k.h and ktorch's C entry points directly, on values it makes,
// as src/k does and under src/k's invariant (every K is a live q value made here), which
// stands for a SAFETY comment on each block.
#![allow(clippy::undocumented_unsafe_blocks)]
use std::ffi::CString;
use std::thread;

use kdbplus::api::{native, K};
use ktorch::klog;
use ktorch::session::log::{self, Level};
use tch::Tensor;

/// The C entry point of q function `name`, as q would call it.
fn func(name: &str) -> extern "C" fn(K) -> K {
    let e = ktorch::fns::TABLE
        .iter()
        .find(|e| e.name == name)
        .expect("function in fns");
    e.one().expect("one argument")
}

/// Evaluate q text, answering a new reference.
fn q(text: &str) -> K {
    let c = CString::new(text).unwrap();
    let r = unsafe { native::k(0, c.as_ptr(), std::ptr::null_mut::<std::ffi::c_void>()) };
    assert!(
        !r.is_null() && unsafe { *(r as *const i8).add(2) } != -128,
        "q: {text}"
    );
    r
}

/// Is q text `text` true (a boolean atom 1b)?
fn q_true(text: &str) -> bool {
    let r = q(text);
    let b = unsafe { *(r as *const i8).add(2) } == -1 && unsafe { *(r as *const u8).add(8) } != 0;
    unsafe { native::r0(r) };
    b
}

fn call(name: &str, x: K) {
    let r = func(name)(x);
    assert!(!r.is_null(), "{name} failed");
    unsafe { native::r0(r) };
}

#[test]
fn other_threads_reach_the_q_function_on_the_q_thread() {
    // qhost's lib provides k.h; its interpreter answers k(0,..) once installed, as qhost's main
    // does before anything runs
    qhost::q::eval::install();
    // loading records this thread as q's and installs libtorch's warning handler on it
    unsafe { native::r0(ktorch::exports::fns(native::ka(101))) };
    unsafe { native::r0(q("msgs:()")) };
    unsafe { native::r0(q("keep:{[l;m] msgs::msgs,enlist(l;m)}")) };
    let keep = CString::new("keep").unwrap();
    call("logto", unsafe { native::ks(keep.as_ptr() as *mut _) });

    // a worker's messages and a libtorch warning raised on a thread that installed the handler
    thread::spawn(|| {
        log::warn("from a worker");
        klog!(Level::Info, "worker {} done", 1);
        log::warnings::install();
        let a = Tensor::from_slice(&[1f32, 2.]);
        let o = Tensor::zeros([3], (tch::Kind::Float, tch::Device::Cpu));
        let _ = a.f_add_out(&o, &a).expect("add_out");
    })
    .join()
    .expect("worker ran");
    assert!(q_true("0=count msgs"), "nothing delivered off the q thread");

    // the next ktorch call on the q thread delivers them, in order
    call("loglevel", unsafe { native::ka(101) });
    assert!(q_true("3=count msgs"), "three messages delivered");
    assert!(q_true(r#"(`warn;"from a worker")~msgs 0"#));
    assert!(q_true(r#"(`info;"worker 1 done")~msgs 1"#));
    assert!(q_true(r#"`warn~first msgs 2"#));
    assert!(q_true(
        r#"(last msgs 2) like "An output with one or more elements was resized*""#
    ));

    // libtorch keeps its handler per thread: without install, a thread's warnings go to
    // libtorch's default handler (stderr), not the log
    thread::spawn(|| {
        let a = Tensor::from_slice(&[1f32, 2.]);
        let o = Tensor::zeros([3], (tch::Kind::Float, tch::Device::Cpu));
        let _ = a.f_add_out(&o, &a).expect("add_out");
    })
    .join()
    .expect("thread ran");
    call("loglevel", unsafe { native::ka(101) });
    assert!(q_true("3=count msgs"), "no handler, no message");

    let stderr = CString::new("stderr").unwrap();
    call("logto", unsafe { native::ks(stderr.as_ptr() as *mut _) });
}

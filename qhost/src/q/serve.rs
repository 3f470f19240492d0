//! Running what arrives over IPC (KX: ref/dotz.md, basics/ipc.md "Handle messages"): a sync
//! request is given to `.z.pg`, an async one to `.z.ps` (each `value` when unset, in the root
//! context), a new connection's credentials to `.z.pw` (any accepted when unset), an accepted
//! connection to `.z.po`, a connection the peer closed to `.z.pc`.
//! q::ipc, a layer below the evaluator, reaches these through `ipc::SERVE`, set here at start.
use super::eval::{apply, get_global};
use super::ipc::{Serve, SERVE};
use super::QResult;
use crate::kapi::KObj;

fn request(_h: i32, sync: bool, msg: KObj) -> QResult {
    super::interrupt::clear();
    super::error::guard(|| match get_global(if sync { ".z.pg" } else { ".z.ps" }) {
        Some(f) => apply(&f, vec![msg]),
        None => super::system::value(&msg),
    })
}

/// Call the handler `name` with handle h if it is set; its error is printed, as q prints an
/// error of the main loop, and the loop goes on.
fn notify(name: &str, h: i32) {
    if let Some(f) = get_global(name) {
        if let Err(e) = super::error::guard(|| apply(&f, vec![KObj::int(h)])) {
            eprintln!("'{}", e.0);
        }
    }
}

fn validate(user: &str, password: &str) -> bool {
    let Some(f) = get_global(".z.pw") else {
        return true;
    };
    let r = super::error::guard(|| apply(&f, vec![KObj::sym(user), KObj::string(password)]));
    match r {
        Ok(v) => v.t() == -crate::kapi::kobj::KB && v.get_bool(),
        Err(e) => {
            eprintln!("'{}", e.0);
            false
        }
    }
}

fn opened(h: i32) {
    notify(".z.po", h);
}

fn closed(h: i32) {
    notify(".z.pc", h);
}

/// Hand the IPC layer its handlers (qhost's main, at start: this module sits above the evaluator
/// it runs requests with, the main loop below it).
pub fn init() {
    let _ = SERVE.set(Serve {
        request,
        validate,
        opened,
        closed,
    });
}

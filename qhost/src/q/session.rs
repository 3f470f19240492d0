//! q's main loop and what hangs off it (KX: syscmds `\t` `\s` `\w`, dotz `.z.ts` `.z.exit`,
//! C API `sd1`):
//! - the timer: `\t N` sets it (milliseconds, 0 off), `\t` shows it; on each tick the main loop
//!   calls `.z.ts` with the timestamp the tick was scheduled for (GMT);
//! - `sd1` callbacks: the main loop runs them when their descriptor is readable;
//! - the REPL reads its input through the same loop, so ticks and callbacks run while it waits;
//!   after the scripts, qhost keeps looping while the timer is on or a descriptor is registered;
//! - `.z.exit` is called with the exit code just before the process exits;
//! - IPC (q::ipc, q::serve): the listening port and open connections are waited on as well;
//!   `\p` shows or sets the port;
//! - `\s` shows (or lowers) the number of peach secondary threads given by `-s N`;
//! - `\w` and `.Q.w[]`: memory statistics (see `memstats`).
//!
//! Ticks and callbacks run only from this loop, never inside another evaluation, as in q.
use std::cell::Cell;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use super::QResult;
use crate::kapi::exports::{poll_fds, registered_fds};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

/// Timer interval in milliseconds (0: off).
static TIMER_MS: AtomicI64 = AtomicI64::new(0);

thread_local! {
    /// When the next tick is due.
    static NEXT_TICK: Cell<Option<Instant>> = const { Cell::new(None) };
    static EXITING: Cell<bool> = const { Cell::new(false) };
}

/// Set the timer (`\t N`): the first tick comes N ms from now.
pub fn set_timer(ms: i64) {
    let ms = ms.max(0);
    TIMER_MS.store(ms, Ordering::SeqCst);
    NEXT_TICK.with(|t| t.set((ms > 0).then(|| Instant::now() + Duration::from_millis(ms as u64))));
}

pub fn timer_ms() -> i64 {
    TIMER_MS.load(Ordering::SeqCst)
}

/// The system commands this module answers (`\t` without an expression, `\s`, `\w`); None for
/// anything else (system.rs goes on).
pub fn command(name: &str, count: Option<&str>, rest: &str) -> Option<QResult> {
    if count.is_some() {
        return None;
    }
    match name {
        "t" if rest.is_empty() => Some(Ok(KObj::int(timer_ms() as i32))),
        "t" => {
            // `\t N` (an integer) sets the timer; anything else is an expression to time
            let n: i64 = rest.parse().ok()?;
            set_timer(n);
            Some(Ok(KObj::identity()))
        }
        "s" => Some(super::peach::command(rest)),
        "w" => Some(super::memstats::command(rest)),
        "p" => Some(super::ipc::command(rest)),
        _ => None,
    }
}

/// Call `.z.ts` if a tick is due; answers whether one ran. An error in it is printed as q
/// prints an error from the main loop, and the loop goes on.
fn tick_if_due() -> bool {
    let ms = timer_ms();
    let due = NEXT_TICK.with(|t| t.get());
    let Some(due) = due.filter(|_| ms > 0) else {
        return false;
    };
    if Instant::now() < due {
        return false;
    }
    NEXT_TICK.with(|t| t.set(Some(due + Duration::from_millis(ms as u64))));
    // x: the timestamp the tick was scheduled for, GMT
    let late = Instant::now().saturating_duration_since(due);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let ns = now.as_nanos() as i64 - late.as_nanos() as i64 - 946_684_800_000_000_000;
    if let Some(f) = super::globals::get_global(".z.ts") {
        super::interrupt::clear();
        if let Err(e) = crate::kapi::hooks::apply(&f, vec![KObj::temporal(KP, ns)]) {
            eprintln!("'{}", e.0);
        }
    }
    true
}

/// Milliseconds until the next tick (-1: no timer).
fn until_tick() -> i32 {
    if timer_ms() <= 0 {
        return -1;
    }
    NEXT_TICK.with(|t| t.get()).map_or(-1, |d| {
        d.saturating_duration_since(Instant::now())
            .as_millis()
            .min(i32::MAX as u128) as i32
    })
}

/// Wait for the next event: run due ticks and ready callbacks; answers when `stdin` (if given)
/// is readable, or (with no stdin) when there is nothing left to wait for.
fn wait(stdin: Option<libc::c_int>) {
    loop {
        tick_if_due();
        let fds = registered_fds();
        let ipc = super::ipc::fds();
        if stdin.is_none() && fds.is_empty() && ipc.is_empty() && timer_ms() <= 0 {
            return;
        }
        let mut pfds: Vec<libc::pollfd> = stdin
            .into_iter()
            .chain(fds.iter().copied())
            .chain(ipc.iter().copied())
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        let n = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, until_tick()) };
        if n < 0 {
            // EINTR: an interrupt while idle stops nothing (there is nothing to stop)
            super::interrupt::clear();
            continue;
        }
        if stdin.is_some() && pfds[0].revents != 0 {
            return;
        }
        let first_ipc = pfds.len() - ipc.len();
        if pfds[..first_ipc].iter().any(|p| p.revents != 0) {
            poll_fds(0);
        }
        // connections and the listening port (q::ipc): each ready one in turn, until one opens or
        // closes a connection (a descriptor of this round may then name another socket)
        for p in &pfds[first_ipc..] {
            if p.revents != 0 {
                // a panic here (a qhost bug meeting a peer's bytes) is answered, never the end
                // of the process
                if let Err(e) = super::error::guard(|| super::ipc::ready(p.fd)) {
                    eprintln!("'{}", e.0);
                }
                if super::ipc::fds() != ipc {
                    break;
                }
            }
        }
    }
}

/// After the scripts: keep q's main loop running (ticks, callbacks, IPC) while the timer is
/// on, a callback is registered, a port listens or a connection is open; returns when none is
/// left (`exit` and `\\` end it from a message, as in q).
pub fn run_after_scripts() {
    if timer_ms() > 0 || !registered_fds().is_empty() || super::ipc::active() {
        wait(None);
    }
}

/// The REPL's input: one line from stdin (without its newline), running ticks and callbacks
/// while waiting; None at end of input.
pub struct Input {
    buf: Vec<u8>,
    eof: bool,
}

impl Default for Input {
    fn default() -> Self {
        Self::new()
    }
}

impl Input {
    pub fn new() -> Input {
        Input {
            buf: Vec::new(),
            eof: false,
        }
    }

    pub fn line(&mut self) -> Option<String> {
        loop {
            if let Some(i) = self.buf.iter().position(|&c| c == b'\n') {
                let mut l: Vec<u8> = self.buf.drain(..=i).collect();
                l.pop();
                if l.last() == Some(&b'\r') {
                    l.pop();
                }
                return Some(String::from_utf8_lossy(&l).into_owned());
            }
            if self.eof {
                if self.buf.is_empty() {
                    return None;
                }
                let l = std::mem::take(&mut self.buf);
                return Some(String::from_utf8_lossy(&l).into_owned());
            }
            wait(Some(0));
            let mut chunk = [0u8; 4096];
            let n = unsafe { libc::read(0, chunk.as_mut_ptr() as *mut libc::c_void, chunk.len()) };
            if n < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                self.eof = true;
            } else if n == 0 {
                self.eof = true;
            } else {
                self.buf.extend_from_slice(&chunk[..n as usize]);
            }
        }
    }
}

/// Call `.z.exit` with the exit code, once, "just before exiting" (KX: the handler cannot
/// cancel the exit; its errors are ignored).
pub fn run_exit_hook(code: i32) {
    if EXITING.with(|e| e.replace(true)) {
        return;
    }
    if let Some(f) = super::globals::get_global(".z.exit") {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::kapi::hooks::apply(&f, vec![KObj::long(code as i64)])
        }));
        if let Ok(Err(e)) = r {
            eprintln!("'{}", e.0);
        }
    }
}

/// Set up what q has from the start: the SIGINT handler, the `.Q` functions defined here.
pub fn init() {
    crate::kapi::threads::claim_main();
    super::interrupt::install();
    super::memstats::define();
    let _ = super::enums::RESOLVE.set(super::globals::get_global);
}

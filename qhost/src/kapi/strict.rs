//! Strict mode (`QHOST_STRICT=1`): the C API exactly as strict as KX documents it, made loud.
//!
//! q's memory pool does not zero new objects ("For a mixed or symbol list, all elements must be
//! initialized prior to returning the list"; the generic null is `ka(101)` then `->g=0`), `krr`
//! records only the pointer ("you should ensure that the string remains valid after the return
//! from your code into kdb+"), and a pending error left behind "may still be set, resulting in
//! the error being signalled incorrectly elsewhere" (capiref, ee). Normally qhost, like q, just
//! leaves such memory unset. In strict mode:
//! - what `ka`/`ktn` hand out is filled with `POISON` bytes, so a field left unset reads as
//!   0xa5a5.. (a list item or symbol that was never set is a non-canonical pointer; qhost checks
//!   for it where values come back from C, and `r0` of one is fatal with a message);
//! - before reading a `krr` message after the extension returned, the stack the extension used
//!   and the malloc chunks it may just have freed are overwritten, so a message in a temporary
//!   buffer comes out garbled instead of passing by luck;
//! - a pending error nobody took is an error, not silently dropped;
//! - a k.h call from a thread not allowed to make it is fatal (see `threads`).
use std::sync::atomic::{AtomicU8, Ordering};

/// The byte new K memory is filled with in strict mode.
pub const POISON_BYTE: u8 = 0xa5;
/// A pointer-sized item never set: 0xa5a5a5a5a5a5a5a5 (non-canonical on x86-64).
pub const POISON_PTR: usize = usize::from_ne_bytes([POISON_BYTE; 8]);

/// 0: not read yet, 1: off, 2: on.
static STRICT: AtomicU8 = AtomicU8::new(0);

/// Whether QHOST_STRICT=1 (read once).
pub fn on() -> bool {
    match STRICT.load(Ordering::Relaxed) {
        0 => {
            let v = std::env::var("QHOST_STRICT").as_deref() == Ok("1");
            STRICT.store(if v { 2 } else { 1 }, Ordering::Relaxed);
            v
        }
        s => s == 2,
    }
}

/// Set strict mode for this process (tests).
pub fn set(v: bool) {
    STRICT.store(if v { 2 } else { 1 }, Ordering::Relaxed);
}

/// An extension broke a rule of the C API: say which and stop the process, as the undefined
/// behaviour would in q, but with the reason.
pub fn fatal(msg: &str) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    eprintln!("qhost strict: {msg}");
    let _ = std::io::stderr().flush();
    std::process::abort()
}

/// Fill `n` bytes at `p` with the poison pattern.
///
/// # Safety
/// `p` must be valid for `n` bytes of writes.
pub unsafe fn poison(p: *mut u8, n: usize) {
    std::ptr::write_bytes(p, POISON_BYTE, n);
}

/// Overwrite what an extension just left behind: the stack below the caller (where the
/// extension's frames were) and small malloc chunks it may have freed (tcache hands the most
/// recently freed chunk of a size back first). A `krr` text in either comes out garbled.
#[inline(never)]
pub fn scribble() {
    // 16 KiB of stack covers the frames of the call that just returned; tcache keeps up to 7
    // freed chunks per size class and hands back the last freed first, so one allocation per
    // class up to 256 bytes (a message's size) takes the chunk a freed text was in
    let mut stack = [0u8; 16 * 1024];
    unsafe { poison(stack.as_mut_ptr(), stack.len()) };
    std::hint::black_box(&mut stack);
    let mut held = [std::ptr::null_mut::<u8>(); 16];
    for (i, slot) in held.iter_mut().enumerate() {
        let size = 16 * (i + 1);
        let p = unsafe { libc::malloc(size) } as *mut u8;
        if !p.is_null() {
            unsafe { poison(p, size) };
        }
        *slot = p;
    }
    for p in held {
        unsafe { libc::free(p as *mut libc::c_void) };
    }
}

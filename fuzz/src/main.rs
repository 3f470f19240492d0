//! `make fuzz`: every function of ktorch.so's `fns` table called with generated K arguments.
//!
//! `ktorch-fuzz [--calls N] [--seed S] [--only f,g] [--timeout SECS] [--jobs J] [--mem MB]
//! [--lib path/ktorch.so] [--keep] [--cuda]`. The parent splits the function list among J workers; each worker
//! runs its functions in a child process (this executable with `--child`), which calls each
//! function N times (a generated argument each time), frees what the call returned and what the
//! generator made, and checks `obj[]` and qhost's K object count after every call. A child that
//! dies (signal, abort) or makes no progress for SECS seconds on one function is a crash or hang
//! of the call it logged last; the next child goes on with the following function. The summary
//! gives calls made, functions covered, q errors and values returned, caught panics, crashes,
//! hangs and leaks; the exit is non-zero on any crash, hang, leak or function never called.
//! The same seed makes the same calls (per function: a crash does not shift what follows).
mod child;
mod docs;
mod files;
mod fixtures;
mod forms;
mod gen;
use ktorch_loader as host;
mod mutate;
mod parent;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        std::process::exit(child_main(&args[1..]));
    }
    std::process::exit(parent::main(&args));
}

/// `--child LIB SEED CALLS MEM_MB LOG name...`
fn child_main(a: &[String]) -> i32 {
    let [lib, seed, calls, mem, log, names @ ..] = a else {
        eprintln!("ktorch-fuzz --child: LIB SEED CALLS MEM_MB LOG name...");
        return 2;
    };
    let (Ok(seed), Ok(calls), Ok(mem)) = (seed.parse(), calls.parse(), mem.parse::<u64>()) else {
        eprintln!("ktorch-fuzz --child: bad numbers");
        return 2;
    };
    let lib = match host::Ktorch::load(std::path::Path::new(lib)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("ktorch-fuzz: cannot load {lib}: {e}");
            return 2;
        }
    };
    limit_memory(mem);
    crash_backtrace();
    let mut log = match child::Log::open(log) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("ktorch-fuzz: log {log}: {e}");
            return 2;
        }
    };
    child::run(&lib, names, seed, calls, &mut log)
}

/// Cap the child's address space at what it has mapped now plus `mb`: a call asked for a huge
/// tensor then fails to allocate (a q error) instead of taking the machine's memory. With a GPU
/// the cap is on data (private writable memory) instead: CUDA reserves address space in tens of
/// GB that it never writes, which no address-space cap would leave room for.
fn limit_memory(mb: u64) {
    if mb == 0 {
        return;
    }
    let (field, resource) = if fixtures::cuda() {
        ("VmData:", libc::RLIMIT_DATA)
    } else {
        ("VmSize:", libc::RLIMIT_AS)
    };
    let now = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .unwrap_or(0)
        * 1024;
    let lim = libc::rlimit {
        rlim_cur: now + mb * 1024 * 1024,
        rlim_max: libc::RLIM_INFINITY,
    };
    unsafe { libc::setrlimit(resource, &lim) };
}

/// On a fatal signal, print where (the device machine has no debugger): the parent keeps the
/// child's stderr and shows its last lines with the crash. glibc's backtrace writes the frames
/// (library and offset) without allocating. Then die of the same signal.
fn crash_backtrace() {
    extern "C" {
        fn backtrace(buf: *mut *mut libc::c_void, size: libc::c_int) -> libc::c_int;
        fn backtrace_symbols_fd(buf: *const *mut libc::c_void, size: libc::c_int, fd: libc::c_int);
    }
    extern "C" fn on_fatal(sig: libc::c_int) {
        let msg = b"ktorch-fuzz: fatal signal, frames:\n";
        unsafe {
            libc::write(2, msg.as_ptr() as *const libc::c_void, msg.len());
            let mut frames = [std::ptr::null_mut(); 48];
            let n = backtrace(frames.as_mut_ptr(), frames.len() as libc::c_int);
            backtrace_symbols_fd(frames.as_ptr(), n, 2);
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
    // backtrace loads libgcc_s on first use: do that now, not in the handler
    let mut warm = [std::ptr::null_mut(); 2];
    unsafe { backtrace(warm.as_mut_ptr(), 2) };
    for sig in [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE] {
        unsafe {
            let mut a: libc::sigaction = std::mem::zeroed();
            a.sa_sigaction = on_fatal as *const () as usize;
            a.sa_flags = libc::SA_ONSTACK | libc::SA_RESETHAND;
            libc::sigaction(sig, &a, std::ptr::null_mut());
        }
    }
}

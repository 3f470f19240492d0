//! The process group of this q process (as torch.distributed's default group): at most one,
//! started by `distinit` from a rendezvous, ended by `distend`. q functions: `distinit`,
//! `distend`, `distrank`, `distsize`, `barrier`.
use std::ffi::CString;
use std::sync::Mutex;

use crate::cxx::dist::{Meet, ProcessGroup};
use anyhow::{anyhow, bail, Result};

use crate::k::from::{self, FromQ, Number as Num, Sym};
use crate::k::{read, K};
use crate::tensor::opargs::describe;

/// Seconds a rendezvous or a collective may wait when `distinit` is given no timeout.
pub const DEFAULT_TIMEOUT: f64 = 60.0;

pub struct Group {
    pg: ProcessGroup,
    pub rank: i64,
    pub size: i64,
    pub backend: &'static str,
    pub timeout: f64,
}

static GROUP: Mutex<Option<Group>> = Mutex::new(None);

/// Run f on the started group (under its lock: one collective at a time in this process). A
/// group already in use (a q callback inside a synchronising `run` calling a collective, or
/// another thread's) is an error rather than a wait: the ranks would no longer call their
/// collectives in the same order, or the thread would wait on itself.
pub fn with<R>(f: impl FnOnce(&Group) -> Result<R>) -> Result<R> {
    let g = lock()?;
    match g.as_ref() {
        Some(g) => f(g),
        None => bail!("no process group: distinit first"),
    }
}

fn lock() -> Result<std::sync::MutexGuard<'static, Option<Group>>> {
    match GROUP.try_lock() {
        Ok(g) => Ok(g),
        Err(std::sync::TryLockError::Poisoned(e)) => Ok(e.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => {
            bail!("the process group is in use by a collective or a synchronising run in progress")
        }
    }
}

impl Group {
    /// The c10d group itself, for collectives.
    pub fn pg(&self) -> &ProcessGroup {
        &self.pg
    }
}

/// The rendezvous: TCP host and port, or a file path.
enum Rendezvous {
    Tcp(String, i64),
    File(String),
}

fn rendezvous(s: &str) -> Result<Rendezvous> {
    if let Some(p) = s.strip_prefix("file://") {
        if p.is_empty() {
            bail!("rendezvous {s:?}: no file path");
        }
        // c10d's FileStore retries opening the file for its own default 300 seconds, whatever
        // the timeout given: a missing directory would hold the call that long
        let dir = std::path::Path::new(p)
            .parent()
            .filter(|d| !d.as_os_str().is_empty());
        if let Some(d) = dir.filter(|d| !d.is_dir()) {
            bail!("rendezvous {s:?}: no directory {}", d.display());
        }
        return Ok(Rendezvous::File(p.to_string()));
    }
    let hp = s.strip_prefix("tcp://").unwrap_or(s);
    if let Some((scheme, _)) = hp.split_once("://") {
        bail!("rendezvous {s:?}: unknown scheme {scheme:?}, expected \"host:port\", \"tcp://host:port\" or \"file://path\"");
    }
    let (h, p) = hp.rsplit_once(':').ok_or_else(|| {
        anyhow!("rendezvous {s:?}: expected \"host:port\", \"tcp://host:port\" or \"file://path\"")
    })?;
    let port: i64 = p
        .parse()
        .map_err(|_| anyhow!("rendezvous {s:?}: port {p:?} is not a number"))?;
    if !(0..=65535).contains(&port) {
        bail!("rendezvous {s:?}: port {port} out of range 0-65535");
    }
    let h = h.trim_start_matches('[').trim_end_matches(']');
    Ok(Rendezvous::Tcp(
        if h.is_empty() {
            "127.0.0.1".into()
        } else {
            h.to_string()
        },
        port,
    ))
}

/// A rank other than 0 waits, within the timeout, for rank 0's store to listen at host:port.
/// c10d's TCP store client retries on its own, but past the timeout given (the fuzzer saw
/// `distinit(`gloo;"127.0.0.1:1";1;2)` answer after 151 s for a timeout of 60): a store that is
/// not there is an error at the timeout, as docs/dist.md says of every wait. The probe's
/// connection is closed at once; the store's server takes it as a client that left.
fn reach_store(host: &str, port: i64, timeout: f64) -> Result<()> {
    use std::net::{TcpStream, ToSocketAddrs};
    use std::time::{Duration, Instant};
    let deadline = Instant::now() + Duration::from_secs_f64(timeout);
    loop {
        let addrs: Vec<_> = match (host, port as u16).to_socket_addrs() {
            Ok(a) => a.collect(),
            Err(_) => vec![],
        };
        for a in &addrs {
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = left
                .min(Duration::from_secs(1))
                .max(Duration::from_millis(1));
            if TcpStream::connect_timeout(a, wait).is_ok() {
                return Ok(());
            }
        }
        if Instant::now() >= deadline {
            bail!(
                "no store at {host}:{port} within the timeout of {timeout} seconds{} (rank 0 starts it)",
                if addrs.is_empty() { ", the host's address not found" } else { "" }
            );
        }
        crate::k::interrupt::check()?;
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn env(name: &str) -> Result<String> {
    std::env::var(name).map_err(|_| anyhow!("environment variable {name} not set (the launcher sets MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE)"))
}

fn env_long(name: &str) -> Result<i64> {
    let v = env(name)?;
    v.trim()
        .parse()
        .map_err(|_| anyhow!("environment variable {name}={v:?} is not a whole number"))
}

/// A timeout in seconds: a numeric atom, more than 0 and at most a year.
struct Seconds(f64);

impl FromQ for Seconds {
    const TYPE: &'static str = "seconds as a number";
    fn read(x: K) -> Result<Option<Seconds>> {
        let s = match Num::of(x) {
            Some(Num::Int(i)) if read::ktype(x) < 0 => i as f64,
            Some(Num::Float(f)) if read::ktype(x) < 0 => f,
            _ => return Ok(None),
        };
        // c10d adds the timeout to the clock: keep it far from overflowing (a year at most)
        if !(s > 0.0 && s <= 31_536_000.0) {
            bail!(
                "timeout: expected seconds, more than 0 and at most a year (31536000), given {s}"
            );
        }
        Ok(Some(Seconds(s)))
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        anyhow!("{arg}: expected {}, given {}", Self::TYPE, describe(x))
    }
}

/// A whole number (a rank, a size): any integral atom.
struct Whole(i64);

impl FromQ for Whole {
    const TYPE: &'static str = "a whole number";
    fn read(x: K) -> Result<Option<Whole>> {
        Ok(match Num::of(x) {
            Some(Num::Int(j)) => Some(Whole(j)),
            _ => None,
        })
    }
    fn wrong(x: K, arg: &str) -> anyhow::Error {
        anyhow!("{arg}: expected {}, given {}", Self::TYPE, describe(x))
    }
}

/// What `distinit` is given: the backend, the rendezvous (from the environment for `env://`),
/// this rank, the number of ranks and the timeout, checked.
pub struct Init {
    rv: Rendezvous,
    rank: i64,
    size: i64,
    timeout: f64,
    nccl: bool,
}

impl FromQ for Init {
    const TYPE: &'static str = "backend, (backend;timeout), (backend;rendezvous;rank;size) or (backend;rendezvous;rank;size;timeout)";
    /// Every q value is an `Init`, or the error in ktorch's words.
    fn read(x: K) -> Result<Option<Init>> {
        let usage = "expected backend, (backend;timeout), (backend;rendezvous;rank;size) or (backend;rendezvous;rank;size;timeout)";
        let args: Vec<K> = match from::list(&x) {
            Some(v) => v.to_vec(),
            _ if read::ktype(x) == -11 => vec![x],
            _ => bail!("{usage}, given {}", describe(x)),
        };
        let backend = args
            .first()
            .and_then(|b| Sym::of(*b).map(|s| s.0))
            .ok_or_else(|| anyhow!("{usage}: backend `gloo or `nccl"))?;
        let nccl = match backend {
            "gloo" => false,
            "nccl" => true,
            b => bail!(
                "unrecognized backend `{b}, expecting `gloo (CPU tensors) or `nccl (CUDA tensors)"
            ),
        };
        let (rv, rank, size, timeout) = match args.len() {
            1 | 2 => {
                let addr = env("MASTER_ADDR")?;
                let port = env_long("MASTER_PORT")?;
                let t = if args.len() == 2 {
                    Seconds::from_q(args[1], "timeout")?.0
                } else {
                    DEFAULT_TIMEOUT
                };
                (
                    Rendezvous::Tcp(addr, port),
                    env_long("RANK")?,
                    env_long("WORLD_SIZE")?,
                    t,
                )
            }
            4 | 5 => {
                let s = String::of(args[1])
                    .or_else(|| Sym::of(args[1]).map(|s| s.0.to_string()))
                    .ok_or_else(|| {
                        anyhow!(
                            "rendezvous: expected a string \"host:port\" or \"file://path\", given {}",
                            describe(args[1])
                        )
                    })?;
                let t = if args.len() == 5 {
                    Seconds::from_q(args[4], "timeout")?.0
                } else {
                    DEFAULT_TIMEOUT
                };
                (
                    rendezvous(&s)?,
                    Whole::from_q(args[2], "rank")?.0,
                    Whole::from_q(args[3], "size")?.0,
                    t,
                )
            }
            n => bail!("{usage}, given {n} args"),
        };
        if size < 1 || size > i32::MAX as i64 {
            bail!("size: expected a positive number of ranks, given {size}");
        }
        if rank < 0 || rank >= size {
            bail!(
                "rank: {rank} out of range for {size} rank(s), expecting 0-{}",
                size - 1
            );
        }
        if let Rendezvous::Tcp(_, p) = &rv {
            // port 0: rank 0's store takes any free port, which no other rank can know
            if !(0..=65535).contains(p) || (*p == 0 && size > 1) {
                bail!(
                    "port {p} out of range {}-65535",
                    if size > 1 { 1 } else { 0 }
                );
            }
        }
        Ok(Some(Init {
            rv,
            rank,
            size,
            timeout,
            nccl,
        }))
    }
}

crate::qfn! {
    /// `distinit backend`, `distinit(backend;timeout)`: rendezvous from MASTER_ADDR, MASTER_PORT,
    /// RANK, WORLD_SIZE (torch.distributed's env://, what the launcher sets);
    /// `distinit(backend;rendezvous;rank;size)`, `distinit(backend;rendezvous;rank;size;timeout)`.
    pub fn distinit(init: Init) -> Result<()> {
        let mut g = lock()?;
        if let Some(g) = g.as_ref() {
            bail!(
                "a process group is already started (rank {} of {}, {}): distend[] first",
                g.rank,
                g.size,
                g.backend
            );
        }
        let Init {
            rv,
            rank,
            size,
            timeout,
            nccl,
        } = init;
        let (host, port, file) = match &rv {
            Rendezvous::Tcp(h, p) => (CString::new(h.as_str())?, *p as i32, None),
            Rendezvous::File(f) => (CString::default(), 0, Some(CString::new(f.as_str())?)),
        };
        let meet = match &file {
            Some(f) => Meet::File(f),
            None => Meet::Tcp(&host, port),
        };
        let ms = (timeout * 1000.0).ceil() as libc::c_long;
        if let Rendezvous::Tcp(h, p) = &rv {
            if rank > 0 {
                crate::k::interrupt::scope(|| reach_store(h, *p, timeout))?;
            }
        }
        let pg = ProcessGroup::init(nccl, meet, rank as i32, size as i32, ms)?;
        *g = Some(Group {
            pg,
            rank,
            size,
            backend: if nccl { "nccl" } else { "gloo" },
            timeout,
        });
        Ok(())
    }
}

crate::qfn! {
    /// `distend[]`: ends this process's group (none started: nothing to do).
    pub fn distend() -> Result<()> {
        let g = lock()?.take();
        if let Some(g) = g {
            // taken out of GROUP: this is the group's last use, freed once, here
            g.pg.close()?;
        }
        Ok(())
    }

    /// `distrank[]`: this process's rank, 0 to size-1.
    pub fn distrank() -> Result<i64> {
        with(|g| Ok(g.rank))
    }

    /// `distsize[]`: the number of ranks (world size).
    pub fn distsize() -> Result<i64> {
        with(|g| Ok(g.size))
    }

    /// `barrier[]`: waits until every rank has called it.
    pub fn barrier() -> Result<()> {
        with(|g| g.pg.barrier())
    }
}

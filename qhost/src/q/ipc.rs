//! q's interprocess communication over TCP (KX: basics/ipc.md, ref/hopen.md, ref/dotz.md,
//! basics/listening-port.md): connection handles, the handshake, messages in kdb+'s wire form
//! (kapi's serialize/deserialize: the bytes of `-8!`), the listening port.
//!
//! - `hopen` of a port, `` `:host:port[:user:pass] `` or its string, each with an optional
//!   timeout (`(handle;ms)`); the handle is the socket's descriptor, as in q. Unix sockets, TLS,
//!   fifos and file handles answer 'nyi.
//! - `h x` sends x as a sync request and waits for the response, running any message that comes
//!   first on h (ipc.md: "processes any pending incoming messages on h until a response");
//!   `neg[h] x` sends it async; `h[]` blocks until a message comes on h and answers it (ipc.md,
//!   async blocking); `neg[h][]` flushes (qhost writes every message at once: nothing waits).
//! - the listening port (`\p N`, `-p N`, `0W` an ephemeral port, 0 none) and the connections it
//!   accepts: the main loop (session.rs) waits on `fds()` and hands readable ones to `serve`.
//!
//! Running a message needs the evaluator, a layer above this one: it does so through `Serve`,
//! which q::serve fills in at start (.z.pg, .z.ps, .z.po, .z.pc). Messages are written whole with
//! blocking writes and never compressed (valid for any kdb+ peer: compression is the sender's
//! choice); capability 3 (kdb+ 3.0: timestamps, guids) is offered and accepted.
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::os::fd::AsRawFd;
use std::sync::OnceLock;
use std::time::Duration;

use super::values::{int_of, is_identity};
use super::{err, QErr, QResult};
use crate::kapi::exports::{deserialize, error_object, serialize};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

/// Message types of the header's second byte (ipc.md: "three message types").
pub const ASYNC: u8 = 0;
pub const SYNC: u8 = 1;
pub const RESPONSE: u8 = 2;

/// The capability qhost speaks (ipc.md, handshake: 3 is kdb+ 3.0's, with UUIDs).
const CAPABILITY: u8 = 3;

/// What running a message needs from the evaluator (q::serve sets it once at start).
pub struct Serve {
    /// A request arrived on handle h (`.z.pg` for sync, `.z.ps` for async, with .z.w = h).
    pub request: fn(h: i32, sync: bool, msg: KObj) -> QResult,
    /// A client's credentials (`.z.pw`, called for each new connection when no -u/-U file is
    /// given: ipc.md): false refuses the connection, which the client sees as 'access.
    pub validate: fn(user: &str, password: &str) -> bool,
    /// A connection was accepted on the listening port (`.z.po`).
    pub opened: fn(h: i32),
    /// The remote end closed handle h (`.z.pc`; not called by `hclose`).
    pub closed: fn(h: i32),
}

pub static SERVE: OnceLock<Serve> = OnceLock::new();

struct Conn {
    stream: TcpStream,
    /// The peer's user name from the handshake (`.z.u` while its messages run).
    user: String,
    /// The capability agreed (what serialize may write).
    cap: u8,
}

thread_local! {
    static CONNS: RefCell<BTreeMap<i32, Conn>> = const { RefCell::new(BTreeMap::new()) };
    static LISTENER: RefCell<Option<TcpListener>> = const { RefCell::new(None) };
    /// The handle whose message is running (`.z.w`; 0 at the console).
    static CURRENT: Cell<i32> = const { Cell::new(0) };
}

fn main_thread() -> Result<(), QErr> {
    match crate::kapi::threads::role() {
        crate::kapi::threads::Role::Main => Ok(()),
        // q's secondary threads cannot use the main thread's handles
        _ => Err(err("nyi")),
    }
}

// ---- opening and closing ------------------------------------------------------------------

/// `hopen x`: a port (int or long atom), a communication handle (symbol or string), or either
/// with a timeout in milliseconds as a list of two.
pub fn hopen(x: &KObj) -> QResult {
    main_thread()?;
    let (target, timeout) = match x.t() {
        0 if x.len() == 2 => {
            let ms = int_of(&x.item(1)).ok_or_else(|| err("type"))?;
            (x.item(0), Some(ms))
        }
        _ => (x.clone(), None),
    };
    let (host, port, user, pass) = match target.t() {
        t if t == -KI || t == -KJ || t == -KH => {
            let p = int_of(&target).unwrap();
            (String::new(), p, None, None)
        }
        t if t == -KS || t == KC => {
            let s = if t == KC {
                target.as_string()
            } else {
                target.get_sym().to_string()
            };
            parse_handle(&s)?
        }
        _ => return Err(err("type")),
    };
    if !(1..=65535).contains(&port) {
        return Err(QErr(format!("hop. OS reports: port {port} out of range")));
    }
    connect(&host, port as u16, user, pass, timeout)
}

/// `` `:host:port[:user:password] `` (ref/hopen.md): host empty for the local host.
type Target = (String, i64, Option<String>, Option<String>);

fn parse_handle(s: &str) -> Result<Target, QErr> {
    let Some(rest) = s.strip_prefix(':') else {
        return Err(err("type"));
    };
    // unix://, tcps://, unixs://, fifo:// and file handles are not qhost's
    if rest.contains("://") {
        return Err(err("nyi"));
    }
    let parts: Vec<&str> = rest.splitn(4, ':').collect();
    if parts.len() < 2 {
        // a file handle (`:path/file`): 'nyi
        return Err(err("nyi"));
    }
    let port: i64 = parts[1]
        .parse()
        .map_err(|_| QErr(format!("hop. OS reports: unknown port {}", parts[1])))?;
    Ok((
        parts[0].to_string(),
        port,
        parts.get(2).map(|u| u.to_string()),
        parts.get(3).map(|p| p.to_string()),
    ))
}

fn os_reports(what: &str, e: &std::io::Error) -> QErr {
    let s = e.to_string();
    QErr(format!(
        "{what}. OS reports: {}",
        s.split(" (os error").next().unwrap_or(&s)
    ))
}

fn connect(
    host: &str,
    port: u16,
    user: Option<String>,
    pass: Option<String>,
    timeout: Option<i64>,
) -> QResult {
    let host = if host.is_empty() { "localhost" } else { host };
    let addrs: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(|e| os_reports("hop", &e))?
        .collect();
    let mut last = None;
    let mut stream = None;
    for a in addrs {
        let r = match timeout {
            Some(ms) if ms > 0 => TcpStream::connect_timeout(&a, Duration::from_millis(ms as u64)),
            _ => TcpStream::connect(a),
        };
        match r {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = Some(e),
        }
    }
    let Some(mut stream) = stream else {
        return Err(last.map_or_else(|| err("hop"), |e| os_reports("hop", &e)));
    };
    let _ = stream.set_nodelay(true);
    // the handshake: "user:password" and the capability byte, NUL-terminated (ipc.md)
    let user = user.unwrap_or_else(os_user);
    let mut hello = user.clone().into_bytes();
    if let Some(p) = pass {
        hello.push(b':');
        hello.extend_from_slice(p.as_bytes());
    }
    hello.extend_from_slice(&[CAPABILITY, 0]);
    stream
        .write_all(&hello)
        .map_err(|e| os_reports("hop", &e))?;
    let mut cap = [0u8; 1];
    match stream.read(&mut cap) {
        // the server closes a connection whose credentials it rejects
        Ok(0) => return Err(err("access")),
        Ok(_) => {}
        Err(e) => return Err(os_reports("hop", &e)),
    }
    let h = stream.as_raw_fd();
    CONNS.with(|c| {
        c.borrow_mut().insert(
            h,
            Conn {
                stream,
                user,
                cap: cap[0].min(CAPABILITY),
            },
        )
    });
    Ok(KObj::int(h))
}

/// The user this process runs as (what q sends when the handle names none).
fn os_user() -> String {
    if let Ok(u) = std::env::var("USER") {
        return u;
    }
    let pw = unsafe { libc::getpwuid(libc::geteuid()) };
    if pw.is_null() {
        return String::new();
    }
    unsafe { std::ffi::CStr::from_ptr((*pw).pw_name) }
        .to_string_lossy()
        .into_owned()
}

/// `hclose h`: close the connection (no `.z.pc`: dotz.md, "not called by hclose").
pub fn hclose(x: &KObj) -> QResult {
    main_thread()?;
    let h = match x.t() {
        t if t == -KI || t == -KJ || t == -KH => int_of(x).unwrap() as i32,
        _ => return Err(err("type")),
    };
    let gone = CONNS.with(|c| c.borrow_mut().remove(&h.abs()));
    if gone.is_none() {
        // q's other handles (files, its own 0 1 2) are not qhost's to close
        return Err(err("nyi"));
    }
    Ok(KObj::identity())
}

/// A one-shot request (hopen.md): `` `:host:port "x" `` connects, sends x sync, closes, and
/// answers the response.
pub fn one_shot(handle: &KObj, x: &KObj) -> QResult {
    let h = hopen(handle)?;
    let r = send(h.get_int() as i64, x);
    let _ = hclose(&h);
    r
}

/// Whether h is an open connection handle (positive or negative).
pub fn is_open(h: i64) -> bool {
    h != 0 && CONNS.with(|c| c.borrow().contains_key(&(h.unsigned_abs() as i32)))
}

// ---- messages -------------------------------------------------------------------------------

/// Write one message of type `mtype` holding x on handle h.
fn write_message(h: i32, mtype: u8, x: &KObj) -> Result<(), QErr> {
    let cap = CONNS.with(|c| c.borrow().get(&h).map(|c| c.cap));
    let Some(cap) = cap else {
        return Err(QErr(format!(
            "Cannot write to handle {h}. OS reports: Bad file descriptor"
        )));
    };
    // capability 0 (before kdb+ 2.6) has no timestamps or timespans: serialize's mode 0
    // enumerations go as their values (ipc.md: "automatically converted to values")
    let x = super::enums::unenumerate(x)?;
    let bytes = serialize(&x, if cap == 0 { 0 } else { 3 })?;
    let b = bytes.slice_mut::<u8>();
    b[1] = mtype;
    let r = CONNS.with(|c| {
        let mut c = c.borrow_mut();
        let conn = c.get_mut(&h).unwrap();
        conn.stream.write_all(b)
    });
    r.map_err(|e| os_reports(&format!("Cannot write to handle {h}"), &e))
}

/// Read one whole message from h: its type and value. Ok(None) when the peer has closed.
fn read_message(h: i32) -> Result<Option<(u8, QResult)>, QErr> {
    let stream = CONNS.with(|c| c.borrow().get(&h).and_then(|c| c.stream.try_clone().ok()));
    let Some(mut s) = stream else {
        return Err(QErr(format!(
            "rcv handle: {h}. OS reports: Bad file descriptor"
        )));
    };
    let mut head = [0u8; 8];
    if let Err(e) = s.read_exact(&mut head) {
        return match e.kind() {
            std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset => Ok(None),
            _ => Err(os_reports(&format!("rcv handle: {h}"), &e)),
        };
    }
    let n = u32::from_le_bytes(head[4..8].try_into().unwrap()) as usize;
    // capability 3 has no messages of 2 GB or more (ipc.md: that is capability 5's)
    if n < 9 || n > i32::MAX as usize || head[0] != 1 {
        return Err(err("badmsg"));
    }
    let mut msg = vec![0u8; n];
    msg[..8].copy_from_slice(&head);
    if let Err(e) = s.read_exact(&mut msg[8..]) {
        return match e.kind() {
            std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::ConnectionReset => Ok(None),
            _ => Err(os_reports(&format!("rcv handle: {h}"), &e)),
        };
    }
    let mtype = msg[1];
    let v = deserialize(&KObj::from_slice(KG, &msg));
    Ok(Some((mtype, v)))
}

/// The peer closed h: forget it and call `.z.pc`.
fn peer_closed(h: i32) {
    CONNS.with(|c| c.borrow_mut().remove(&h));
    if let Some(s) = SERVE.get() {
        (s.closed)(h);
    }
}

/// Run a request that arrived on h (sync: answer it with a response message).
fn run_request(h: i32, mtype: u8, v: QResult) -> Result<(), QErr> {
    let sync = mtype == SYNC;
    let r = match (v, SERVE.get()) {
        (Ok(msg), Some(s)) => {
            let before = CURRENT.with(|c| c.replace(h));
            let r = (s.request)(h, sync, msg);
            CURRENT.with(|c| c.set(before));
            r
        }
        (Ok(_), None) => Err(err("nyi")),
        (Err(e), _) => Err(e),
    };
    if sync {
        let answer = match r {
            Ok(v) => v,
            Err(e) => KObj::from_raw(error_object(&e.0)).unwrap(),
        };
        // a peer that has gone: nothing to answer
        if CONNS.with(|c| c.borrow().contains_key(&h)) {
            write_message(h, RESPONSE, &answer)?;
        }
    } else if let Err(e) = r {
        eprintln!("'{}", e.0);
    }
    Ok(())
}

/// `h x` (h positive: sync, negative: async), `h[]` and `neg[h][]`.
pub fn send(h: i64, x: &KObj) -> QResult {
    main_thread()?;
    let fd = h.unsigned_abs() as i32;
    if h < 0 {
        if is_identity(x) {
            // flush: every message went out when it was sent
            return if is_open(h) {
                Ok(KObj::identity())
            } else {
                Err(QErr(format!(
                    "Cannot write to handle {fd}. OS reports: Bad file descriptor"
                )))
            };
        }
        write_message(fd, ASYNC, x)?;
        return Ok(KObj::identity());
    }
    let block = is_identity(x);
    if !block {
        write_message(fd, SYNC, x)?;
    }
    loop {
        let Some((mtype, v)) = read_message(fd)? else {
            peer_closed(fd);
            // errors.md, close: "handle was closed by the remote while a msg was expected"
            return Err(err("close"));
        };
        match mtype {
            RESPONSE if !block => return v,
            // h[]: the next message that comes, whatever its type, as it is
            _ if block => return v,
            ASYNC | SYNC => run_request(fd, mtype, v)?,
            _ => return Err(err("badmsg")),
        }
    }
}

// ---- functions on the wire ----------------------------------------------------------------

/// A lambda as q writes it (kb/serialization.md, "Function"): type 100, the NUL-terminated
/// context (qhost's lambdas are all in the root: empty), then its text as a char vector. Other
/// functions (primitives, projections, compositions, derived functions) answer 'nyi: KX does not
/// document their bytes.
fn write_function(x: &KObj, out: &mut Vec<u8>) -> Result<(), QErr> {
    match x.func_ref() {
        crate::kapi::func::Func::Lambda(l) => {
            out.push(0);
            out.push(KC as u8);
            out.push(0);
            out.extend_from_slice(&(l.text.len() as i32).to_le_bytes());
            out.extend_from_slice(l.text.as_bytes());
            Ok(())
        }
        _ => Err(err("nyi")),
    }
}

/// Teach the serializer functions (session::init, before anything is written).
pub fn init() {
    let _ = crate::kapi::exports::FUNCTIONS.set(write_function);
}

// ---- the listening port -------------------------------------------------------------------

/// `\p`: the port listened on (0: none).
pub fn port() -> i32 {
    LISTENER.with(|l| {
        l.borrow()
            .as_ref()
            .and_then(|l| l.local_addr().ok())
            .map_or(0, |a| a.port() as i32)
    })
}

/// `\p N` / `-p N` (listening-port.md): N a port, `0W` an ephemeral one, 0 to stop listening;
/// ranges, host names, service names and negative (multithreaded) ports are 'nyi.
pub fn command(rest: &str) -> QResult {
    let rest = rest.trim();
    if rest.is_empty() {
        return Ok(KObj::int(port()));
    }
    let n: i64 = match rest {
        "0W" | "0w" => 0,
        "0" => {
            LISTENER.with(|l| *l.borrow_mut() = None);
            return Ok(KObj::identity());
        }
        _ => match rest.parse::<i64>() {
            Ok(n) if (1..=65535).contains(&n) => n,
            Ok(_) | Err(_) => return Err(err("nyi")),
        },
    };
    listen(n as u16)?;
    Ok(KObj::identity())
}

/// Listen on all interfaces at `port` (0: an ephemeral port).
pub fn listen(port: u16) -> Result<(), QErr> {
    main_thread()?;
    let l =
        TcpListener::bind(("0.0.0.0", port)).map_err(|e| os_reports(&format!("p. {port}"), &e))?;
    LISTENER.with(|x| *x.borrow_mut() = Some(l));
    Ok(())
}

/// Whether anything keeps q's main loop serving: a listening port or an open connection.
pub fn active() -> bool {
    LISTENER.with(|l| l.borrow().is_some()) || CONNS.with(|c| !c.borrow().is_empty())
}

/// Descriptors the main loop waits on: the listening socket, then every connection.
pub fn fds() -> Vec<i32> {
    let mut v: Vec<i32> = LISTENER
        .with(|l| l.borrow().as_ref().map(|l| l.as_raw_fd()))
        .into_iter()
        .collect();
    CONNS.with(|c| v.extend(c.borrow().keys().copied()));
    v
}

/// The main loop found `fd` readable: accept a connection, or run the message that came.
pub fn ready(fd: i32) -> Result<(), QErr> {
    let listening = LISTENER.with(|l| l.borrow().as_ref().map(|l| l.as_raw_fd()));
    if listening == Some(fd) {
        return accept();
    }
    if !CONNS.with(|c| c.borrow().contains_key(&fd)) {
        return Ok(());
    }
    let msg = match read_message(fd) {
        Ok(m) => m,
        Err(e) => {
            // the stream can no longer be read in step (a bad header, a read that failed):
            // the connection is closed, as q closes one whose message fails its validator
            peer_closed(fd);
            return Err(e);
        }
    };
    match msg {
        None => {
            peer_closed(fd);
            Ok(())
        }
        Some((mtype @ (ASYNC | SYNC), v)) => run_request(fd, mtype, v),
        // a response nobody waits for is dropped, as a stray message
        Some(_) => Ok(()),
    }
}

fn accept() -> Result<(), QErr> {
    let got = LISTENER.with(|l| l.borrow().as_ref().map(|l| l.accept()));
    let Some(Ok((mut stream, _))) = got else {
        return Ok(());
    };
    let _ = stream.set_nodelay(true);
    // the handshake: credentials and capability, NUL-terminated (a client that sends nothing
    // for 5 s is dropped rather than holding the loop)
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut hello = Vec::new();
    let mut b = [0u8; 1];
    loop {
        match stream.read(&mut b) {
            Ok(1) if b[0] != 0 => hello.push(b[0]),
            Ok(1) => break,
            _ => return Ok(()),
        }
        if hello.len() > 4096 {
            return Ok(());
        }
    }
    let _ = stream.set_read_timeout(None);
    let cap = match hello.last() {
        Some(&c) if c < b' ' => {
            hello.pop();
            c
        }
        _ => 0,
    };
    let text = String::from_utf8_lossy(&hello).into_owned();
    let (user, password) = match text.split_once(':') {
        Some((u, p)) => (u.to_string(), p.to_string()),
        None => (text.clone(), String::new()),
    };
    if let Some(s) = SERVE.get() {
        if !(s.validate)(&user, &password) {
            // KX: "If the server rejects the credentials, it closes the connection immediately"
            return Ok(());
        }
    }
    if cap > 0 && stream.write_all(&[cap.min(CAPABILITY)]).is_err() {
        return Ok(());
    }
    let h = stream.as_raw_fd();
    CONNS.with(|c| {
        c.borrow_mut().insert(
            h,
            Conn {
                stream,
                user,
                cap: cap.min(CAPABILITY),
            },
        )
    });
    if let Some(s) = SERVE.get() {
        let before = CURRENT.with(|c| c.replace(h));
        (s.opened)(h);
        CURRENT.with(|c| c.set(before));
    }
    Ok(())
}

// ---- .z ---------------------------------------------------------------------------------------

/// `.z.w`: the handle whose message is running (0i at the console).
pub fn current() -> i32 {
    CURRENT.with(|c| c.get())
}

/// `.z.u` while a peer's message runs: the user it gave (None at the console).
pub fn current_user() -> Option<String> {
    let h = current();
    (h != 0)
        .then(|| CONNS.with(|c| c.borrow().get(&h).map(|c| c.user.clone())))
        .flatten()
}

/// `.z.H`: the open handles, sorted (dotz.md: with the sorted attribute since 4.1).
pub fn handles() -> KObj {
    let v: Vec<i32> = CONNS.with(|c| c.borrow().keys().copied().collect());
    let x = KObj::from_slice(KI, &v);
    x.set_attr(1);
    x
}

/// `.z.W`: handles and the bytes waiting in their output queues, `I!J` (dotz.md, since 4.1);
/// qhost writes each message at once, so none wait.
pub fn queued() -> KObj {
    let v: Vec<i32> = CONNS.with(|c| c.borrow().keys().copied().collect());
    KObj::dict(
        KObj::from_slice(KI, &v),
        KObj::from_slice(KJ, &vec![0i64; v.len()]),
    )
}

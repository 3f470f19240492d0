//! q's IPC between two qhost processes, and its bytes. Expected values are KX's: the bytes of
//! kb/serialization.md (its `-8!` examples), the messages of basics/ipc.md (sync
//! string and list forms, server and client functions, async set, deferred sync with `h[]`),
//! ref/dotz.md (.z.w in a handler and 0i at the console, .z.po and .z.pc with the handle, .z.pc
//! not called by hclose), basics/listening-port.md (`\p` 0i by default, `0W` an ephemeral port),
//! basics/errors.md (`hop` with the OS's message).
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::run_script;

/// kb/serialization.md: each `-8!x` on the page and the bytes KX prints for it (but the sorted
/// ones: qhost's `` `s# `` of a dictionary or table is 'nyi); `-9!` reads each back to the same
/// value.
#[test]
fn serialization_bytes_are_kx_documented_ones() {
    let cases = [
        ("1i", "0x010000000d000000fa01000000"),
        ("enlist 1i", "0x010000001200000006000100000001000000"),
        ("`byte$til 5", "0x01000000130000000400050000000001020304"),
        (
            "`byte$enlist til 5",
            "0x01000000190000000000010000000400050000000001020304",
        ),
        (
            "`a`b!2 3i",
            "0x0100000021000000630b0002000000610062000600020000000200000003000000",
        ),
        (
            "`a`b!enlist each 2 3i",
            "0x010000002d000000630b0002000000610062000000020000000600010000000200000006000100000003000000",
        ),
        (
            "flip`a`b!enlist each 2 3i",
            "0x010000002f0000006200630b0002000000610062000000020000000600010000000200000006000100000003000000",
        ),
        (
            "([]a:enlist 2i;b:enlist 3i)",
            "0x010000002f0000006200630b0002000000610062000000020000000600010000000200000006000100000003000000",
        ),
        (
            "([a:enlist 2i]b:enlist 3i)",
            "0x010000003f000000636200630b00010000006100000001000000060001000000020000006200630b0001000000620000000100000006000100000003000000",
        ),
        ("{x+y}", "0x010000001500000064000a00050000007b782b797d"),
    ];
    let mut text = String::new();
    for (x, _) in &cases {
        // a lambda read back is a new one, compared by its text
        text.push_str(&format!(
            "-1 .Q.s1 -8!{x};\n-1 .Q.s1 (string {x})~string -9!-8!{x};\n"
        ));
    }
    // the lambda read back is a lambda of the same text
    text.push_str("-1 .Q.s1 (-9!-8!{x+y})[2;3];\n");
    let r = run_script(&text);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    for (i, (x, bytes)) in cases.iter().enumerate() {
        assert_eq!(lines[2 * i], *bytes, "-8!{x}");
        assert_eq!(lines[2 * i + 1], "1b", "-9!-8!{x}");
    }
    assert_eq!(lines[2 * cases.len()], "5");
}

/// A q process started on `script` with `args`; killed if the test fails before it ends.
struct Proc(Option<Child>);

impl Proc {
    fn start(script: &str, args: &[&str]) -> Proc {
        let dir = std::env::temp_dir().join(format!("qhost-ipc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let f = dir.join(format!("p{}.q", N.fetch_add(1, Ordering::SeqCst)));
        std::fs::write(&f, script).unwrap();
        let c = Command::new(env!("CARGO_BIN_EXE_qhost"))
            .arg(&f)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("qhost starts");
        Proc(Some(c))
    }

    /// The first line the process prints (the server's port).
    fn first_line(&mut self) -> String {
        let out = self.0.as_mut().unwrap().stdout.take().unwrap();
        let mut r = BufReader::new(out);
        let mut l = String::new();
        r.read_line(&mut l).unwrap();
        self.0.as_mut().unwrap().stdout = Some(r.into_inner());
        l.trim().to_string()
    }

    /// Wait (at most `secs`) for the process to end: its exit code, stdout, stderr.
    fn finish(mut self, secs: u64) -> (Option<i32>, String, String) {
        let mut c = self.0.take().unwrap();
        let t0 = Instant::now();
        loop {
            if let Some(_s) = c.try_wait().unwrap() {
                break;
            }
            if t0.elapsed() > Duration::from_secs(secs) {
                let _ = c.kill();
                let o = c.wait_with_output().unwrap();
                panic!(
                    "qhost still running after {secs}s: {}\n{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = c.wait_with_output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Some(mut c) = self.0.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

const SERVER: &str = r#"\p 0W
-1 string system"p";
add:{x+y+z}; fn:{2+x}
proc:{neg[.z.w](add . x)}
.z.po:{-1 "po ",.Q.s1 x;}
.z.pc:{-1 "pc ",.Q.s1 x; exit 0}
"#;

const CLIENT: &str = r#"h:hopen "J"$.z.x 0
.z.pc:{-1 "client pc";}
fn:{4+x}
-1 .Q.s1 (h"2+2";h(`fn;2);h("fn";2);h(fn;2);h({x+y};2;3));
neg[h]"a:10";
-1 .Q.s1 h"a";
-1 .Q.s1 @[h;"1+`a";{x}];
-1 .Q.s1 h".z.w";
-1 .Q.s1 .z.w;
neg[h](`proc;1 2 3);res:h[];
-1 .Q.s1 res;
-1 .Q.s1 system"p";
-1 .Q.s1 h"([]a:1 2;b:`x`y)";
-1 .Q.s1 (type h;h in .z.H;h~first key .z.W);
-1 .Q.s1 @[hopen;1;{x}];
hclose h
-1 .Q.s1 .z.H;
"#;

/// basics/ipc.md's messages between a server and a client process, each a qhost.
#[test]
fn a_client_and_a_server() {
    let mut server = Proc::start(SERVER, &[]);
    let port = server.first_line();
    let p: u16 = port.parse().expect("the server prints its port");
    assert!(p > 0);
    let client = Proc::start(CLIENT, &[&port]);
    let (code, out, err) = client.finish(30);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let h = out.lines().nth(3).unwrap().to_string();
    let expected = [
        // server's fn twice (symbol and string), the client's fn sent, a lambda sent
        "4 4 4 6 5",
        "10",
        "\"type\"",
        // .z.w in the server's handler: the server's handle of this connection
        h.as_str(),
        "0i",
        // deferred sync: proc answers through neg[.z.w], h[] takes it
        "6",
        "0i",
        "+`a`b!(1 2;`x`y)",
        "(-6h;1b;1b)",
        "\"hop. OS reports: Connection refused\"",
        "`s#`int$()",
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{err}");
    assert!(h.ends_with('i'), "{h}");
    // the client's hclose calls no .z.pc there; the server's .z.po and .z.pc get its handle
    let (code, out, err) = server.finish(30);
    assert_eq!(code, Some(0), "{out}\n{err}");
    let hs = h.trim_end_matches('i');
    assert_eq!(out, format!("po {hs}i\npc {hs}i\n"), "{err}");
}

/// The server ends (asked to `exit` by a sync message) and a client waiting on the connection
/// gets errors.md's `close`; `-p N` on the command line listens before the script runs; `.z.pw`
/// refuses a user (the client's 'access, errors.md: "failed usr/pwd"); a one-shot request
/// (hopen.md: `` `::5001 "1+1" ``) connects, asks and closes.
#[test]
fn a_server_that_goes_away() {
    let mut server = Proc::start(
        "-1 string system\"p\";\n.z.pw:{[u;p] not u~`mallory}\n",
        &["-p", "0W"],
    );
    let port = server.first_line();
    assert!(port.parse::<u16>().unwrap() > 0, "{port}");
    let client = Proc::start(
        concat!(
            "p:.z.x 0\n",
            "-1 .Q.s1 (`$\"::\",p) \"6*7\";\n",
            "-1 .Q.s1 @[hopen;`$\"::\",p,\":mallory:pw\";{x}];\n",
            "-1 .Q.s1 .z.H;\n",
            "h:hopen `$\"::\",p,\":alice:pw\"\n",
            "-1 .Q.s1 h\"1+1\";\n",
            "-1 .Q.s1 @[h;\"exit 0\";{x}];\n",
            "-1 .Q.s1 .z.H;\n",
        ),
        &[&port],
    );
    let (code, out, err) = client.finish(30);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(
        out, "42\n\"access\"\n`s#`int$()\n2\n\"close\"\n`s#`int$()\n",
        "{err}"
    );
    let (code, _, err) = server.finish(30);
    assert_eq!(code, Some(0), "{err}");
}

/// A peer that sends bytes that are no message (after a good handshake) loses its connection;
/// the server goes on serving others.
#[test]
fn garbage_closes_that_connection_only() {
    use std::io::{Read, Write};
    let mut server = Proc::start(
        "-1 string system\"p\";\n.z.pc:{-1 \"pc\";}\n",
        &["-p", "0W"],
    );
    let port: u16 = server.first_line().parse().unwrap();
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.write_all(b"raw\x03\x00").unwrap();
    let mut cap = [0u8; 1];
    s.read_exact(&mut cap).unwrap();
    assert_eq!(cap[0], 3, "the capability the server agrees");
    // a header whose length is less than a header, then noise
    s.write_all(&[1, 1, 0, 0, 4, 0, 0, 0, 9, 9, 9, 9]).unwrap();
    let mut rest = Vec::new();
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    let n = s.read_to_end(&mut rest).unwrap_or(0);
    assert_eq!(n, 0, "the server closed the connection without answering");
    let client = Proc::start(
        "h:hopen \"J\"$.z.x 0\n-1 .Q.s1 h\"1+1\";\n@[h;\"exit 0\";{}];\n",
        &[&port.to_string()],
    );
    let (code, out, err) = client.finish(30);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(out, "2\n");
    let (code, out, err) = server.finish(30);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "pc\n", "{err}");
    assert!(err.contains("'badmsg"), "{err}");
}

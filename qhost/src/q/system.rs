//! What touches the world outside the value space: system commands (`\l` `\t` `\ts` `\\`),
//! scripts, handles 1/2 (`-1 "text"`), `show`, `exit`, `read0`, `value`/`get`/`set`, `.z.*`,
//! internal functions (`0N!x`, `-8!x`...), and evaluator keywords like `each`.
use std::cell::RefCell;
use std::io::Write;
use std::time::Instant;

use super::globals::{clear_globals, get_global, set_global};
use super::values::{int_of, is_identity};
use super::{err, QErr, QResult};
use crate::kapi::func::Func;
use crate::kapi::hooks::{self, apply};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

thread_local! {
    /// The script being loaded (`.z.f`) and the script arguments (`.z.x`).
    static SCRIPT: RefCell<(String, Vec<String>)> = const { RefCell::new((String::new(), Vec::new())) };
}

pub fn set_args(script: &str, args: Vec<String>) {
    SCRIPT.with(|s| *s.borrow_mut() = (script.to_string(), args));
}

/// q's `exit n` and `\\` unwind with this (defined with the errors, which let it pass).
pub use super::error::ExitRequest;

pub fn request_exit(code: i32) -> ! {
    super::session::run_exit_hook(code);
    std::panic::resume_unwind(Box::new(ExitRequest(code)))
}

/// Flush, drop every global, run the leak check when asked, and leave with `code`.
pub fn exit(code: i32) -> ! {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let mut code = code;
    if std::env::var("QHOST_LEAKCHECK").as_deref() == Ok("1") {
        clear_globals();
        if crate::kapi::exports::leak_report() != 0 {
            code = 1;
        }
    }
    std::process::exit(code)
}

/// `-1 x` / `1 x` / `-2 x` / `2 x`: x a string, a char, or a list of strings.
pub fn write_handle(h: i64, x: &KObj) -> Result<(), QErr> {
    let nl = h < 0;
    let mut text: Vec<u8> = Vec::new();
    match x.t() {
        KC => text.extend_from_slice(x.slice::<u8>()),
        t if t == -KC => text.push(x.get_byte()),
        0 if nl => {
            for (k, s) in x.items().iter().enumerate() {
                if s.t() != KC && s.t() != -KC {
                    return Err(err("type"));
                }
                if k > 0 {
                    text.push(b'\n');
                }
                if s.t() == KC {
                    text.extend_from_slice(s.slice::<u8>());
                } else {
                    text.push(s.get_byte());
                }
            }
        }
        0 if x.is_empty() => {}
        _ => return Err(err("type")),
    }
    if nl {
        text.push(b'\n');
    }
    match h.abs() {
        1 => {
            let mut o = std::io::stdout();
            let _ = o.write_all(&text);
            let _ = o.flush();
        }
        2 => {
            let mut o = std::io::stderr();
            let _ = o.write_all(&text);
            let _ = o.flush();
        }
        _ => return Err(err("nyi")),
    }
    Ok(())
}

fn print_stdout(s: &str) {
    let mut o = std::io::stdout();
    let _ = o.write_all(s.as_bytes());
    let _ = o.flush();
}

/// `value x`: text evaluates, a symbol names a global, a dict answers its values, a list
/// whose first item is a function applies it to the rest.
pub fn value(x: &KObj) -> QResult {
    match x.t() {
        KC => hooks::eval_text(&x.as_string()),
        t if t == -KC => hooks::eval_text(&(x.get_byte() as char).to_string()),
        t if t == -KS => get(x.get_sym()),
        XD => Ok(x.dict_values()),
        _ if super::enums::is_enum(x) => super::enums::values(x),
        // value applies the head to the other items as they are (basics/parsetrees.md:
        // `value(,;`a;`b)` is `a`b, `value(+;7;(+;2;1))` 'type)
        0 if !x.is_empty() => apply_tree(x, false),
        t if t >= 100 && !is_identity(x) => match x.func_ref() {
            Func::Proj { f, args } => {
                let mut v = vec![f.clone()];
                v.extend(
                    args.iter()
                        .map(|a| a.clone().unwrap_or_else(KObj::identity)),
                );
                Ok(KObj::list(v))
            }
            Func::Comp { fs } => Ok(KObj::list(fs.clone())),
            Func::Derived { f, .. } => Ok(f.clone()),
            _ => Err(err("nyi")),
        },
        _ => Ok(x.clone()),
    }
}

/// A parse tree evaluated (basics/parsetrees.md, ref/eval.md, ref/value.md): a symbol is the
/// variable it names; a list of one item is that item as it is (`enlist `x` is `x); a list
/// headed by a function, a symbol naming one or a string of q (`("+";2;2)`, ipc.md) applies it
/// to its other items evaluated right to left; anything else is itself. A general list headed
/// by data is 'nyi.
pub fn eval_tree(x: &KObj) -> QResult {
    apply_tree(x, true)
}

fn apply_tree(x: &KObj, deep: bool) -> QResult {
    if x.t() == -KS && deep {
        return get(x.get_sym());
    }
    if (x.t() == 0 || x.t() == KS) && x.len() == 1 && deep {
        return Ok(crate::q::values::elem(x, 0));
    }
    if x.t() != 0 || x.is_empty() {
        return Ok(x.clone());
    }
    let it = x.items();
    let f = match it[0].t() {
        t if t >= 100 => it[0].clone(),
        t if t == -KS => get(it[0].get_sym())?,
        KC => hooks::eval_text(&it[0].as_string())?,
        t if t == -KC => hooks::eval_text(&(it[0].get_byte() as char).to_string())?,
        _ => return Err(err("nyi")),
    };
    let mut args = Vec::with_capacity(it.len() - 1);
    for a in it[1..].iter().rev() {
        args.push(if deep { eval_tree(a)? } else { a.clone() });
    }
    args.reverse();
    apply(&f, args)
}

fn get(name: &str) -> QResult {
    if let Some(v) = get_global(name) {
        return Ok(v);
    }
    if name.starts_with(".z.") {
        return dotz(name);
    }
    Err(err(name))
}

/// Keywords the evaluator runs itself.
pub fn builtin(op: &str, args: Vec<KObj>) -> QResult {
    let a0 = &args[0];
    match (op, args.len()) {
        ("value", 1) | ("get", 1) | ("eval", 1) => {
            if (op == "get" || op == "value") && a0.t() == -KS && a0.get_sym().starts_with(':') {
                return read_object(a0);
            }
            if op == "eval" {
                return eval_tree(a0);
            }
            value(a0)
        }
        ("set", 2) => {
            if a0.t() != -KS {
                return Err(err("type"));
            }
            let name = a0.get_sym();
            if name.starts_with(':') {
                return write_object(a0, &args[1]);
            }
            super::globals::may_update()?;
            set_global(name, args[1].clone());
            Ok(a0.clone())
        }
        ("show", 1) => {
            if !super::display::showable(a0) {
                return Err(err("nyi"));
            }
            print_stdout(&super::display::show_text(a0));
            Ok(KObj::identity())
        }
        ("system", 1) => {
            if a0.t() != KC && a0.t() != -KC {
                return Err(err("type"));
            }
            let s = if a0.t() == KC {
                a0.as_string()
            } else {
                (a0.get_byte() as char).to_string()
            };
            command(&s)
        }
        ("exit", 1) => {
            let code = int_of(a0).ok_or_else(|| err("type"))?;
            request_exit(code as i32)
        }
        ("save", 1) => save(a0),
        ("read0", 1) => read0(a0),
        ("read1", 1) => super::binfile::read1(a0),
        ("hcount", 1) => super::binfile::hcount(a0),
        ("hdel", 1) => {
            let p = path_of(a0)?;
            // as q: a file, or an empty directory
            let gone = if std::path::Path::new(&p).is_dir() {
                std::fs::remove_dir(&p)
            } else {
                std::fs::remove_file(&p)
            };
            gone.map_err(|e| os_err(&p, &e))?;
            Ok(a0.clone())
        }
        ("getenv", 1) => {
            if a0.t() != -KS {
                return Err(err("type"));
            }
            Ok(KObj::string(
                &std::env::var(a0.get_sym()).unwrap_or_default(),
            ))
        }
        ("setenv", 2) => {
            if a0.t() != -KS || args[1].t() != KC {
                return Err(err("type"));
            }
            std::env::set_var(a0.get_sym(), args[1].as_string());
            Ok(KObj::identity())
        }
        ("hopen", 1) => super::ipc::hopen(a0),
        ("hclose", 1) => super::ipc::hclose(a0),
        ("fby", 2) => fby(a0, &args[1]),
        ("each", 2) => super::adverbs::apply_derived(a0, "'", vec![args[1].clone()]),
        ("peach", 2) => super::peach::peach(a0, &args[1]),
        ("over", 2) => super::adverbs::apply_derived(a0, "/", vec![args[1].clone()]),
        ("scan", 2) => super::adverbs::apply_derived(a0, "\\", vec![args[1].clone()]),
        ("prior", 2) => super::adverbs::apply_derived(a0, "':", vec![args[1].clone()]),
        (_, _) if args.len() > super::builtins::valence(op) => Err(err("rank")),
        _ => Err(err("nyi")),
    }
}

/// `` `:path set x ``: x in kdb+'s single-object file form (0xff01, then the object as IPC
/// writes it); a path ending in `/` (a splayed table) is 'nyi.
fn write_object(h: &KObj, x: &KObj) -> QResult {
    let p = path_of(h)?;
    if p.ends_with('/') {
        return Err(err("nyi"));
    }
    let msg = crate::kapi::exports::serialize(x, 3)?;
    let mut bytes = vec![0xffu8, 0x01];
    bytes.extend_from_slice(&msg.slice::<u8>()[8..]);
    std::fs::write(&p, &bytes).map_err(|e| QErr(format!("{p}. OS reports: {}", os_msg(&e))))?;
    Ok(h.clone())
}

/// `` get `:path ``: an object `set` wrote in the single-object form; q's other on-disk
/// layouts (0xfe20 vectors, 0xfd20 lists, splayed folders) are 'nyi.
fn read_object(h: &KObj) -> QResult {
    let p = path_of(h)?;
    if std::path::Path::new(&p).is_dir() {
        return Err(err("nyi"));
    }
    let bytes = std::fs::read(&p).map_err(|e| QErr(format!("{p}. OS reports: {}", os_msg(&e))))?;
    if bytes.len() < 3 || bytes[0] != 0xff || bytes[1] != 0x01 {
        return Err(err("nyi"));
    }
    let n = bytes.len() - 2 + 8;
    let mut msg = vec![1u8, 0, 0, 0];
    msg.extend_from_slice(&(n as u32).to_le_bytes());
    msg.extend_from_slice(&bytes[2..]);
    crate::kapi::exports::deserialize(&KObj::from_slice(KG, &msg))
}

/// `` save `:path/name ``: the global `name` to the file (binary; a name with an extension,
/// which q writes as text, is 'nyi).
fn save(h: &KObj) -> QResult {
    let p = path_of(h)?;
    let name = p.rsplit('/').next().unwrap_or(&p).to_string();
    if name.contains('.') {
        return Err(err("nyi"));
    }
    let v = get_global(&name).ok_or_else(|| err(&name))?;
    let handle = if h.t() == -KS {
        h.clone()
    } else {
        KObj::sym(&format!(":{p}"))
    };
    write_object(&handle, &v)
}

/// A file path from a symbol (`` `:path `` or `` `path ``) or string.
fn path_of(x: &KObj) -> Result<String, QErr> {
    match x.t() {
        t if t == -KS => Ok(x.get_sym().trim_start_matches(':').to_string()),
        KC => Ok(x.as_string()),
        _ => Err(err("type")),
    }
}

fn read0(x: &KObj) -> QResult {
    let p = path_of(x)?;
    let bytes = std::fs::read(&p).map_err(|e| QErr(format!("{p}. OS reports: {}", os_msg(&e))))?;
    let mut lines: Vec<&[u8]> = bytes.split(|&c| c == b'\n').collect();
    if bytes.ends_with(b"\n") {
        lines.pop();
    }
    let items = lines
        .into_iter()
        .map(|l| KObj::from_slice(KC, l.strip_suffix(b"\r").unwrap_or(l)))
        .collect();
    Ok(KObj::list(items))
}

fn os_err(p: &str, e: &std::io::Error) -> QErr {
    QErr(format!("{p}. OS reports: {}", os_msg(e)))
}

fn os_msg(e: &std::io::Error) -> String {
    let s = e.to_string();
    s.split(" (os error").next().unwrap_or(&s).to_string()
}

/// Internal functions `n!x` with negative n, and `0N!x`.
pub fn internal(n: &KObj, x: &KObj) -> QResult {
    let v = int_of(n).unwrap_or(0);
    match v {
        NJ => {
            let s = one_line(x)?;
            print_stdout(&format!("{s}\n"));
            Ok(x.clone())
        }
        -3 => Ok(KObj::string(&one_line(x)?)),
        // enumerations go as their symbols (b9 mode 3 "unenumerate", capiref.md)
        -8 => crate::kapi::exports::serialize(&super::enums::unenumerate(x)?, 3),
        -9 => crate::kapi::exports::deserialize(x),
        _ => Err(err("nyi")),
    }
}

/// The one-line console form (`-3!x`, `0N!x`): the display's `.Q.s1`.
fn one_line(x: &KObj) -> Result<String, QErr> {
    if !super::display::showable(x) {
        return Err(err("nyi"));
    }
    Ok(super::display::one_line(x))
}

/// `.Q.fmt[w;d;x]` and `.Q.f[d;x]` on a number or a list of numbers (strings answered).
pub fn qfmt(op: &str, args: &[KObj]) -> QResult {
    let ints: Vec<usize> = args[..args.len() - 1]
        .iter()
        .map(|a| {
            int_of(a)
                .filter(|v| *v >= 0)
                .map(|v| v as usize)
                .ok_or_else(|| err("type"))
        })
        .collect::<Result<_, _>>()?;
    let x = &args[args.len() - 1];
    let one = |v: &KObj| -> QResult {
        let f = match v.t() {
            t if t == -KE => v.get_real() as f64,
            t if t == -KF => v.get_float(),
            _ => int_of(v).ok_or_else(|| err("type"))? as f64,
        };
        Ok(KObj::string(&if op == ".Q.f" {
            super::display::fmt_fixed(ints[0], f)
        } else {
            super::display::fmt_width(ints[0], ints[1], f)
        }))
    };
    if x.is_vector() {
        let mut out = Vec::new();
        for v in super::values::list_items(x) {
            out.push(one(&v)?);
        }
        return Ok(KObj::list(out));
    }
    one(x)
}

/// `.z.*` values.
pub fn dotz(name: &str) -> QResult {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let utc_ns = now.as_nanos() as i64 - 946_684_800_000_000_000;
    let local_ns = utc_ns + tz_offset_secs() * 1_000_000_000;
    let day = 86_400_000_000_000i64;
    let (ns, local) = match name.as_bytes().get(3) {
        Some(c) if c.is_ascii_uppercase() => (local_ns, true),
        _ => (utc_ns, false),
    };
    let _ = local;
    Ok(match name {
        ".z.f" => KObj::sym(&SCRIPT.with(|s| s.borrow().0.clone())),
        ".z.x" => {
            KObj::list(SCRIPT.with(|s| s.borrow().1.iter().map(|a| KObj::string(a)).collect()))
        }
        ".z.P" | ".z.p" => KObj::temporal(KP, ns),
        ".z.N" | ".z.n" => KObj::temporal(KN, ns.rem_euclid(day)),
        ".z.D" | ".z.d" => KObj::temporal(KD, ns.div_euclid(day)),
        ".z.T" | ".z.t" => KObj::temporal(KT, ns.rem_euclid(day) / 1_000_000),
        ".z.Z" | ".z.z" => KObj::datetime(ns as f64 / day as f64),
        ".z.K" => KObj::float(4.1),
        ".z.k" => KObj::temporal(KD, crate::q::literal::days_from_civil(2024, 10, 1)),
        ".z.o" => KObj::sym("l64"),
        ".z.i" => KObj::int(std::process::id() as i32),
        ".z.h" => {
            let mut buf = [0u8; 256];
            unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
            let n = buf.iter().position(|&c| c == 0).unwrap_or(0);
            KObj::sym(&String::from_utf8_lossy(&buf[..n]))
        }
        // while a peer's message runs, the user it connected as (dotz.md)
        ".z.u" => KObj::sym(
            &super::ipc::current_user()
                .unwrap_or_else(|| std::env::var("USER").unwrap_or_default()),
        ),
        ".z.w" => KObj::int(super::ipc::current()),
        ".z.H" => super::ipc::handles(),
        ".z.W" => super::ipc::queued(),
        _ => return Err(err(name)),
    })
}

fn tz_offset_secs() -> i64 {
    unsafe {
        let t = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        libc::localtime_r(&t, &mut tm);
        tm.tm_gmtoff
    }
}

// ---- system commands and scripts ---------------------------------------------------------

/// A system command without its backslash: `l file`, `t expr`, `t:n expr`, `ts expr`, `\`.
pub fn command(cmd: &str) -> QResult {
    let cmd = cmd.trim();
    let (word, rest) = match cmd.find(|c: char| c.is_whitespace()) {
        Some(i) => (&cmd[..i], cmd[i..].trim()),
        None => (cmd, ""),
    };
    let (name, count) = match word.split_once(':') {
        Some((a, n)) => (a, Some(n)),
        None => (word, None),
    };
    if let Some(r) = super::session::command(name, count, rest) {
        return r;
    }
    match name {
        "\\" => request_exit(0),
        "l" => {
            if rest.is_empty() {
                return Err(err("nyi"));
            }
            load_script(rest)?;
            Ok(KObj::identity())
        }
        "t" | "ts" => {
            let n: i64 = match count {
                Some(c) => c.parse().map_err(|_| err("type"))?,
                None => 1,
            };
            if rest.is_empty() {
                return Err(err("nyi"));
            }
            let expr = hooks::compile(rest)?;
            let t0 = Instant::now();
            for _ in 0..n.max(0) {
                expr()?;
            }
            let ms = t0.elapsed().as_millis() as i64;
            if name == "t" {
                Ok(KObj::long(ms))
            } else {
                // qhost does not track bytes per expression: the space is reported as 0
                Ok(KObj::from_slice(KJ, &[ms, 0]))
            }
        }
        "P" => {
            // \P shows the precision, \P n sets it (0..17)
            if rest.is_empty() {
                return Ok(KObj::int(super::display::precision() as i32));
            }
            let p: i64 = rest.parse().map_err(|_| err("type"))?;
            if !(0..=17).contains(&p) {
                return Err(err("domain"));
            }
            super::display::set_precision(p as usize);
            Ok(KObj::identity())
        }
        "c" => {
            // \c shows console height and width, \c h w sets them
            let (h, w) = super::display::console_size();
            if rest.is_empty() {
                return Ok(KObj::from_slice(KI, &[h as i32, w as i32]));
            }
            let v: Vec<i64> = rest
                .split_whitespace()
                .map(|x| x.parse::<i64>().map_err(|_| err("type")))
                .collect::<Result<_, _>>()?;
            if v.len() != 2 || v.iter().any(|&x| x < 0) {
                return Err(err("type"));
            }
            super::display::set_console(v[0] as usize, v[1] as usize);
            Ok(KObj::identity())
        }
        _ if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && name.len() <= 2 => {
            Err(err("nyi"))
        }
        // q's own commands in upper case, digits or _ (basics/syscmds.md: \B \C \E \S \T \W 
        //  \_) are q's, never the shell's
        _ if name.len() == 1
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') =>
        {
            Err(err("nyi"))
        }
        _ => os_command(cmd),
    }
}

/// Anything else goes to the shell, as q does; the answer is its output lines.
fn os_command(cmd: &str) -> QResult {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|_| err("os"))?;
    if !out.status.success() {
        return Err(err("os"));
    }
    let mut lines: Vec<&[u8]> = out.stdout.split(|&c| c == b'\n').collect();
    if out.stdout.ends_with(b"\n") {
        lines.pop();
    }
    Ok(KObj::list(
        lines.into_iter().map(|l| KObj::from_slice(KC, l)).collect(),
    ))
}

/// An error while loading a script: the error and the text of the statement that failed.
pub struct ScriptErr {
    pub err: QErr,
    pub line: String,
}

thread_local! {
    static LAST_FAIL: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The statement that failed last in a script (for main's error report).
pub fn take_failed_line() -> Option<String> {
    LAST_FAIL.with(|l| l.borrow_mut().take())
}

/// `\l file`: run a script's statements in order (results are not printed).
pub fn load_script(path: &str) -> Result<(), QErr> {
    let text = std::fs::read(path).map_err(|_| QErr(path.to_string()))?;
    let text = String::from_utf8_lossy(&text).into_owned();
    // .z.f stays the script named on the command line, as in q, while \l runs another
    let r = run_script_text(&text);
    r.map_err(|e| {
        LAST_FAIL.with(|l| {
            let mut l = l.borrow_mut();
            if l.is_none() {
                *l = Some(e.line.clone());
            }
        });
        e.err
    })
}

/// Split a script into statements: lines starting with whitespace continue the previous one;
/// `/` lines are comments, a lone `/` opens a comment block closed by a lone `\`, a lone `\`
/// otherwise ends the script; `\cmd` lines are system commands.
pub fn statements(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_block = false;
    let mut cur: Option<String> = None;
    for raw in text.lines() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim_end();
        if in_block {
            if trimmed == "\\" {
                in_block = false;
            }
            continue;
        }
        if trimmed == "/" {
            in_block = true;
            continue;
        }
        if trimmed == "\\" {
            break;
        }
        if line.starts_with('/') {
            continue;
        }
        if line.starts_with(' ') || line.starts_with('\t') {
            if line.trim().is_empty() {
                continue;
            }
            match &mut cur {
                Some(c) => {
                    c.push('\n');
                    c.push_str(line);
                }
                None => cur = Some(line.to_string()),
            }
            continue;
        }
        if trimmed.is_empty() {
            // a blank line inside a multi-line definition does not end it: the statement
            // ends at the next line that starts in column 1
            continue;
        }
        if let Some(c) = cur.take() {
            out.push(c);
        }
        cur = Some(line.to_string());
    }
    if let Some(c) = cur.take() {
        out.push(c);
    }
    out
}

fn run_script_text(text: &str) -> Result<(), ScriptErr> {
    for st in statements(text) {
        let r = if let Some(cmd) = st.strip_prefix('\\') {
            // q prints the result of \t and \ts run from a script (not of other commands)
            let timed = matches!(cmd.split([' ', ':']).next(), Some("t" | "ts"))
                && cmd
                    .split_once(' ')
                    .is_some_and(|(_, e)| !e.trim().is_empty());
            let r = command(cmd);
            if let (true, Ok(v)) = (timed, &r) {
                print_stdout(&super::display::show_text(v));
            }
            r.map(|_| KObj::identity())
        } else {
            hooks::eval_text(&st)
        };
        if let Err(e) = r {
            return Err(ScriptErr { err: e, line: st });
        }
    }
    Ok(())
}

/// `(f;x) fby g` (code.kx.com/q/ref/fby): f applied to x's items of each group of g, the
/// result given to every row of the group; g a vector of x's count (a table of groups is 'nyi).
fn fby(fx: &KObj, g: &KObj) -> QResult {
    if fx.t() != 0 || fx.len() != 2 {
        return Err(err("type"));
    }
    let (f, x) = (fx.item(0), fx.item(1));
    if !g.is_vector() || g.t() == 0 {
        return Err(err("nyi"));
    }
    if x.is_atom() || x.len() != g.len() {
        return Err(err("length"));
    }
    let groups = crate::q::verbs::apply_prim("group", vec![g.clone()])?.dict_values();
    let mut out: Vec<Option<KObj>> = vec![None; g.len() as usize];
    for idx in super::values::list_items(&groups) {
        let r = apply(&f, vec![crate::q::verbs::index::at(&x, &idx)?])?;
        let rows = super::values::ints_of(&idx).unwrap_or_default();
        // an aggregate gives every row of its group the one value; a function answering a list
        // of the group's count gives each row its own item (KX's `{exec lmt>=sums qty from x}`)
        let each = !r.is_atom() && r.t() != XD && r.len() == rows.len() as i64;
        for (k, i) in rows.into_iter().enumerate() {
            out[i as usize] = Some(if each {
                super::values::elem(&r, k as i64)
            } else {
                r.clone()
            });
        }
    }
    Ok(super::values::from_items(
        out.into_iter().map(|v| v.unwrap()).collect(),
    ))
}

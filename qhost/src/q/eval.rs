//! Evaluation of the syntax tree: right to left, locals and globals, control words,
//! application (functions, projections, indexing), and the `@`/`.` family.
// qSQL is evaluation of the syntax tree's `Sql` nodes in frames of columns: part of the evaluator
pub mod qsql;

use std::cell::Cell;
// Arc: lambdas are shared with peach's secondary threads
use std::sync::Arc as Rc;

pub use super::adverbs::valence;
use super::builtins;
use super::interrupt::stack_ok;
use super::parser::{self, Node};
use crate::kapi::func::{self, Func, Lambda};
// the globals as the evaluator's callers have always named them (eval::get_global...)
pub use super::globals::{clear_globals, get_global, global_names, remove_global, set_global};
use super::values::{self, arg_items, from_items, int_of, is_identity, truthy};
use super::{err, QErr, QResult};
use crate::kapi::kobj::*;
use crate::kapi::KObj;

/// Why evaluation stopped early: an error, or `:x` returning from a lambda.
pub enum Flow {
    Err(QErr),
    Ret(KObj),
}

impl From<QErr> for Flow {
    fn from(e: QErr) -> Flow {
        Flow::Err(e)
    }
}

pub type R = Result<KObj, Flow>;

/// Leave `Flow` for `QResult` at a function boundary (`:x` outside a lambda is its value).
pub fn done(r: R) -> QResult {
    match r {
        Ok(v) | Err(Flow::Ret(v)) => Ok(v),
        Err(Flow::Err(e)) => Err(e),
    }
}

/// Locals of one lambda call (or the columns of a qSQL query, or nothing at top level): the
/// names (a lambda's, shared by its calls) and their values by slot.
#[derive(Default)]
pub struct Frame {
    pub names: Rc<Vec<String>>,
    pub vals: Vec<Option<KObj>>,
    /// The running function, for `.z.s`.
    pub this: Option<KObj>,
}

impl Frame {
    fn slot(&self, n: &str) -> Option<usize> {
        self.names.iter().position(|x| x == n)
    }
}

thread_local! {
    /// Evaluation steps left before 'stop (0: no limit); see `set_step_limit`.
    static STEPS_LEFT: Cell<u64> = const { Cell::new(0) };
}

/// Limit the evaluation steps of this thread (None: unlimited); past it, evaluation signals
/// 'stop, as q does when its timeout (\T) expires. Used by the fuzz test to bound loops.
pub fn set_step_limit(n: Option<u64>) {
    STEPS_LEFT.with(|c| c.set(n.map(|v| v.max(1)).unwrap_or(0)));
}

fn step() -> Result<(), QErr> {
    super::interrupt::check()?;
    STEPS_LEFT.with(|c| match c.get() {
        0 => Ok(()),
        1 => Err(err("stop")),
        n => {
            c.set(n - 1);
            Ok(())
        }
    })
}

/// Install the evaluator's entry points for the layers below it (`kapi::hooks`: the C API,
/// iterators, amend, qSQL, peach, system commands, the main loop). `main` calls it first;
/// `eval_text` makes sure of it for a library user that starts there.
pub fn install() {
    crate::kapi::hooks::install(crate::kapi::hooks::Hooks {
        eval_text,
        apply,
        compile,
        exit: super::system::exit,
    });
    // lambdas written by -8! and sent over IPC: their text, from the function objects
    super::ipc::init();
}

/// An expression parsed once, evaluated at top level each time it is called (`\t:n`).
fn compile(src: &str) -> Result<crate::kapi::hooks::Compiled, QErr> {
    let node = parser::parse(src)?;
    Ok(Box::new(move || done(eval(&node, &mut Frame::default()))))
}

/// Evaluate source text at top level.
pub fn eval_text(src: &str) -> QResult {
    install();
    let t = src.trim_start();
    if let Some(cmd) = t.strip_prefix('\\') {
        return super::system::command(cmd);
    }
    let node = parser::parse(src)?;
    let mut fr = Frame::default();
    done(eval(&node, &mut fr))
}

/// Apply f to arguments (k(0,"f",..) and `.`).
pub fn apply(f: &KObj, args: Vec<KObj>) -> QResult {
    done(apply_opt(f, args.into_iter().map(Some).collect()))
}

/// The value of a primitive glyph or keyword as a function object.
pub fn prim_value(op: &str) -> KObj {
    if op == "::" {
        return KObj::identity();
    }
    let t = if builtins::is_glyph(op) || builtins::valence(op) >= 2 {
        func::T_BINARY
    } else {
        func::T_UNARY
    };
    KObj::func(t, Func::Prim { op: op.to_string() })
}

pub fn eval(n: &Node, fr: &mut Frame) -> R {
    if !stack_ok() {
        return Err(err("stack").into());
    }
    step()?;
    match n {
        Node::Const(k) => Ok(k.clone()),
        Node::Nil => Ok(KObj::identity()),
        Node::Name(s) => lookup(s, fr),
        Node::Local(i, s) => match fr.vals.get(*i) {
            Some(Some(v)) => Ok(v.clone()),
            _ => Err(err(s).into()),
        },
        Node::Prim(op) => Ok(prim_value(op)),
        Node::Lambda(l) => Ok(KObj::func(func::T_LAMBDA, Func::Lambda(l.clone()))),
        Node::Derived(f, adv) => {
            let fv = eval(f, fr)?;
            Ok(KObj::func(
                func::adverb_type(adv),
                Func::Derived {
                    f: fv,
                    adv: adv.clone(),
                },
            ))
        }
        Node::Seq(v) => {
            let mut last = KObj::identity();
            for s in v {
                last = eval(s, fr)?;
            }
            Ok(last)
        }
        Node::List(items) => {
            let vals = eval_args(items, fr)?;
            if vals.iter().any(|v| v.is_none()) {
                // (1;;3) with an elided item is enlist projected, as f[1;;3] is f's: `(;1) x`
                // is (x;1) (real q in ktorch's math-other.rst: `diag(;1)diag(1 2 3 4;1)`)
                return apply_opt(&prim_value("enlist"), vals);
            }
            Ok(from_items(vals.into_iter().map(|v| v.unwrap()).collect()))
        }
        Node::Return(e) => {
            let v = eval(e, fr)?;
            Err(Flow::Ret(v))
        }
        Node::Signal(e) => {
            let v = eval(e, fr)?;
            Err(Flow::Err(QErr(signal_text(&v)?)))
        }
        Node::Assign {
            name,
            idx,
            op,
            val,
            global,
        } => assign(name, idx.as_deref(), op.as_deref(), val, *global, fr),
        Node::Apply(f, args) => eval_apply(f, args, fr),
        Node::Juxt(f, x) => {
            let xv = eval(x, fr)?;
            if let Node::Prim(op) = &**f {
                return Ok(call_prim(op, vec![xv])?);
            }
            let fv = eval(f, fr)?;
            apply_opt(&fv, vec![Some(xv)])
        }
        // `(pattern):value` is q 4.1's pattern matching (basics/pattern.md): nyi
        Node::Dyad(op, _, _) if matches!(&**op, Node::Prim(o) if o == ":") => {
            Err(err("nyi").into())
        }
        Node::Dyad(op, a, b) => {
            let bv = eval(b, fr)?;
            let av = eval(a, fr)?;
            if let Node::Prim(o) = &**op {
                return Ok(call_prim(o, vec![av, bv])?);
            }
            let fv = eval(op, fr)?;
            apply_opt(&fv, vec![Some(av), Some(bv)])
        }
        Node::Table(keys, cols) => table_literal(keys, cols, fr),
        Node::Sql(s) => Ok(qsql::eval(s, fr)?),
        Node::Elide => Ok(KObj::identity()),
    }
}

/// The message of `'x`: a symbol's or string's text (q signals other types as 'type... except
/// that q 4 also allows any string-like value).
fn signal_text(v: &KObj) -> Result<String, QErr> {
    match v.t() {
        t if t == -KS => Ok(v.get_sym().to_string()),
        KC => Ok(v.as_string()),
        t if t == -KC => Ok((v.get_byte() as char).to_string()),
        _ => Err(err("type")),
    }
}

/// Evaluate arguments right to left (as q does); Elide gives None.
fn eval_args(args: &[Node], fr: &mut Frame) -> Result<Vec<Option<KObj>>, Flow> {
    let mut out: Vec<Option<KObj>> = Vec::with_capacity(args.len());
    for a in args.iter().rev() {
        out.push(match a {
            Node::Elide | Node::Nil => None,
            _ => Some(eval(a, fr)?),
        });
    }
    out.reverse();
    Ok(out)
}

fn eval_apply(f: &Node, args: &[Node], fr: &mut Frame) -> R {
    match f {
        Node::Name(w) if (w == "if" || w == "do" || w == "while") && fr.slot(w).is_none() => {
            return control(w, args, fr);
        }
        Node::Prim(op) if op == "$" && args.len() >= 3 => return cond(args, fr),
        _ => {}
    }
    let mut vals = eval_args(args, fr)?;
    // f[] is f applied to `::`, as in q
    if vals.len() == 1 && vals[0].is_none() && matches!(args[0], Node::Nil) {
        let fv = eval(f, fr)?;
        if fv.is_func() && valence(&fv) <= 1 {
            vals[0] = Some(KObj::identity());
        }
        return apply_opt(&fv, vals);
    }
    let fv = eval(f, fr)?;
    apply_opt(&fv, vals)
}

/// if[c;..] do[n;..] while[c;..]: the condition is evaluated, the body only as it says.
fn control(w: &str, args: &[Node], fr: &mut Frame) -> R {
    if args.is_empty() {
        return Err(err("rank").into());
    }
    let test = |v: &KObj| truthy(v).ok_or_else(|| Flow::Err(err("type")));
    match w {
        "if" => {
            let c = eval(&args[0], fr)?;
            if test(&c)? {
                for a in &args[1..] {
                    eval(a, fr)?;
                }
            }
        }
        "do" => {
            let c = eval(&args[0], fr)?;
            let n = int_of(&c).ok_or_else(|| Flow::Err(err("type")))?;
            for _ in 0..n.max(0) {
                for a in &args[1..] {
                    eval(a, fr)?;
                }
            }
        }
        _ => loop {
            let c = eval(&args[0], fr)?;
            if !test(&c)? {
                break;
            }
            for a in &args[1..] {
                eval(a, fr)?;
            }
        },
    }
    Ok(KObj::identity())
}

/// $[c;t;f], $[c1;t1;c2;t2;..;f].
fn cond(args: &[Node], fr: &mut Frame) -> R {
    let mut i = 0;
    while i + 1 < args.len() {
        let c = eval(&args[i], fr)?;
        let b = truthy(&c).ok_or_else(|| Flow::Err(err("type")))?;
        if b {
            return eval(&args[i + 1], fr);
        }
        i += 2;
    }
    if i < args.len() {
        return eval(&args[i], fr);
    }
    Ok(KObj::identity())
}

fn lookup(s: &str, fr: &mut Frame) -> R {
    if let Some(i) = fr.slot(s) {
        return match &fr.vals[i] {
            Some(v) => Ok(v.clone()),
            None => Err(err(s).into()),
        };
    }
    if let Some(v) = get_global(s) {
        return Ok(v);
    }
    if s == ".z.s" {
        return fr.this.clone().ok_or_else(|| err(s).into());
    }
    if s.starts_with(".z.") {
        return Ok(super::system::dotz(s)?);
    }
    if builtins::is_builtin(s) || matches!(s, ".Q.s" | ".Q.fmt" | ".Q.s1" | ".Q.f") {
        return Ok(prim_value(s));
    }
    if let Some(v) = super::constants::get(s) {
        return Ok(v);
    }
    if let Some(v) = dotted(s, fr)? {
        return Ok(v);
    }
    // one of q's own names that qhost does not implement: 'nyi, not an undefined name; so
    // are q's namespaces (.q, .Q, the root `.`) and a namespace whose names qhost keeps flat
    // (`.ns` where .ns.v is set): qhost holds no namespace dictionaries
    if super::reserved::is_q_name(s)
        || s == "."
        || s == ".q"
        || s.starts_with(".q.")
        || (s.starts_with('.') && !global_names(&format!("{s}.")).is_empty())
    {
        return Err(err("nyi").into());
    }
    Err(err(s).into())
}

/// `d.k` / `.ns.d.k`: a dotted name whose leading part names a dictionary (a local or global)
/// indexes it by the remaining parts, as q does for dictionaries with symbol keys
/// (code.kx.com/q/basics/namespaces). None when no leading part names a dictionary.
fn dotted(s: &str, fr: &mut Frame) -> Result<Option<KObj>, Flow> {
    let dots: Vec<usize> = s
        .match_indices('.')
        .map(|(i, _)| i)
        .filter(|&i| i > 0)
        .collect();
    for &cut in dots.iter().rev() {
        let (head, rest) = (&s[..cut], &s[cut + 1..]);
        if rest.is_empty() || head.ends_with('.') {
            continue;
        }
        // q reads dotted names as globals (a local dictionary is not searched)
        let _ = &fr;
        let base = get_global(head);
        let Some(mut v) = base else { continue };
        for k in rest.split('.') {
            if v.t() != XD || v.dict_keys().t() != KS {
                return Err(err("type").into());
            }
            v = super::verbs::index::at(&v, &KObj::sym(k))?;
        }
        return Ok(Some(v));
    }
    Ok(None)
}

/// `d.k:v` where `d` is a global dictionary (or `.ns.d` a dictionary in a namespace):
/// the dictionary is amended at key `k`. None when no leading part names a dictionary.
fn dotted_target(name: &str) -> Option<(String, Vec<KObj>)> {
    let dots: Vec<usize> = name
        .match_indices('.')
        .map(|(i, _)| i)
        .filter(|&i| i > 0)
        .collect();
    for &cut in dots.iter().rev() {
        let (head, rest) = (&name[..cut], &name[cut + 1..]);
        if rest.is_empty() {
            continue;
        }
        if let Some(v) = get_global(head) {
            if v.t() == XD && v.dict_keys().t() == KS {
                return Some((head.to_string(), rest.split('.').map(KObj::sym).collect()));
            }
            return None;
        }
    }
    None
}

fn assign(
    name: &str,
    idx: Option<&[Node]>,
    op: Option<&Node>,
    val: &Node,
    global: bool,
    fr: &mut Frame,
) -> R {
    let v = eval(val, fr)?;
    if name.contains('.') && get_global(name).is_none() && (global || fr.slot(name).is_none()) {
        if let Some((head, mut keys)) = dotted_target(name) {
            // d.k:v, d.k[i]:v, d.k+:v amend the dictionary d (a global) at its key path
            let opf = match op {
                Some(Node::Prim(p)) => Some(prim_value(p)),
                Some(other) => Some(eval(other, fr)?),
                None => None,
            };
            if let Some(ix) = idx {
                for x in eval_args(ix, fr)? {
                    keys.push(x.unwrap_or_else(KObj::identity));
                }
            }
            let cur = get_global(&head).unwrap();
            let newv = super::amend::amend_path(cur, &keys, opf.as_ref(), Some(v.clone()))?;
            set_global(&head, newv);
            return Ok(v);
        }
    }
    // `::` assigns a local when the name is an argument or a local (basics/function-notation.md:
    // `{[a;b]b::99;a+b}[10;20]` is 109)
    let local = fr.slot(name).is_some();
    let current = |fr: &Frame| -> R {
        if local {
            let i = fr.slot(name).unwrap();
            fr.vals[i].clone().ok_or_else(|| err(name).into())
        } else {
            get_global(name).ok_or_else(|| err(name).into())
        }
    };
    let opf = match op {
        Some(o) => Some(match o {
            Node::Prim(p) => prim_value(p),
            other => eval(other, fr)?,
        }),
        None => None,
    };
    let mut new_item: Option<KObj> = None;
    let newv = match idx {
        None => match &opf {
            None => v.clone(),
            Some(_) if matches!(op, Some(Node::Prim(p)) if p == ",") && current(fr).is_ok() => {
                append(current(fr)?, &v)?
            }
            Some(f) => {
                let cur = match current(fr) {
                    Ok(c) => c,
                    Err(e) if !local => {
                        // `i+:1` / `l,:x` on a global not yet defined start it from the value
                        // (ktorch's examples, run in q, count with `i+:1` from nothing); other
                        // operators on nothing are 'nyi
                        return match op {
                            Some(Node::Prim(p)) if p == "+" => {
                                set_global(name, v.clone());
                                Ok(v)
                            }
                            Some(Node::Prim(p)) if p == "," => {
                                let nv = if v.is_atom() {
                                    super::verbs::structure::enlist(vec![v.clone()])
                                } else {
                                    v.clone()
                                };
                                set_global(name, nv.clone());
                                Ok(nv)
                            }
                            _ if matches!(&e, Flow::Err(_)) => Err(err("nyi").into()),
                            _ => Err(e),
                        };
                    }
                    Err(e) => return Err(e),
                };
                apply_opt(f, vec![Some(cur), Some(v.clone())])?
            }
        },
        Some(ix) => {
            let iv = eval_args(ix, fr)?;
            let path: Vec<KObj> = iv
                .into_iter()
                .map(|x| x.unwrap_or_else(KObj::identity))
                .collect();
            let cur = current(fr)?;
            // a simple list keeps its type: an item of another type is 'type (ref/assign.md
            // `s[1]:5f`); a general list whose items become atoms of one type is a vector
            if opf.is_none() && path.len() == 1 && cur.t() > 0 && cur.t() < 20 {
                let vt = v.t().abs();
                if vt != cur.t() && !(v.t() == 0 && v.is_empty()) {
                    return Err(err("type").into());
                }
            }
            let r = super::amend::amend_path(cur, &path, opf.as_ref(), Some(v.clone()))?;
            if opf.is_some() {
                new_item = Some(super::verbs::index::dot(&r, &KObj::list(path.clone()))?);
            }
            if r.t() == 0 && !r.is_empty() && r.items().iter().all(|a| a.is_atom()) {
                super::values::from_items(r.items())
            } else {
                r
            }
        }
    };
    // `x op: y` is worth the new x (gpt/math.q reads `y:1_'x@:i` as 1_'x@i), `x[i] op: y` the
    // new x[i] (ref/assign.md `1+a[2]+:5` is 8); `x:y` and `x[i]:y` are worth y
    let result = if let Some(it) = new_item {
        it
    } else if idx.is_none() && opf.is_some() {
        newv.clone()
    } else {
        v
    };
    if local {
        let i = fr.slot(name).unwrap();
        fr.vals[i] = Some(newv);
    } else {
        if !global && is_reserved(name) {
            return Err(err("assign").into());
        }
        super::globals::may_update()?;
        set_global(name, newv);
    }
    Ok(result)
}

/// `x,:y` (ref/join.md "Append"): a simple list takes only an atom or a list of its type
/// ('type); a dictionary with simple values only a dictionary with values of that type; a table
/// only columns of the same types; a general list one rank above y takes y as one item.
/// Enumerations are 'nyi.
fn append(cur: KObj, y: &KObj) -> Result<KObj, Flow> {
    use super::values::{from_items, table_cols};
    let t = cur.t();
    let same = |a: &KObj, b: &KObj| -> bool {
        let (ta, tb) = (a.t(), b.t());
        if ta > 0 && ta < 20 {
            tb.abs() == ta || (tb == 0 && b.is_empty())
        } else {
            true
        }
    };
    if (20..77).contains(&t) || (20..77).contains(&y.t().abs()) {
        return Err(err("nyi").into());
    }
    if t > 0 && t < 20 && !same(&cur, y) {
        return Err(err("type").into());
    }
    if t == crate::kapi::XD
        && y.t() == crate::kapi::XD
        && !same(&cur.dict_values(), &y.dict_values())
    {
        return Err(err("type").into());
    }
    if t == crate::kapi::XT && y.t() == crate::kapi::XT {
        let (yn, yc) = table_cols(y);
        let (xn, xc) = table_cols(&cur);
        for (n, c) in yn.sym_list().iter().zip(yc.iter()) {
            if let Some(k) = xn.sym_list().iter().position(|m| m == n) {
                if !same(&xc[k], c) {
                    return Err(err("type").into());
                }
            }
        }
    }
    if t == 0 && !cur.is_empty() && rank(&cur) == rank(y) + 1 {
        let mut v = cur.items();
        v.push(y.clone());
        return Ok(from_items(v));
    }
    Ok(super::verbs::apply_prim(",", vec![cur, y.clone()])?)
}

/// Rank as ref/join.md counts it: the recursive depth of the first item.
fn rank(x: &KObj) -> usize {
    if x.is_atom() || x.t() >= 98 {
        0
    } else if x.t() > 0 || x.is_empty() {
        1
    } else {
        1 + rank(&x.item(0))
    }
}

/// Names q will not let you assign (keywords).
fn is_reserved(n: &str) -> bool {
    builtins::is_builtin(n)
        || matches!(
            n,
            "if" | "do"
                | "while"
                | "select"
                | "exec"
                | "update"
                | "delete"
                | "from"
                | "by"
                | "where"
        )
}

/// ([k..] c..): columns must have one length; atoms are extended.
fn table_literal(keys: &[(String, Node)], cols: &[(String, Node)], fr: &mut Frame) -> R {
    let build =
        |defs: &[(String, Node)], fr: &mut Frame| -> Result<(Vec<String>, Vec<KObj>), Flow> {
            let mut names = Vec::new();
            let mut vals = Vec::new();
            for (n, e) in defs {
                names.push(n.clone());
                vals.push(eval(e, fr)?);
            }
            Ok((names, vals))
        };
    let (mut kn, mut kv) = build(keys, fr)?;
    let (cn, cv) = build(cols, fr)?;
    // q 4.1's dictionary literal: keys only, each an atom (ref/join.md `s:([a:1;b:2])`)
    if cols.is_empty() && !keys.is_empty() && kv.iter().all(|v| v.is_atom()) {
        return Ok(KObj::dict(KObj::syms(&kn), from_items(kv)));
    }
    let all_len: Vec<i64> = kv
        .iter()
        .chain(cv.iter())
        .filter(|v| v.is_vector())
        .map(|v| v.len())
        .collect();
    let n = all_len.first().copied().unwrap_or(1);
    if all_len.iter().any(|&l| l != n) {
        return Err(err("length").into());
    }
    let widen = |v: KObj| -> KObj {
        if v.is_vector() {
            v
        } else {
            from_items(vec![v; n as usize])
        }
    };
    let cv: Vec<KObj> = cv.into_iter().map(widen).collect();
    let vt = values::table_of(&cn, cv);
    if kn.is_empty() {
        return Ok(vt);
    }
    kv = kv.into_iter().map(widen).collect();
    let kt = values::table_of(&std::mem::take(&mut kn), kv);
    Ok(KObj::dict(kt, vt))
}

// ---- application -------------------------------------------------------------------------

/// Apply with possibly elided arguments: elisions or too few make a projection.
pub fn apply_opt(f: &KObj, args: Vec<Option<KObj>>) -> R {
    if !stack_ok() {
        return Err(err("stack").into());
    }
    step()?;
    if f.t() == -KS {
        // a symbol applied applies what the global it names holds (`` `f@x ``, `` `f`g@\:x ``)
        let name = f.get_sym();
        // `:host:port "x": a one-shot request (ref/hopen.md)
        if name.starts_with(':') && name[1..].contains(':') && args.len() == 1 {
            if let Some(Some(x)) = args.first() {
                return Ok(super::ipc::one_shot(f, x)?);
            }
        }
        let target = match get_global(name) {
            Some(v) => v,
            None if builtins::is_builtin(name) => prim_value(name),
            None => {
                let mut fr = Frame::default();
                match dotted(name, &mut fr)? {
                    Some(v) => v,
                    // q's own names and namespaces qhost keeps no dictionary of: as lookup
                    None => lookup(name, &mut fr)?,
                }
            }
        };
        return apply_opt(&target, args);
    }
    if !f.is_func() {
        return Ok(index(f, args)?);
    }
    if is_identity(f) {
        // (::) x is x
        return match args.len() {
            1 => Ok(args
                .into_iter()
                .next()
                .unwrap()
                .unwrap_or_else(KObj::identity)),
            _ => Err(err("rank").into()),
        };
    }
    let n = valence(f);
    let elided = args.iter().any(|a| a.is_none());
    if let Func::Proj {
        f: inner,
        args: given,
    } = f.func_ref()
    {
        return apply_proj(inner, given, args);
    }
    // derived functions take 1 argument or more (`+/[x]`, `+/[x;y]`); some primitives more
    // than their projection threshold (`@[d;i;f;y]`, `?[c;a;b]`)
    let max = match f.func_ref() {
        Func::Derived { .. } => 8,
        Func::Prim { op } => builtins::max_args(op),
        _ => n,
    };
    let min = match f.func_ref() {
        // f'[x;y] for f of rank 3 is f' projected (ktorch's mnist/conv.q:
        // `fmt:.Q.fmt'[4 7 9 6;0 4 6 2]`, then `fmt x`): the derived function has f's rank
        Func::Derived { f: inner, adv } if adv == "'" && args.len() >= 2 => valence(inner),
        Func::Derived { .. } => 1,
        _ => n,
    };
    if args.len() > max {
        return Err(err("rank").into());
    }
    if elided || args.len() < min {
        // trailing holes are implicit: f[1] shows as f[1], not f[1;]; but not enlist's, whose
        // count of items is its count of arguments: `(1;)` takes one more (ref/accumulators.md
        // `5(`f;)\1`)
        let mut a = args;
        let items = matches!(f.func_ref(), Func::Prim { op } if op == "enlist");
        while !items && a.last().is_some_and(|x| x.is_none()) {
            a.pop();
        }
        return Ok(KObj::func(
            func::T_PROJ,
            Func::Proj {
                f: f.clone(),
                args: a,
            },
        ));
    }
    let args: Vec<KObj> = args.into_iter().map(|a| a.unwrap()).collect();
    match f.func_ref() {
        Func::Lambda(l) => call_lambda(f, l, args),
        Func::Prim { op } => Ok(call_prim(op, args)?),
        Func::Dl { ptr, n } => Ok(crate::kapi::exports::call_dl(*ptr, *n, &args)?),
        Func::Comp { fs } => {
            let mut it = fs.iter().rev();
            let last = it.next().ok_or_else(|| err("type"))?;
            let mut v = apply_opt(last, args.into_iter().map(Some).collect())?;
            for g in it {
                v = apply_opt(g, vec![Some(v)])?;
            }
            Ok(v)
        }
        Func::Derived { f: inner, adv } => Ok(super::adverbs::apply_derived(inner, adv, args)?),
        Func::Proj { .. } => Err(err("type").into()),
    }
}

/// A projection receiving more arguments: they fill the holes in order, then extend.
fn apply_proj(inner: &KObj, given: &[Option<KObj>], args: Vec<Option<KObj>>) -> R {
    let mut merged: Vec<Option<KObj>> = Vec::with_capacity(given.len() + args.len());
    let mut it = args.into_iter();
    for g in given {
        match g {
            Some(v) => merged.push(Some(v.clone())),
            None => merged.push(it.next().unwrap_or(None)),
        }
    }
    merged.extend(it);
    // a single `::` filling a niladic slot stays an argument
    if merged.len() > valence(inner).max(given.len()) {
        return Err(err("rank").into());
    }
    apply_opt(inner, merged)
}

fn call_lambda(me: &KObj, l: &Rc<Lambda>, args: Vec<KObj>) -> R {
    // every lambda is made by the parser, with its code
    let Some(code) = l.code.downcast_ref::<parser::Code>() else {
        return Err(err("nyi").into());
    };
    let mut fr = Frame {
        names: code.locals.clone(),
        vals: vec![None; code.locals.len()],
        this: Some(me.clone()),
    };
    let _running = super::globals::Running::enter(code.locals.clone());
    for (i, a) in args.into_iter().enumerate().take(l.params.len()) {
        fr.vals[i] = Some(a);
    }
    let mut last = KObj::identity();
    for s in &code.body {
        match eval(s, &mut fr) {
            Ok(v) => last = v,
            Err(Flow::Ret(v)) => return Ok(v),
            Err(e) => return Err(e),
        }
    }
    Ok(last)
}

/// Data applied to indices: `x i`, `x[i;j]` (elided indices are `::`, all).
fn index(x: &KObj, args: Vec<Option<KObj>>) -> QResult {
    let args: Vec<KObj> = args
        .into_iter()
        .map(|a| a.unwrap_or_else(KObj::identity))
        .collect();
    // handles: -1 "text" writes a line to stdout, 2 "text" to stderr without newline; an IPC
    // connection's handle sends a message (q::ipc)
    if args.len() == 1 {
        let handle = x.t() == -KI || x.t() == -KJ || x.t() == -KH;
        if let Some(h) = int_of(x).filter(|_| handle) {
            if super::ipc::is_open(h) {
                return super::ipc::send(h, &args[0]);
            }
            // handle 0, the console: .z.ps (value when unset) of the message, in this thread
            // (basics/handles.md `0 (+;2;2)` is 4)
            if h == 0 {
                return match get_global(".z.ps") {
                    Some(f) => apply(&f, vec![args[0].clone()]),
                    None => super::system::value(&args[0]),
                };
            }
            return super::system::write_handle(h, &args[0]).map(|_| x.clone());
        }
    }
    if args.len() == 1 {
        return super::verbs::index::at(x, &args[0]);
    }
    // indexing at depth reaches a function: it is applied to the remaining indexes
    // (basics/application.md `(sum;dev;var)[1;til 5]` is 1.414214)
    if x.t() == 0 && args[0].t() == -KJ {
        let i = args[0].get_long();
        if (0..x.len()).contains(&i) && x.item(i).is_func() {
            return match apply_opt(&x.item(i), args[1..].iter().cloned().map(Some).collect()) {
                Ok(v) => Ok(v),
                Err(Flow::Err(e)) => Err(e),
                Err(_) => Err(err("nyi")),
            };
        }
    }
    super::verbs::index::dot(x, &KObj::list(args))
}

/// The domain `x` names for an enumeration by `$`, `?` or `!` with y: a symbol atom naming a global
/// (not a file handle, not a type name as in `` `int$y ``), y symbols (`$` `?`) or indices (`!`).
fn enum_domain(x: &KObj, y: &KObj) -> Option<String> {
    if x.t() != -KS {
        return None;
    }
    let s = x.get_sym();
    if s.is_empty() || s.starts_with(':') || super::verbs::cast::is_type_name(s) {
        return None;
    }
    let symbols = y.t() == KS || y.t() == -KS;
    let ints = matches!(y.t(), KI | KJ) || y.t() == -KI || y.t() == -KJ;
    (symbols || ints).then(|| s.to_string())
}

/// A primitive by name: the evaluator's own first, then the data verbs.
pub fn call_prim(op: &str, args: Vec<KObj>) -> QResult {
    match (op, args.len()) {
        ("@", 2) | (".", 2) if args[0].t() == -KS && !args[0].get_sym().starts_with(':') => {
            // a symbol applies the global it names
            let xs = if op == "@" {
                vec![args[1].clone()]
            } else {
                arg_items(&args[1])
            };
            done(apply_opt(&args[0], xs.into_iter().map(Some).collect()))
        }
        ("@", 2) => {
            if args[0].is_func() {
                return apply(&args[0], vec![args[1].clone()]);
            }
            index(&args[0], vec![Some(args[1].clone())])
        }
        (".", 2) => {
            if args[0].is_func() {
                return apply(&args[0], arg_items(&args[1]));
            }
            if args[1].t() == 0 || args[1].is_vector() {
                let ix: Vec<Option<KObj>> = arg_items(&args[1]).into_iter().map(Some).collect();
                if ix.is_empty() {
                    return Ok(args[0].clone());
                }
                return index(&args[0], ix);
            }
            index(&args[0], vec![Some(args[1].clone())])
        }
        ("@", 3) | (".", 3) if args[0].is_func() => trap(op, &args[0], &args[1], &args[2]),
        // a connection handle applies as a function does (`@[h;"expr";{..}]`)
        ("@", 3) | (".", 3) if int_of(&args[0]).is_some_and(super::ipc::is_open) => {
            trap(op, &args[0], &args[1], &args[2])
        }
        ("@", 3) | ("@", 4) | (".", 3) | (".", 4) => super::amend::amend(op, args),
        (".", 1) => super::system::value(&args[0]),
        ("'", _) => compose_or_signal(args),
        ("!", 2) if is_internal(&args[0]) => super::system::internal(&args[0], &args[1]),
        // Enkey/Unkey of a table's name amends the table and answers the name (ref/enkey.md)
        ("!", 2) if args[1].t() == -KS && matches!(args[0].t(), -7..=-5) => {
            let name = args[1].get_sym();
            let t = get_global(name).ok_or_else(|| err(name))?;
            if !matches!(t.t(), crate::kapi::XT | crate::kapi::XD) {
                return Err(err("type"));
            }
            let r = super::verbs::apply_prim("!", vec![args[0].clone(), t])?;
            super::globals::may_update()?;
            set_global(name, r);
            Ok(args[1].clone())
        }
        // enumerations (q::enums): `d$y, `d?y, `d!i with d a global's name
        ("$", 2) | ("?", 2) | ("!", 2) if enum_domain(&args[0], &args[1]).is_some() => {
            let name = enum_domain(&args[0], &args[1]).unwrap();
            match op {
                "$" => super::enums::enumerate(&name, &args[1]),
                "!" => super::enums::from_indices(&name, &args[1]),
                _ => {
                    let (d, e) = super::enums::extend(&name, &args[1])?;
                    super::globals::may_update()?;
                    set_global(&name, d);
                    Ok(e)
                }
            }
        }
        ("2:", 2) => crate::kapi::dynload::load(&args[0], &args[1]),
        ("0:", 2) => super::textfile::zero_colon(&args[0], &args[1]),
        ("1:", 2) => super::binfile::one_colon(&args[0], &args[1]),
        ("0:", _) | ("1:", _) => Err(err("nyi")),
        ("key", 1) | ("!", 1) if args[0].t() == -KS && args[0].get_sym().starts_with(':') => {
            super::textfile::key_path(&args[0])
        }
        // deltas is -': and takes a seed (basics/variadic.md `deltas[10;15 27 93]` is 5 12 66)
        ("deltas", 2) => {
            let f = KObj::func(
                func::adverb_type("':"),
                Func::Derived {
                    f: prim_value("-"),
                    adv: "':".into(),
                },
            );
            Ok(apply(&f, args)?)
        }
        ("?", 4) | ("!", 4) => super::funsql::apply(op, &args),
        // ?[t;c;b;a;n] (a limit), ?[t;c;b;a;n;(g;cn)], ?[t;i;p] (simple exec): nyi (funsql.md)
        ("?", 5) | ("?", 6) => Err(err("nyi")),
        ("?", 3) if matches!(args[0].t(), crate::kapi::XT | crate::kapi::XD) => Err(err("nyi")),
        (":", 2) => Ok(args[1].clone()),
        // `:[v;p1;r1;..]` is q 4.1's pattern conditional (basics/pattern.md): nyi
        (":", n) if n >= 3 => Err(err("nyi")),
        (":", 1) => Ok(args[0].clone()),
        ("::", 1) => Ok(args[0].clone()),
        _ if builtins::by_evaluator(op) => super::system::builtin(op, args),
        (".Q.s", 1) => Ok(KObj::string(&super::display::show_text(&args[0]))),
        (".Q.s1", 1) => Ok(KObj::string(&super::display::one_line(&args[0]))),
        (".Q.fmt", 3) | (".Q.f", 2) => super::system::qfmt(op, &args),
        _ => super::error::guard(|| super::verbs::apply_prim(op, args)),
    }
}

/// `0N!x` and negative internal functions `-8!x`.
fn is_internal(x: &KObj) -> bool {
    matches!(x.t(), t if t == -KJ || t == -KI || t == -KH) && int_of(x).is_some_and(|v| v < 0)
}

/// `'[f;g]` composes; as a function of one value it signals.
fn compose_or_signal(args: Vec<KObj>) -> QResult {
    if args.len() == 1 {
        return Err(QErr(signal_text(&args[0])?));
    }
    // any applicable value composes: functions, lists, and handles (ktorch's vision/a.q:
    // `(-2 raze .Q.fmt'[..]@)` writes what the rest formats)
    let handle = |a: &KObj| matches!(a.t(), t if t == -KI || t == -KJ || t == -KH);
    if args
        .iter()
        .all(|a| a.is_func() || !a.is_atom() || handle(a))
    {
        return Ok(KObj::func(func::T_COMP, Func::Comp { fs: args }));
    }
    Err(err("type"))
}

/// `@[f;x;g]` / `.[f;x;g]`: g gets the error text (or is the answer when not a function).
fn trap(op: &str, f: &KObj, x: &KObj, g: &KObj) -> QResult {
    let r = if op == "@" {
        apply(f, vec![x.clone()])
    } else {
        apply(f, arg_items(x))
    };
    match r {
        Ok(v) => Ok(v),
        Err(e) => {
            if e.0 == "stack" && !stack_ok() {
                return Err(e);
            }
            if g.is_func() {
                apply(g, vec![KObj::string(&e.0)])
            } else {
                Ok(g.clone())
            }
        }
    }
}

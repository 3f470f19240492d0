//! Tokens to a syntax tree. An expression is parsed as a run of terms (nouns and verbs, each
//! with its brackets and adverbs) and folded right to left: `noun verb rest` is infix,
//! `verb rest` a monadic application, `noun rest` juxtaposition (apply or index).
// Arc: lambdas are shared with peach's secondary threads
use std::sync::Arc as Rc;

use super::builtins::is_infix;
use super::lexer::{lex, Tok, Token};
use super::{err, QErr};
use crate::kapi::func::Lambda;
use crate::kapi::KObj;

/// What a lambda runs (the opaque `Lambda::code` of its function object): its locals
/// (parameters first, then names assigned in the body; shared with each call's frame) and its
/// statements, where a local read is resolved to its slot (`Node::Local`).
#[derive(Debug)]
pub struct Code {
    pub locals: Rc<Vec<String>>,
    pub body: Vec<Node>,
}

#[derive(Debug, Clone)]
pub enum Node {
    Const(KObj),
    Name(String),
    /// A lambda's local read, resolved at parse time: its slot in the lambda's frame, its name.
    Local(usize, String),
    /// A primitive glyph used as a verb or a value (`+`, `,`, `::`...).
    Prim(String),
    /// f followed by an adverb.
    Derived(Box<Node>, String),
    /// f[a;b;..] (Elide for an empty argument).
    Apply(Box<Node>, Vec<Node>),
    Elide,
    /// `f x`: prefix verb (monadic), or juxtaposition of nouns.
    Juxt(Box<Node>, Box<Node>),
    /// `x f y`.
    Dyad(Box<Node>, Box<Node>, Box<Node>),
    /// (a;b;c)
    List(Vec<Node>),
    Lambda(Rc<Lambda>),
    /// name[idx]op: value, `global` for `::`.
    Assign {
        name: String,
        idx: Option<Vec<Node>>,
        op: Option<Box<Node>>,
        val: Box<Node>,
        global: bool,
    },
    Return(Box<Node>),
    Signal(Box<Node>),
    /// ([keys] cols): (name, expr)
    Table(Vec<(String, Node)>, Vec<(String, Node)>),
    /// qSQL: kind select/exec/update/delete.
    Sql(Rc<Sql>),
    /// Statements; the value is the last one's.
    Seq(Vec<Node>),
    Nil,
}

#[derive(Debug)]
pub struct Sql {
    pub kind: String,
    pub cols: Vec<(Option<String>, Node)>,
    pub by: Vec<(Option<String>, Node)>,
    pub from: Node,
    pub wh: Vec<Node>,
    /// `select[n]`, `select[m n]`, `select[>c]`, `select[n;<c]`: the rows to take and the
    /// column to sort on (descending when true)
    pub limit: Option<Node>,
    pub order: Option<(bool, String)>,
}

/// Whether a syntax term acts as a verb (infix) rather than a noun.
#[derive(Debug)]
struct Term {
    node: Node,
    verb: bool,
}

const SQL_WORDS: &[&str] = &["select", "exec", "update", "delete"];

const MAX_DEPTH: usize = 200;

struct P<'a> {
    toks: &'a [Token],
    pos: usize,
    src: &'a str,
    depth: usize,
}

pub fn parse(src: &str) -> Result<Node, QErr> {
    let toks = lex(src)?;
    let mut p = P {
        toks: &toks,
        pos: 0,
        src,
        depth: 0,
    };
    let body = p.statements()?;
    if p.pos < toks.len() {
        return Err(err(match toks[p.pos].tok {
            Tok::RParen => ")",
            Tok::RBracket => "]",
            Tok::RBrace => "}",
            _ => "parse",
        }));
    }
    Ok(if body.len() == 1 {
        body.into_iter().next().unwrap()
    } else {
        Node::Seq(body)
    })
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn peek_at(&self, k: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
    }
    /// Index of the bracket closing the one at `open`.
    fn matching(&self, open: usize) -> Option<usize> {
        let mut depth = 0i32;
        for (k, t) in self.toks.iter().enumerate().skip(open) {
            match t.tok {
                Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
        None
    }
    fn at_end_of_expr(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(Tok::Semi | Tok::RParen | Tok::RBracket | Tok::RBrace)
        )
    }
    fn enter(&mut self) -> Result<(), QErr> {
        self.depth += 1;
        if self.depth > MAX_DEPTH || !super::interrupt::stack_ok() {
            return Err(err("stack"));
        }
        Ok(())
    }

    /// Statements separated by `;` up to a closing token or the end.
    fn statements(&mut self) -> Result<Vec<Node>, QErr> {
        let mut v = vec![self.expr()?];
        while let Some(Tok::Semi) = self.peek() {
            self.pos += 1;
            v.push(self.expr()?);
        }
        Ok(v)
    }

    /// Items separated by `;` inside brackets/parens (empty ones are Elide).
    fn args(&mut self, close: Tok) -> Result<Vec<Node>, QErr> {
        let mut v = Vec::new();
        loop {
            let e = self.expr()?;
            v.push(e);
            match self.peek() {
                Some(Tok::Semi) => self.pos += 1,
                Some(t) if std::mem::discriminant(t) == std::mem::discriminant(&close) => {
                    self.pos += 1;
                    return Ok(v);
                }
                _ => {
                    return Err(err(if matches!(close, Tok::RBracket) {
                        "["
                    } else {
                        "("
                    }))
                }
            }
        }
    }

    fn expr(&mut self) -> Result<Node, QErr> {
        self.enter()?;
        let r = self.expr_inner();
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self) -> Result<Node, QErr> {
        let mut terms: Vec<Term> = Vec::new();
        while !self.at_end_of_expr() {
            // `:x` return and `'x` signal at the start of an expression
            if terms.is_empty() {
                match self.peek() {
                    Some(Tok::Verb(v))
                        if v == ":"
                            && !matches!(
                                self.peek_at(1),
                                None | Some(Tok::Semi | Tok::RParen | Tok::RBracket | Tok::RBrace)
                            )
                            // `:[v;p;r;..]` is the pattern conditional, not a return
                            && (!matches!(self.peek_at(1), Some(Tok::LBracket))
                                || self.toks[self.pos + 1].space_before) =>
                    {
                        self.pos += 1;
                        return Ok(Node::Return(Box::new(self.expr()?)));
                    }
                    Some(Tok::Adverb(a))
                        if a == "'" && !matches!(self.peek_at(1), Some(Tok::LBracket)) =>
                    {
                        self.pos += 1;
                        return Ok(Node::Signal(Box::new(self.expr()?)));
                    }
                    _ => {}
                }
            }
            if let Some(Tok::Name(n)) = self.peek() {
                if SQL_WORDS.contains(&n.as_str()) {
                    let q = self.sql(n)?;
                    terms.push(Term {
                        node: q,
                        verb: false,
                    });
                    break;
                }
            }
            // assignment: name[idx] op? : value
            if let Some(a) = self.try_assign()? {
                terms.push(Term {
                    node: a,
                    verb: false,
                });
                break;
            }
            let t = self.term()?;
            terms.push(t);
        }
        Ok(fold(terms))
    }

    /// `name:`, `name op:`, `name[i]:`, `name[i] op:`, `name::` — or None (position kept).
    fn try_assign(&mut self) -> Result<Option<Node>, QErr> {
        let Some(Tok::Name(name)) = self.peek() else {
            return Ok(None);
        };
        if SQL_WORDS.contains(&name.as_str()) {
            return Ok(None);
        }
        let save = self.pos;
        self.pos += 1;
        let mut idx = None;
        if let Some(Tok::LBracket) = self.peek() {
            if !self.toks[self.pos].space_before {
                // look past the brackets first: parsing them twice would be exponential
                let close = self.matching(self.pos);
                let after = close.and_then(|c| self.toks.get(c + 1)).map(|t| &t.tok);
                let after2 = close.and_then(|c| self.toks.get(c + 2)).map(|t| &t.tok);
                let is_assign = match (after, after2) {
                    (Some(Tok::Verb(v)), _) if v == ":" => true,
                    (Some(Tok::Verb(v)), Some(Tok::Verb(c)))
                        if c == ":" && v != ":" && v != "::" =>
                    {
                        true
                    }
                    (Some(Tok::Name(v)), Some(Tok::Verb(c))) if c == ":" && is_infix(v) => true,
                    _ => false,
                };
                if !is_assign {
                    self.pos = save;
                    return Ok(None);
                }
                self.pos += 1;
                idx = Some(self.args(Tok::RBracket)?);
            }
        }
        let mut op = None;
        let mut global = false;
        match (self.peek(), self.peek_at(1)) {
            (Some(Tok::Verb(v)), _) if v == ":" => self.pos += 1,
            (Some(Tok::Verb(v)), _) if v == "::" && idx.is_none() => {
                self.pos += 1;
                global = true;
            }
            (Some(Tok::Verb(v)), Some(Tok::Verb(c))) if c == ":" && v != ":" && v != "::" => {
                op = Some(Box::new(Node::Prim(v.clone())));
                self.pos += 2;
            }
            (Some(Tok::Name(v)), Some(Tok::Verb(c))) if c == ":" && is_infix(v) => {
                op = Some(Box::new(Node::Name(v.clone())));
                self.pos += 2;
            }
            _ => {
                self.pos = save;
                return Ok(None);
            }
        }
        let val = if self.at_end_of_expr() {
            Node::Nil
        } else {
            self.expr()?
        };
        if matches!(val, Node::Nil) && op.is_none() {
            // `([one:;four:d]):d` is q 4.1's pattern matching of a dictionary (basics/
            // pattern.md): nyi; `a:` alone is not an assignment in q
            if matches!(self.peek(), Some(Tok::Semi | Tok::RBracket)) {
                return Err(err("nyi"));
            }
            return Err(err("assign"));
        }
        Ok(Some(Node::Assign {
            name: name.clone(),
            idx,
            op,
            val: Box::new(val),
            global,
        }))
    }

    /// One term with its postfix brackets and adverbs.
    fn term(&mut self) -> Result<Term, QErr> {
        self.enter()?;
        let r = self.term_inner();
        self.depth -= 1;
        r
    }

    fn term_inner(&mut self) -> Result<Term, QErr> {
        let tk = &self.toks[self.pos];
        self.pos += 1;
        let (mut node, mut verb) = match &tk.tok {
            Tok::Num(k) => (Node::Const(k.clone()), false),
            Tok::Str(s) => {
                let k = if s.len() == 1 {
                    KObj::char(s[0])
                } else {
                    KObj::from_slice(crate::kapi::KC, s)
                };
                (Node::Const(k), false)
            }
            Tok::Sym(v) => {
                let k = if v.len() == 1 {
                    KObj::sym(&v[0])
                } else {
                    KObj::syms(v)
                };
                (Node::Const(k), false)
            }
            Tok::Name(n) => {
                let infix = is_infix(n);
                (Node::Name(n.clone()), infix)
            }
            Tok::Verb(v) if v == "::" => (Node::Prim("::".into()), false),
            // a glyph then a colon with no blank between: the glyph's unary form (`#:`, `|:`)
            Tok::Verb(v)
                if v != ":"
                    && matches!(self.peek(), Some(Tok::Verb(c)) if c == ":")
                    && !self.toks[self.pos].space_before
                    && super::builtins::is_unary_form(&format!("{v}:")) =>
            {
                self.pos += 1;
                (Node::Prim(format!("{v}:")), true)
            }
            Tok::Verb(v) => (Node::Prim(v.clone()), true),
            Tok::Adverb(a) => {
                if a == "'" {
                    // '[f;g] composition
                    (Node::Prim("'".into()), true)
                } else {
                    return Err(err(a));
                }
            }
            Tok::LParen => self.paren()?,
            Tok::LBrace => (self.lambda(tk.start)?, false),
            Tok::LBracket => {
                // a bare bracket block evaluates its expressions, answering the last
                let v = self.args(Tok::RBracket)?;
                (Node::Seq(v), false)
            }
            _ => return Err(err("parse")),
        };
        // postfix: brackets (application) and adverbs
        loop {
            match self.peek() {
                Some(Tok::LBracket) if !self.toks[self.pos].space_before => {
                    self.pos += 1;
                    let args = self.args(Tok::RBracket)?;
                    node = Node::Apply(Box::new(node), args);
                    verb = false;
                }
                Some(Tok::Adverb(a))
                    if !self.toks[self.pos].space_before || !matches!(a.as_str(), "/" | "/:") =>
                {
                    self.pos += 1;
                    node = Node::Derived(Box::new(node), a.clone());
                    verb = true;
                }
                _ => break,
            }
        }
        Ok(Term { node, verb })
    }

    /// After `(`: a list, a parenthesised expression, `()`, or a table literal.
    fn paren(&mut self) -> Result<(Node, bool), QErr> {
        if let Some(Tok::RParen) = self.peek() {
            self.pos += 1;
            return Ok((Node::Const(KObj::list(vec![])), false));
        }
        if let Some(Tok::LBracket) = self.peek() {
            return Ok((self.table()?, false));
        }
        let items = self.args(Tok::RParen)?;
        if items.len() == 1 {
            let it = items.into_iter().next().unwrap();
            // (+) is the verb as a noun
            return Ok((it, false));
        }
        Ok((Node::List(items), false))
    }

    /// `([k:..] c:..; d:..)` after `(`.
    fn table(&mut self) -> Result<Node, QErr> {
        self.pos += 1; // [
        let keys = if let Some(Tok::RBracket) = self.peek() {
            self.pos += 1;
            vec![]
        } else {
            self.col_defs(Tok::RBracket)?
        };
        // `([k:..]; c:..)`: a semicolon after the key columns (basics/syntax.md)
        if let Some(Tok::Semi) = self.peek() {
            self.pos += 1;
        }
        let cols = if let Some(Tok::RParen) = self.peek() {
            self.pos += 1;
            vec![]
        } else {
            self.col_defs(Tok::RParen)?
        };
        Ok(Node::Table(keys, cols))
    }

    fn col_defs(&mut self, close: Tok) -> Result<Vec<(String, Node)>, QErr> {
        let items = self.args(close)?;
        let mut out = Vec::new();
        for (k, it) in items.into_iter().enumerate() {
            match it {
                Node::Assign {
                    name,
                    idx: None,
                    op: None,
                    val,
                    global: false,
                } => out.push((name, *val)),
                other => out.push((
                    col_name(&other).unwrap_or_else(|| {
                        if k == 0 {
                            "x".into()
                        } else {
                            format!("x{k}")
                        }
                    }),
                    other,
                )),
            }
        }
        Ok(out)
    }

    /// A lambda starting at byte `start` (after `{`).
    fn lambda(&mut self, start: usize) -> Result<Node, QErr> {
        let mut params: Option<Vec<String>> = None;
        if let Some(Tok::LBracket) = self.peek() {
            self.pos += 1;
            // each slot between semicolons is a parameter; an empty one is the null pattern, a
            // parameter without a name (basics/pattern.md `f:{[x;]x}` takes 2, `f[3;4]` is 3)
            let mut ps = Vec::new();
            let mut slot: Option<String> = None;
            let mut semis = false;
            loop {
                match self.peek() {
                    Some(Tok::Name(n)) => {
                        if let Some(p) = slot.replace(n.clone()) {
                            ps.push(p);
                        }
                        self.pos += 1;
                    }
                    Some(Tok::RBracket) => {
                        if semis || slot.is_some() {
                            ps.push(slot.take().unwrap_or_default());
                        }
                        self.pos += 1;
                        break;
                    }
                    Some(Tok::Semi) => {
                        ps.push(slot.take().unwrap_or_default());
                        semis = true;
                        self.pos += 1;
                    }
                    // q 4.1's patterns and type checks in parameters (`{[(a;b);c]..}`,
                    // `{[x:tempCheck]..}`, basics/pattern.md): nyi
                    Some(Tok::LParen | Tok::LBracket) => return Err(err("nyi")),
                    Some(Tok::Verb(v)) if v == ":" => return Err(err("nyi")),
                    _ => return Err(err("[")),
                }
            }
            params = Some(ps);
        }
        // a parameter named like a keyword (`{[name;got;exp]..}`) is a noun in the body
        let outer = PARAMS.with(|p| p.replace(params.clone().unwrap_or_default()));
        let body = self.statements();
        PARAMS.with(|p| p.replace(outer));
        let body = body?;
        match self.peek() {
            Some(Tok::RBrace) => self.pos += 1,
            _ => return Err(err("{")),
        }
        let end = self.toks[self.pos - 1].end;
        let params = match params {
            Some(p) => p,
            None => {
                let mut used = [false; 3];
                for s in &body {
                    implicit(s, &mut used);
                }
                let n = if used[2] {
                    3
                } else if used[1] {
                    2
                } else {
                    1
                };
                ["x", "y", "z"][..n].iter().map(|s| s.to_string()).collect()
            }
        };
        if params.len() > 8 {
            return Err(err("params"));
        }
        let mut locals = params.clone();
        let mut globals = Vec::new();
        for s in &body {
            assigned(s, &mut locals, &mut globals)?;
        }
        let text = self.src[start..end].to_string();
        let mut body = body;
        for s in &mut body {
            resolve_locals(s, &locals);
        }
        Ok(Node::Lambda(Rc::new(Lambda {
            text,
            params,
            code: Box::new(Code {
                locals: Rc::new(locals),
                body,
            }),
        })))
    }

    /// qSQL: `select cols by b from t where c` (and exec/update/delete).
    fn sql(&mut self, kind: &str) -> Result<Node, QErr> {
        self.pos += 1;
        let (mut limit, mut order) = (None, None);
        if kind == "select" && matches!(self.peek(), Some(Tok::LBracket)) {
            self.pos += 1;
            for a in self.args(Tok::RBracket)? {
                match a {
                    Node::Juxt(f, c) => match (&*f, &*c) {
                        (Node::Prim(o), Node::Name(c)) if o == "<" || o == ">" => {
                            order = Some((o == ">", c.clone()))
                        }
                        _ => return Err(err("nyi")),
                    },
                    Node::Elide | Node::Nil => return Err(err("nyi")),
                    e => limit = Some(e),
                }
            }
        }
        let parts = |p: &mut P, stop: &[&str]| -> Result<Vec<(Option<String>, Node)>, QErr> {
            let mut v = Vec::new();
            loop {
                if let Some(Tok::Name(n)) = p.peek() {
                    if stop.contains(&n.as_str()) {
                        break;
                    }
                }
                if p.at_end_of_expr() {
                    break;
                }
                let e = p.sql_item(stop)?;
                v.push(e);
                match p.peek() {
                    Some(Tok::Verb(c)) if c == "," => p.pos += 1,
                    _ => break,
                }
            }
            Ok(v)
        };
        let cols = parts(self, &["by", "from"])?;
        let mut by = vec![];
        if let Some(Tok::Name(n)) = self.peek() {
            if n == "by" {
                self.pos += 1;
                by = parts(self, &["from"])?;
            }
        }
        match self.peek() {
            Some(Tok::Name(n)) if n == "from" => self.pos += 1,
            _ => return Err(err("from")),
        }
        // `from t:expr` assigns t as it is read (ref/avg.md `update k:.. from t:flip d:..`);
        // sql_item takes `name:` as a column's name
        let from = match self.sql_item(&["where"])? {
            (Some(name), val) => Node::Assign {
                name,
                idx: None,
                op: None,
                val: Box::new(val),
                global: false,
            },
            (None, e) => e,
        };
        let mut wh = vec![];
        if let Some(Tok::Name(n)) = self.peek() {
            if n == "where" {
                self.pos += 1;
                wh = parts(self, &[])?.into_iter().map(|(_, e)| e).collect();
            }
        }
        // Cond is not supported inside qSQL phrases: 'rank (basics/qsql.md "Cond")
        let mut cond = false;
        for e in cols
            .iter()
            .chain(by.iter())
            .map(|(_, e)| e)
            .chain(wh.iter())
        {
            has_cond(e, &mut cond);
        }
        if cond {
            return Err(err("rank"));
        }
        Ok(Node::Sql(Rc::new(Sql {
            kind: kind.to_string(),
            cols,
            by,
            from,
            wh,
            limit,
            order,
        })))
    }

    /// One comma-separated qSQL item: its tokens up to a top-level `,` or stop word.
    fn sql_item(&mut self, stop: &[&str]) -> Result<(Option<String>, Node), QErr> {
        let begin = self.pos;
        let mut depth = 0i32;
        let mut end = self.pos;
        while end < self.toks.len() {
            match &self.toks[end].tok {
                Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1
                }
                Tok::Semi if depth == 0 => break,
                Tok::Verb(c) if c == "," && depth == 0 => break,
                Tok::Name(n) if depth == 0 && stop.contains(&n.as_str()) => break,
                _ => {}
            }
            end += 1;
        }
        let sub = &self.toks[begin..end];
        let mut p = P {
            toks: sub,
            pos: 0,
            src: self.src,
            depth: self.depth,
        };
        let e = p.expr()?;
        if p.pos != sub.len() {
            return Err(err("parse"));
        }
        self.pos = end;
        Ok(match e {
            Node::Assign {
                name,
                idx: None,
                op: None,
                val,
                global: false,
            } => (Some(name), *val),
            e => (None, e),
        })
    }
}

thread_local! {
    /// The parameters of the lambda being parsed: names that are nouns there.
    static PARAMS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Whether a term is a verb that can end a train: a glyph (not `::`), a q keyword, or a
/// derived function (`f'`, `+/`).
fn ends_train(t: &Term) -> bool {
    match &t.node {
        // a glyph in parentheses is a noun: `type (+)` is 102h (ref/type.md)
        Node::Prim(p) => t.verb && p != "::",
        Node::Name(n) => {
            super::builtins::is_builtin(n) && !PARAMS.with(|p| p.borrow().iter().any(|x| x == n))
        }
        Node::Derived(..) => t.verb,
        _ => false,
    }
}

/// An expression whose last term is a verb with nothing to its right is a function, as in q:
/// `x f` is the projection `f[x;]`, and what stands before it composes onto it (`(neg sum)`
/// is `'[neg;sum]`, `(sum 2*)` is `'[sum;*[2;]]`, `(f where f like)` `'[f;'[where;like[f;]]]`).
fn train(mut terms: Vec<Term>) -> Node {
    let last = terms.pop().unwrap();
    let g = if terms.last().is_some_and(|t| !t.verb)
        && !matches!(&last.node, Node::Name(n) if !is_infix(n))
    {
        let x = terms.pop().unwrap();
        Node::Apply(Box::new(last.node), vec![x.node, Node::Elide])
    } else {
        last.node
    };
    if terms.is_empty() {
        return g;
    }
    let f = if terms.len() >= 2 || terms[0].verb || ends_train(&terms[0]) {
        if ends_train(terms.last().unwrap()) {
            train(terms)
        } else {
            fold(terms)
        }
    } else {
        terms.pop().unwrap().node
    };
    Node::Apply(Box::new(Node::Prim("'".into())), vec![f, g])
}

/// Fold terms right to left into one node.
fn fold(mut terms: Vec<Term>) -> Node {
    if terms.is_empty() {
        return Node::Nil;
    }
    if terms.len() == 1 {
        return terms.pop().unwrap().node;
    }
    if ends_train(terms.last().unwrap()) && !(terms.len() == 2 && terms[0].verb) {
        return train(terms);
    }
    let rest = terms.split_off(1);
    let first = terms.pop().unwrap();
    if first.verb {
        // q disables the unary forms of $ and , written bare (basics/parsetrees.md: `$42` is
        // '$, `($)42` is "42"; basics/funsql.md: `(#;3;,`a`b`c`d`e`f)` is ',)
        if let Node::Prim(p) = &first.node {
            if p == "$" || p == "," {
                return Node::Signal(Box::new(Node::Const(KObj::sym(p))));
            }
        }
        return Node::Juxt(Box::new(first.node), Box::new(fold(rest)));
    }
    let mut rest = rest;
    if rest[0].verb {
        let tail = rest.split_off(1);
        let op = rest.pop().unwrap();
        if tail.is_empty() {
            // `2+` is the projection +[2;]
            return Node::Apply(Box::new(op.node), vec![first.node, Node::Elide]);
        }
        return Node::Dyad(
            Box::new(op.node),
            Box::new(first.node),
            Box::new(fold(tail)),
        );
    }
    Node::Juxt(Box::new(first.node), Box::new(fold(rest)))
}

/// The column name q gives an unnamed expression: its first name.
pub fn col_name(n: &Node) -> Option<String> {
    match n {
        Node::Name(s) => Some(s.rsplit('.').next().unwrap_or(s).to_string()),
        Node::Juxt(a, b) => col_name_arg(a).or_else(|| col_name(b)),
        Node::Dyad(_, a, b) => col_name(a).or_else(|| col_name(b)),
        Node::Apply(f, args) => col_name_arg(f).or_else(|| args.iter().find_map(col_name)),
        _ => None,
    }
}

fn col_name_arg(f: &Node) -> Option<String> {
    match f {
        Node::Name(s) if super::builtins::is_builtin(s) => None,
        Node::Name(_) => None,
        other => col_name(other),
    }
}

/// Mark implicit parameters x y z used directly in a lambda body (not nested lambdas).
fn implicit(n: &Node, used: &mut [bool; 3]) {
    match n {
        Node::Name(s) => match s.as_str() {
            "x" => used[0] = true,
            "y" => used[1] = true,
            "z" => used[2] = true,
            _ => {}
        },
        Node::Assign {
            name, idx, op, val, ..
        } => {
            match name.as_str() {
                "x" => used[0] = true,
                "y" => used[1] = true,
                "z" => used[2] = true,
                _ => {}
            }
            if let Some(i) = idx {
                i.iter().for_each(|m| implicit(m, used));
            }
            if let Some(o) = op {
                implicit(o, used);
            }
            implicit(val, used);
        }
        // a qSQL query's phrases mask x, y and z; only its from phrase counts (basics/qsql.md:
        // `{select from ([]a:0 1;b:2 3) where a=x,b=y}[0;2]` is 'rank)
        Node::Sql(q) => implicit(&q.from, used),
        _ => children(n, &mut |m| implicit(m, used)),
    }
}

/// Whether an expression holds `$[c;t;f]` (not inside a lambda).
fn has_cond(n: &Node, found: &mut bool) {
    if let Node::Apply(f, a) = n {
        if matches!(&**f, Node::Prim(p) if p == "$") && a.len() >= 3 {
            *found = true;
        }
    }
    children(n, &mut |m| has_cond(m, found));
}

/// Names assigned with `:` in a lambda body become its locals. A name assigned with `::` before
/// it is made local is q's compile error 'name (basics/debug.md: `{a::1;a:1}` is 'a).
fn assigned(n: &Node, locals: &mut Vec<String>, globals: &mut Vec<String>) -> Result<(), QErr> {
    if let Node::Assign {
        name,
        global,
        val,
        idx,
        ..
    } = n
    {
        assigned(val, locals, globals)?;
        if let Some(i) = idx {
            for m in i {
                assigned(m, locals, globals)?;
            }
        }
        if idx.is_none() && !name.contains('.') && !locals.contains(name) {
            if *global {
                globals.push(name.clone());
            } else if globals.contains(name) {
                return Err(err(name));
            } else {
                locals.push(name.clone());
            }
        }
        return Ok(());
    }
    let mut r = Ok(());
    children(n, &mut |m| {
        if r.is_ok() {
            r = assigned(m, locals, globals);
        }
    });
    r
}

/// Visit the direct sub-nodes (not into lambdas).
fn children(n: &Node, f: &mut dyn FnMut(&Node)) {
    match n {
        Node::Derived(a, _) | Node::Return(a) | Node::Signal(a) => f(a),
        Node::Apply(a, v) => {
            f(a);
            v.iter().for_each(f);
        }
        Node::Juxt(a, b) => {
            f(a);
            f(b);
        }
        Node::Dyad(o, a, b) => {
            f(o);
            f(a);
            f(b);
        }
        Node::List(v) | Node::Seq(v) => v.iter().for_each(f),
        Node::Assign { idx, op, val, .. } => {
            if let Some(i) = idx {
                i.iter().for_each(&mut *f);
            }
            if let Some(o) = op {
                f(o);
            }
            f(val);
        }
        Node::Table(k, c) => k.iter().chain(c.iter()).for_each(|(_, e)| f(e)),
        Node::Sql(s) => {
            s.cols.iter().chain(s.by.iter()).for_each(|(_, e)| f(e));
            f(&s.from);
            s.wh.iter().for_each(f);
        }
        _ => {}
    }
}

/// A lambda's reads of its locals as slots (`Node::Local`), once at parse time instead of a
/// search by name at each read. A nested lambda has its own frame and a qSQL query evaluates
/// in a frame of columns (with the locals copied in by name), so neither is entered; nor are
/// assignment targets (found by name when assigned).
fn resolve_locals(n: &mut Node, locals: &[String]) {
    let mut go = |n: &mut Node| resolve_locals(n, locals);
    match n {
        Node::Name(s) => {
            if let Some(i) = locals.iter().position(|l| l == s) {
                *n = Node::Local(i, std::mem::take(s));
            }
        }
        Node::Derived(f, _) => go(f),
        Node::Apply(f, args) => {
            go(f);
            args.iter_mut().for_each(go);
        }
        Node::Juxt(f, x) => {
            go(f);
            go(x);
        }
        Node::Dyad(x, f, y) => {
            go(x);
            go(f);
            go(y);
        }
        Node::List(v) | Node::Seq(v) => v.iter_mut().for_each(go),
        Node::Assign { idx, op, val, .. } => {
            if let Some(ix) = idx {
                ix.iter_mut().for_each(&mut go);
            }
            if let Some(o) = op {
                go(o);
            }
            go(val);
        }
        Node::Return(x) | Node::Signal(x) => go(x),
        Node::Table(keys, cols) => keys.iter_mut().chain(cols).for_each(|(_, e)| go(e)),
        Node::Const(_)
        | Node::Local(..)
        | Node::Prim(_)
        | Node::Elide
        | Node::Lambda(_)
        | Node::Sql(_)
        | Node::Nil => {}
    }
}

//! q text to tokens. Whitespace matters in q, so each token records whether space preceded it:
//! `x -1` is x applied to the literal -1 while `x-1` subtracts, and ` /` starts a comment.
use super::literal::{self, Lit};
use super::{err, QErr};
use crate::kapi::KObj;

#[derive(Clone, Debug)]
pub enum Tok {
    /// A literal (number, vector of numbers, temporal, bool, byte).
    Num(KObj),
    /// A string: one char is a char atom.
    Str(Vec<u8>),
    /// Symbols: one is an atom, several a vector.
    Sym(Vec<String>),
    Name(String),
    /// A primitive glyph: + - * % ! & | < > = ~ , ^ # _ $ ? @ . : <= >= <> :: 0: 1: 2:
    Verb(String),
    /// ' / \ ': /: \:
    Adverb(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Semi,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    /// Byte offsets into the source (for lambda text).
    pub start: usize,
    pub end: usize,
    pub space_before: bool,
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.'
}

/// Whether the previous token ends a noun, so that `-` before a digit is subtraction.
fn ends_noun(t: Option<&Token>) -> bool {
    matches!(
        t.map(|t| &t.tok),
        Some(
            Tok::Num(_)
                | Tok::Str(_)
                | Tok::Sym(_)
                | Tok::Name(_)
                | Tok::RParen
                | Tok::RBracket
                | Tok::RBrace
        )
    )
}

/// The extent of a number-like word starting at i.
fn number_word(b: &[u8], i: usize) -> usize {
    let mut j = i;
    if b[j] == b'-' {
        j += 1;
    }
    while j < b.len() {
        let c = b[j];
        let digit_next = j + 1 < b.len() && b[j + 1].is_ascii_digit();
        // letters, digits, dots; a colon before a digit (a time); a minus after an exponent's e
        let inside = c.is_ascii_alphanumeric()
            || c == b'.'
            || (c == b':' && digit_next)
            || (c == b'-' && j > i && b[j - 1] == b'e' && digit_next);
        if !inside {
            break;
        }
        j += 1;
    }
    j
}

fn starts_number(b: &[u8], i: usize, neg_ok: bool) -> bool {
    let c = b[i];
    let nd = |k: usize| k < b.len() && b[k].is_ascii_digit();
    c.is_ascii_digit()
        || (c == b'.' && nd(i + 1))
        || (neg_ok
            && c == b'-'
            && (nd(i + 1) || (i + 2 < b.len() && b[i + 1] == b'.' && nd(i + 2))))
}

fn bad(w: &str) -> QErr {
    // q reports an unreadable literal by its text
    err(w)
}

/// One number word to either a finished KObj (bool/byte forms) or a Lit to join into a vector.
enum Word {
    Done(KObj),
    Lit(Lit),
}

fn word(w: &str) -> Result<Word, QErr> {
    if w.starts_with("0x") {
        return literal::bytes(w).map(Word::Done).ok_or_else(|| bad(w));
    }
    if w.ends_with('b') && w.bytes().all(|c| c == b'0' || c == b'1' || c == b'b') {
        return literal::bools(w).map(Word::Done).ok_or_else(|| bad(w));
    }
    literal::parse_word(w).map(Word::Lit).ok_or_else(|| bad(w))
}

pub fn lex(src: &str) -> Result<Vec<Token>, QErr> {
    let b = src.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    // bracket stack (which brackets are open)
    let mut stack: Vec<u8> = Vec::new();
    let mut i = 0;
    let mut space = true;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c == b'\n' || c == b'\r' {
            i += 1;
            space = true;
            // a line break inside a lambda is blank space, as q's: its expressions are
            // separated by semicolons (code.kx.com/q/basics/function-notation), and an
            // expression may go on over lines (ktorch's gpt/math.q `match`, which q ran:
            // `flip update ok:actual=predict from` / `update actual:a+b from` / ...)
            continue;
        }
        if c == b' ' || c == b'\t' {
            i += 1;
            space = true;
            continue;
        }
        // comment: / after whitespace or at start of text
        if c == b'/' && space {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let prev = out.last();
        let tok;
        if c == b'"' {
            let mut s = Vec::new();
            i += 1;
            loop {
                if i >= b.len() {
                    return Err(err("\""));
                }
                let ch = b[i];
                if ch == b'"' {
                    i += 1;
                    break;
                }
                if ch == b'\\' && i + 1 < b.len() {
                    let e = b[i + 1];
                    i += 2;
                    match e {
                        b'n' => s.push(b'\n'),
                        b't' => s.push(b'\t'),
                        b'r' => s.push(b'\r'),
                        b'\\' => s.push(b'\\'),
                        b'"' => s.push(b'"'),
                        b'0'..=b'7' => {
                            let mut v = (e - b'0') as u32;
                            let mut k = 0;
                            while k < 2 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                                v = v * 8 + (b[i] - b'0') as u32;
                                i += 1;
                                k += 1;
                            }
                            s.push(v as u8);
                        }
                        _ => return Err(err("\\")),
                    }
                    continue;
                }
                s.push(ch);
                i += 1;
            }
            tok = Tok::Str(s);
        } else if c == b'`' {
            let mut syms = Vec::new();
            while i < b.len() && b[i] == b'`' {
                i += 1;
                let s0 = i;
                let file = i < b.len() && b[i] == b':';
                // q symbols may hold ':' after their first character (`cuda:0); '/' only in
                // file handles (`:dir/file).
                while i < b.len()
                    && (is_name_char(b[i])
                        || (b[i] == b':' && i > s0)
                        || (file && (b[i] == b':' || b[i] == b'/')))
                {
                    i += 1;
                }
                syms.push(String::from_utf8_lossy(&b[s0..i]).into_owned());
            }
            tok = Tok::Sym(syms);
        } else if (c == b'0' || c == b'1' || c == b'2')
            && i + 1 < b.len()
            && b[i + 1] == b':'
            // a digit after is a time (`1:30`), but straight after a noun it is the verb's
            // right argument: ref/file-binary.md's `(enlist"i";enlist 4)1:0x01000000`,
            // `(`:file;17;2;9)1:100#0x0`
            && (!(i + 2 < b.len() && b[i + 2].is_ascii_digit()) || (!space && ends_noun(prev)))
            && !(i > 0 && is_name_char(b[i - 1]))
        {
            i += 2;
            tok = Tok::Verb(format!("{}:", c as char));
        } else if starts_number(b, i, space || !ends_noun(prev)) {
            // a run of number words separated by spaces is one vector literal
            let mut lits: Vec<Lit> = Vec::new();
            let mut done: Option<KObj> = None;
            loop {
                let j = number_word(b, i);
                let w = std::str::from_utf8(&b[i..j]).unwrap_or("");
                match word(w)? {
                    Word::Done(k) => {
                        if !lits.is_empty() {
                            return Err(bad(w));
                        }
                        done = Some(k);
                        i = j;
                        break;
                    }
                    Word::Lit(l) => lits.push(l),
                }
                i = j;
                let mut k = i;
                while k < b.len() && b[k] == b' ' {
                    k += 1;
                }
                if k > i && k < b.len() && starts_number(b, k, true) {
                    let j2 = number_word(b, k);
                    let w2 = std::str::from_utf8(&b[k..j2]).unwrap_or("");
                    if w2.starts_with("0x") || (w2.ends_with('b') && !w2.contains('.')) {
                        break;
                    }
                    if k + 1 < b.len() && b[k] == b'-' && literal::parse_word(w2).is_none() {
                        break;
                    }
                    i = k;
                    continue;
                }
                break;
            }
            let v = match done {
                Some(k) => k,
                None => literal::make(&lits).ok_or_else(|| bad(&src[start..i]))?,
            };
            tok = Tok::Num(v);
        } else if c.is_ascii_alphabetic()
            || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_alphabetic())
        {
            while i < b.len() && is_name_char(b[i]) {
                i += 1;
            }
            tok = Tok::Name(src[start..i].to_string());
        } else {
            i += 1;
            let next = if i < b.len() { b[i] } else { 0 };
            tok = match c {
                b'(' => {
                    stack.push(c);
                    Tok::LParen
                }
                b')' => {
                    stack.pop();
                    Tok::RParen
                }
                b'[' => {
                    stack.push(c);
                    Tok::LBracket
                }
                b']' => {
                    stack.pop();
                    Tok::RBracket
                }
                b'{' => {
                    stack.push(c);
                    Tok::LBrace
                }
                b'}' => {
                    stack.pop();
                    Tok::RBrace
                }
                b';' => Tok::Semi,
                b'\'' | b'/' | b'\\' => {
                    if next == b':' {
                        i += 1;
                        Tok::Adverb(format!("{}:", c as char))
                    } else {
                        Tok::Adverb((c as char).to_string())
                    }
                }
                b':' if next == b':' => {
                    i += 1;
                    Tok::Verb("::".into())
                }
                b'<' if next == b'=' || next == b'>' => {
                    i += 1;
                    Tok::Verb(src[start..i].to_string())
                }
                b'>' if next == b'=' => {
                    i += 1;
                    Tok::Verb(">=".into())
                }
                b'+' | b'-' | b'*' | b'%' | b'!' | b'&' | b'|' | b'<' | b'>' | b'=' | b'~'
                | b',' | b'^' | b'#' | b'_' | b'$' | b'?' | b'@' | b'.' | b':' => {
                    Tok::Verb((c as char).to_string())
                }
                _ => return Err(err(&(c as char).to_string())),
            };
        }
        out.push(Token {
            tok,
            start,
            end: i,
            space_before: space,
        });
        space = false;
    }
    Ok(out)
}

//! Checks on a value that comes back from C (an extension's result, `k`'s and `dot`'s
//! arguments) before the interpreter uses it:
//! - a function object made by `ka(100..112)` holds q's primitive number in `->g`, which qhost
//!   cannot run except 0 (`ka(101)` then `->g=0`, the generic null): any other number is 'nyi,
//!   and 0xa5 (strict mode's poison) means `->g` was never set;
//! - in strict mode, a general-list item or a symbol still holding the poison pattern was
//!   never set (ktn's items "must be initialized prior to returning the list"): fatal with a
//!   message rather than a crash when qhost reads it.
//!
//! Only containers are walked (general lists, dictionaries, tables), so a large simple vector
//! costs nothing unless it is a symbol vector in strict mode.
use crate::kapi::kobj::*;
use crate::kapi::strict::{self, POISON_BYTE, POISON_PTR};
use crate::kapi::KObj;

pub fn check_incoming(x: &KObj) -> Result<(), String> {
    check(x.as_ptr(), 0)
}

fn check(x: K, depth: usize) -> Result<(), String> {
    if depth > 10_000 {
        return Ok(());
    }
    let t = unsafe { (*x).t };
    let strict = strict::on();
    match t {
        0 | XD => {
            let n = unsafe { (*x).n } as usize;
            for i in 0..n {
                let it = unsafe { *data::<K>(x).add(i) };
                if it as usize == POISON_PTR || (strict && it.is_null()) {
                    strict::fatal(&format!(
                        "item {i} of a {} made through the C API was never set \
                         (KX: all elements must be initialized prior to returning the list)",
                        if t == 0 { "general list" } else { "dictionary" }
                    ));
                }
                if it.is_null() {
                    return Err("nyi: a list item is (K)0".into());
                }
                check(it, depth + 1)?;
            }
            Ok(())
        }
        XT => check(unsafe { *atom::<K>(x) }, depth + 1),
        KS if strict => {
            let n = unsafe { (*x).n } as usize;
            let s = unsafe { std::slice::from_raw_parts(data::<usize>(x), n) };
            if let Some(i) = s.iter().position(|&p| p == POISON_PTR || p == 0) {
                strict::fatal(&format!(
                    "symbol {i} of a symbol list made by ktn was never set \
                     (KX: all elements must be initialized prior to returning the list)"
                ));
            }
            Ok(())
        }
        t if t >= FN_LAMBDA => {
            let payload = unsafe { *atom::<usize>(x) };
            if payload != 0 && is_prim_number(payload) {
                if payload as u8 == POISON_BYTE && strict {
                    strict::fatal(
                        "ka(101) returned with ->g never set: the generic null is ka(101) then \
                         ->g=0 (KX, C client for q: return values)",
                    );
                }
                return Err(format!(
                    "nyi: a function object made by ka({t}) with ->g={payload} (q's primitive \
                     number; qhost knows only ka(101) with ->g=0, the generic null)"
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

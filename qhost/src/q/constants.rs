//! q's constant values in `.Q` (ref/dotq.md): the alphabets and digits, base-64 and type
//! letters, as the page prints them.
use crate::kapi::KObj;

/// The value of a `.Q` constant by its full name, None for any other name.
pub fn get(name: &str) -> Option<KObj> {
    let text = match name {
        ".Q.a" => "abcdefghijklmnopqrstuvwxyz",
        ".Q.A" => "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        ".Q.an" => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789",
        ".Q.n" => "0123456789",
        ".Q.nA" => "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        ".Q.b6" => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        ".Q.t" => " bg xhijefcspmdznuvts",
        _ => return None,
    };
    Some(KObj::string(text))
}

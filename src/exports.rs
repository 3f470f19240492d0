//! The library's entry point `fns`, loaded in q by `` (`ktorch 2:`fns,1)[] ``: a dictionary of
//! every q name to its function, in the order of `fns::TABLE` (ktorch's order, then ours). Each
//! q function is also a C symbol of its own, declared by its row of that table.
use crate::fns::TABLE;
use crate::k::{make, KResult, K};

#[no_mangle]
pub extern "C" fn fns(x: K) -> K {
    crate::k::guard::install_panic_hook();
    crate::session::log::init();
    crate::k::guard::guard("fns", x, dictionary)
}

fn dictionary(_: K) -> KResult {
    let names: Vec<&str> = TABLE.iter().map(|e| e.name).collect();
    let funcs = TABLE
        .iter()
        .map(|e| make::function(e.address(), e.arity()))
        .collect();
    Ok(make::dict_of(make::symbols(&names), make::list(funcs)))
}

//! Enumerations (q::enums), each case what KX's pages print: ref/enumerate.md (`$`, `"i"$`,
//! changing the domain, `key`/`value`, 'cast), ref/enum-extend.md (`?`, the attribute kept by `?`
//! and not by `$`), ref/enumeration.md (`!`), basics/enumerations.md (`` `x!e `` of indices),
//! basics/datatypes.md (type 20h for every variable's enumeration); IPC and `-8!` send the
//! symbols (basics/ipc.md, "converted to values"; capiref b9 mode 3, "unenumerate").
mod common;

use common::run_script;

fn lines(script: &str) -> Vec<String> {
    let r = run_script(script);
    assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
    r.stdout.lines().map(str::to_string).collect()
}

#[test]
fn enumerate_as_kx_documents() {
    let out = lines(concat!(
        "d:`a`b`c\n",
        "y:`a`b`c`b`a`b`c`c`c`c`c`c`c\n",
        "show e:`d$y\n",
        "show \"i\"$e\n",
        "d[0]:`o\n",
        "show e\n",
        "show \"i\"$e\n",
        "show key e\n",
        "show value e\n",
        "x:`a`b\n",
        "show @[{`x$x};y;{x}]\n",
    ));
    assert_eq!(
        out,
        [
            "`d$`a`b`c`b`a`b`c`c`c`c`c`c`c",
            "0 1 2 1 0 1 2 2 2 2 2 2 2i",
            "`d$`o`b`c`b`o`b`c`c`c`c`c`c`c",
            "0 1 2 1 0 1 2 2 2 2 2 2 2i",
            "`d",
            "`o`b`c`b`o`b`c`c`c`c`c`c`c",
            "\"cast\"",
        ]
    );
}

#[test]
fn extend_and_from_indices_as_kx_documents() {
    let out = lines(concat!(
        "foo:`a`b\n",
        "show `foo?`a`b`c`b`a`b`c`c`c`c`c`c`c\n",
        "show foo\n",
        "y:`a`b`c`b`a`b`c`c`c`c`c`c`c\n",
        "show `foo?`g#y\n",
        "show `foo$`g#y\n",
        "x:`a`b`c`d\n",
        "show `x!1 2 3\n",
        "y:`a`b`c`b`a`b`c`c`c`c`c`c`c\n",
        "x:`a`b`c\n",
        "show e:\"i\"$x?y\n",
        "show x e\n",
        "show `x!e\n",
        "show type `sym$10?sym:`AAPL`AIG`GOOG`IBM\n",
        "show type `city$10?city:`london`paris`rome\n",
    ));
    assert_eq!(
        out,
        [
            "`foo$`a`b`c`b`a`b`c`c`c`c`c`c`c",
            "`a`b`c",
            "`g#`foo$`a`b`c`b`a`b`c`c`c`c`c`c`c",
            "`foo$`a`b`c`b`a`b`c`c`c`c`c`c`c",
            "`x$`b`c`d",
            "0 1 2 1 0 1 2 2 2 2 2 2 2i",
            "`a`b`c`b`a`b`c`c`c`c`c`c`c",
            "`x$`a`b`c`b`a`b`c`c`c`c`c`c`c",
            "20h",
            "20h",
        ]
    );
}

/// What q does with an enumeration beside the pages above: indexing keeps it, a table shows its
/// symbols, `-8!` writes the symbols (kb/serialization.md's symbol vector form); what qhost does
/// not do on one is 'nyi, never an answer computed on the indices.
#[test]
fn enumerations_elsewhere() {
    let out = lines(concat!(
        "d:`a`b`c\n",
        "e:`d$`b`c`b\n",
        "show e 0 1\n",
        "show e 1\n",
        "show count e\n",
        "show ([]s:e;v:1 2 3)\n",
        "show -8!e\n",
        "show (-8!e)~-8!`b`c`b\n",
        "show @[{x=`b};e;{x}]\n",
        "show @[{x+1};e;{x}]\n",
        "show @[{x,x};e;{x}]\n",
    ));
    assert_eq!(
        out,
        [
            "`d$`b`c",
            "`d$`c",
            "3",
            "s v",
            "---",
            "b 1",
            "c 2",
            "b 3",
            "0x01000000140000000b0003000000620063006200",
            "1b",
            "\"nyi\"",
            "\"nyi\"",
            "\"nyi\"",
        ]
    );
}

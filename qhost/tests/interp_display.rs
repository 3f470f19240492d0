//! The console form of values (`show`), `-3!` (one line), `.Q.s`, `.Q.fmt` and `string`.
//! Expected texts are what kdb+ prints at its defaults (\P 7, \c 25 80).
mod common;
use common::check;

#[test]
fn atoms() {
    check(&[
        ("1", "1"),
        ("1i", "1i"),
        ("1h", "1h"),
        ("1.5", "1.5"),
        ("1.0", "1f"),
        ("1e", "1e"),
        ("1.5e", "1.5e"),
        ("1b", "1b"),
        ("0x01", "0x01"),
        ("\"a\"", "\"a\""),
        ("`a", "`a"),
        ("`", "`"),
        ("0N", "0N"),
        ("0Ni", "0Ni"),
        ("0Nh", "0Nh"),
        ("0n", "0n"),
        ("0w", "0w"),
        ("-0w", "-0w"),
        ("0W", "0W"),
        ("-0W", "-0W"),
        ("0Wi", "0Wi"),
        ("0Ne", "0Ne"),
    ]);
}

#[test]
fn floats_at_default_precision() {
    check(&[
        ("2%3", "0.6666667"),
        ("4%3", "1.333333"),
        ("2 4 6%3", "0.6666667 1.333333 2"),
        ("1 2 3f", "1 2 3f"),
        ("1.5 2", "1.5 2"),
        ("1e10", "1e+10"),
        ("100000.0", "100000f"),
        ("1234567.0", "1234567f"),
        ("12345678.0", "1.234568e+07"),
        ("0.0001", "0.0001"),
        ("0.00001", "1e-05"),
        ("3.14159265", "3.141593"),
        ("-2.5", "-2.5"),
        ("1 0n 3", "1 0n 3"),
        ("1 2e", "1 2e"),
    ]);
}

#[test]
fn vectors() {
    check(&[
        ("1 2 3", "1 2 3"),
        ("1 2 3i", "1 2 3i"),
        ("1 2h", "1 2h"),
        ("101b", "101b"),
        ("0x0102", "0x0102"),
        ("\"abc\"", "\"abc\""),
        ("\"a\\\"b\"", "\"a\\\"b\""),
        ("`a`b", "`a`b"),
        ("enlist 1", ",1"),
        ("enlist \"a\"", ",\"a\""),
        ("enlist `a", ",`a"),
        ("0#0", "`long$()"),
        ("\"\"", "\"\""),
        ("0#`a", "`symbol$()"),
        ("0#1.5", "`float$()"),
        ("()", "()"),
        ("1 0N 3", "1 0N 3"),
        ("asc 2 1", "`s#1 2"),
        ("til 40", &{
            let s = (0..40).map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
            // q keeps console lines within 79 characters at \c 25 80: 77 and ".." (ktorch's
            // docs, printed by q, cut every long line so)
            format!("{}..", &s[..77])
        }),
    ]);
}

#[test]
fn temporal() {
    check(&[
        ("2000.01.01", "2000.01.01"),
        ("2024.02.29", "2024.02.29"),
        ("2000.01m", "2000.01m"),
        ("12:00:00.000", "12:00:00.000"),
        ("12:00", "12:00"),
        ("12:00:00", "12:00:00"),
        ("0D01:00:00", "0D01:00:00.000000000"),
        (
            "2000.01.01D12:00:00.000000000",
            "2000.01.01D12:00:00.000000000",
        ),
        ("2000.01.01 2000.01.02", "2000.01.01 2000.01.02"),
        ("0Nd", "0Nd"),
        ("0Np", "0Np"),
        ("type .z.p", "-12h"),
        ("type .z.p-.z.p", "-16h"),
        ("1999.12.31", "1999.12.31"),
    ]);
}

#[test]
fn lists_dicts_tables() {
    check(&[
        ("(1;`a;\"abc\")", "1\n`a\n\"abc\""),
        ("(1 2;3 4)", "1 2\n3 4"),
        ("(1;(2;`b))", "1\n(2;`b)"),
        // a one-row matrix shows its row: q printed `0 2` for `show i:1 2#0 2` (ktorch's
        // docs, sparse.rst, replayed in shared/conformance); -3! keeps the comma
        ("enlist 1 2", "1 2"),
        ("-3!enlist 1 2", "\",1 2\""),
        ("`a`b!1 2", "a| 1\nb| 2"),
        ("`a`bcd!1 2", "a  | 1\nbcd| 2"),
        ("`a`b!`x`y", "a| x\nb| y"),
        // values of one count form a matrix, a string among them as its characters (ref/reverse.md
        // `reverse d` shows `b| x y z`, ref/sublist.md)
        ("`a`b!(1 2;\"xy\")", "a| 1 2\nb| x y"),
        ("1 2!3 4", "1| 3\n2| 4"),
        ("([]a:1 2;b:`x`y)", "a b\n---\n1 x\n2 y"),
        ("([]a:1 10 100)", "a  \n---\n1  \n10 \n100"),
        (
            "([]a:1.5 2;b:(\"ab\";\"cd\"))",
            "a   b   \n--------\n1.5 \"ab\"\n2   \"cd\"",
        ),
        ("([]a:1 0N)", "a\n-\n1\n "),
        ("([a:1 2]b:3 4)", "a| b\n-| -\n1| 3\n2| 4"),
        // keys to a table's rows: a keyed table with no key name, as q printed ktorch's
        // `options d` of a dictionary (info.rst, replayed in shared/conformance), whose value is
        // ktorch.cpp's xD(keys;xT(..))
        ("`a`b!([]x:1 2;y:`p`q)", " | x y\n-| ---\na| 1 p\nb| 2 q"),
    ]);
}

#[test]
fn one_line_and_strings() {
    check(&[
        ("-3!1 2 3", "\"1 2 3\""),
        ("-3!(1;`a)", "\"(1;`a)\""),
        ("-3!`a`b!1 2", "\"`a`b!1 2\""),
        ("-3!([]a:1 2)", "\"+(,`a)!,1 2\""),
        ("-3!\"ab\"", "\"\\\"ab\\\"\""),
        (".Q.s 1 2", "\"1 2\\n\""),
        ("string 1.5", "\"1.5\""),
        ("string 2%3", "\"0.6666667\""),
        ("string 2000.01.01", "\"2000.01.01\""),
        ("string `ab", "\"ab\""),
        ("string 1b", ",\"1\""),
        ("string 0N", "\"\""),
        (".Q.fmt[6;2;3.14159]", "\"  3.14\""),
        (".Q.fmt[3;2;3.14159]", "\"***\""),
    ]);
}

//! Binary files and serialized tables on disk (issue 33: history as one `-8!` file a date).
//! Expected values are KX's: ref/file-binary.md (Save Binary: `` `:hello 1: 0x68656c6c6f776f726c64 ``
//! answers `` `:hello ``, `read1` gives the bytes back; `` `:hello 1: 1 `` writes
//! 0x0100000000000000, "the raw bytes of y"; a file "created, with any required directories",
//! "overwritten" when it exists), ref/read1.md (the whole file; `(f;o;n)` up to n bytes from o;
//! `(f;o)` from o on; its 0: example's bytes), ref/hcount.md (the size as a long), and
//! kb/serialization.md's layout of a table (0x62 0x00, then the column dictionary 0x63: a
//! symbol vector of names, a general list of columns, each a typed vector) with
//! basics/datatypes.md's type numbers and encodings (a date is the days since 2000.01.01 as an
//! int; floats IEEE 754 little-endian). What KX does not document answers 'nyi.
mod common;

use common::run_script;

/// Each line of `script` run in one qhost process (files under a fresh folder `D`), what it
/// printed: one line per `-1 .Q.s1 ...`.
fn lines(script: &str) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("qhostbinfile{}", std::process::id()));
    let d = format!("{}/{}", dir.display(), unique());
    let text = script.replace("D/", &format!("{d}/"));
    let r = run_script(&text);
    let _ = std::fs::remove_dir_all(&d);
    assert_eq!(r.code, Some(0), "{}\n{}", r.stdout, r.stderr);
    r.stdout
        .lines()
        .map(|l| l.replace(&format!("{d}/"), "D/"))
        .collect()
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// ref/file-binary.md's Save Binary examples, and read1.md's.
#[test]
fn save_binary_and_read1_as_kx_documents() {
    let out = lines(concat!(
        "-1 .Q.s1 `:D/hello 1: 0x68656c6c6f776f726c64;\n",
        "-1 .Q.s1 read1`:D/hello;\n",
        "-1 .Q.s1 `:D/hello 1: 1;\n",
        "-1 .Q.s1 read1`:D/hello;\n",
        // the required directories made
        "-1 .Q.s1 `:D/a/b/c 1: 0x0102;\n",
        "-1 .Q.s1 read1`:D/a/b/c;\n",
        "-1 .Q.s1 hcount`:D/a/b/c;\n",
        // read1.md: a text file's bytes; (f;o;n) and (f;o)
        "`:D/test.txt 0:(\"hello\";\"goodbye\");\n",
        "-1 .Q.s1 read1`:D/test.txt;\n",
        "-1 .Q.s1 \"c\"$read1`:D/test.txt;\n",
        "-1 .Q.s1 \"c\"$read1(`:D/test.txt;6;4);\n",
        "-1 .Q.s1 \"c\"$read1(`:D/test.txt;6;100);\n",
        "-1 .Q.s1 \"c\"$read1(`:D/test.txt;6);\n",
        "-1 .Q.s1 read1(`:D/test.txt;14;3);\n",
        "-1 .Q.s1 hcount`:D/test.txt;\n",
        // the raw bytes of a char vector, of other simple vectors and atoms
        "-1 .Q.s1 `:D/s 1: \"hello\";\n",
        "-1 .Q.s1 read1`:D/s;\n",
        "`:D/s 1: 1 2i;\n",
        "-1 .Q.s1 read1`:D/s;\n",
        "`:D/s 1: 1.5;\n",
        "-1 .Q.s1 read1`:D/s;\n",
        "`:D/s 1: 2000.01.02 2000.01.03;\n",
        "-1 .Q.s1 read1`:D/s;\n",
        "`:D/s 1: 010b;\n",
        "-1 .Q.s1 read1`:D/s;\n",
        "`:D/s 1: \"x\";\n",
        "-1 .Q.s1 read1`:D/s;\n",
        "`:D/s 1: 0#0x;\n",
        "-1 .Q.s1 (read1`:D/s;hcount`:D/s);\n",
        "-1 .Q.s1 1:[`:D/s;0x2a];\n",
        "-1 .Q.s1 read1`:D/s;\n",
    ));
    assert_eq!(
        out,
        [
            "`:D/hello",
            "0x68656c6c6f776f726c64",
            "`:D/hello",
            "0x0100000000000000",
            "`:D/a/b/c",
            "0x0102",
            "2",
            "0x68656c6c6f0a676f6f646279650a",
            "\"hello\\ngoodbye\\n\"",
            "\"good\"",
            "\"goodbye\\n\"",
            "\"goodbye\\n\"",
            "`byte$()",
            "14",
            "`:D/s",
            "0x68656c6c6f",
            "0x0100000002000000",
            "0x000000000000f83f",
            "0x0100000002000000",
            "0x000100",
            ",0x78",
            "(`byte$();0)",
            "`:D/s",
            ",0x2a",
        ]
    );
}

/// A table of several column types to a file as `-8!` writes it, and back with `-9!read1`
/// (issue 33's history on disk): the bytes are kb/serialization.md's table layout; an
/// enumerated column goes as its symbols (capiref.md: b9 mode 3 unenumerates), as `-8!` of the
/// same table with symbols.
#[test]
fn serialized_table_through_a_file() {
    let out = lines(concat!(
        "t:([]d:2024.01.01 2024.01.02;x:1.5 2.5;s:`a`b);\n",
        "-1 .Q.s1 -8!t;\n",
        "-1 .Q.s1 `:D/hist/2024.01.01 1: -8!t;\n",
        "-1 .Q.s1 hcount`:D/hist/2024.01.01;\n",
        "-1 .Q.s1 t~-9!read1`:D/hist/2024.01.01;\n",
        "u:([]d:2024.01.01 2024.01.02;x:1.5 2.5;s:`a`b;j:7 8;c:(\"ab\";\"c\");p:2024.01.01D10:00 2024.01.02D11:00;b:10b;g:2#0x0102;i:1 2i;e:1 2e;h:1 2h;n:0D01 0D02;m:2024.01 2024.02;u:10:00 10:01;v:10:00:01 10:00:02;z:10:00:00.001 10:00:00.002);\n",
        "`:D/u 1: -8!u;\n",
        "-1 .Q.s1 u~-9!read1`:D/u;\n",
        "-1 .Q.s1 (hcount`:D/u)=count -8!u;\n",
        "sd:`b`a;\n",
        "w:([]d:2024.01.01 2024.01.02;s:`sd$`a`b);\n",
        "-1 .Q.s1 (-8!w)~-8!([]d:2024.01.01 2024.01.02;s:`a`b);\n",
        "`:D/w 1: -8!w;\n",
        "-1 .Q.s1 -9!read1`:D/w;\n",
        "-1 .Q.s1 meta -9!read1`:D/w;\n",
    ));
    assert_eq!(
        out,
        [
            concat!(
                "0x010000004b000000620063",
                "0b0003000000640078007300",
                "000003000000",
                "0e00020000003e2200003f220000",
                "090002000000000000000000f83f0000000000000440",
                "0b00020000006100620",
                "0"
            ),
            "`:D/hist/2024.01.01",
            "75",
            "1b",
            "1b",
            "1b",
            "1b",
            "+`d`s!(2024.01.01 2024.01.02;`a`b)",
            "(+(,`c)!,`d`s)!+`t`f`a!(\"ds\";``;``)",
        ]
    );
}

/// What KX does not document answers 'nyi: `1:` of an anymap (general lists, tables,
/// dictionaries), of symbols or enumerations; a handle that is not a file symbol; compression;
/// Read Binary; `read1` from past the end, of a handle, of a string; `hcount` of a folder or a
/// missing file.
#[test]
fn undocumented_binary_file_forms_are_nyi() {
    let out = lines(concat!(
        "f:{@[value;x;{x}]};\n",
        "-1 .Q.s1 f\"`:D/a 1: ((1 2;3 4);(1 2;3 4))\";\n",
        "-1 .Q.s1 f\"`:D/a 1: ([]a:1 2)\";\n",
        "-1 .Q.s1 f\"`:D/a 1: `a`b!1 2\";\n",
        "-1 .Q.s1 f\"`:D/a 1: `a`b\";\n",
        "-1 .Q.s1 f\"`:D/a 1: `a\";\n",
        "-1 .Q.s1 f\"d:`a`b;`:D/a 1: `d$`a\";\n",
        "-1 .Q.s1 f\"`qhostnofile 1: 0x01\";\n",
        "-1 .Q.s1 f\"\\\"D/a\\\" 1: 0x01\";\n",
        "-1 .Q.s1 f\"(`:D/a;17;2;9)1: 100#0x0\";\n",
        "-1 .Q.s1 f\"(\\\"ich\\\";4 1 2)1: 0x00000000410000FF00000042FFFF\";\n",
        // ref/file-binary.md's forms as written: `1:` straight after a noun is the verb
        "-1 .Q.s1 f\"(enlist\\\"i\\\";enlist 4)1:0x01000000\";\n",
        "-1 .Q.s1 f\"(`:D/a;17;2;9)1:100#0x0\";\n",
        "`:D/b 1: 0x010203;\n",
        "-1 .Q.s1 f\"read1(`:D/b;4;1)\";\n",
        "-1 .Q.s1 f\"read1(`:D/b;-1;1)\";\n",
        "-1 .Q.s1 f\"read1 \\\"D/b\\\"\";\n",
        "-1 .Q.s1 f\"read1 0\";\n",
        "-1 .Q.s1 f\"hcount`:D/\";\n",
        "-1 .Q.s1 f\"hcount`:D/none\";\n",
        "-1 .Q.s1 f\"read1`:D/none\";\n",
        // a time stays a time
        "-1 .Q.s1 1:30;\n",
    ));
    let mut want = vec!["\"nyi\""; 18];
    want.push("\"D/none. OS reports: No such file or directory\"");
    want.push("01:30");
    assert_eq!(out, want);
}

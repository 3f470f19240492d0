/// A line of Rust without its `//` comment (one outside a string literal): what the
/// architecture tests (tests/layers.rs, qhost/tests/layers.rs) and the fuzzer's scan of typed
/// functions (fuzz/build.rs) read, so that a comment's words are never taken for code.
pub fn code(line: &str) -> &str {
    let b = line.as_bytes();
    let (mut in_str, mut i) = (false, 0);
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

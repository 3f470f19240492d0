// The one parser of the docs' example blocks, shared by tests/docs.rs (which runs every example
// and compares its output) and fuzz/build.rs (which seeds the fuzzer's calls with the examples'
// inputs): included by both (`#[path]` module, `include!`), so the two read the same blocks.
//
// A block is fenced ```q (or ```q cuda: it needs a GPU) and ```; inside it, a line starting `q)`
// is an input and the lines after it are what q's console prints for it. (Plain `//` comments:
// an included file may not carry inner doc comments.)

/// One example: a `q)` input and the lines printed after it.
pub struct Example {
    pub input: String,
    pub expected: Vec<String>,
}

/// One ```q block of a doc.
pub struct Block {
    /// The 1-based line of its opening fence.
    pub line: usize,
    /// Fenced ```q cuda: it needs a GPU.
    pub cuda: bool,
    pub examples: Vec<Example>,
}

/// The example blocks of a doc's text. An output line before any `q)` line of its block is the
/// error `line N: output before any q) line`.
pub fn doc_blocks(md: &str) -> Result<Vec<Block>, String> {
    let mut out = vec![];
    let mut cur: Option<Block> = None;
    for (i, line) in md.lines().enumerate() {
        match (&mut cur, line.trim_end()) {
            (None, "```q") | (None, "```q cuda") => {
                cur = Some(Block {
                    line: i + 1,
                    cuda: line.trim_end() == "```q cuda",
                    examples: vec![],
                })
            }
            (Some(_), "```") => out.extend(cur.take()),
            (Some(b), l) => match l.strip_prefix("q)") {
                Some(input) => b.examples.push(Example {
                    input: input.to_string(),
                    expected: vec![],
                }),
                None => b
                    .examples
                    .last_mut()
                    .ok_or_else(|| format!("line {}: output before any q) line", i + 1))?
                    .expected
                    .push(l.to_string()),
            },
            _ => {}
        }
    }
    Ok(out)
}

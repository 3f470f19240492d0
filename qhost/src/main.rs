fn main() {
    let _ = qhost::q::eval_text("");
}

//! Attention through libtorch's scaled_dot_product_attention (flash, memory-efficient and cuDNN
//! kernels on CUDA, its math on the CPU) for `attention`, `selfattention` and the transformer
//! layers, in place of matmul-softmax-matmul, when `setting`sdpa` is on (the default) and no
//! attention weights are asked for: the same function, computed without the (L,S) weights in
//! memory. A mask that is the causal mask (0 on and below the diagonal, -inf above; or a boolean
//! mask true above the diagonal) is passed as is_causal, so the causal kernels run; the answer is
//! kept with the mask (held, so its memory cannot be reused) and its version counter, so a mask
//! seen before and unchanged costs no look at its values (that look waits for the GPU).
use std::cell::RefCell;

use anyhow::Result;
use tch::{Kind, Tensor};

/// A mask's identity: its memory, shape, strides, type and version.
struct Seen {
    mask: Tensor,
    version: i64,
    causal: bool,
}

thread_local! {
    static SEEN: RefCell<Vec<Seen>> = const { RefCell::new(Vec::new()) };
}

fn version(t: &Tensor) -> Result<i64> {
    crate::cxx::tensor::version(t)
}

fn same(a: &Tensor, b: &Tensor) -> bool {
    a.data_ptr() == b.data_ptr()
        && a.size() == b.size()
        && a.stride() == b.stride()
        && a.kind() == b.kind()
        && a.device() == b.device()
}

/// Whether `m` (2-d, square) is the causal mask: additive (0 on and below the diagonal, -inf
/// above) or boolean (true above the diagonal: the positions masked out).
fn check(m: &Tensor) -> Result<bool> {
    let n = m.size()[0];
    let upper = Tensor::f_ones([n, n], (Kind::Bool, m.device()))?.f_triu(1)?;
    Ok(if m.kind() == Kind::Bool {
        m.f_equal(&upper)?
    } else if m.is_floating_point() {
        let want = Tensor::f_zeros([n, n], (m.kind(), m.device()))?
            .f_masked_fill(&upper, f64::NEG_INFINITY)?;
        m.f_equal(&want)?
    } else {
        false
    })
}

/// Whether mask `m` is the causal mask of its (square) size; a boolean mask only when `boolean`
/// (where true means masked out, as MultiheadAttention's; ktorch's SelfAttention adds masks).
pub fn is_causal(m: &Tensor, boolean: bool) -> Result<bool> {
    let s = m.size();
    // a CUDA graph being recorded replays later with whatever mask its input then holds: pass
    // the mask itself (any mask stays right), not a decision taken on today's values
    if crate::device::capture::capturing() {
        return Ok(false);
    }
    if s.len() != 2 || s[0] != s[1] || s[0] == 0 || (m.kind() == Kind::Bool && !boolean) {
        return Ok(false);
    }
    let v = version(m)?;
    if let Some(c) = SEEN.with(|seen| {
        seen.borrow()
            .iter()
            .find(|e| same(&e.mask, m) && e.version == v)
            .map(|e| e.causal)
    }) {
        return Ok(c);
    }
    let causal = check(m)?;
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        seen.retain(|e| !same(&e.mask, m));
        if seen.len() >= 8 {
            seen.remove(0);
        }
        seen.push(Seen {
            mask: m.shallow_clone(),
            version: v,
            causal,
        });
    });
    Ok(causal)
}

/// Forget every mask seen (tests of the cache; a freed module's masks).
pub fn forget() {
    SEEN.with(|seen| seen.borrow_mut().clear());
}

/// Attention of q (..,L,E) over k (..,S,E) and v (..,S,Ev) with an additive float mask
/// (broadcast to (..,L,S)) or none, or the causal mask, with dropout on the weights.
pub fn attend(
    q: &Tensor,
    k: &Tensor,
    v: &Tensor,
    mask: Option<&Tensor>,
    causal: bool,
    dropout: f64,
) -> Result<Tensor> {
    let mask = match mask {
        Some(m) if !causal && m.kind() != q.kind() => Some(m.f_to_kind(q.kind())?),
        Some(m) if !causal => Some(m.shallow_clone()),
        _ => None,
    };
    Ok(Tensor::f_scaled_dot_product_attention(
        q,
        k,
        v,
        mask.as_ref(),
        dropout,
        causal,
        None,
        false,
    )?)
}

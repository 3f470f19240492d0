//! A CPU tensor's memory as Rust slices: the one place the layers above touch a tensor's data in
//! place (a conversion's copy, a table's interleave, the plan's weights). Each view checks what
//! makes it sound: a defined, dense (strided, not MKL-DNN), contiguous CPU tensor with data, of
//! the element type asked for (libtorch's own answers, in one shim call); the slice is its `numel` items from `data_ptr` (the storage
//! offset included) and borrows the tensor, whose storage lives at least as long.
//!
//! A mutable view takes `&mut Tensor`: the callers write tensors they have just made, which no
//! other handle shares (a `shallow_clone` elsewhere would share the storage, as with tch's own
//! `copy_data`: the same contract).
use tch::kind::Element;
use tch::Tensor;

/// The data pointer and byte count of a tensor laid out as one run of its items on the host;
/// None for anything else (undefined, sparse, MKL-DNN, another device, not contiguous, no
/// storage). One shim call (tensor_info.cpp's `ktorch_host_data`) makes every check.
fn run(t: &Tensor) -> Option<(*mut u8, usize)> {
    let (mut p, mut n, mut ok) = (std::ptr::null_mut::<libc::c_void>(), 0i64, 0i64);
    // SAFETY: a src/cxx entry point given a tensor borrowed for the call and out-slots on this
    // frame; it only reads the tensor and catches every C++ exception (attempt.h).
    let rc = unsafe { super::ktorch_host_data(t.as_ptr() as super::Tp, &mut p, &mut n, &mut ok) };
    super::check(rc).ok()?;
    if ok == 0 || n < 0 {
        return None;
    }
    // an empty run still needs a non-null, aligned address for a slice
    let p = if n == 0 {
        std::ptr::NonNull::<u128>::dangling().as_ptr() as *mut u8
    } else {
        p as *mut u8
    };
    Some((p, n as usize))
}

/// The data of contiguous CPU tensor `t` as bytes (all its items, in order).
pub fn bytes(t: &Tensor) -> Option<&[u8]> {
    let (p, n) = run(t)?;
    // SAFETY: `run` checked a contiguous host run of `n` bytes at `p`, owned by `t`'s storage,
    // which lives while `t` is borrowed.
    Some(unsafe { std::slice::from_raw_parts(p, n) })
}

/// The data of contiguous CPU tensor `t` as bytes to write (a tensor just made, shared with no
/// other handle).
pub fn bytes_mut(t: &mut Tensor) -> Option<&mut [u8]> {
    let (p, n) = run(t)?;
    // SAFETY: as `bytes`; `t` is borrowed mutably for the slice's life.
    Some(unsafe { std::slice::from_raw_parts_mut(p, n) })
}

/// The items of contiguous CPU tensor `t` as `T`s, when `T` is its kind.
pub fn slice<T: Element>(t: &Tensor) -> Option<&[T]> {
    if !t.defined() || t.kind() != T::KIND {
        return None;
    }
    let (p, n) = run(t)?;
    // SAFETY: as `bytes`, and the items are `T`s (the kind checked), aligned as libtorch's
    // allocator aligns every storage (64 bytes), a storage offset being whole items.
    Some(unsafe { std::slice::from_raw_parts(p as *const T, n / std::mem::size_of::<T>()) })
}

/// Ask the kernel for transparent huge pages on the whole 2 MB pages of `t`'s memory before its
/// first write (a fresh allocation's memory is mapped at first touch: 4 KB pages make one fault
/// each, 200,000 for 800 MB, which cost more than the copy; PyTorch's THP_MEM_ALLOC_ENABLE does
/// the same for its own large tensors). Advice only: where the kernel says no, nothing changes.
pub fn huge_pages(t: &mut Tensor) {
    #[cfg(target_os = "linux")]
    if let Some(b) = bytes_mut(t) {
        const PAGE: usize = 2 << 20;
        let (p, n) = (b.as_mut_ptr() as usize, b.len());
        let start = p.div_ceil(PAGE) * PAGE;
        let end = (p + n) / PAGE * PAGE;
        if end > start {
            // SAFETY: [start, end) lies inside the tensor's memory, which this process owns;
            // madvise only advises the kernel on its pages.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
}

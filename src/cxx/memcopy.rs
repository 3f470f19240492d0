//! The one bulk copy of a conversion (q vector → tensor storage and back), at memory speed
//! whatever the two buffers' places in their pages.
//!
//! glibc's memcpy copies forward, and for copies above its non-temporal threshold (192 MiB on
//! the bench machine, a few MiB on others) it slows to about half speed when the destination
//! lies a little *after* the source modulo 4096 ("4K aliasing": a load waits on an earlier store
//! whose address shares its low 12 bits). That is the usual case of q → tensor: a large q
//! vector's data sits at offset 32 of a page (malloc's chunk header + the K header) and
//! libtorch's 64-byte-aligned storage at offset 64, so destination − source ≡ 32. Copying
//! backward has no such stall: going down, the store that shares a load's low 12 bits comes
//! after the load, not before. Measured on an 800 MB copy into fresh memory: memcpy 0.70 GB/s at
//! ≡ 32 (0.90 at ≡ 256, 1.25 at ≡ 0), the backward loop below 1.3-1.4 GB/s at every offset.
//! Elsewhere memcpy is as fast or faster, so it stays the copy for everything else.
// Raw memory, behind the boundary: the layers above call `copy` on two slices (a q vector's
// data from src/k's views, a tensor's from `storage`), whose lengths it checks.

/// Offsets (destination − source, mod 4096) at which a forward copy can stall; glibc's own
/// medium-size path turns backward below 256, the stall measured up to about 1 KB.
const ALIAS_WINDOW: usize = 1024;
/// Below this the copy is cache-sized and glibc's smaller-copy paths avoid the stall
/// themselves.
const LARGE: usize = 1 << 20;

/// Copy `src` into `dst` (of the same length), choosing the direction that does not stall on 4K
/// aliasing.
pub fn copy(src: &[u8], dst: &mut [u8]) {
    assert_eq!(
        src.len(),
        dst.len(),
        "copy between buffers of different lengths"
    );
    // SAFETY: both slices hold `len` bytes, and a `&mut` slice overlaps no other borrow.
    unsafe { copy_bytes(src.as_ptr(), dst.as_mut_ptr(), src.len()) }
}

/// `copy` on raw pointers.
///
/// # Safety
/// `src` must be valid for `n` bytes of reads, `dst` for `n` bytes of writes, not overlapping.
pub(super) unsafe fn copy_bytes(src: *const u8, dst: *mut u8, n: usize) {
    let ahead = (dst as usize).wrapping_sub(src as usize) % 4096;
    if n >= LARGE && ahead != 0 && ahead < ALIAS_WINDOW {
        copy_backward(src, dst, n);
    } else {
        std::ptr::copy_nonoverlapping(src, dst, n);
    }
}

/// Copy from the end down, 64 bytes (a cache line) at a time, then the head with memcpy.
///
/// # Safety
/// As `copy_bytes`: `src` valid for `n` bytes of reads, `dst` for `n` bytes of writes, not
/// overlapping.
unsafe fn copy_backward(src: *const u8, dst: *mut u8, n: usize) {
    const BLOCK: usize = 64;
    // Opaque pointers: where the compiler knows the two do not overlap (they come from a `&`
    // and a `&mut` slice), it rewrites this loop as one forward memcpy (loop idiom recognition),
    // which is the very copy that stalls; black_box hides what it could prove.
    let (src, dst) = (std::hint::black_box(src), std::hint::black_box(dst));
    let mut left = n;
    while left >= BLOCK {
        left -= BLOCK;
        // a fixed-size copy compiles to vector loads and stores, not a memcpy call
        let block = std::ptr::read_unaligned(src.add(left) as *const [u8; BLOCK]);
        std::ptr::write_unaligned(dst.add(left) as *mut [u8; BLOCK], block);
    }
    std::ptr::copy_nonoverlapping(src, dst, left);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every direction and a ragged tail copy every byte, at aliasing and other offsets.
    #[test]
    fn copies_every_byte() {
        let n = LARGE + 37;
        let src: Vec<u8> = (0..n + 4096).map(|i| (i * 7 % 251) as u8).collect();
        for ahead in [0usize, 16, 32, 1000, 2048, 4064] {
            let mut dst = vec![0u8; n + 8192];
            let s = &src[5..5 + n];
            // place the destination `ahead` bytes after the source, modulo 4096
            let base = dst.as_ptr() as usize;
            let want = (s.as_ptr() as usize + ahead) % 4096;
            let off = (want + 4096 - base % 4096) % 4096;
            copy(s, &mut dst[off..off + n]);
            assert_eq!(&dst[off..off + n], s, "ahead {ahead}");
            assert!(dst[..off].iter().all(|&b| b == 0) && dst[off + n..].iter().all(|&b| b == 0));
        }
    }
}

//! The C API's joins (ja, jk, jv) on a list with a second reference. KX's capiref, "Joins": "The
//! reallocation of the list will cause the initial list's reference count to be decremented";
//! the other holder keeps the list it had (issue 32: qhost reallocated the block in place, so the
//! other holder's pointer dangled). A list with one reference grows as before.
use qhost::kapi::exports::{ja, jk, jv, kj, ktn, r0, r1};
use qhost::kapi::*;

unsafe fn longs(x: K) -> Vec<i64> {
    std::slice::from_raw_parts((x as *const u8).add(16) as *const i64, (*x).n as usize).to_vec()
}

#[test]
fn joins_leave_a_second_holder_its_list() {
    qhost::kapi::threads::claim_main();
    unsafe {
        let base = live_objects();
        // ja on a shared long vector
        let a = ktn(KJ as i32, 2);
        *((a as *mut u8).add(16) as *mut i64) = 10;
        *((a as *mut u8).add(24) as *mut i64) = 20;
        let other = r1(a); // the second reference
        let mut x = a;
        let v: i64 = 30;
        let r = ja(&mut x, &v as *const i64 as *const std::ffi::c_void);
        assert_eq!(r, x);
        assert_eq!(longs(x), vec![10, 20, 30]);
        assert_eq!((*x).r, 0, "the new list has one reference");
        assert_eq!(
            longs(other),
            vec![10, 20],
            "the other holder keeps its list"
        );
        assert_eq!((*other).r, 0, "the old list's count was decremented");
        r0(x);
        r0(other);

        // jk on a shared general list: both lists hold the items
        let item = kj(7);
        let g = ktn(0, 1);
        *((g as *mut u8).add(16) as *mut K) = item;
        let other = r1(g);
        let mut x = g;
        jk(&mut x, kj(8));
        assert_eq!((*x).n, 2);
        assert_eq!((*other).n, 1);
        assert_eq!(*((other as *const u8).add(16) as *const K), item);
        assert_eq!((*item).r, 1, "the first item is held by both lists");
        r0(other);
        assert_eq!((*item).r, 0);
        r0(x);

        // jv on a shared vector
        let a = ktn(KJ as i32, 1);
        *((a as *mut u8).add(16) as *mut i64) = 1;
        let other = r1(a);
        let y = ktn(KJ as i32, 1);
        *((y as *mut u8).add(16) as *mut i64) = 2;
        let mut x = a;
        jv(&mut x, y);
        assert_eq!(longs(x), vec![1, 2]);
        assert_eq!(longs(other), vec![1]);
        r0(x);
        r0(other);
        r0(y);

        // one reference: grows in place as before
        let mut x = ktn(KJ as i32, 0);
        for i in 0..100i64 {
            ja(&mut x, &i as *const i64 as *const std::ffi::c_void);
        }
        assert_eq!(longs(x), (0..100).collect::<Vec<_>>());
        r0(x);
        assert_eq!(live_objects(), base, "no K object left live");
    }
}

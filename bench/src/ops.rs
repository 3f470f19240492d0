//! Per-call overhead of a small op, `add` of two tensors of 1 and of 1000 doubles, four ways:
//! tch in Rust (`a.f_add(&b)`, the floor); ktorch's C entry point as q calls it (a K list of two
//! handles `(x;y)` in, a new handle out, freed through ktorch's `free`); PyTorch in Python
//! (`torch.add(a,b)` under timeit in bench/peer.py, its batches interleaved with the others); and the q text `free add(x;y)` evaluated by
//! qhost's interpreter (parsed once, as `\t:n` does), so the interpreter's own cost shows apart.
//! Every side makes and releases its result tensor. Torch threads: 1 everywhere. For
//! information, tch's add plus the K objects any extension's new handle costs q (the host's
//! `ktn(0,1)` and `kj` for `enlist id`, then their `r0`): the part of ktorch's time that is the
//! host's allocator, not ktorch.
use std::hint::black_box;

use qhost::kapi::*;
use qhost::q::{eval, parser};
use tch::{Device, Kind, Tensor};

use crate::measure::{interleaved, Case, Stat};
use crate::report::{Bound, Report};
use crate::Ctx;

const BENCH: &str = "add overhead";
pub const SIZES: [i64; 2] = [1, 1000];

pub fn run(ctx: &Ctx, rep: &mut Report, py: &mut crate::peer::Peer) -> Result<(), String> {
    let kt = &ctx.ktorch;
    kt.q_globals()?;
    for n in SIZES {
        let qv = |v: f64| {
            let x = KObj::vector(KF, n);
            x.slice_mut::<f64>().fill(v);
            x
        };
        let (hx, hy) = (kt.call("tensor", &qv(1.0))?, kt.call("tensor", &qv(2.0))?);
        let args = KObj::list(vec![hx.clone(), hy.clone()]);
        let r = kt.call("add", &args)?;
        let sum = kt.call("tensor", &r)?;
        if sum.slice::<f64>().iter().any(|v| *v != 3.0) {
            return Err("add(x;y) gave a wrong sum".into());
        }
        kt.call("free", &r)?;
        let a = Tensor::f_full([n], 1.0, (Kind::Double, Device::Cpu)).map_err(|e| e.to_string())?;
        let b = Tensor::f_full([n], 2.0, (Kind::Double, Device::Cpu)).map_err(|e| e.to_string())?;
        eval::eval_text(&format!("qx:tensor {n}#1.0;qy:tensor {n}#2.0")).map_err(|e| e.0)?;
        let node = parser::parse("free add(qx;qy)").map_err(|e| e.0)?;
        let (add, free) = (kt.f1("add"), kt.f1("free"));
        let ap = args.as_ptr();
        let py_on = py.running();
        let mut cases = vec![
            Case::new("tch", || {
                drop(black_box(a.f_add(&b).unwrap()));
            }),
            Case::new("tch + K", || unsafe {
                drop(black_box(a.f_add(&b).unwrap()));
                let h = qhost::kapi::exports::ktn(0, 1);
                *(h as *mut u8).add(16).cast::<K>() = qhost::kapi::exports::kj(black_box(1));
                qhost::kapi::exports::r0(black_box(h));
            }),
            Case::new("ktorch", || unsafe {
                let r = add(ap);
                assert!(!r.is_null(), "add(x;y) failed");
                let f = free(r);
                qhost::kapi::exports::r0(f);
                qhost::kapi::exports::r0(r);
            }),
            Case::new("qhost", || {
                let mut fr = eval::Frame::default();
                black_box(eval::done(eval::eval(&node, &mut fr)).expect("free add(qx;qy)"));
            }),
        ];
        if py_on {
            cases.push(Case::timed("PyTorch", |iters| py.add(n, iters)));
        }
        let s = interleaved(&mut cases, ctx.plan);
        drop(cases);
        eval::eval_text("free(qx;qy)").map_err(|e| e.0)?;
        kt.call("free", &KObj::list(vec![hx, hy]))?;
        drop(args);

        let (tch, withk, ktc, q) = (s[0], s[1], s[2], s[3]);
        let pyt: Option<Stat> = s.get(4).copied();
        let sz = n.to_string();
        let vs = |x: f64, y: Option<Stat>, what: &str| {
            y.map_or(String::new(), |y| format!("{:.2}× {what}", x / y.median))
        };
        let fixed = |s: &Stat| format!("{:.0}k calls/s", 1e6 / s.median);
        rep.row(
            BENCH,
            "tch direct: a.f_add(&b) (floor)",
            &sz,
            Some(tch),
            fixed(&tch),
            "1.00× tch".into(),
        );
        rep.row(
            BENCH,
            "tch + q's K for a handle (information)",
            &sz,
            Some(withk),
            fixed(&withk),
            format!(
                "{:.2}× tch, {}{} host",
                withk.median / tch.median,
                if withk.median >= tch.median { "+" } else { "-" },
                crate::report::time((withk.median - tch.median).abs())
            ),
        );
        rep.row(
            BENCH,
            "ktorch C API: add (x;y), then free",
            &sz,
            Some(ktc),
            fixed(&ktc),
            format!(
                "{:.2}× tch, {}",
                ktc.median / tch.median,
                vs(ktc.median, pyt, "PyTorch")
            )
            .trim_end_matches(", ")
            .into(),
        );
        match pyt {
            Some(p) => rep.row(
                BENCH,
                "PyTorch: torch.add(a,b)",
                &sz,
                Some(p),
                fixed(&p),
                format!("{:.2}× tch", p.median / tch.median),
            ),
            None => {
                rep.row(
                    BENCH,
                    "PyTorch: torch.add(a,b)",
                    &sz,
                    None,
                    String::new(),
                    String::new(),
                );
                rep.rows.last_mut().unwrap().note =
                    format!("not measured: {}", py.error.as_deref().unwrap_or("?"));
            }
        }
        rep.row(
            BENCH,
            "qhost q text: free add(x;y)",
            &sz,
            Some(q),
            fixed(&q),
            format!(
                "{:.2}× ktorch C API, +{} interpreter",
                q.median / ktc.median,
                crate::report::time(q.median - ktc.median)
            ),
        );
        rep.target(
            format!("ktorch C API add n={n}: time vs tch direct"),
            Some(ktc.median / tch.median),
            Bound::AtMost(1.2), // issue 21 (was 1.5)
        );
        rep.target(
            format!("ktorch C API add n={n}: time vs PyTorch Python"),
            pyt.map(|p| ktc.median / p.median),
            Bound::AtMost(0.5),
        );
    }
    Ok(())
}

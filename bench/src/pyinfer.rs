//! Inference latency of a model made in Python, called once per row batch from q (issue 23):
//! bench/pymodels.py's scoring MLP (4 -> 32 -> 32 -> 1) on a float32 batch of 1 and of 64 rows,
//! three ways in the same rounds:
//! - ktorch TorchScript: `evaluate(m;X)` on the module `loadscript` made, q data in and out (the
//!   conversion both ways is part of what q pays);
//! - ktorch AOTInductor: `evaluate(a;X)` on the package `loadaoti` made (one package per batch
//!   size: export fixes it; kernels compiled for one thread);
//! - PyTorch eager in Python (bench/peer.py): `m(x)` under `torch.no_grad()`, a tensor in.
//!
//! One torch thread everywhere. The models are made once by bench/pymodels.py (the virtualenv's
//! python) and kept in ~/.cache/ktorch/pymodels/bench (compiling the packages takes a minute or
//! two the first time).
use std::path::PathBuf;
use std::process::Command;

use qhost::kapi::*;

use crate::measure::{interleaved, Case, Stat};
use crate::peer::Peer;
use crate::report::{Bound, Report};
use crate::Ctx;

const BENCH: &str = "python model inference";

fn models() -> Result<PathBuf, String> {
    let home = std::env::var("HOME").map_err(|_| "HOME not set")?;
    let dir = PathBuf::from(home).join(".cache/ktorch/pymodels/bench");
    let (python, script) = crate::peer::python_script("pymodels.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(&dir)
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!(
            "bench/pymodels.py failed: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    Ok(dir)
}

/// A float32 q matrix of `rows` x 4.
fn batch(rows: i64) -> KObj {
    KObj::list(
        (0..rows)
            .map(|i| {
                let r = KObj::vector(KE, 4);
                for (j, v) in r.slice_mut::<f32>().iter_mut().enumerate() {
                    *v = ((i * 4 + j as i64) % 7) as f32 / 7.0 - 0.5;
                }
                r
            })
            .collect(),
    )
}

pub fn run(ctx: &Ctx, rep: &mut Report, py: &mut Peer) -> Result<(), String> {
    let dir = match models() {
        Ok(d) => d,
        Err(e) => {
            rep.notes.push(format!("{BENCH}: not measured ({e})"));
            return Ok(());
        }
    };
    let kt = &ctx.ktorch;
    let path = |f: &str| KObj::string(&dir.join(f).display().to_string());
    let script = kt.call("loadscript", &path("scorer.pt"))?;
    let evaluate = kt.f1("evaluate");
    for rows in [1i64, 64] {
        let aoti = kt.call("loadaoti", &path(&format!("scorer_b{rows}_t1.pt2")))?;
        let x = batch(rows);
        let (sargs, aargs) = (
            KObj::list(vec![script.clone(), x.clone()]),
            KObj::list(vec![aoti.clone(), x.clone()]),
        );
        // the two must agree before they are timed
        let (ys, ya) = (kt.call("evaluate", &sargs)?, kt.call("evaluate", &aargs)?);
        let (ys, ya): (Vec<f32>, Vec<f32>) = (
            ys.items()
                .iter()
                .flat_map(|r| r.slice::<f32>().to_vec())
                .collect(),
            ya.items()
                .iter()
                .flat_map(|r| r.slice::<f32>().to_vec())
                .collect(),
        );
        if ys.len() != rows as usize || ys.iter().zip(&ya).any(|(a, b)| (a - b).abs() > 1e-5) {
            return Err(format!(
                "{BENCH}: TorchScript and AOTInductor outputs differ"
            ));
        }
        let state = dir.join("scorer.safetensors");
        let py_ok = py.running() && py.infer(&state, rows, 1).is_ok();
        let call = |a: &KObj| {
            let p = a.as_ptr();
            move || unsafe {
                let r = evaluate(p);
                assert!(!r.is_null(), "evaluate failed");
                qhost::kapi::exports::r0(r);
            }
        };
        let mut cases = vec![
            Case::new("torchscript", call(&sargs)),
            Case::new("aoti", call(&aargs)),
        ];
        if py_ok {
            cases.push(Case::timed("PyTorch", |iters| {
                py.infer(&state, rows, iters).expect("peer infer")
            }));
        }
        let s = interleaved(&mut cases, ctx.plan);
        drop(cases);
        let pyt: Option<Stat> = s.get(2).copied();
        let per = |s: &Stat| format!("{:.1}k rows/s", rows as f64 * 1e6 / s.median);
        let vs = |x: &Stat| {
            pyt.map_or("PyTorch not measured".to_string(), |p| {
                format!("{:.2}× PyTorch eager", x.median / p.median)
            })
        };
        let sz = format!("batch {rows}");
        rep.row(
            BENCH,
            "ktorch TorchScript: evaluate(m;X), q data in and out",
            &sz,
            Some(s[0]),
            per(&s[0]),
            vs(&s[0]),
        );
        rep.row(
            BENCH,
            "ktorch AOTInductor: evaluate(a;X), q data in and out",
            &sz,
            Some(s[1]),
            per(&s[1]),
            vs(&s[1]),
        );
        match pyt {
            Some(p) => rep.row(
                BENCH,
                "PyTorch eager: m(x) under no_grad, tensor in",
                &sz,
                Some(p),
                per(&p),
                "1.00× PyTorch eager".into(),
            ),
            None => {
                rep.row(
                    BENCH,
                    "PyTorch eager: m(x) under no_grad, tensor in",
                    &sz,
                    None,
                    String::new(),
                    String::new(),
                );
                rep.rows.last_mut().unwrap().note = format!(
                    "not measured: {}",
                    py.error.as_deref().unwrap_or("peer request failed")
                );
            }
        }
        rep.target(
            format!("TorchScript scoring from q, batch {rows}: time vs PyTorch eager"),
            pyt.map(|p| s[0].median / p.median),
            Bound::AtMost(1.0),
        );
        kt.call("free", &aoti)?;
    }
    kt.call("free", &script)?;
    Ok(())
}

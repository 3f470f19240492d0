//! Training throughput (issue #7's last "must show"): the same network trained for the same
//! epochs on the same data three ways, in samples per second:
//! - ktorch as a q user runs it: the model (`module`, `loss`, `opt`, `model`, `train`) set up by
//!   q text in qhost's interpreter, then the q text `run bm` per epoch (every batch runs inside
//!   ktorch.so; the interpreter's cost is one call per epoch);
//! - tch directly (the floor): `nn::seq`, libtorch's C++ optimizer, the same batches;
//! - PyTorch eager (bench/peer.py): `nn.Sequential`, `torch.optim`, the standard loop.
//!
//! The data is made once here (nets.rs) and handed to each side (to PyTorch through a temp file);
//! all use one torch thread. Every side keeps the batch losses as tensors and reads their mean once
//! per epoch, as `run` does. Initial weights differ (each side's own init, seeded), shapes do not.
//! A timed call is a round of `Job::epochs` epochs of one side, the sides interleaved round by
//! round; rows show the time per epoch. Models keep training from round to round.
use std::path::PathBuf;
use std::time::Duration;

use qhost::kapi::*;
use qhost::q::{eval, parser};

use crate::measure::{interleaved, Case, Plan, Stat};
use crate::nets::{self, Job, TchSide};
use crate::peer::Peer;
use crate::report::{Bound, Report};
use crate::Ctx;

pub fn run(ctx: &Ctx, rep: &mut Report, py: &mut Peer) -> Result<(), String> {
    ctx.ktorch.q_globals()?;
    // epochs per round: a round of each side lasts about 0.1-0.3 s here (2 idle cores)
    let jobs = if ctx.quick {
        [nets::spirals(2), nets::digits(128, 1)]
    } else {
        [nets::spirals(20), nets::digits(1500, 1)]
    };
    for job in &jobs {
        bench(ctx, rep, py, job, &ctx.device)?;
    }
    rep.notes.push(
        "training rows: a call is one epoch (rounds×calls: rounds × epochs per round); rate in samples/s, ratios of samples/s"
            .into(),
    );
    Ok(())
}

/// One job, three sides, interleaved rounds; rows and targets.
fn bench(
    ctx: &Ctx,
    rep: &mut Report,
    py: &mut Peer,
    job: &Job,
    device: &str,
) -> Result<(), String> {
    let on = if device == "cpu" {
        String::new()
    } else {
        format!(" ({device})")
    };
    let bench = format!("training {}{on}", job.name);
    let mut tch = TchSide::new(job, device)?;
    let ktorch = KtorchSide::new(job, device);
    let data = DataFile::write(job)?;
    // the peer's first request makes its model; a failure leaves PyTorch out, with the reason
    let pyt = match py.running() {
        true => py
            .train(job.net, &data.0, job.samples(), job.batch, 1)
            .map(drop),
        false => Err(py
            .error
            .clone()
            .unwrap_or_else(|| "peer not running".into())),
    };
    let epochs = job.epochs;
    let mut cases = vec![Case::new("tch", || {
        for _ in 0..epochs {
            std::hint::black_box(tch.epoch());
        }
    })];
    if let Ok(k) = &ktorch {
        cases.push(Case::new("ktorch", || {
            for _ in 0..epochs {
                std::hint::black_box(k.epoch());
            }
        }));
    }
    if pyt.is_ok() {
        let (net, path, n, batch) = (job.net, data.0.clone(), job.samples(), job.batch);
        cases.push(Case::timed("PyTorch", move |iters| {
            py.train(net, &path, n, batch, epochs * iters)
                .unwrap_or_else(|e| panic!("{e}"))
        }));
    }
    // a call is a round of `epochs` epochs: no calibration beyond the first (warm-up) call
    let plan = Plan {
        rounds: ctx.plan.rounds,
        min_sample: Duration::ZERO,
    };
    let mut stats = interleaved(&mut cases, plan)
        .into_iter()
        .map(|s| per_epoch(s, epochs));
    drop(cases);
    let tch_s = stats.next().expect("tch measured");
    let kt_s = match &ktorch {
        Ok(_) => stats.next(),
        Err(_) => None,
    };
    let py_s = match &pyt {
        Ok(_) => stats.next(),
        Err(_) => None,
    };
    // one more epoch each shows that both Rust sides did train (not a comparison: initial
    // weights differ)
    let mut trained = format!(
        "{} after training: mean batch loss tch {:.3}",
        job.name,
        tch.epoch()
    );
    let kt_err = match ktorch {
        Ok(k) => {
            trained += &format!(", ktorch {:.3}", k.epoch());
            k.free()?;
            None
        }
        Err(e) => Some(e),
    };
    rep.notes.push(trained);
    drop(data);

    let n = job.samples() as f64;
    let rate = |s: &Stat| format!("{:.2}k samples/s", n / s.median * 1e6);
    // ratios of throughput: the other's time per epoch over this one's
    let speed = |s: &Stat, of: &Stat, what: &str| format!("{:.2}× {what}", of.median / s.median);
    let size = format!("{}/{}", job.samples(), job.batch);
    let (opt_tch, opt_py) = match job.net {
        "mlp" => ("nn::Sgd", "optim.SGD"),
        _ => ("nn::Adam", "optim.Adam"),
    };
    rep.row(
        &bench,
        &format!("tch direct: nn::seq, {opt_tch} (floor)"),
        &size,
        Some(tch_s),
        rate(&tch_s),
        "1.00× tch".into(),
    );
    let kt_case = "ktorch: q text `run m` per epoch";
    match (kt_s, kt_err) {
        (Some(k), _) => {
            let vs_py = py_s.map_or(String::new(), |p| format!(", {}", speed(&k, &p, "PyTorch")));
            let ratio = format!("{}{vs_py}", speed(&k, &tch_s, "tch"));
            rep.row(&bench, kt_case, &size, Some(k), rate(&k), ratio);
        }
        (None, e) => not_measured(rep, &bench, kt_case, &size, e.unwrap_or_default()),
    }
    let py_case = format!("PyTorch eager: nn.Sequential, {opt_py}");
    match (&pyt, py_s) {
        (Ok(_), Some(p)) => rep.row(
            &bench,
            &py_case,
            &size,
            Some(p),
            rate(&p),
            speed(&p, &tch_s, "tch"),
        ),
        (Err(e), _) => not_measured(rep, &bench, &py_case, &size, e.clone()),
        (Ok(_), None) => not_measured(rep, &bench, &py_case, &size, "?".into()),
    }
    rep.target(
        format!(
            "ktorch training {}{on}: samples/s vs PyTorch eager",
            job.name
        ),
        kt_s.zip(py_s).map(|(k, p)| p.median / k.median),
        Bound::AtLeast(1.0),
    );
    rep.target(
        format!("ktorch training {}{on}: samples/s vs tch direct", job.name),
        kt_s.map(|k| tch_s.median / k.median),
        Bound::AtLeast(0.9),
    );
    Ok(())
}

/// A row for a side that could not run, saying why.
fn not_measured(rep: &mut Report, bench: &str, case: &str, size: &str, why: String) {
    rep.row(bench, case, size, None, String::new(), String::new());
    rep.rows.last_mut().expect("row just added").note = format!("not measured: {why}");
}

/// A round's figures as figures per epoch (a round is `epochs` epochs).
fn per_epoch(s: Stat, epochs: u64) -> Stat {
    let e = epochs as f64;
    Stat {
        median: s.median / e,
        min: s.min / e,
        max: s.max / e,
        rounds: s.rounds,
        iters: s.iters * epochs,
    }
}

/// ktorch's side: the model `bm` made by q text in qhost's interpreter (as examples/spirals.q
/// does, shuffle off), and the parsed q text `run bm`, evaluated once per epoch.
struct KtorchSide {
    run: parser::Node,
}

impl KtorchSide {
    fn new(job: &Job, device: &str) -> Result<KtorchSide, String> {
        eval::set_global("bx", KObj::from_slice(KE, &job.x));
        eval::set_global("by", KObj::from_slice(KJ, &job.y));
        let dims: Vec<String> = job.dims().iter().map(i64::to_string).collect();
        let steps = [
            "seed 42".to_string(),
            job.q_module.to_string(),
            // the data follows the module to its device at train(bm;x;y)
            format!("to(bq;`{device})"),
            format!("bm:model(bq;loss`ce;{})", job.q_opt),
            format!(
                "train(bm;`batchsize`shuffle`metrics;({};0b;`loss))",
                job.batch
            ),
            format!("train(bm;({})#bx;by)", dims.join(" ")),
        ];
        let mut made = "";
        let r = steps.iter().try_for_each(|s| {
            eval::eval_text(s).map_err(|e| format!("{s}: '{}", e.0))?;
            if s.starts_with("bq:") {
                made = "bq";
            } else if s.starts_with("bm:") {
                made = "bm"; // the model owns the module now
            }
            Ok::<(), String>(())
        });
        for g in ["bx", "by"] {
            eval::set_global(g, KObj::identity());
        }
        let run = parser::parse("run bm").map_err(|e| e.0);
        match r.and(run) {
            Ok(run) => Ok(KtorchSide { run }),
            Err(e) => {
                if !made.is_empty() {
                    let _ = eval::eval_text(&format!("free {made}"));
                }
                Err(e)
            }
        }
    }

    /// One epoch: `run bm`; answers the mean batch loss.
    fn epoch(&self) -> f32 {
        let mut fr = eval::Frame::default();
        let loss = eval::done(eval::eval(&self.run, &mut fr)).expect("run bm");
        if loss.t() == -KE {
            loss.get_real()
        } else {
            f32::NAN
        }
    }

    fn free(self) -> Result<(), String> {
        eval::eval_text("free bm").map_err(|e| format!("free bm: '{}", e.0))?;
        for g in ["bm", "bq"] {
            eval::set_global(g, KObj::identity());
        }
        Ok(())
    }
}

/// The job's data for the PyTorch peer: float32 inputs then int64 classes, native byte order,
/// in a temp file removed when dropped.
struct DataFile(PathBuf);

impl DataFile {
    fn write(job: &Job) -> Result<DataFile, String> {
        let path = std::env::temp_dir().join(format!(
            "ktorch-bench-{}-{}.bin",
            std::process::id(),
            job.net
        ));
        let mut bytes = Vec::with_capacity(job.x.len() * 4 + job.y.len() * 8);
        job.x
            .iter()
            .for_each(|v| bytes.extend_from_slice(&v.to_ne_bytes()));
        job.y
            .iter()
            .for_each(|v| bytes.extend_from_slice(&v.to_ne_bytes()));
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(DataFile(path))
    }
}

impl Drop for DataFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

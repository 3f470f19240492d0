//! `make bench`: ktorch.so loaded and called as q does (through qhost's k.h exports and `2:`
//! loader), timed side by side with its floors in one run, printed as one table of raw figures
//! and ratios with pass/fail lines for the targets. Benchmarks only print: a missed target is a
//! FAIL line, not a failed exit.
//!
//! `ktorch-bench [--quick] [--lib path/ktorch.so] [--device cuda] [--only conversion]`: --quick
//! is a smoke run with small sizes (tests/smoke.rs), not figures to quote; --device puts the
//! training benchmarks' models and data on that device for every side (scripts/gpu-bench.sh on
//! the GPU machine; the add and conversion cases stay on the CPU, where q's data lives); --only
//! conversion runs the conversion cases alone (no PyTorch peer), for work on the copy paths;
//! --only graph the recorded training step; --only add the per-call cost of `add` (with the peer);
//! --only tables a table to a tensor and scoring an update (issue 33).
//!
//! Adding a benchmark: a module with `run(&Ctx, &mut Report)` (and `&mut Peer` when PyTorch
//! takes part) that times its cases with `measure::interleaved` (the floor and the contenders in
//! the same rounds) and adds rows and targets; call it from `main` below.
mod conv;
mod graph;
use ktorch_loader as host;
mod measure;
mod nets;
mod ops;
mod peer;
mod pyinfer;
mod report;
mod tables;
mod train;

use std::time::{Duration, Instant};

use qhost::kapi::*;

use measure::Plan;
use report::Report;

/// What every benchmark gets: the loaded library and how long to measure.
pub struct Ctx {
    pub ktorch: host::Ktorch,
    /// Small and medium cases: calibrated batches, median of the rounds.
    pub plan: Plan,
    /// Cases of hundreds of MB: one call a batch.
    pub plan_big: Plan,
    pub conv_sizes: Vec<i64>,
    pub quick: bool,
    /// Where the training benchmarks run: `cpu` or `cuda`.
    pub device: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let lib = args
        .iter()
        .position(|a| a == "--lib")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let device = args
        .iter()
        .position(|a| a == "--device")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| "cpu".into());
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    if let Some(o) = only.filter(|o| !["conversion", "graph", "add", "tables"].contains(o)) {
        eprintln!("ktorch-bench: --only takes `conversion`, `graph`, `add` or `tables`, not `{o}`");
        std::process::exit(2);
    }
    if let Err(e) = run(quick, lib, device, only) {
        eprintln!("ktorch-bench: {e}");
        std::process::exit(1);
    }
}

/// The whole bench, or one part of it (`--only conversion`, `--only graph`, `--only add`: the
/// per-call cost of `add` beside tch and PyTorch).
fn run(quick: bool, lib: Option<&str>, device: String, only: Option<&str>) -> Result<(), String> {
    let start = Instant::now();
    let path = host::find_lib(lib)?;
    let ktorch = host::Ktorch::load(&path)?;
    // one torch thread for every side (tch and ktorch share this process's libtorch)
    tch::set_num_threads(1);
    let ctx = Ctx {
        ktorch,
        plan: if quick {
            Plan {
                rounds: 3,
                min_sample: Duration::from_millis(2),
            }
        } else {
            Plan {
                rounds: 11,
                min_sample: Duration::from_millis(50),
            }
        },
        plan_big: Plan {
            rounds: if quick { 3 } else { 7 },
            min_sample: Duration::ZERO,
        },
        conv_sizes: if quick {
            vec![1_000, 100_000]
        } else {
            vec![1_000, 1_000_000, 100_000_000]
        },
        quick,
        device,
    };
    if ctx.device != "cpu" && tch::Device::cuda_if_available() == tch::Device::Cpu {
        return Err(format!("--device {}: no CUDA device found", ctx.device));
    }
    let mut py = if let Some(o) = only.filter(|o| *o != "add") {
        peer::Peer::not_run(&format!("--only {o}"))
    } else {
        peer::Peer::start(&ctx.device)
    };
    header(&ctx, &py);
    let mut rep = Report::default();
    if only == Some("add") {
        ops::run(&ctx, &mut rep, &mut py)?;
    }
    if only.is_none() {
        ops::run(&ctx, &mut rep, &mut py)?;
        train::run(&ctx, &mut rep, &mut py)?;
        if !ctx.quick {
            pyinfer::run(&ctx, &mut rep, &mut py)?;
        }
    }
    if only.is_none() || only == Some("graph") {
        graph::run(&ctx, &mut rep)?;
    }
    drop(py);
    if only.is_none() || only == Some("conversion") {
        conv::run(&ctx, &mut rep)?;
    }
    if only.is_none() || only == Some("tables") {
        tables::run(&ctx, &mut rep)?;
    }

    let left = ctx
        .ktorch
        .call("tensorcount", &KObj::identity())?
        .get_long();
    if left != 0 {
        rep.notes.push(format!("{left} tensors still allocated in ktorch after the run (a leak in the harness or ktorch)"));
    }
    rep.notes
        .push(format!("whole run {:.1} s", start.elapsed().as_secs_f64()));
    rep.print();
    Ok(())
}

fn header(ctx: &Ctx, py: &peer::Peer) {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let version = |w: &str| match ctx.ktorch.call("version", &KObj::sym(w)) {
        Ok(v) if v.t() == KC => v.as_string(),
        Ok(v) => qhost::q::display::one_line(&v),
        Err(e) => e,
    };
    println!(
        "ktorch bench{}: {cpu}, {cores} cores; ktorch {}, libtorch {}, PyTorch {}; torch threads {}",
        if ctx.quick { " (--quick: smoke sizes, not figures to quote)" } else { "" },
        version("ktorch"),
        version("libtorch"),
        py.torch.as_deref().unwrap_or("(peer not run)"),
        tch::get_num_threads(),
    );
    println!(
        "each figure: the median over {} interleaved rounds (7 for 1e8 elements) of a batch of calls lasting ≥ {} ms; per call",
        ctx.plan.rounds,
        ctx.plan.min_sample.as_millis()
    );
    println!("library: {}", ctx.ktorch.path.display());
    println!("training on: {}", ctx.device);
    println!();
}

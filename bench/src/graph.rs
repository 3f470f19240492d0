//! Recorded training steps (issue #9's bench line): the spirals MLP trained for an epoch (6
//! batches of 50) two ways on the GPU, side by side:
//! - eager: the q text `run bm` (every step's kernels launched one by one from ktorch);
//! - graph: the q text `{free replay(bg;x;y)}'[bxs;bys]; sync()`: each step replayed from a CUDA
//!   graph recorded once by `graph(gm;x;y)`, the batch copied into the graph's inputs first.
//!
//! Both models start from the same seeded weights and train on the same batches; each call ends
//! waiting for the GPU (eager reads its mean loss, the graph side syncs). Without CUDA the rows
//! say why they were not measured.
use std::time::Duration;

use qhost::kapi::*;
use qhost::q::{eval, parser};

use crate::measure::{interleaved, Case, Plan};
use crate::nets;
use crate::report::{Bound, Report};
use crate::Ctx;

const BENCH: &str = "CUDA graph: spirals MLP training step";

pub fn run(ctx: &Ctx, rep: &mut Report) -> Result<(), String> {
    let job = nets::spirals(1);
    let size = format!("{}/{}", job.samples(), job.batch);
    let (eager_case, graph_case) = (
        "eager: q text `run bm` (6 steps)",
        "graph: `replay(bg;x;y)` per step, recorded by graph(gm;x;y)",
    );
    if ctx.device == "cpu" {
        for case in [eager_case, graph_case] {
            rep.row(BENCH, case, &size, None, String::new(), String::new());
            rep.rows.last_mut().expect("row").note =
                "not measured: CUDA graphs need --device cuda".into();
        }
        return Ok(());
    }
    ctx.ktorch.q_globals()?;
    eval::set_global("gx", KObj::from_slice(KE, &job.x));
    eval::set_global("gy", KObj::from_slice(KJ, &job.y));
    let dev = &ctx.device;
    let n = job.samples();
    let model = |name: &str| {
        format!(
            "{name}:{{seed 42; q:module seq(`sequential;(`linear;2;100);`relu;(`linear;100;3)); to(q;`{dev}); model(q;loss`ce;opt(`sgd;q;.2;.9))}}[]"
        )
    };
    let setup = [
        model("bm"),
        format!(
            "train(bm;`batchsize`shuffle`metrics;({};0b;`loss))",
            job.batch
        ),
        format!("train(bm;{n} 2#gx;gy)"),
        model("gm"),
        format!(
            "bxs:{{tensor(x;`{dev})}} each {b} cut {n} 2#gx",
            b = job.batch
        ),
        format!("bys:{{tensor(x;`{dev})}} each {b} cut gy", b = job.batch),
        "bg:graph(gm;first bxs;first bys)".to_string(),
    ];
    for s in &setup {
        eval::eval_text(s).map_err(|e| format!("{s}: '{}", e.0))?;
    }
    let eager = parser::parse("run bm").map_err(|e| e.0)?;
    let replay = parser::parse("{free replay(bg;x;y)}'[bxs;bys]; sync()").map_err(|e| e.0)?;
    let call = |node: &parser::Node| {
        let mut fr = eval::Frame::default();
        eval::done(eval::eval(node, &mut fr)).expect("bench q text");
    };
    let mut cases = vec![
        Case::new("eager", || call(&eager)),
        Case::new("graph", || call(&replay)),
    ];
    let plan = Plan {
        rounds: ctx.plan.rounds,
        min_sample: Duration::from_millis(20),
    };
    let stats = interleaved(&mut cases, plan);
    drop(cases);
    let (e, g) = (stats[0], stats[1]);
    let steps = (n / job.batch) as f64;
    let per_step = |s: &crate::measure::Stat| format!("{:.1} µs/step", s.median / steps / 1e3);
    rep.row(
        BENCH,
        eager_case,
        &size,
        Some(e),
        per_step(&e),
        "1.00× eager".into(),
    );
    rep.row(
        BENCH,
        graph_case,
        &size,
        Some(g),
        per_step(&g),
        format!("{:.2}× eager", e.median / g.median),
    );
    rep.target(
        format!("{BENCH} ({dev}): replayed vs eager speed"),
        Some(e.median / g.median),
        Bound::AtLeast(1.0),
    );
    // both sides trained: their losses after the run, as a check that the graph side learns
    let real = |text: &str| -> Result<f64, String> {
        let k = eval::eval_text(text).map_err(|e| format!("{text}: '{}", e.0))?;
        Ok(if k.t() == -KE {
            k.get_real() as f64
        } else {
            f64::NAN
        })
    };
    let l = [
        real("run bm")?,
        real("{l:replay(bg;x;y); r:first tensor l; free l; r}[first bxs;first bys]")?,
    ];
    rep.notes.push(format!(
        "graph bench after training: eager mean batch loss {:.3}, replayed step loss {:.3}",
        l[0], l[1]
    ));
    eval::eval_text("free bg; free each bxs,bys; free bm; free gm")
        .map_err(|e| format!("free: '{}", e.0))?;
    for g in ["gx", "gy", "bxs", "bys", "bm", "gm", "bg"] {
        eval::set_global(g, KObj::identity());
    }
    Ok(())
}

//! Timing: each case is calibrated to a batch of calls that lasts at least `min_sample`, then the
//! cases measured together run in rounds, one batch of each case per round (interleaved, so a
//! burst of load from elsewhere hits all of them alike). A case's figure is the median over the
//! rounds of (batch time / calls); min and max show the spread.
use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long and how often to measure.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub rounds: usize,
    pub min_sample: Duration,
}

/// One case's result, per call, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct Stat {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub rounds: usize,
    pub iters: u64,
}

impl Stat {
    pub fn from_samples(mut v: Vec<f64>, iters: u64) -> Stat {
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Stat {
            median,
            min: v[0],
            max: v[n - 1],
            rounds: n,
            iters,
        }
    }
}

/// An operation to time: `batch(n)` makes n calls and answers how long they took. The name is for
/// the reader of the code (rows are labelled where they are added).
pub struct Case<'a> {
    pub batch: Box<dyn FnMut(u64) -> Duration + 'a>,
}

impl<'a> Case<'a> {
    /// `f` does one call; this process times the batch.
    pub fn new(_name: &'static str, mut f: impl FnMut() + 'a) -> Case<'a> {
        Case {
            batch: Box::new(move |iters| {
                let t = Instant::now();
                for _ in 0..iters {
                    f();
                }
                black_box(t.elapsed())
            }),
        }
    }
    /// A batch timed elsewhere (the Python peer times its own loop and reports it).
    pub fn timed(_name: &'static str, batch: impl FnMut(u64) -> Duration + 'a) -> Case<'a> {
        Case {
            batch: Box::new(batch),
        }
    }
}

/// Calls per batch so that a batch lasts at least `min` (the first batches warm the case up).
fn calibrate(batch: &mut dyn FnMut(u64) -> Duration, min: Duration) -> u64 {
    let mut iters = 1u64;
    loop {
        let t = batch(iters);
        if t >= min || iters >= 1 << 32 {
            return iters;
        }
        let grow = (min.as_secs_f64() / t.as_secs_f64().max(1e-9) * 1.2).ceil() as u64;
        iters = (iters * 2).max(iters.saturating_mul(grow)).min(1 << 32);
    }
}

/// Time the cases side by side: calibrate each, then `plan.rounds` interleaved rounds.
pub fn interleaved(cases: &mut [Case], plan: Plan) -> Vec<Stat> {
    let iters: Vec<u64> = cases
        .iter_mut()
        .map(|c| calibrate(&mut c.batch, plan.min_sample))
        .collect();
    let mut samples = vec![Vec::with_capacity(plan.rounds); cases.len()];
    for _ in 0..plan.rounds {
        for (i, c) in cases.iter_mut().enumerate() {
            let t = (c.batch)(iters[i]);
            samples[i].push(t.as_nanos() as f64 / iters[i] as f64);
        }
    }
    samples
        .into_iter()
        .zip(iters)
        .map(|(s, n)| Stat::from_samples(s, n))
        .collect()
}

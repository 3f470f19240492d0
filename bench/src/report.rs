//! The one table `make bench` prints, and the target lines under it. A benchmark adds rows (a
//! figure per call with an optional rate and ratio) and targets (a ratio against a limit); a new
//! benchmark (training throughput, say) is more rows in the same table.
use crate::measure::Stat;

pub struct Row {
    /// Which benchmark (first column), e.g. "conversion", "add overhead".
    pub bench: String,
    /// What was timed.
    pub case: String,
    /// Problem size as shown (elements, batch...).
    pub size: String,
    /// Per call; None when the case could not be measured (`note` says why).
    pub stat: Option<Stat>,
    /// Throughput, already formatted with its unit (GB/s, samples/s).
    pub rate: String,
    /// Ratios against the floors, formatted ("0.93× memcpy").
    pub ratio: String,
    pub note: String,
}

pub enum Bound {
    AtLeast(f64),
    AtMost(f64),
}

pub struct Target {
    /// What is compared, e.g. "q→tensor n=1e8 vs memcpy (fresh)".
    pub what: String,
    /// The measured ratio; None when a side was not measured (a FAIL).
    pub value: Option<f64>,
    pub bound: Bound,
}

impl Target {
    pub fn pass(&self) -> bool {
        match (self.value, &self.bound) {
            (Some(v), Bound::AtLeast(l)) => v >= *l,
            (Some(v), Bound::AtMost(l)) => v <= *l,
            (None, _) => false,
        }
    }
}

#[derive(Default)]
pub struct Report {
    pub rows: Vec<Row>,
    pub targets: Vec<Target>,
    pub notes: Vec<String>,
}

impl Report {
    pub fn row(
        &mut self,
        bench: &str,
        case: &str,
        size: &str,
        stat: Option<Stat>,
        rate: String,
        ratio: String,
    ) {
        self.rows.push(Row {
            bench: bench.into(),
            case: case.into(),
            size: size.into(),
            stat,
            rate,
            ratio,
            note: String::new(),
        });
    }
    pub fn target(&mut self, what: String, value: Option<f64>, bound: Bound) {
        self.targets.push(Target { what, value, bound });
    }

    pub fn print(&self) {
        let head = [
            "benchmark",
            "case",
            "n",
            "median",
            "min",
            "max",
            "rounds×calls",
            "rate",
            "ratio",
        ];
        let mut lines: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
        for r in &self.rows {
            let (med, min, max, reps) = match &r.stat {
                Some(s) => (
                    time(s.median),
                    time(s.min),
                    time(s.max),
                    format!("{}×{}", s.rounds, s.iters),
                ),
                None => ("—".into(), "—".into(), "—".into(), "—".into()),
            };
            let ratio = if r.note.is_empty() {
                r.ratio.clone()
            } else {
                format!("{} {}", r.ratio, r.note)
            };
            lines.push(vec![
                r.bench.clone(),
                r.case.clone(),
                r.size.clone(),
                med,
                min,
                max,
                reps,
                r.rate.clone(),
                ratio,
            ]);
        }
        let w: Vec<usize> = (0..head.len())
            .map(|c| {
                lines
                    .iter()
                    .map(|l| l[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        // text columns left-aligned, figures right-aligned
        let right = [false, false, true, true, true, true, true, true, false];
        for (i, l) in lines.iter().enumerate() {
            let cells: Vec<String> = l
                .iter()
                .enumerate()
                .map(|(c, s)| {
                    let pad = w[c] - s.chars().count();
                    if right[c] {
                        format!("{}{}", " ".repeat(pad), s)
                    } else {
                        format!("{}{}", s, " ".repeat(pad))
                    }
                })
                .collect();
            println!("{}", cells.join("  ").trim_end());
            if i == 0 {
                println!(
                    "{}",
                    w.iter()
                        .map(|n| "-".repeat(*n))
                        .collect::<Vec<_>>()
                        .join("  ")
                );
            }
        }
        println!();
        let passed = self.targets.iter().filter(|t| t.pass()).count();
        println!("targets: {passed} of {} met", self.targets.len());
        for t in &self.targets {
            let v = t
                .value
                .map_or("not measured".into(), |v| format!("{v:.2}×"));
            let b = match t.bound {
                Bound::AtLeast(l) => format!("≥ {l}×"),
                Bound::AtMost(l) => format!("≤ {l}×"),
            };
            println!(
                "{}  {}: {} (target {})",
                if t.pass() { "PASS" } else { "FAIL" },
                t.what,
                v,
                b
            );
        }
        for n in &self.notes {
            println!("note: {n}");
        }
    }
}

/// A time per call, in the unit that keeps it readable.
pub fn time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// A count as 1e3, 1e6 ... when it is a power of ten.
pub fn size(n: i64) -> String {
    let l = (n as f64).log10();
    if n >= 1000 && (l - l.round()).abs() < 1e-12 {
        format!("1e{}", l.round() as i64)
    } else {
        n.to_string()
    }
}

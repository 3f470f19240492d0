//! `profile`: libtorch's profiler (Kineto, what torch.profiler runs) around any q code. Start it,
//! run q, stop it: the answer is a q table of operators and kernels with their calls and times,
//! as torch.profiler's `key_averages().table()` gives PyTorch users; every event and the Chrome
//! trace of the same profile stay readable until the next stop.
//!
//! q forms:
//! - `` profile`start ``, `` profile(`start;`shapes`memory`cpu) ``: start (CPU operators, and
//!   CUDA kernels and copies when CUDA is there unless `cpu` is given; `shapes` records input
//!   shapes, `memory` allocations)
//! - `` profile`stop ``: stop; the summary table (below)
//! - `` profile`table ``: the last profile's summary again; `` profile`events ``: every event
//! - `` profile(`trace;`:file.json) ``: the last profile as a Chrome trace; answers the file
//! - `profile[]`: whether a profile is running
//!
//! Summary columns: `name`, `device` (`cpu` or `cuda`), `calls`, `total` (microseconds: the
//! events' durations added up), `self` (less the time of the events nested in them on the same
//! thread, as torch.profiler's self CPU time; a kernel's self is its total) and `avg` (total over
//! calls), plus `shapes` when they were recorded (one row per name and shapes, as
//! `group_by_input_shape`); rows by total, largest first.
// libtorch and k.h are reached only through the safe wrappers of src/cxx and src/k
#![deny(unsafe_code)]
use anyhow::{anyhow, bail, Result};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::cxx::profiler::{self as shim, Event};
use crate::k::from::{self, FromQ};
use crate::k::{make, read, KResult, K};

/// The last stopped profile's events and whether it recorded shapes.
struct Last {
    events: Vec<Event>,
    shapes: bool,
}

/// Set while a profile started here runs: each q call then opens a `ktorch::name` range.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The guard's hook at each call's start: a `ktorch::name` range in the running profile, so that
/// the profile shows which q function the host was in (torch.profiler shows nn.Module calls so).
/// One atomic load when no profile runs.
pub fn range_begin(name: &'static str) -> usize {
    if ACTIVE.load(Ordering::Relaxed) && name != "profile" {
        shim::range_begin(name)
    } else {
        0
    }
}

/// The guard's hook at each call's end: close what `range_begin` opened.
pub fn range_end(token: usize) {
    shim::range_end(token)
}

/// Held for the whole of each `profile` call: one q thread at a time reads or replaces it.
static LAST: Mutex<Option<Last>> = Mutex::new(None);
/// The options the running profile was started with.
static RUNNING_SHAPES: Mutex<bool> = Mutex::new(false);

const USAGE: &str = "expects `start, (`start;options), `stop, `table, `events or (`trace;file)";

/// `profile`'s argument: `()` (is one running?), a symbol (`` `start `` `` `stop ``..), or a verb
/// and its arguments (`` (`start;`shapes) ``, `` (`trace;`:file) ``).
pub enum Form {
    Running,
    Word(&'static str),
    Verb(&'static str, Vec<String>),
}

impl FromQ for Form {
    const TYPE: &'static str = "a profile command";
    /// Every q value is a command, or ktorch's error (`USAGE`). A verb and its arguments:
    /// `` (`start;`shapes`cpu) ``, `(`trace;"file")`, or the symbol vector q makes of
    /// `` (`start;`cpu) `` and `` (`trace;`:file) ``.
    fn read(x: K) -> Result<Option<Form>> {
        if read::is_nil(x) {
            return Ok(Some(Form::Running));
        }
        if let Some(s) = <&str>::of(x) {
            return Ok(Some(Form::Word(s)));
        }
        if read::ktype(x) == 11 {
            let v = Vec::<&str>::of(x)
                .filter(|v| v.len() >= 2)
                .ok_or_else(|| anyhow!(USAGE))?;
            return Ok(Some(Form::Verb(
                v[0],
                v[1..].iter().map(|s| s.to_string()).collect(),
            )));
        }
        let v = from::list(&x)
            .filter(|v| v.len() == 2)
            .ok_or_else(|| anyhow!(USAGE))?;
        let verb = <&str>::of(v[0]).ok_or_else(|| anyhow!(USAGE))?;
        let args = match (<&str>::of(v[1]), String::of(v[1]), Vec::<&str>::of(v[1])) {
            (Some(s), _, _) => vec![s.to_string()],
            (_, Some(s), _) if verb == "trace" => vec![s],
            (_, _, Some(v)) => v.iter().map(|s| s.to_string()).collect(),
            _ => bail!(
                "{verb}: expected symbols{}",
                if verb == "trace" { " or a string" } else { "" }
            ),
        };
        Ok(Some(Form::Verb(verb, args)))
    }
}

crate::qfn! {
    pub fn profile(form: Form) -> KResult {
        let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
        let (verb, args) = match form {
            Form::Running => return Ok(make::boolean(shim::enabled())),
            Form::Word(s) => {
                return match s {
                    "start" => start(&[]),
                    "stop" => {
                        if !shim::enabled() {
                            bail!("no profile running: `start one first");
                        }
                        ACTIVE.store(false, Ordering::Relaxed);
                        let events = shim::stop()?;
                        let shapes = *RUNNING_SHAPES.lock().unwrap_or_else(|e| e.into_inner());
                        let l = last.insert(Last { events, shapes });
                        Ok(summary(l))
                    }
                    "table" => Ok(summary(stopped(&last)?)),
                    "events" => Ok(events(stopped(&last)?)),
                    _ => bail!("unrecognized `{s}: {USAGE}"),
                }
            }
            Form::Verb(verb, args) => (verb, args),
        };
        match verb {
            "start" => {
                let opts: Vec<&str> = args.iter().map(String::as_str).collect();
                start(&opts)
            }
            "trace" => {
                stopped(&last)?;
                let [file] = args.as_slice() else {
                    bail!("trace: expected one file symbol or string");
                };
                let path = file.strip_prefix(':').unwrap_or(file);
                if path.is_empty() {
                    bail!("trace: empty file name");
                }
                shim::save(path)?;
                Ok(make::symbol(&format!(":{path}")))
            }
            _ => bail!(USAGE),
        }
    }
}

fn stopped(last: &Option<Last>) -> Result<&Last> {
    last.as_ref()
        .ok_or_else(|| anyhow!("no profile stopped yet: `start, then `stop"))
}

fn start(opts: &[&str]) -> KResult {
    let (mut shapes, mut memory, mut cpu) = (false, false, false);
    for o in opts {
        match *o {
            "shapes" => shapes = true,
            "memory" => memory = true,
            "cpu" => cpu = true,
            _ => bail!("start: unrecognized option `{o}, expecting `shapes, `memory or `cpu"),
        }
    }
    if shim::enabled() {
        bail!("a profile is already running: `stop it first");
    }
    shim::start(!cpu && tch::Cuda::is_available(), shapes, memory)?;
    *RUNNING_SHAPES.lock().unwrap_or_else(|e| e.into_inner()) = shapes;
    ACTIVE.store(true, Ordering::Relaxed);
    Ok(make::null())
}

/// The device column: `cpu`, `cuda`, or `sync` for libkineto's CUDA_SYNC events (15: a
/// stream, event or device synchronisation: where the host or a stream waited).
fn device_name(e: &Event) -> &'static str {
    match (e.activity, e.device) {
        (15, _) => "sync",
        (_, 0) => "cpu",
        (_, 1) => "cuda",
        _ => "other",
    }
}

/// Each event's self time: its duration less that of the events directly nested in it on the
/// same thread (CPU events nest by time; GPU events do not nest, self = duration).
pub fn self_times(ev: &[Event]) -> Vec<i64> {
    let mut own: Vec<i64> = ev.iter().map(|e| e.duration).collect();
    let mut by_thread: HashMap<i64, Vec<usize>> = HashMap::new();
    for (i, e) in ev.iter().enumerate().filter(|(_, e)| e.device == 0) {
        by_thread.entry(e.thread).or_default().push(i);
    }
    for ix in by_thread.values_mut() {
        // parents first: earlier start, then longer
        ix.sort_by_key(|&i| (ev[i].start, -ev[i].duration));
        let mut stack: Vec<usize> = Vec::new();
        for &i in ix.iter() {
            let (s, end) = (ev[i].start, ev[i].start + ev[i].duration);
            while let Some(&p) = stack.last() {
                if s >= ev[p].start && end <= ev[p].start + ev[p].duration {
                    break;
                }
                stack.pop();
            }
            if let Some(&p) = stack.last() {
                own[p] -= ev[i].duration;
            }
            stack.push(i);
        }
    }
    own
}

/// One row per (name, device[, shapes]): calls, total, self and average microseconds.
fn summary(last: &Last) -> K {
    let ev = &last.events;
    let own = self_times(ev);
    let mut rows: Vec<(String, &str, String, i64, i64, i64)> = Vec::new();
    let mut at: HashMap<(String, &str, String), usize> = HashMap::new();
    for (e, s) in ev.iter().zip(own) {
        let shapes = if last.shapes {
            e.shapes.clone()
        } else {
            String::new()
        };
        let key = (e.name.clone(), device_name(e), shapes.clone());
        let i = *at.entry(key).or_insert_with(|| {
            rows.push((e.name.clone(), device_name(e), shapes, 0, 0, 0));
            rows.len() - 1
        });
        rows[i].3 += 1;
        rows[i].4 += e.duration;
        rows[i].5 += s;
    }
    rows.sort_by(|a, b| b.4.cmp(&a.4).then_with(|| a.0.cmp(&b.0)));
    let us = |ns: i64| ns as f64 / 1e3;
    let names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    let devices: Vec<&str> = rows.iter().map(|r| r.1).collect();
    let mut cols = vec!["name", "device", "calls", "total", "self", "avg"];
    let mut values = vec![
        make::symbols(&names),
        make::symbols(&devices),
        make::longs(&rows.iter().map(|r| r.3).collect::<Vec<_>>()),
        make::floats(&rows.iter().map(|r| us(r.4)).collect::<Vec<_>>()),
        make::floats(&rows.iter().map(|r| us(r.5)).collect::<Vec<_>>()),
        make::floats(
            &rows
                .iter()
                .map(|r| us(r.4) / r.3 as f64)
                .collect::<Vec<_>>(),
        ),
    ];
    if last.shapes {
        cols.push("shapes");
        values.push(make::list(
            rows.iter().map(|r| make::string(&r.2)).collect(),
        ));
    }
    make::table(&cols, values)
}

/// Every event in time order: name, device, device index, start and duration (microseconds from
/// the profile's first event), thread, correlation id (a kernel's launch call has the same),
/// and shapes.
fn events(last: &Last) -> K {
    let mut ev: Vec<&Event> = last.events.iter().collect();
    ev.sort_by_key(|e| e.start);
    let t0 = ev.first().map_or(0, |e| e.start);
    let col = |f: &dyn Fn(&Event) -> i64| ev.iter().map(|e| f(e)).collect::<Vec<i64>>();
    let names: Vec<&str> = ev.iter().map(|e| e.name.as_str()).collect();
    let devices: Vec<&str> = ev.iter().map(|e| device_name(e)).collect();
    make::table(
        &[
            "name",
            "device",
            "index",
            "start",
            "duration",
            "thread",
            "correlation",
            "shapes",
        ],
        vec![
            make::symbols(&names),
            make::symbols(&devices),
            make::longs(&col(&|e| e.device_index)),
            make::floats(
                &ev.iter()
                    .map(|e| (e.start - t0) as f64 / 1e3)
                    .collect::<Vec<_>>(),
            ),
            make::floats(
                &ev.iter()
                    .map(|e| e.duration as f64 / 1e3)
                    .collect::<Vec<_>>(),
            ),
            make::longs(&col(&|e| e.thread)),
            make::longs(&col(&|e| e.correlation)),
            make::list(ev.iter().map(|e| make::string(&e.shapes)).collect()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(start: i64, duration: i64) -> Event {
        Event {
            name: String::new(),
            shapes: String::new(),
            device: 0,
            device_index: -1,
            start,
            duration,
            thread: 1,
            correlation: 0,
            activity: 0,
        }
    }

    #[test]
    fn self_time_subtracts_direct_children_only() {
        // a [0,100) holds b [10,50) which holds c [20,30); d [60,70) is a's second child
        let e = [ev(0, 100), ev(10, 40), ev(20, 10), ev(60, 10)];
        assert_eq!(self_times(&e), vec![100 - 40 - 10, 40 - 10, 10, 10]);
    }
}

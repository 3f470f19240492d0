//! The parent: splits the functions among workers, runs each worker's functions in child
//! processes (a new child after a crash or hang, going on with the next function), reads the
//! children's logs and prints the summary.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::host::{find_lib, Ktorch};

struct Opts {
    calls: u64,
    seed: u64,
    only: Option<Vec<String>>,
    timeout: Duration,
    jobs: usize,
    mem_mb: u64,
    lib: PathBuf,
    /// Keep the logs when nothing failed too (`--keep`; with KTORCH_FUZZ_TRACE=1 they hold every
    /// call and its outcome).
    keep: bool,
    /// A GPU run (`--cuda`): CUDA fixtures and doc blocks too, and the children's memory cap on
    /// their data (CUDA reserves address space far past any cap on it).
    cuda: bool,
}

/// What happened to one function.
#[derive(Default, Clone)]
struct Outcome {
    calls: u64,
    errors: u64,
    values: u64,
    kleaks: u64,
    objleaks: u64,
    panics: u64,
    /// Of the calls, those seeded from doc examples, and the values they returned.
    docs: u64,
    docs_values: u64,
    done: bool,
}

/// A crash or hang: the function, the call (`n q-form`) and the child's last stderr lines.
struct Failure {
    what: &'static str,
    name: String,
    call: String,
    stderr: String,
}

#[derive(Default)]
struct Findings {
    outcomes: BTreeMap<String, Outcome>,
    failures: Vec<Failure>,
    /// leak and panic lines of the logs
    events: Vec<String>,
    /// K objects live at a child's end (beyond the per-call checks)
    klive: i64,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        calls: 2000,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64 % 1_000_000_007)
            .unwrap_or(1),
        only: None,
        timeout: Duration::from_secs(60),
        jobs: 2,
        mem_mb: 3072,
        lib: PathBuf::new(),
        keep: false,
        cuda: false,
    };
    let mut lib = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().ok_or(format!("{a} needs a value"));
        let num = |v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{a}: not a number: {v}"))
        };
        match a.as_str() {
            "--calls" => o.calls = num(val()?)?,
            "--seed" => o.seed = num(val()?)?,
            "--timeout" => o.timeout = Duration::from_secs(num(val()?)?),
            "--jobs" => o.jobs = num(val()?)?.max(1) as usize,
            "--mem" => o.mem_mb = num(val()?)?,
            "--only" => o.only = Some(val()?.split(',').map(String::from).collect()),
            "--lib" => lib = Some(val()?),
            "--keep" => o.keep = true,
            "--cuda" => o.cuda = true,
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    o.lib = find_lib(lib.as_deref())?;
    Ok(o)
}

pub fn main(args: &[String]) -> i32 {
    let mut o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("ktorch-fuzz: {e}");
            return 2;
        }
    };
    let dir = std::env::temp_dir().join(format!("ktorch-fuzz-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("ktorch-fuzz: {}: {e}", dir.display());
        return 2;
    }
    // Files for the model and weight readers, named by the generator (files.rs).
    if let Err(e) = crate::files::write(&dir, o.seed) {
        eprintln!(
            "ktorch-fuzz: writing the file corpus in {}: {e}",
            dir.display()
        );
        let _ = std::fs::remove_dir_all(&dir);
        return 2;
    }
    // The children load a private copy: `make build` during a long run replaces ktorch.so, and
    // a library changed under a running child (truncated, then rewritten) is a SIGBUS there,
    // not a finding.
    let copy = dir.join("ktorch.so");
    if let Err(e) = std::fs::copy(&o.lib, &copy) {
        eprintln!(
            "ktorch-fuzz: copying {} to {}: {e}",
            o.lib.display(),
            copy.display()
        );
        let _ = std::fs::remove_dir_all(&dir);
        return 2;
    }
    o.lib = copy;
    // The function list, from the library's own table.
    let all: Vec<String> = match Ktorch::load(&o.lib) {
        Ok(l) => l.fns.iter().map(|e| e.name.clone()).collect(),
        Err(e) => {
            eprintln!("ktorch-fuzz: cannot load {}: {e}", o.lib.display());
            let _ = std::fs::remove_dir_all(&dir);
            return 2;
        }
    };
    let names: Vec<String> = match &o.only {
        Some(only) => {
            if let Some(bad) = only.iter().find(|n| !all.contains(n)) {
                eprintln!("ktorch-fuzz: ktorch has no function `{bad}");
                let _ = std::fs::remove_dir_all(&dir);
                return 2;
            }
            only.clone()
        }
        None => all.clone(),
    };
    println!(
        "ktorch-fuzz: seed {} ({} calls per function, {} functions, {} workers; rerun with --seed {})",
        o.seed,
        o.calls,
        names.len(),
        o.jobs,
        o.seed
    );
    let start = Instant::now();
    // Round-robin shards keep neighbours of the table (often alike in cost) on different workers.
    let shards: Vec<Vec<String>> = (0..o.jobs)
        .map(|j| names.iter().skip(j).step_by(o.jobs).cloned().collect())
        .collect();
    let results: Vec<Findings> = std::thread::scope(|s| {
        let hs: Vec<_> = shards
            .iter()
            .enumerate()
            .map(|(j, shard)| {
                let (o, dir) = (&o, &dir);
                s.spawn(move || worker(o, dir, j, shard))
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut f = Findings::default();
    for r in results {
        f.outcomes.extend(r.outcomes);
        f.failures.extend(r.failures);
        f.events.extend(r.events);
        f.klive += r.klive;
    }
    let bad = report(&o, &names, &f, start.elapsed());
    if bad || o.keep {
        let _ = std::fs::remove_file(&o.lib); // the copy: big, and the logs name the build
        println!("logs kept in {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    bad as i32
}

/// Run `shard`'s functions, one child after another until every function is done or failed.
fn worker(o: &Opts, dir: &Path, j: usize, shard: &[String]) -> Findings {
    let mut f = Findings::default();
    let mut rest: Vec<String> = shard.to_vec();
    let exe = std::env::current_exe().expect("own path");
    let mut k = 0;
    while !rest.is_empty() {
        k += 1;
        let log = dir.join(format!("w{j}.{k}.log"));
        let err = dir.join(format!("w{j}.{k}.stderr"));
        let stderr = std::fs::File::create(&err).expect("stderr file");
        let spawned = Command::new(&exe)
            .arg("--child")
            .arg(&o.lib)
            .arg(o.seed.to_string())
            .arg(o.calls.to_string())
            .arg(o.mem_mb.to_string())
            .arg(&log)
            .args(&rest)
            .current_dir(dir)
            .env("OMP_NUM_THREADS", "1")
            .env("MKL_NUM_THREADS", "1")
            .env("MALLOC_ARENA_MAX", "2")
            .env("KTORCH_FUZZ_CUDA", if o.cuda { "1" } else { "0" })
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                eprintln!("ktorch-fuzz: cannot start a child: {e}");
                break;
            }
        };
        // Watch the log: a function that runs past the timeout is a hang.
        let mut current: Option<(String, Instant)> = Some((rest[0].clone(), Instant::now()));
        let mut read = 0usize;
        let mut text = String::new();
        let status = loop {
            std::thread::sleep(Duration::from_millis(20));
            let exited = child.try_wait().ok().flatten();
            if let Ok(s) = std::fs::read_to_string(&log) {
                if s.len() > read {
                    for line in s[read..].lines() {
                        if let Some(name) = line.strip_prefix("fn ") {
                            current = Some((name.to_string(), Instant::now()));
                        }
                    }
                    read = s.len();
                    text = s;
                }
            }
            if let Some(s) = exited {
                break Some(s);
            }
            if let Some((_, t)) = &current {
                if t.elapsed() > o.timeout {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
            }
        };
        absorb(&text, &mut f);
        let finished: Vec<String> = f
            .outcomes
            .iter()
            .filter(|(_, v)| v.done)
            .map(|(k, _)| k.clone())
            .collect();
        let clean_end = status.is_some_and(|s| s.success()) && text.contains("\nklive ");
        let all_done = rest.iter().all(|n| finished.contains(n));
        if clean_end && all_done {
            break;
        }
        // The function under way when the child died or hung; the call it had logged.
        let name = current
            .map(|c| c.0)
            .filter(|n| !finished.contains(n))
            .unwrap_or_else(|| rest[0].clone());
        let call = std::fs::read_to_string(format!("{}.call", log.display())).unwrap_or_default();
        let what = match status {
            None => "hang",
            Some(_) => "crash",
        };
        let status_text = status.map_or("killed after the timeout".to_string(), |s| s.to_string());
        let tail: Vec<String> = std::fs::read_to_string(&err)
            .unwrap_or_default()
            .lines()
            .rev()
            .take(8)
            .map(String::from)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        f.failures.push(Failure {
            what,
            name: name.clone(),
            call: format!("{} ({status_text})", call.trim()),
            stderr: tail.join("\n"),
        });
        let at = rest.iter().position(|n| *n == name).map_or(0, |i| i + 1);
        rest = rest[at..]
            .iter()
            .filter(|n| !finished.contains(n))
            .cloned()
            .collect();
    }
    f
}

/// Take a child's log into the findings.
fn absorb(text: &str, f: &mut Findings) {
    for line in text.lines() {
        let mut w = line.split(' ');
        match w.next() {
            Some("done") => {
                let name = w.next().unwrap_or("").to_string();
                let n: Vec<u64> = w.filter_map(|x| x.parse().ok()).collect();
                if let [calls, errors, values, kleaks, objleaks, panics, docs, docs_values] = n[..]
                {
                    f.outcomes.insert(
                        name,
                        Outcome {
                            calls,
                            errors,
                            values,
                            kleaks,
                            objleaks,
                            panics,
                            docs,
                            docs_values,
                            done: true,
                        },
                    );
                }
            }
            Some("leak") | Some("panic") | Some("missing") => f.events.push(line.to_string()),
            Some("klive") => f.klive += w.next().and_then(|x| x.parse::<i64>().ok()).unwrap_or(0),
            _ => {}
        }
    }
}

/// Print the summary; true when anything failed.
fn report(o: &Opts, names: &[String], f: &Findings, took: Duration) -> bool {
    let sum = |g: fn(&Outcome) -> u64| f.outcomes.values().map(g).sum::<u64>();
    let calls = sum(|x| x.calls);
    let uncovered: Vec<&String> = names
        .iter()
        .filter(|n| {
            !f.outcomes.get(*n).is_some_and(|x| x.done) && !f.failures.iter().any(|x| &x.name == *n)
        })
        .collect();
    let covered = names.len() - uncovered.len();
    let (kleaks, objleaks, panics) = (sum(|x| x.kleaks), sum(|x| x.objleaks), sum(|x| x.panics));
    let crashes = f.failures.iter().filter(|x| x.what == "crash").count();
    let hangs = f.failures.iter().filter(|x| x.what == "hang").count();
    for e in &f.events {
        println!("{e}");
    }
    for x in &f.failures {
        println!(
            "{} in `{}` (seed {}): {}",
            x.what.to_uppercase(),
            x.name,
            o.seed,
            x.call
        );
        for l in x.stderr.lines() {
            println!("    stderr: {l}");
        }
    }
    if !uncovered.is_empty() {
        println!(
            "never called: {}",
            uncovered
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    // Functions that only ever signalled: their inner code was reached by no generated call
    // (informational: some take forms the generator rarely makes, e.g. a file of a format).
    let errors_only: Vec<&str> = names
        .iter()
        .filter(|n| f.outcomes.get(*n).is_some_and(|x| x.done && x.values == 0))
        .map(|s| s.as_str())
        .collect();
    if !errors_only.is_empty() {
        println!("only errors from:     {}", errors_only.join(" "));
    }
    println!("seed:                 {}", o.seed);
    println!("calls made:           {calls}");
    println!("functions covered:    {covered}/{}", names.len());
    println!("q errors returned:    {}", sum(|x| x.errors));
    println!("values returned:      {}", sum(|x| x.values));
    println!(
        "  of them from docs:   {} calls, {} values (valid calls changed in one part)",
        sum(|x| x.docs),
        sum(|x| x.docs_values)
    );
    println!(
        "functions with values: {}/{}",
        covered - errors_only.len(),
        names.len()
    );
    println!("caught panics:        {panics}");
    println!("crashes:              {crashes}");
    println!("hangs:                {hangs}");
    println!(
        "K leaks:              {kleaks} calls, {} objects live at exit",
        f.klive
    );
    println!("obj[] leaks:          {objleaks}");
    println!("time:                 {:.1}s", took.as_secs_f64());
    crashes + hangs > 0 || kleaks + objleaks > 0 || f.klive != 0 || !uncovered.is_empty()
}

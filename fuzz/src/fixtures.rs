//! Live ktorch objects for the generator's handles, made fresh for each call through the library
//! itself (as a q session makes them), and freed after the call, so that each call starts from
//! an empty `obj[]` and a call that frees, moves or changes an object harms nothing after it.
use qhost::kapi::*;

use crate::host::Ktorch;

/// The classes the generator makes live handles of.
pub const CLASSES: &[&str] = &[
    "tensor",
    "vector",
    "dictionary",
    "module",
    "loss",
    "optimizer",
    "model",
    "future",
];
/// With a GPU (`--cuda`) also these: CUDA tensors and modules come as variants of their class.
pub const CUDA_CLASSES: &[&str] = &["stream", "event", "graph"];

/// Is this a `--cuda` run (the parent sets KTORCH_FUZZ_CUDA=1 for its children)?
pub fn cuda() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("KTORCH_FUZZ_CUDA").is_ok_and(|v| v == "1"))
}

/// The classes of this run.
pub fn classes() -> &'static [&'static str] {
    static ALL: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = CLASSES.to_vec();
        if cuda() {
            v.extend_from_slice(CUDA_CLASSES);
        }
        v
    })
}

pub struct Fixtures<'a> {
    lib: &'a Ktorch,
    /// Ids made for the current call, in the order made (freed in reverse: a future before the
    /// module it borrowed).
    made: Vec<i64>,
    /// The live handles of each class made so far for this call (a second request may reuse one:
    /// the same object twice in an argument is a case worth trying).
    by_class: Vec<(&'static str, KObj)>,
    /// What each handle given out is, for the log: `3288 module(linear 2 3)`.
    pub described: Vec<(i64, String)>,
}

/// A fixture that cannot be made is a harness bug, not a finding: said loudly (a panic, which
/// the parent reports as a crash of the child). On a GPU, though, an earlier call may have ended
/// the process's CUDA context (a device-side assert, as in PyTorch), after which every CUDA
/// fixture fails: that is said on stderr, and the call goes on with a forged handle.
fn fixture_failed(f: &str, e: &str) {
    if cuda() {
        eprintln!("ktorch-fuzz: fixture `{f} failed: {e}");
    } else {
        panic!("fixture `{f} failed: {e}");
    }
}

pub fn handle(id: i64) -> KObj {
    KObj::list(vec![KObj::long(id)])
}

/// The id of a handle-shaped value (a one-item general list holding a long).
pub fn id_of(x: &KObj) -> Option<i64> {
    (x.t() == 0 && x.len() == 1 && x.item(0).t() == -KJ).then(|| x.item(0).get_long())
}

fn reals(v: &[f32]) -> KObj {
    KObj::from_slice(KE, v)
}

fn list(items: Vec<KObj>) -> KObj {
    KObj::list(items)
}

fn sym(s: &str) -> KObj {
    KObj::sym(s)
}

/// Tensors of every common kind: 1-d, 2-d, long, with gradient, 0-d, boolean, empty,
/// non-contiguous, half, 4-d, sparse, complex, byte.
const TENSORS: &[&str] = &[
    "tensor 1 2 3e",
    "tensor(1 2 3e;4 5 6e)",
    "tensor 3 1 2",
    "tensor(3 4f;`grad)",
    "tensor 2f",
    "tensor 101b",
    "tensor 0#0e",
    "transpose tensor(1 2 3e;4 5 6e)",
    "tensor(1 2 3e;`half)",
    "tensor(`randn;1 1 3 3)",
    "sparse tensor(1 0 0e;0 2 0e)",
    "tensor(1 2e;`cfloat)",
    "tensor(3 2 1;`byte)",
];
/// On a GPU, a quarter of the tensors are CUDA tensors.
const CUDA_TENSORS: &[&str] = &["tensor(1 2 3e;`cuda)", "tensor(`randn;2 3;`cuda)"];
/// Modules: single layers of several kinds and a container.
const MODULES: &[&str] = &[
    "module enlist(`linear;2;3)",
    "module`relu",
    "module seq(`sequential;(`linear;2;2);`relu)",
    "module enlist(`conv2d;1;2;3)",
    "module enlist(`batchnorm1d;2)",
    "module enlist(`embed;10;3)",
];
const LOSSES: &[&str] = &["mse", "ce", "bce", "nll"];
const OPTIMIZERS: &[&str] = &["sgd", "adam", "lbfgs", "rmsprop", "adamw"];

/// The q that makes fixture `class` of `variant` (as `fresh` makes it).
fn describe(class: &str, variant: u64) -> String {
    match class {
        "tensor" if cuda() && variant % 4 == 3 => CUDA_TENSORS[(variant / 4 % 2) as usize].into(),
        "tensor" => TENSORS[(variant % TENSORS.len() as u64) as usize].into(),
        "module" if cuda() && variant % 4 == 3 => "to(module enlist(`linear;2;3);`cuda)".into(),
        "stream" => "stream()".into(),
        "event" => "event()".into(),
        "graph" => "graph(q;\"e\"$4 2#til 8) where q:to(module enlist(`linear;2;3);`cuda)".into(),
        "vector" => ["vector(1 2e;3 4 5e)", "vector()"][(variant % 2) as usize].into(),
        "dictionary" => "dict `a`b!(1 2e;3 4)".into(),
        "module" => MODULES[(variant % MODULES.len() as u64) as usize].into(),
        "loss" => format!("loss`{}", LOSSES[(variant % LOSSES.len() as u64) as usize]),
        "optimizer" => format!(
            "opt(`{};module enlist(`linear;2;3))",
            OPTIMIZERS[(variant % OPTIMIZERS.len() as u64) as usize]
        ),
        "model" => [
            "model(q;loss`mse;opt(`sgd;q)) where q:module enlist(`linear;2;1)",
            "model(q;loss`ce;opt(`adam;q)) where q:module enlist(`linear;2;3), with data (1 2e;3 4e);0 2",
        ][(variant % 2) as usize]
            .into(),
        "future" => [
            "async(`forward;module enlist(`linear;2;3);(1 2e;3 4e))",
            "async(`run;m) where m:model(..) with data (1 2e;3 4e);1 2e",
        ][(variant % 2) as usize]
            .into(),
        _ => class.into(),
    }
}

impl<'a> Fixtures<'a> {
    pub fn new(lib: &'a Ktorch) -> Fixtures<'a> {
        Fixtures {
            lib,
            made: Vec::new(),
            by_class: Vec::new(),
            described: Vec::new(),
        }
    }

    /// Call a library function to make an object; its handle, recorded for freeing.
    fn make(&mut self, f: &str, x: KObj) -> KObj {
        match self.lib.call1(f, x) {
            Ok(h) => {
                if let Some(id) = id_of(&h) {
                    self.made.push(id);
                }
                h
            }
            Err(e) => {
                fixture_failed(f, &e.0);
                handle(-1) // a forged handle in its place
            }
        }
    }

    fn linear(&mut self, i: i64, o: i64) -> KObj {
        self.make(
            "module",
            list(vec![list(vec![
                sym("linear"),
                KObj::long(i),
                KObj::long(o),
            ])]),
        )
    }

    /// A tensor as TENSORS[`v`] describes it.
    fn tensor(&mut self, v: u64) -> KObj {
        let t2 = || list(vec![reals(&[1., 2., 3.]), reals(&[4., 5., 6.])]);
        let x = match v {
            0 => reals(&[1., 2., 3.]),
            1 => t2(),
            2 => KObj::from_slice(KJ, &[3i64, 1, 2]),
            3 => list(vec![KObj::from_slice(KF, &[3., 4.]), sym("grad")]),
            4 => KObj::float(2.0),
            5 => KObj::from_slice(KB, &[1u8, 0, 1]),
            6 => reals(&[]),
            7 => {
                let t = self.make("tensor", t2());
                return self.make("transpose", t);
            }
            8 => list(vec![reals(&[1., 2., 3.]), sym("half")]),
            9 => list(vec![sym("randn"), KObj::from_slice(KJ, &[1i64, 1, 3, 3])]),
            10 => {
                let d = list(vec![reals(&[1., 0., 0.]), reals(&[0., 2., 0.])]);
                let t = self.make("tensor", d);
                return self.make("sparse", t);
            }
            11 => list(vec![reals(&[1., 2.]), sym("cfloat")]),
            _ => list(vec![KObj::from_slice(KJ, &[3i64, 2, 1]), sym("byte")]),
        };
        self.make("tensor", x)
    }

    /// `to(module enlist(`linear;2;3);`cuda)`: `to` moves the module and answers null.
    fn cuda_linear(&mut self) -> KObj {
        let q = self.linear(2, 3);
        if let Err(e) = self.lib.call1("to", list(vec![q.clone(), sym("cuda")])) {
            fixture_failed("to", &e.0);
        }
        q
    }

    /// A module as MODULES[`v`] describes it.
    fn module(&mut self, v: u64) -> KObj {
        let layer = |name: &str, args: &[i64]| {
            let mut l = vec![sym(name)];
            l.extend(args.iter().map(|a| KObj::long(*a)));
            list(vec![list(l)])
        };
        match v {
            0 => self.linear(2, 3),
            1 => self.make("module", sym("relu")),
            2 => {
                // module seq(`sequential;(`linear;2;2);`relu)
                let spec = list(vec![
                    sym("sequential"),
                    list(vec![sym("linear"), KObj::long(2), KObj::long(2)]),
                    sym("relu"),
                ]);
                match self.lib.call1("seq", spec) {
                    Ok(tree) => self.make("module", tree),
                    Err(e) => {
                        fixture_failed("seq", &e.0);
                        handle(-1)
                    }
                }
            }
            3 => self.make("module", layer("conv2d", &[1, 2, 3])),
            4 => self.make("module", layer("batchnorm1d", &[2])),
            _ => self.make("module", layer("embed", &[10, 3])),
        }
    }

    /// `model(q;loss`mse;opt(`sgd;q)) where q:module enlist(`linear;2;1)`
    fn sgd_model(&mut self) -> KObj {
        let q = self.linear(2, 1);
        let l = self.make("loss", sym("mse"));
        let o = self.make("opt", list(vec![sym("sgd"), q.clone()]));
        self.make("model", list(vec![q, l, o]))
    }

    /// `train(m;(1 2e;3 4e);y)`: training data for a model.
    fn train_data(&mut self, m: &KObj, y: KObj) {
        let x = list(vec![reals(&[1., 2.]), reals(&[3., 4.])]);
        if let Err(e) = self.lib.call1("train", list(vec![m.clone(), x, y])) {
            fixture_failed("train", &e.0);
        }
    }

    /// A fresh live object of `class`; `variant` picks among a few shapes of it.
    pub fn fresh(&mut self, class: &'static str, variant: u64) -> KObj {
        let h = match class {
            "tensor" if cuda() && variant % 4 == 3 => {
                let x = if (variant / 4).is_multiple_of(2) {
                    list(vec![reals(&[1., 2., 3.]), sym("cuda")])
                } else {
                    list(vec![
                        sym("randn"),
                        KObj::from_slice(KJ, &[2i64, 3]),
                        sym("cuda"),
                    ])
                };
                self.make("tensor", x)
            }
            "tensor" => self.tensor(variant % TENSORS.len() as u64),
            "module" if cuda() && variant % 4 == 3 => self.cuda_linear(),
            "stream" => self.make("stream", KObj::identity()),
            "event" => self.make("event", KObj::identity()),
            "graph" => {
                let q = self.cuda_linear();
                let x: Vec<f32> = (0..8).map(|i| i as f32).collect();
                let x = KObj::list((0..4).map(|r| reals(&x[2 * r..2 * r + 2])).collect());
                self.make("graph", list(vec![q, x]))
            }
            "vector" if variant % 2 == 1 => self.make("vector", list(vec![])),
            "vector" => self.make("vector", list(vec![reals(&[1., 2.]), reals(&[3., 4., 5.])])),
            "dictionary" => self.make(
                "dict",
                KObj::dict(
                    KObj::syms(&["a", "b"]),
                    list(vec![reals(&[1., 2.]), KObj::from_slice(KJ, &[3i64, 4])]),
                ),
            ),
            "module" => self.module(variant % MODULES.len() as u64),
            "loss" => self.make(
                "loss",
                sym(LOSSES[(variant % LOSSES.len() as u64) as usize]),
            ),
            "optimizer" => {
                let q = self.linear(2, 3);
                let kind = OPTIMIZERS[(variant % OPTIMIZERS.len() as u64) as usize];
                self.make("opt", list(vec![sym(kind), q]))
            }
            "model" if variant % 2 == 1 => {
                let q = self.linear(2, 3);
                let l = self.make("loss", sym("ce"));
                let o = self.make("opt", list(vec![sym("adam"), q.clone()]));
                let m = self.make("model", list(vec![q, l, o]));
                let y = KObj::from_slice(KJ, &[0i64, 2]);
                self.train_data(&m, y);
                m
            }
            "model" => self.sgd_model(),
            "future" if variant % 2 == 1 => {
                let m = self.sgd_model();
                self.train_data(&m, reals(&[1., 2.]));
                self.make("async", list(vec![sym("run"), m]))
            }
            "future" => {
                let q = self.linear(2, 3);
                let x = list(vec![reals(&[1., 2.]), reals(&[3., 4.])]);
                self.make("async", list(vec![sym("forward"), q, x]))
            }
            _ => unreachable!("no fixture for {class}"),
        };
        self.by_class.push((class, h.clone()));
        if let Some(id) = id_of(&h) {
            self.described.push((id, describe(class, variant)));
        }
        h
    }

    /// A live object of `class`: half the time one already made for this call, if any.
    pub fn live(&mut self, class: &'static str, variant: u64) -> KObj {
        if variant % 2 == 1 {
            if let Some((_, h)) = self.by_class.iter().find(|(c, _)| *c == class) {
                return h.clone();
            }
        }
        self.fresh(class, variant / 2)
    }

    /// A handle to an object made and freed: "stale pointer" territory.
    pub fn freed(&mut self) -> KObj {
        let h = self.fresh("tensor", 0);
        self.by_class.pop();
        if let Some(d) = self.described.last_mut() {
            d.1 = "freed tensor".into();
        }
        let _ = self.lib.call1("free", h.clone());
        h
    }

    /// Free what this call made (and what it returned: `extra`, freed first), ignoring errors
    /// (the call may have freed or moved it already).
    pub fn free_all(&mut self, extra: &[i64]) {
        self.by_class.clear();
        let made = std::mem::take(&mut self.made);
        for id in extra.iter().chain(made.iter().rev()) {
            let _ = self.lib.call1("free", handle(*id));
        }
    }
}

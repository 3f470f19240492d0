//! The training benchmark's jobs: the data (made once here, in Rust, and handed to all three sides)
//! and the same network written for each side: q text for ktorch, tch's `nn` for the direct floor,
//! and a name that bench/peer.py builds the PyTorch twin of (`mlp`, `cnn`).
use tch::nn::{self, Module, OptimizerConfig};
use tch::{Device, Kind, Reduction, Tensor};

/// One network, its data and its training settings.
pub struct Job {
    /// As shown in the table.
    pub name: &'static str,
    /// The network's name for the PyTorch peer (bench/peer.py builds it).
    pub net: &'static str,
    /// One sample's shape (the data is n samples of it).
    pub shape: &'static [i64],
    pub x: Vec<f32>,
    pub y: Vec<i64>,
    pub batch: i64,
    /// q text making the module `bq` (ktorch's layer names; seq is ktorch's).
    pub q_module: &'static str,
    /// q text making the optimizer of `bq`.
    pub q_opt: &'static str,
    /// Epochs per timed round (every side trains this many in each round).
    pub epochs: u64,
}

impl Job {
    pub fn samples(&self) -> i64 {
        self.y.len() as i64
    }
    /// The data's shape: samples, then one sample's.
    pub fn dims(&self) -> Vec<i64> {
        let mut d = vec![self.samples()];
        d.extend_from_slice(self.shape);
        d
    }
}

/// examples/spirals.q: 3 classes of 100 points on spiral arms, a 2 -> 100 relu -> 3 MLP, cross
/// entropy, SGD lr .2 momentum .9, batches of 50, no shuffle.
pub fn spirals(epochs: u64) -> Job {
    let (n, k) = (100, 3);
    let mut rng = Rng(42);
    let (mut x, mut y) = (Vec::with_capacity(2 * n * k), Vec::with_capacity(n * k));
    for c in 0..k {
        for i in 0..n {
            let r = i as f64 / (n - 1) as f64;
            let t = 4.0 * c as f64 + 4.0 * r + 0.2 * rng.uniform();
            x.push((r * t.sin()) as f32);
            x.push((r * t.cos()) as f32);
            y.push(c as i64);
        }
    }
    Job {
        name: "spirals MLP",
        net: "mlp",
        shape: &[2],
        x,
        y,
        batch: 50,
        q_module: "bq:module seq(`sequential;(`linear;2;100);`relu;(`linear;100;3))",
        q_opt: "opt(`sgd;bq;.2;.9)",
        epochs,
    }
}

/// examples/digits.q's CNN on `n` (1500 in digits.q) random 1x8x8 images of 10 classes (random data: only the
/// throughput is measured): conv2d 1->16 3x3 pad 1, relu, maxpool 2, conv2d 16->32 3x3 pad 1,
/// relu, maxpool 2, flatten, linear 128->10; cross entropy, Adam lr .005, batches of 64.
pub fn digits(n: usize, epochs: u64) -> Job {
    let mut rng = Rng(7);
    let x = (0..n * 64).map(|_| rng.uniform() as f32).collect();
    let y = (0..n).map(|_| (rng.uniform() * 10.0) as i64).collect();
    Job {
        name: "digits CNN",
        net: "cnn",
        shape: &[1, 8, 8],
        x,
        y,
        batch: 64,
        q_module: "bq:module seq(`sequential;(`conv2d;1;16;3;`pad,1);`relu;(`maxpool2d;2);(`conv2d;16;32;3;`pad,1);`relu;(`maxpool2d;2);`flatten;(`linear;128;10))",
        q_opt: "opt(`adam;bq;.005)",
        epochs,
    }
}

/// A small deterministic generator (splitmix64), so the data is the same on every run.
struct Rng(u64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The job's network and optimizer in tch (libtorch's C++ optimizers), trained epoch by epoch
/// as ktorch's `run` does: per batch zero the gradients, forward, cross entropy, backward, step;
/// the batch losses stay tensors and their mean is read once at the end of the epoch.
pub struct TchSide {
    _vs: nn::VarStore,
    net: nn::Sequential,
    opt: nn::Optimizer,
    x: Tensor,
    y: Tensor,
    batch: i64,
}

impl TchSide {
    pub fn new(job: &Job, device: &str) -> Result<TchSide, String> {
        tch::manual_seed(42);
        let device = match device {
            "cpu" => Device::Cpu,
            "cuda" => Device::Cuda(0),
            other => return Err(format!("unknown device `{other}`")),
        };
        let vs = nn::VarStore::new(device);
        let p = vs.root();
        let (net, opt) = match job.net {
            "mlp" => (
                nn::seq()
                    .add(nn::linear(&p / "l1", 2, 100, Default::default()))
                    .add_fn(|x| x.relu())
                    .add(nn::linear(&p / "l2", 100, 3, Default::default())),
                nn::Sgd {
                    momentum: 0.9,
                    ..Default::default()
                }
                .build(&vs, 0.2),
            ),
            "cnn" => {
                let pad = nn::ConvConfig {
                    padding: 1,
                    ..Default::default()
                };
                (
                    nn::seq()
                        .add(nn::conv2d(&p / "c1", 1, 16, 3, pad))
                        .add_fn(|x| x.relu().max_pool2d_default(2))
                        .add(nn::conv2d(&p / "c2", 16, 32, 3, pad))
                        .add_fn(|x| x.relu().max_pool2d_default(2).flatten(1, -1))
                        .add(nn::linear(&p / "l", 128, 10, Default::default())),
                    nn::Adam::default().build(&vs, 0.005),
                )
            }
            other => return Err(format!("no tch network `{other}`")),
        };
        let opt = opt.map_err(|e| e.to_string())?;
        let x = Tensor::from_slice(&job.x)
            .view(job.dims().as_slice())
            .to_device(device);
        let y = Tensor::from_slice(&job.y).to_device(device);
        Ok(TchSide {
            _vs: vs,
            net,
            opt,
            x,
            y,
            batch: job.batch,
        })
    }

    /// One epoch; answers the mean batch loss.
    pub fn epoch(&mut self) -> f64 {
        let n = self.x.size()[0];
        let mut losses = Vec::with_capacity(((n + self.batch - 1) / self.batch) as usize);
        let mut start = 0;
        while start < n {
            let len = self.batch.min(n - start);
            let (xb, yb) = (self.x.narrow(0, start, len), self.y.narrow(0, start, len));
            let loss = self.net.forward(&xb).cross_entropy_loss::<Tensor>(
                &yb,
                None,
                Reduction::Mean,
                -100,
                0.0,
            );
            self.opt.backward_step(&loss);
            losses.push(loss.detach());
            start += len;
        }
        Tensor::stack(&losses, 0)
            .mean(Kind::Float)
            .double_value(&[])
    }
}

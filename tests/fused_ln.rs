//! The autograd function of src/cxx/fused_ln.cpp (setting`fusedln) on the CPU, where its
//! backward is ATen's native_layer_norm_backward: the same output and gradients as libtorch's own
//! layer_norm (tch's `f_layer_norm`), bit for bit, with a weight and bias, a weight alone, no
//! affine parameters, and parameters that need no gradient (undefined gradients, as PyTorch
//! gives); second derivatives (create_graph) as ATen's; the fused kernels never
//! counted (they are for CUDA tensors: tests/q/gpu/ktorch_fused_ln.q checks them on a GPU).
use ktorch::cxx::layer_norm::{fused, fused_calls, Fusion};
use tch::{Device, Kind, Tensor};

/// y and the gradients of x, w, b (None where undefined) from `f` on copies of the inputs.
fn run(
    f: &dyn Fn(&Tensor, Option<&Tensor>, Option<&Tensor>) -> Tensor,
    x: &Tensor,
    w: Option<(&Tensor, bool)>,
    b: Option<(&Tensor, bool)>,
    dy: &Tensor,
) -> Vec<Option<Tensor>> {
    let leaf = |t: &Tensor, g: bool| t.copy().set_requires_grad(g);
    let xi = leaf(x, true);
    let wi = w.map(|(t, g)| leaf(t, g));
    let bi = b.map(|(t, g)| leaf(t, g));
    let y = f(&xi, wi.as_ref(), bi.as_ref());
    ktorch::cxx::tensor::backward(&y, Some(dy), false, false).unwrap();
    let grad = |t: &Tensor| Some(t.grad()).filter(|g| g.defined());
    vec![
        Some(y.detach()),
        grad(&xi),
        wi.as_ref().and_then(grad),
        bi.as_ref().and_then(grad),
    ]
}

#[test]
fn cpu_results_are_atens() {
    tch::manual_seed(3);
    let (m, n) = (5, 7);
    let x = Tensor::randn([m, n], (Kind::Float, Device::Cpu)) * 3.0 + 1.0;
    let dy = Tensor::randn([m, n], (Kind::Float, Device::Cpu));
    let w = Tensor::randn([n], (Kind::Float, Device::Cpu));
    let b = Tensor::randn([n], (Kind::Float, Device::Cpu));
    let ours = |x: &Tensor, w: Option<&Tensor>, b: Option<&Tensor>| {
        fused(x, &[n], w, b, 1e-5, Fusion::KERNELS).unwrap()
    };
    let aten = |x: &Tensor, w: Option<&Tensor>, b: Option<&Tensor>| {
        x.f_layer_norm([n], w, b, 1e-5, true).unwrap()
    };
    let cases: [(Option<(&Tensor, bool)>, Option<(&Tensor, bool)>, &str); 5] = [
        (Some((&w, true)), Some((&b, true)), "weight and bias"),
        (Some((&w, true)), None, "weight alone"),
        (None, None, "no affine parameters"),
        (
            Some((&w, false)),
            Some((&b, true)),
            "weight without gradient",
        ),
        (Some((&w, true)), Some((&b, false)), "bias without gradient"),
    ];
    for (wc, bc, name) in cases {
        let a = run(&ours, &x, wc, bc, &dy);
        let e = run(&aten, &x, wc, bc, &dy);
        for (i, (p, q)) in a.iter().zip(e.iter()).enumerate() {
            match (p, q) {
                (Some(p), Some(q)) => assert!(p.equal(q), "{name}: result {i} differs from ATen's"),
                (None, None) => {}
                _ => panic!("{name}: result {i} defined on one side only"),
            }
        }
    }
    assert_eq!(
        fused_calls(),
        0,
        "the fused kernels are for CUDA tensors only"
    );
}

/// Second derivatives (create_graph): the backward pass recorded through ATen's differentiable
/// backward, so the gradient of a function of x's gradient is libtorch's layer_norm's, bit for bit.
#[test]
fn double_backward_is_atens() {
    tch::manual_seed(4);
    let x0 = Tensor::randn([3, 6], (Kind::Float, Device::Cpu));
    let w0 = Tensor::randn([6], (Kind::Float, Device::Cpu));
    let b0 = Tensor::randn([6], (Kind::Float, Device::Cpu));
    let dy = Tensor::randn([3, 6], (Kind::Float, Device::Cpu));
    let second = |ours: bool| {
        let x = x0.copy().set_requires_grad(true);
        let w = w0.copy().set_requires_grad(true);
        let b = b0.copy().set_requires_grad(true);
        let y = if ours {
            fused(&x, &[6], Some(&w), Some(&b), 1e-5, Fusion::KERNELS).unwrap()
        } else {
            x.f_layer_norm([6], Some(&w), Some(&b), 1e-5, true).unwrap()
        };
        // dx with its graph, then the gradient of sum(dx^2) with respect to x and w
        let dx = Tensor::run_backward(&[(&y * &dy).sum(Kind::Float)], &[&x], true, true);
        let z = (&dx[0] * &dx[0]).sum(Kind::Float);
        ktorch::cxx::tensor::backward(&z, None, false, false).unwrap();
        (x.grad(), w.grad())
    };
    let (ax, aw) = second(true);
    let (ex, ew) = second(false);
    assert!(ax.defined() && ax.abs().sum(Kind::Float).double_value(&[]) > 0.0);
    assert!(ax.equal(&ex), "d/dx of |dx|^2 differs from ATen's");
    assert!(aw.equal(&ew), "d/dw of |dx|^2 differs from ATen's");
}

/// `fused_res` (setting`lnres): layer norm handing x on, x's two gradients (through the norm and
/// from what x' is used in) added in its backward pass, on the CPU by ATen's backward and an add:
/// y, x' and the gradients of x, w and b as libtorch's layer_norm beside x used directly, bit for
/// bit; x' is x's values; with a weight and bias, and with parameters that need no gradient.
#[test]
fn cpu_res_is_layer_norm_beside_x() {
    use ktorch::cxx::layer_norm::fused_res;
    tch::manual_seed(5);
    let (m, n) = (6, 9);
    let x = Tensor::randn([m, n], (Kind::Float, Device::Cpu)) * 2.0 - 1.0;
    let dy = Tensor::randn([m, n], (Kind::Float, Device::Cpu));
    let dr = Tensor::randn([m, n], (Kind::Float, Device::Cpu));
    let w = Tensor::randn([n], (Kind::Float, Device::Cpu));
    let b = Tensor::randn([n], (Kind::Float, Device::Cpu));
    for wg in [true, false] {
        let leaf = |t: &Tensor, g: bool| t.copy().set_requires_grad(g);
        // ours: (y, x') from fused_res; loss sum(y*dy) + sum(x'*dr)
        let (xa, wa, ba) = (leaf(&x, true), leaf(&w, wg), leaf(&b, true));
        let (y, x2) = fused_res(&xa, &[n], Some(&wa), Some(&ba), 1e-5, Fusion::KERNELS)
            .unwrap()
            .expect("applies where gradients are wanted");
        assert!(x2.equal(&x), "x' is x");
        let l = (&y * &dy).sum(Kind::Float) + (&x2 * &dr).sum(Kind::Float);
        l.backward();
        // libtorch's: layer_norm(x) beside x itself
        let (xe, we, be) = (leaf(&x, true), leaf(&w, wg), leaf(&b, true));
        let ye = xe
            .f_layer_norm([n], Some(&we), Some(&be), 1e-5, true)
            .unwrap();
        let le = (&ye * &dy).sum(Kind::Float) + (&xe * &dr).sum(Kind::Float);
        le.backward();
        assert!(y.equal(&ye), "y, weight gradient {wg}");
        assert!(xa.grad().equal(&xe.grad()), "dx, weight gradient {wg}");
        assert!(ba.grad().equal(&be.grad()), "dbias, weight gradient {wg}");
        if wg {
            assert!(wa.grad().equal(&we.grad()), "dweight");
        } else {
            assert!(!wa.grad().defined(), "no weight gradient");
        }
    }
    // no gradients wanted: not applied (the caller runs layer norm and the sum as usual)
    let r =
        tch::no_grad(|| fused_res(&x, &[n], Some(&w), Some(&b), 1e-5, Fusion::KERNELS).unwrap());
    assert!(r.is_none());
    assert_eq!(fused_calls(), 0, "no fused kernel on the CPU");
}

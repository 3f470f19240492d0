"""Expected values for tests/q/ktorch_nn_conv.q, computed with PyTorch (torch==2.11.0 of the
virtualenv): run `$VIRTUAL_ENV/bin/python tests/q/gen/nn_conv.py > tests/q/data/nn_conv_expected.q`.
Dictionaries keyed by case name: `D` the ktorch definition (a general list: type, options), `I`
the input, `P` the parameters (convolutions), `E` PyTorch's output. Inputs and
weights are multiples of 1/8 and 1/16 (exact in single precision); values are written as
doubles, cast to reals in q. Fractional pooling: `S` the seed set before the forward."""
import torch
import torch.nn as nn
import torch.nn.functional as F

def q(v):
    """A q literal for a tensor: floats as 9h, nested by rows (one row enlisted)."""
    t = torch.as_tensor(v)
    if t.dim() == 0:
        return repr(float(t.item())) + "f"
    if t.dim() == 1:
        s = " ".join(repr(float(x)) for x in t.tolist()) + "f"
        return "enlist " + s if t.numel() == 1 else s
    r = ";".join(q(x) for x in t)
    return "(enlist " + r + ")" if len(t) == 1 else "(" + r + ")"

out = []
def x_of(*shape):
    return torch.randint(-16, 17, shape).float() / 8

def case(name, qdef, f, x, parms=None, seed=None):
    out.append(f"D[`{name}]:{qdef}")
    out.append(f"I[`{name}]:{q(x)}")
    if parms is not None:
        with torch.no_grad():
            for p in parms.parameters():
                p.copy_(torch.randint(-8, 9, p.shape).float() / 16)
        ks = [k for k, _ in parms.named_parameters()]
        vs = [q(p.detach()) for _, p in parms.named_parameters()]
        if len(ks) == 1:
            out.append(f"P[`{name}]:(enlist`{ks[0]})!enlist {vs[0]}")
        else:
            out.append(f"P[`{name}]:`{'`'.join(ks)}!({';'.join(vs)})")
    if seed is not None:
        out.append(f"S[`{name}]:{seed}")
        torch.manual_seed(seed)
    with torch.no_grad():
        out.append(f"E[`{name}]:{q(f(x))}")

torch.manual_seed(0)
# convolutions: (name, q definition, module, input)
def conv(name, qdef, m, x): case(name, qdef, m, x, parms=m)
conv("c1", "(`conv1d;2;3;3;2;1)", nn.Conv1d(2, 3, 3, stride=2, padding=1), x_of(2, 2, 7))
conv("c1u", "(`conv1d;2;3;2)", nn.Conv1d(2, 3, 2), x_of(2, 5))
conv("c2same", "(`conv2d;4;6;3;`pad`dilate`groups!(`same;2 1;2))",
     nn.Conv2d(4, 6, 3, padding="same", dilation=(2, 1), groups=2), x_of(1, 4, 6, 5))
conv("c2reflect", "(`conv2d;2;3;3;1;1;`padmode,`reflect)",
     nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"), x_of(2, 2, 5, 4))
conv("c2circular", "(`conv2d;2;3;3;2;2;1;1;0b;`circular)",
     nn.Conv2d(2, 3, 3, stride=2, padding=2, bias=False, padding_mode="circular"), x_of(1, 2, 5, 5))
conv("c2replicate", "(`conv2d;2;2;2;`pad`padmode!`same`replicate)",
     nn.Conv2d(2, 2, 2, padding="same", padding_mode="replicate"), x_of(1, 2, 4, 3))
conv("c3", "(`conv3d;2;2;2 3 2;`pad,`valid)", nn.Conv3d(2, 2, (2, 3, 2), padding="valid"), x_of(1, 2, 3, 4, 3))
conv("t1", "(`convtranspose1d;2;3;3;2;1;1)",
     nn.ConvTranspose1d(2, 3, 3, stride=2, padding=1, output_padding=1), x_of(2, 2, 4))
conv("t2", "(`convtranspose2d;4;2;3;`stride`groups`bias`dilate!(2;2;0b;2))",
     nn.ConvTranspose2d(4, 2, 3, stride=2, groups=2, bias=False, dilation=2), x_of(1, 4, 3, 2))
conv("t3", "(`convtranspose3d;2;2;2;1 2 1)", nn.ConvTranspose3d(2, 2, 2, stride=(1, 2, 1)), x_of(1, 2, 2, 3, 2))

# pooling: (name, q definition, function of the input, input)
case("max1", "(`maxpool1d;3;2;1;1;1b)", nn.MaxPool1d(3, 2, 1, 1, ceil_mode=True), x_of(2, 3, 9))
case("max2", "(`maxpool2d;3 2;::;1 0;1 2)", nn.MaxPool2d((3, 2), padding=(1, 0), dilation=(1, 2)), x_of(1, 2, 7, 6))
case("max3", "(`maxpool3d;2;1)", nn.MaxPool3d(2, 1), x_of(1, 2, 3, 4, 3))
case("avg1", "(`avgpool1d;3;2;1;0b;0b)", nn.AvgPool1d(3, 2, 1, count_include_pad=False), x_of(2, 3, 8))
case("avg2", "(`avgpool2d;3;2;1;1b;1b;5)", nn.AvgPool2d(3, 2, 1, ceil_mode=True, divisor_override=5), x_of(1, 2, 6, 7))
case("avg3", "(`avgpool3d;2)", nn.AvgPool3d(2), x_of(1, 2, 4, 4, 5))
case("amax1", "(`adaptmax1d;4)", nn.AdaptiveMaxPool1d(4), x_of(2, 3, 9))
case("amax2", "(`adaptmax2d;0N 3)", nn.AdaptiveMaxPool2d((None, 3)), x_of(1, 2, 5, 7))
case("amax3", "(`adaptmax3d;2 3 2)", nn.AdaptiveMaxPool3d((2, 3, 2)), x_of(1, 2, 4, 5, 3))
case("aavg1", "(`adaptavg1d;3)", nn.AdaptiveAvgPool1d(3), x_of(2, 3, 8))
case("aavg2", "(`adaptavg2d;3)", nn.AdaptiveAvgPool2d(3), x_of(1, 2, 5, 7))
case("aavg3", "(`adaptavg3d;0N 2 0N)", nn.AdaptiveAvgPool3d((None, 2, None)), x_of(1, 2, 3, 5, 2))
case("lp1", "(`lppool1d;3;3;2)", nn.LPPool1d(3, 3, 2), x_of(2, 3, 8).abs())
case("lp2", "(`lppool2d;2.0;2 3;`ceiling,1b)", nn.LPPool2d(2, (2, 3), ceil_mode=True), x_of(1, 2, 5, 7))
case("fmax2", "(`fmaxpool2d;2;4 3)", nn.FractionalMaxPool2d(2, output_size=(4, 3)), x_of(2, 3, 8, 7), seed=7)
case("fmax3", "(`fmaxpool3d;2;`ratio,0.5)", nn.FractionalMaxPool3d(2, output_ratio=0.5), x_of(1, 2, 6, 5, 4), seed=8)

# padding
case("pad", "(`pad;1 2 0 1;`constant;1.5)", lambda x: F.pad(x, (1, 2, 0, 1), "constant", 1.5), x_of(1, 2, 3, 3))
case("padreflect", "(`pad;2 1;`reflect)", lambda x: F.pad(x, (2, 1), "reflect"), x_of(2, 2, 4))
case("padreplicate", "(`pad;1 1 2 0;`mode,`replicate)", lambda x: F.pad(x, (1, 1, 2, 0), "replicate"), x_of(1, 2, 3, 3))
case("padcircular", "(`pad;1 2;`circular)", lambda x: F.pad(x, (1, 2), "circular"), x_of(2, 2, 4))
case("pad1", "(`pad1d;1 2;0.5)", nn.ConstantPad1d((1, 2), 0.5), x_of(2, 2, 3))
case("pad2", "(`pad2d;1;-1.0)", nn.ConstantPad2d(1, -1.0), x_of(1, 2, 2, 3))
case("pad3", "(`pad3d;1 0 0 1 1 0;2.0)", nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 2.0), x_of(1, 1, 2, 2, 2))
case("reflect1", "(`reflect1d;2)", nn.ReflectionPad1d(2), x_of(2, 2, 4))
case("reflect2", "(`reflect2d;1 1 2 0)", nn.ReflectionPad2d((1, 1, 2, 0)), x_of(1, 2, 3, 3))
case("replicate1", "(`replicate1d;0 2)", nn.ReplicationPad1d((0, 2)), x_of(2, 2, 3))
case("replicate2", "(`replicate2d;1)", nn.ReplicationPad2d(1), x_of(1, 2, 2, 3))
case("replicate3", "(`replicate3d;1 0 0 1 1 0)", nn.ReplicationPad3d((1, 0, 0, 1, 1, 0)), x_of(1, 1, 2, 2, 2))
case("zeropad", "(`zeropad2d;1 0 2 1)", nn.ZeroPad2d((1, 0, 2, 1)), x_of(1, 2, 2, 3))

# fold, unfold
case("fold", "(`fold;4 5;2;(`pad;0 1))", nn.Fold((4, 5), 2, padding=(0, 1)), x_of(2, 12, 18))
case("unfold", "(`unfold;2 3;1 2;1;2 1)", nn.Unfold((2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), x_of(2, 3, 5, 6))

# upsample, interpolate
case("up1", "(`upsample;::;2.0)", nn.Upsample(scale_factor=2.0), x_of(1, 2, 3))
case("up2", "(`upsample;5 4;::;`bilinear;1b)", nn.Upsample((5, 4), mode="bilinear", align_corners=True), x_of(1, 2, 3, 3))
case("up3", "(`upsample;`scale`mode!(1.5;`bicubic))", nn.Upsample(scale_factor=1.5, mode="bicubic"), x_of(1, 1, 3, 4))
case("up4", "(`upsample;::;2 1 1.5;`trilinear)", nn.Upsample(scale_factor=(2, 1, 1.5), mode="trilinear"), x_of(1, 1, 2, 3, 2))
case("in1", "(`interpolate;::;1.7;`linear)", lambda x: F.interpolate(x, scale_factor=1.7, mode="linear"), x_of(1, 2, 4))
case("in2", "(`interpolate;2;`mode,`area)", lambda x: F.interpolate(x, size=2, mode="area"), x_of(1, 2, 5, 4))
case("in3", "(`interpolate;::;0.6;`area)", lambda x: F.interpolate(x, scale_factor=0.6, mode="area"), x_of(1, 2, 5))
case("in4", "(`interpolate;::;1.5;`nearestexact)", lambda x: F.interpolate(x, scale_factor=1.5, mode="nearest-exact"), x_of(1, 1, 3, 4))
case("in5", "(`interpolate;::;1.7;`nearest;::;1b)",
     lambda x: F.interpolate(x, scale_factor=1.7, mode="nearest", recompute_scale_factor=True), x_of(1, 1, 4, 3))
case("in6", "(`interpolate;::;0.6 1.3;`bilinear)", lambda x: F.interpolate(x, scale_factor=(0.6, 1.3), mode="bilinear"), x_of(1, 2, 5, 4))

print(f"/ generated by tests/q/gen/nn_conv.py with torch {torch.__version__.split('+')[0]}: do not edit")
print("D:I:P:S:E:()!()")
print("\n".join(out))

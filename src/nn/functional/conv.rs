//! Functional forms of the convolution family's parameter-free layers (knn.cpp's `pool`, `kpad`,
//! `fold`, `unfold`, `interpolate`): `maxpool2d(x;3)`, `avgpool1d(x;2;1)`, `` pad(x;1 1;`reflect) ``,
//! `` interpolate(x;`scale`mode!(2.0;`bilinear)) ``: the input, then the layer's options in the
//! module's positional order, then named options. Each runs the layer once (fractional pooling
//! draws its samples from the global generator, as PyTorch's functional form does).
use super::ByLayer;
use crate::k::KResult;

super::by_layer! {
    ByLayer: adaptavg1d,
    adaptavg2d,
    adaptavg3d,
    adaptmax1d,
    adaptmax2d,
    adaptmax3d,
    avgpool1d,
    avgpool2d,
    avgpool3d,
    maxpool1d,
    maxpool2d,
    maxpool3d,
    lppool1d,
    lppool2d,
    fmaxpool2d,
    fmaxpool3d,
    fold,
    unfold,
    interpolate,
    pad,
}

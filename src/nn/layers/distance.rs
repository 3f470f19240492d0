//! Distances between two inputs (ktorch's knn/distance.cpp): `pairwise` (PyTorch's
//! PairwiseDistance, options p, eps, keepdim) and `similar` (CosineSimilarity, dim, eps).
use tch::Tensor;

use super::{flag, float, long_or, many, Layer, Out};

pub static LAYERS: &[Layer] = &[
    many(
        "pairwise",
        "torch.nn.PairwiseDistance",
        &[float("p", 2.0), float("eps", 1e-6), flag("keepdim", false)],
        (2, 2),
        |m, _, x| {
            Ok(Out::Tensor(Tensor::f_pairwise_distance(
                &x[0],
                &x[1],
                m.float("p"),
                m.float("eps"),
                m.flag("keepdim"),
            )?))
        },
    ),
    many(
        "similar",
        "torch.nn.CosineSimilarity",
        &[long_or("dim", 1), float("eps", 1e-8)],
        (2, 2),
        |m, _, x| {
            Ok(Out::Tensor(Tensor::f_cosine_similarity(
                &x[0],
                &x[1],
                m.long("dim"),
                m.float("eps"),
            )?))
        },
    ),
];

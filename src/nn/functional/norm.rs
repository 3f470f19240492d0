//! `normalize x`, `normalize(x;p;dim;eps)` (options also by name): PyTorch's functional
//! normalize, x / max(‖x‖ₚ along dim, eps), defaults p 2, dim 1, eps 1e-12.
use super::ByLayer;
use crate::k::KResult;

super::by_layer! { ByLayer: normalize }

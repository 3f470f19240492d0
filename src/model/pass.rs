//! One pass through a model's data, as `run`, `testrun`, `async` and a data source's `run` make
//! it: the training pass of a synchronising model (`distmodel`) is dist.rs's, every other pass
//! run.rs's. Chosen here, above both, so that run.rs (which dist.rs builds on: the forward and
//! loss, clipping, the pass's results) needs nothing of dist.rs.
use anyhow::{bail, Result};

use super::progress::Bar;
use super::run::{local_epoch, Epoch};
use super::Model;

/// One pass through the training (`training`) or test data, batch by batch from where batching
/// stands (as ktorch: a pass begun with `batch m` goes on from there). On an error the data is
/// left at full size.
pub fn epoch(m: &mut Model, training: bool) -> Result<Epoch> {
    epoch_with(m, training, None)
}

/// `epoch`, showing progress on `bar` (a data source's pass: model/source.rs), or on a display of
/// its own when `progress` is on (model/progress.rs).
pub fn epoch_with(m: &mut Model, training: bool, bar: Option<&mut Bar>) -> Result<Epoch> {
    if training && m.dist.is_some() {
        if m.scaler.is_some() {
            bail!("gradscale: not implemented for a synchronising model (distmodel)");
        }
        return super::dist::epoch(m);
    }
    local_epoch(m, training, bar)
}

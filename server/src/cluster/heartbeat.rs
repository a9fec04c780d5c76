//! The heartbeat: one statement per renewal period per node, for all of its rooms at once
//! (see `leases::renew`). A heartbeat that fails (the database is away) judges nothing: the
//! rooms keep playing, and if another node takes one over meanwhile, the room's next append
//! is refused by its epoch and the next heartbeat that succeeds tells the room.

use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;

use super::Node;

pub(super) fn spawn(node: Node, mut stopped: watch::Receiver<bool>) -> JoinHandle<()> {
    let every = node.inner.options.renew_every;
    // A heartbeat that takes longer than a lease is of no use: give up on it and try again.
    let deadline = node.inner.options.lease;
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        // The first tick is at once: the node's leases were just taken.
        ticks.tick().await;
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                _ = stopped.wait_for(|stop| *stop) => return,
            }
            match tokio::time::timeout(deadline, node.beat()).await {
                Ok(Ok(_)) => {}
                Ok(Err(error)) => {
                    tracing::warn!(%error, "the heartbeat could not renew this node's leases")
                }
                Err(_) => tracing::warn!(
                    "the heartbeat took longer than a lease; this node's leases may expire"
                ),
            }
        }
    })
}

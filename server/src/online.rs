//! Who is connected now, for the lobby's "12 people online": each person counted once, however
//! many tabs they have open. In cluster mode the lobby adds the people connected to the other
//! nodes (`cluster::directory`), and this node publishes [`Online::people`] for them.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
pub struct Online {
    /// Open greeted connections per player id.
    people: Mutex<HashMap<String, u32>>,
}

impl Online {
    /// A greeted connection of `player_id` opened; it counts until the guard is dropped.
    pub fn arrive(self: &Arc<Self>, player_id: &str) -> Here {
        *self
            .people
            .lock()
            .expect("online lock")
            .entry(player_id.to_string())
            .or_default() += 1;
        Here {
            online: self.clone(),
            player_id: player_id.to_string(),
        }
    }

    /// How many people have at least one connection open.
    pub fn count(&self) -> u32 {
        self.people.lock().expect("online lock").len() as u32
    }

    /// How many people are connected here or are among `elsewhere`, each counted once.
    pub fn count_with(&self, elsewhere: &HashSet<String>) -> u32 {
        let people = self.people.lock().expect("online lock");
        let only_here = people.keys().filter(|id| !elsewhere.contains(*id)).count();
        (elsewhere.len() + only_here) as u32
    }

    /// The ids of the people connected now.
    pub fn people(&self) -> Vec<String> {
        self.people
            .lock()
            .expect("online lock")
            .keys()
            .cloned()
            .collect()
    }
}

/// One greeted connection, counted while it lives.
#[derive(Debug)]
pub struct Here {
    online: Arc<Online>,
    player_id: String,
}

impl Drop for Here {
    fn drop(&mut self) {
        let mut people = self.online.people.lock().expect("online lock");
        if let Some(open) = people.get_mut(&self.player_id) {
            *open -= 1;
            if *open == 0 {
                people.remove(&self.player_id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_with_two_tabs_counts_once_until_both_close() {
        let online = Arc::new(Online::default());
        let first = online.arrive("lilith");
        let second = online.arrive("lilith");
        let other = online.arrive("baal");
        assert_eq!(online.count(), 2);
        drop(first);
        assert_eq!(online.count(), 2, "one tab of Lilith's is still open");
        drop(second);
        drop(other);
        assert_eq!(online.count(), 0);
    }
}

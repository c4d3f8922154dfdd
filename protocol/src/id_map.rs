//! A map keyed by request id, in id order: what a connection keeps per request in flight (and the host per request
//! a server made of the application).
//!
//! Ids are given in increasing order and mostly answered in it, so a deque sorted by id inserts at its back and
//! removes at its front in constant time, and finds an id by binary search. A server keeps the requests it is
//! serving by [`crate::RequestId`] in one too: a host's ids count up as well. It does what a `BTreeMap<i64, V>` did
//! here for a fraction of the code every wasm binary carries: a B-tree brings about 5 KiB of code for each type of
//! value it holds.

use std::collections::VecDeque;

/// Values by request id (`K`: an integer, or a [`crate::RequestId`]), in id order.
#[derive(Debug)]
pub struct IdMap<K, V> {
    entries: VecDeque<(K, V)>,
}

impl<K: Ord, V> Default for IdMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: Ord, V> IdMap<K, V> {
    /// An empty map.
    pub const fn new() -> Self {
        Self { entries: VecDeque::new() }
    }

    /// Where `id` is, or where it would go.
    fn find(&self, id: &K) -> Result<usize, usize> {
        // Most ids are newer than every other: their place is the end.
        match self.entries.back() {
            Some((last, _)) if last < id => Err(self.entries.len()),
            None => Err(0),
            _ => self.entries.binary_search_by(|(key, _)| key.cmp(id)),
        }
    }

    /// Puts `value` under `id`; returns the value it replaces.
    pub fn insert(&mut self, id: K, value: V) -> Option<V> {
        match self.find(&id) {
            Ok(at) => self.entries.get_mut(at).map(|(_, held)| std::mem::replace(held, value)),
            Err(at) => {
                self.entries.insert(at, (id, value));
                None
            }
        }
    }

    /// Removes and returns the value under `id`.
    pub fn remove(&mut self, id: &K) -> Option<V> {
        let at = self.find(id).ok()?;
        self.entries.remove(at).map(|(_, value)| value)
    }

    /// The value under `id`.
    pub fn get_mut(&mut self, id: &K) -> Option<&mut V> {
        let at = self.find(id).ok()?;
        self.entries.get_mut(at).map(|(_, value)| value)
    }

    /// The value under `id`.
    pub fn get(&self, id: &K) -> Option<&V> {
        let at = self.find(id).ok()?;
        self.entries.get(at).map(|(_, value)| value)
    }

    /// Keeps only the entries for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        self.entries.retain(|(id, value)| keep(id, value));
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Removes and returns the entry with the lowest id.
    pub fn pop_first(&mut self) -> Option<(K, V)> {
        self.entries.pop_front()
    }

    /// Removes and returns, in id order, every entry whose value `pick` picks.
    pub fn remove_picked(&mut self, pick: impl Fn(&V) -> bool) -> Vec<(K, V)> {
        if !self.entries.iter().any(|(_, value)| pick(value)) {
            return Vec::new();
        }
        let mut picked = Vec::new();
        let mut kept = VecDeque::with_capacity(self.entries.len());
        for (id, value) in self.entries.drain(..) {
            if pick(&value) { picked.push((id, value)) } else { kept.push_back((id, value)) }
        }
        self.entries = kept;
        picked
    }

    /// Removes and returns every entry, in id order.
    pub fn drain(&mut self) -> Vec<(K, V)> {
        self.entries.drain(..).collect()
    }

    /// Whether there is a value under `id`.
    pub fn contains(&self, id: &K) -> bool {
        self.find(id).is_ok()
    }

    /// The ids, in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(id, _)| id)
    }

    /// The entries, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(id, value)| (id, value))
    }

    /// The values, in id order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, value)| value)
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
#[path = "id_map_tests.rs"]
mod tests;

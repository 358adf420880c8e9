//! A scenario's override map as a type of its own: option name -> value in internal units,
//! what the scenario sets over its preset (host switches and board parameters,
//! [`super::Scenario::overrides`]).
//!
//! The map's own methods are here; which names are board parameters and which are host
//! switches is the option table's to say, so the split of a map into its switches and its
//! board ([`Overrides::switches`], [`Overrides::board`], [`Overrides::with_board_of`]) is in
//! [`super::board`], beside the scenario's effective platform. The web app's A/B pair keeps B
//! as one of these and splits or merges two of them without building scenarios to do it.

use serde::{Deserialize, Serialize};
use std::collections::btree_map::{self, BTreeMap};

/// What a scenario sets over its preset: option name -> value in internal units (ns, bytes,
/// bytes per second, parts per million; a host switch as its
/// [`SwitchValue`](super::SwitchValue)). Serialized as the plain map it was.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Overrides(BTreeMap<String, u64>);

impl Overrides {
    /// No overrides: every value is the preset's.
    pub fn new() -> Overrides {
        Overrides::default()
    }

    /// The value of `name`, if the scenario sets it.
    pub fn get(&self, name: &str) -> Option<&u64> {
        self.0.get(name)
    }

    /// Whether the scenario sets `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// Sets `name`; the value it had, if any.
    pub fn insert(&mut self, name: String, v: u64) -> Option<u64> {
        self.0.insert(name, v)
    }

    /// Back to the preset's value of `name`; the value it had, if any.
    pub fn remove(&mut self, name: &str) -> Option<u64> {
        self.0.remove(name)
    }

    /// Keeps the overrides `keep` says yes to.
    pub fn retain(&mut self, keep: impl FnMut(&String, &mut u64) -> bool) {
        self.0.retain(keep)
    }

    /// Whether the scenario sets nothing over its preset.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many values the scenario sets.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The overrides in name order.
    pub fn iter(&self) -> btree_map::Iter<'_, String, u64> {
        self.0.iter()
    }

    /// The names set, in order.
    pub fn keys(&self) -> btree_map::Keys<'_, String, u64> {
        self.0.keys()
    }
}

impl<'a> IntoIterator for &'a Overrides {
    type Item = (&'a String, &'a u64);
    type IntoIter = btree_map::Iter<'a, String, u64>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Overrides {
    type Item = (String, u64);
    type IntoIter = btree_map::IntoIter<String, u64>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl FromIterator<(String, u64)> for Overrides {
    fn from_iter<I: IntoIterator<Item = (String, u64)>>(iter: I) -> Overrides {
        Overrides(iter.into_iter().collect())
    }
}

impl Extend<(String, u64)> for Overrides {
    fn extend<I: IntoIterator<Item = (String, u64)>>(&mut self, iter: I) {
        self.0.extend(iter)
    }
}

impl From<BTreeMap<String, u64>> for Overrides {
    fn from(map: BTreeMap<String, u64>) -> Overrides {
        Overrides(map)
    }
}

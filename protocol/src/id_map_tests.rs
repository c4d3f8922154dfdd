use super::*;

fn ids<V>(entries: &[(i64, V)]) -> Vec<i64> {
    entries.iter().map(|(id, _)| *id).collect()
}

#[test]
fn entries_come_out_in_id_order_whatever_order_they_went_in() {
    let mut map: IdMap<i64, _> = IdMap::new();
    for id in [5, 1, 9, 3, 7] {
        assert_eq!(map.insert(id, id * 10), None);
    }
    assert_eq!(map.len(), 5);
    assert_eq!(map.values().copied().collect::<Vec<_>>(), [10, 30, 50, 70, 90]);
    assert_eq!(map.keys().copied().collect::<Vec<_>>(), [1, 3, 5, 7, 9]);
    assert_eq!(map.pop_first(), Some((1, 10)));
    assert_eq!(ids(&map.drain()), [3, 5, 7, 9]);
    assert!(map.is_empty());
}

#[test]
fn an_id_holds_one_value_replaced_by_the_next_and_removed_once() {
    let mut map: IdMap<i64, _> = IdMap::new();
    map.insert(2, "a");
    map.insert(4, "b");
    assert_eq!(map.insert(2, "c"), Some("a"), "the value it replaces");
    assert_eq!(map.len(), 2);
    *map.get_mut(&4).unwrap() = "d";
    assert_eq!(map.remove(&4), Some("d"));
    assert_eq!(map.remove(&4), None, "removed once");
    assert_eq!(map.remove(&3), None, "never there");
    assert_eq!(map.get_mut(&3), None);
    assert_eq!(map.remove(&2), Some("c"));
    assert_eq!(map.pop_first(), None);
}

#[test]
fn picked_entries_are_removed_in_id_order_and_the_rest_stay_in_it() {
    let mut map: IdMap<i64, _> = IdMap::new();
    for id in 1..=10 {
        map.insert(id, id);
    }
    assert!(map.remove_picked(|value| *value > 100).is_empty(), "nothing picked, nothing moves");
    let picked = map.remove_picked(|value| value % 3 == 0);
    assert_eq!(ids(&picked), [3, 6, 9]);
    assert_eq!(map.values().copied().collect::<Vec<_>>(), [1, 2, 4, 5, 7, 8, 10]);
    // What stays is still found by id.
    assert_eq!(map.remove(&7), Some(7));
    map.insert(6, 60);
    assert_eq!(map.values().copied().collect::<Vec<_>>(), [1, 2, 4, 5, 60, 8, 10]);
}

#[test]
fn ids_that_wrap_back_to_small_numbers_keep_their_order() {
    let mut map: IdMap<i64, _> = IdMap::new();
    map.insert(i64::MAX - 1, "old");
    map.insert(i64::MAX, "older");
    map.insert(1, "new");
    assert_eq!(map.pop_first(), Some((1, "new")), "id order, not insertion order");
    assert_eq!(map.remove(&i64::MAX), Some("older"));
    assert_eq!(map.len(), 1);
}

#[test]
fn request_ids_of_both_kinds_are_found_whatever_order_they_came_in() {
    use crate::RequestId;
    let mut map: IdMap<RequestId, _> = IdMap::new();
    for (id, value) in [(RequestId::from("b"), 1), (RequestId::from(7), 2), (RequestId::from("a"), 3)] {
        map.insert(id, value);
    }
    map.insert(RequestId::from(3), 4);
    assert!(map.contains(&RequestId::from("a")));
    assert!(map.contains(&RequestId::from(7)));
    assert!(!map.contains(&RequestId::from("7")), "a string id is not the number it spells");
    assert_eq!(map.remove(&RequestId::from("b")), Some(1));
    assert_eq!(map.remove(&RequestId::from(3)), Some(4));
    assert_eq!(map.values().copied().collect::<Vec<_>>(), [2, 3], "numbers first, then strings");
}

#[test]
fn entries_are_read_kept_and_cleared_in_id_order() {
    let mut map: IdMap<i64, f64> = IdMap::new();
    for (id, at) in [(4, 40.0), (2, 20.0), (6, 60.0)] {
        map.insert(id, at);
    }
    assert_eq!(map.get(&2), Some(&20.0));
    assert_eq!(map.get(&3), None);
    assert_eq!(map.iter().map(|(id, at)| (*id, *at)).collect::<Vec<_>>(), [(2, 20.0), (4, 40.0), (6, 60.0)]);
    map.retain(|id, at| *id != 4 && *at < 100.0);
    assert_eq!(map.keys().copied().collect::<Vec<_>>(), [2, 6]);
    assert_eq!(map.get(&6), Some(&60.0), "found after entries before it went");
    map.clear();
    assert!(map.is_empty());
}

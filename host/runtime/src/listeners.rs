//! A list of callbacks: how the host tells the page about status changes, registry changes and observations.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

/// A callback.
pub type Callback<T> = Rc<dyn Fn(&T)>;

/// A registered callback's handle, to remove it with [`Listeners::unsubscribe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ListenerId(u64);

/// Callbacks that each receive every emitted value, in subscription order.
pub struct Listeners<T> {
    next: Cell<u64>,
    callbacks: RefCell<Vec<(ListenerId, Callback<T>)>>,
}

impl<T> Default for Listeners<T> {
    fn default() -> Self {
        Self { next: Cell::new(1), callbacks: RefCell::new(Vec::new()) }
    }
}

impl<T> fmt::Debug for Listeners<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Listeners").field("count", &self.callbacks.borrow().len()).finish()
    }
}

impl<T> Listeners<T> {
    /// No callbacks.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a callback.
    pub fn subscribe(&self, callback: Callback<T>) -> ListenerId {
        let id = ListenerId(self.next.get());
        self.next.set(id.0 + 1);
        self.callbacks.borrow_mut().push((id, callback));
        id
    }

    /// Removes a callback; true if it was there.
    pub fn unsubscribe(&self, id: ListenerId) -> bool {
        let mut callbacks = self.callbacks.borrow_mut();
        let before = callbacks.len();
        callbacks.retain(|(other, _)| *other != id);
        callbacks.len() != before
    }

    /// How many callbacks are subscribed.
    pub fn len(&self) -> usize {
        self.callbacks.borrow().len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls every callback with `value`. A callback may subscribe or unsubscribe others while it runs: it works on
    /// a snapshot of the list.
    pub fn emit(&self, value: &T) {
        let snapshot: Vec<Callback<T>> = self.callbacks.borrow().iter().map(|(_, c)| c.clone()).collect();
        for callback in snapshot {
            callback(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subscriber_gets_each_value_until_it_unsubscribes() {
        let listeners = Rc::new(Listeners::<u32>::new());
        let seen = Rc::new(RefCell::new(Vec::new()));
        let log = seen.clone();
        let id = listeners.subscribe(Rc::new(move |v| log.borrow_mut().push(*v)));
        listeners.emit(&1);
        assert!(listeners.unsubscribe(id));
        listeners.emit(&2);
        assert_eq!(*seen.borrow(), vec![1]);
        assert!(!listeners.unsubscribe(id));
    }

    #[test]
    fn a_callback_may_change_the_list_while_it_runs() {
        let listeners = Rc::new(Listeners::<u32>::new());
        let inner = listeners.clone();
        listeners.subscribe(Rc::new(move |_| {
            inner.subscribe(Rc::new(|_| {}));
        }));
        listeners.emit(&1);
        assert_eq!(listeners.len(), 2);
    }
}

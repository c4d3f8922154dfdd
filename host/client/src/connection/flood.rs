//! Bounding what a server's notifications cost the page: a token bucket per connection ([`NotificationLimits`]).
//!
//! Each notification the host acts on takes a token per started KiB of its frame (so the bucket bounds bytes as
//! well as messages). Over the rate, a log message is dropped before its frame is read (a prefix of the frame says
//! what it is: [`Connection::screen`]), progress is coalesced to the latest value per request, list
//! changes to one per list, and anything else is dropped. What was held is delivered by [`Connection::sweep`] as
//! tokens come back (and a request's last progress before its answer); what was dropped is counted and reported to
//! the [`FloodHandler`] at most once a second. A server that goes on past [`NotificationLimits::max_dropped_per_second`]
//! within a second is disconnected, after a last report.

use super::Connection;
use crate::Error;
use crate::limits::NotificationLimits;
use mcp_worker_protocol::id_map::IdMap;
use mcp_worker_protocol::notifications::ProgressParams;
use mcp_worker_protocol::{Notification, methods};
use std::rc::Rc;

/// Reports are at most this often.
const REPORT_EVERY_MS: f64 = 1_000.0;
/// The window in which notifications over the rate are counted against `max_dropped_per_second`.
const WINDOW_MS: f64 = 1_000.0;

/// What a server sent beyond its limits since the last report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FloodReport {
    /// `notifications/message` dropped.
    pub log_dropped: u64,
    /// `notifications/progress` replaced by a later value for the same request before it was delivered.
    pub progress_coalesced: u64,
    /// `notifications/*/list_changed` merged into one already waiting for the same list.
    pub list_changed_coalesced: u64,
    /// Other notifications dropped (`notifications/resources/updated`, unknown methods, …).
    pub other_dropped: u64,
    /// Requests from the server refused because too many of its requests were waiting already.
    pub requests_refused: u64,
}

impl FloodReport {
    /// Nothing dropped, coalesced or refused.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// Receives a [`FloodReport`] at most once a second while a server sends more than its limits allow.
pub type FloodHandler = Rc<dyn Fn(&FloodReport)>;

/// What [`Connection::screen`] decided about a frame before it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screened {
    /// A log message over the rate: counted and dropped; the frame need not be read.
    Dropped,
    /// A log message that took its tokens.
    Admitted,
    /// Anything else: read it, and it is judged when parsed.
    Unscreened,
}

/// The tokens a notification of `len` bytes takes: one per started KiB.
pub(super) fn weight(len: usize) -> f64 {
    (1 + len / 1024) as f64
}

/// The bucket, what it holds back, and what it counted.
pub(super) struct Flood {
    limits: NotificationLimits,
    tokens: f64,
    refilled_at: Option<f64>,
    /// The latest progress per request, waiting for a token.
    progress: IdMap<i64, ProgressParams>,
    /// One list change per list, waiting for a token.
    lists: Vec<Notification>,
    counts: FloodReport,
    reported_at: Option<f64>,
    /// When the current window of notifications over the rate began, and their weight in it.
    window: Option<(f64, f64)>,
}

impl Flood {
    pub(super) fn new(limits: NotificationLimits) -> Self {
        Self {
            limits,
            tokens: f64::from(limits.burst),
            refilled_at: None,
            progress: IdMap::new(),
            lists: Vec::new(),
            counts: FloodReport::default(),
            reported_at: None,
            window: None,
        }
    }

    /// Counts a notification of `weight` over the rate; true when the window holds more than the server may send.
    fn over_rate(&mut self, now: f64, weight: f64) -> bool {
        let max = self.limits.max_dropped_per_second;
        let (started, total) = match self.window {
            Some((started, total)) if now - started < WINDOW_MS => (started, total + weight),
            _ => (now, weight),
        };
        self.window = Some((started, total));
        max > 0 && total > f64::from(max)
    }

    /// Takes `weight` tokens (at most a full bucket) if there are that many.
    fn take(&mut self, now: f64, weight: f64) -> bool {
        if self.limits.per_second == 0 {
            return true;
        }
        let burst = f64::from(self.limits.burst.max(1));
        let elapsed = self.refilled_at.map_or(0.0, |at| (now - at).max(0.0));
        self.tokens = (self.tokens + elapsed * f64::from(self.limits.per_second) / 1_000.0).min(burst);
        self.refilled_at = Some(now);
        let weight = weight.min(burst);
        if self.tokens >= weight {
            self.tokens -= weight;
            return true;
        }
        false
    }
}

/// Whether `frame` is a log message, told from its first bytes: `{"jsonrpc":"2.0","method":"notifications/message"`
/// (the order every SDK writes) or with `method` first. Other layouts are parsed before they are counted.
pub(super) fn is_log_frame(frame: &str) -> bool {
    const METHOD: &str = r#""method":"notifications/message""#;
    let rest = frame.strip_prefix('{').unwrap_or("");
    let rest = rest.strip_prefix(r#""jsonrpc":"2.0","#).unwrap_or(rest);
    rest.starts_with(METHOD)
}

fn is_list_changed(method: &str) -> bool {
    matches!(method, methods::TOOLS_LIST_CHANGED | methods::RESOURCES_LIST_CHANGED | methods::PROMPTS_LIST_CHANGED)
}

impl Connection {
    /// Bounds the notifications the server may send from now on (the bucket starts full).
    pub fn set_notification_limits(&self, limits: NotificationLimits) {
        let mut flood = self.inner.flood.borrow_mut();
        flood.limits = limits;
        flood.tokens = f64::from(limits.burst);
        flood.refilled_at = None;
        flood.window = None;
    }

    /// Receives what the server sent beyond its limits, at most once a second (from [`Connection::sweep`]).
    pub fn set_flood_handler(&self, handler: Option<FloodHandler>) {
        *self.inner.on_flood.borrow_mut() = handler;
    }

    /// Judges a frame of `len` bytes from its first bytes (64 are enough), before it is read: a log message takes
    /// its tokens here, or is counted and dropped. A transport can so drop a log flood without copying the frames.
    pub fn screen(&self, prefix: &str, len: usize) -> Screened {
        if !is_log_frame(prefix) {
            return Screened::Unscreened;
        }
        let weight = weight(len);
        if self.admit(weight) {
            return Screened::Admitted;
        }
        self.inner.flood.borrow_mut().counts.log_dropped += 1;
        self.count_over_rate(weight);
        Screened::Dropped
    }

    /// Takes the tokens of a notification of `weight`.
    pub(super) fn admit(&self, weight: f64) -> bool {
        let now = (self.inner.clock)();
        self.inner.flood.borrow_mut().take(now, weight)
    }

    /// A notification of `weight` over the rate that is not progress: list changes wait (one per list), the rest
    /// is dropped.
    pub(super) fn hold_or_drop(&self, notification: &Notification, weight: f64) {
        {
            let mut flood = self.inner.flood.borrow_mut();
            if is_list_changed(&notification.method) {
                if flood.lists.iter().any(|held| held.method == notification.method) {
                    flood.counts.list_changed_coalesced += 1;
                } else {
                    // A list change says nothing but its method (params carry at most `_meta`).
                    flood.lists.push(Notification { method: notification.method.clone(), params: None });
                }
            } else if notification.method == methods::LOG_MESSAGE {
                flood.counts.log_dropped += 1;
            } else {
                flood.counts.other_dropped += 1;
            }
        }
        self.count_over_rate(weight);
    }

    /// Progress of `weight` over the rate on request `id` (which is pending): it waits, replacing what waited for
    /// `id`.
    pub(super) fn hold_progress(&self, id: i64, progress: ProgressParams, weight: f64) {
        if self.inner.flood.borrow_mut().progress.insert(id, progress).is_some() {
            self.inner.flood.borrow_mut().counts.progress_coalesced += 1;
        }
        self.count_over_rate(weight);
    }

    /// The progress waiting for request `id`, to deliver before its answer.
    pub(super) fn take_held_progress(&self, id: i64) -> Option<ProgressParams> {
        self.inner.flood.borrow_mut().progress.remove(&id)
    }

    /// Counts a notification over the rate against the window; past the bound, reports what was dropped and
    /// disconnects the server (the transport stops reading its frames when it sees the connection closed).
    fn count_over_rate(&self, weight: f64) {
        let now = (self.inner.clock)();
        let (over, limits) = {
            let mut flood = self.inner.flood.borrow_mut();
            (flood.over_rate(now, weight), flood.limits)
        };
        if !over || self.inner.closed.borrow().is_some() {
            return;
        }
        let report = std::mem::take(&mut self.inner.flood.borrow_mut().counts);
        let handler = self.inner.on_flood.borrow().clone();
        if let Some(handler) = handler {
            handler(&report);
        }
        let message = format!(
            "the server sent more than {} notifications over its limit ({} a second, bursts of {}) within a second; \
             it was disconnected",
            limits.max_dropped_per_second, limits.per_second, limits.burst
        );
        self.close(Error::Protocol { server: self.inner.server.clone(), message });
    }

    pub(super) fn count_refused_request(&self) {
        self.inner.flood.borrow_mut().counts.requests_refused += 1;
    }

    /// Delivers what waited, as far as tokens allow, and reports what was dropped if a second passed since the
    /// last report.
    pub(super) fn flood_tick(&self, now: f64) {
        loop {
            let next = {
                let mut flood = self.inner.flood.borrow_mut();
                let waiting = !flood.progress.is_empty() || !flood.lists.is_empty();
                if !waiting || !flood.take(now, 1.0) {
                    break;
                }
                match flood.progress.pop_first() {
                    Some(held) => Ok(held),
                    None => Err(flood.lists.remove(0)),
                }
            };
            match next {
                Ok((id, progress)) => self.deliver_progress(id, &progress, now),
                Err(notification) => self.deliver_notification(&notification),
            }
        }
        let report = {
            let mut flood = self.inner.flood.borrow_mut();
            let due = flood.reported_at.is_none_or(|at| now - at >= REPORT_EVERY_MS);
            if flood.counts.is_empty() || !due {
                return;
            }
            flood.reported_at = Some(now);
            std::mem::take(&mut flood.counts)
        };
        let handler = self.inner.on_flood.borrow().clone();
        if let Some(handler) = handler {
            handler(&report);
        }
    }

    /// Hands held progress to its request's handler, if the request still waits.
    fn deliver_progress(&self, id: i64, progress: &ProgressParams, now: f64) {
        let handler = self.inner.pending.borrow_mut().progressed(id, now).and_then(|w| w.on_progress.clone());
        if let Some(handler) = handler {
            handler(progress);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_frames_are_told_from_their_prefix_only_at_the_top_level() {
        assert!(is_log_frame(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#));
        assert!(is_log_frame(r#"{"method":"notifications/message","jsonrpc":"2.0"}"#));
        assert!(!is_log_frame(r#"{"jsonrpc":"2.0","method":"notifications/messages"}"#));
        assert!(!is_log_frame(r#"{"jsonrpc":"2.0","id":1,"result":{"method":"notifications/message"}}"#));
        assert!(!is_log_frame(r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#));
        assert!(!is_log_frame(""));
    }

    #[test]
    fn the_bucket_allows_its_burst_then_its_rate() {
        let mut flood = Flood::new(NotificationLimits::new(1_000, 2_000));
        let taken = (0..5_000).filter(|_| flood.take(0.0, 1.0)).count();
        assert_eq!(taken, 2_000);
        assert!(!flood.take(0.5, 1.0), "half a token is not one");
        let taken = (0..5_000).filter(|_| flood.take(100.0, 1.0)).count();
        assert_eq!(taken, 100, "100 ms at 1,000 a second");
        let mut open = Flood::new(NotificationLimits::unlimited());
        assert_eq!((0..5_000).filter(|_| open.take(0.0, 1.0)).count(), 5_000);
    }

    #[test]
    fn a_large_notification_takes_a_token_per_kib_and_at_most_the_bucket() {
        assert_eq!(weight(0), 1.0);
        assert_eq!(weight(1_023), 1.0);
        assert_eq!(weight(1_024), 2.0);
        let mut flood = Flood::new(NotificationLimits::new(1_000, 1_000));
        assert!(flood.take(0.0, weight(16 * 1024 * 1024)), "a full bucket admits anything up to the frame bound");
        assert!(!flood.take(0.0, 1.0), "and is empty after it");
        assert!(!flood.take(500.0, weight(600 * 1024)), "half a bucket is not 601 tokens");
        assert!(flood.take(500.0, weight(400 * 1024)));
    }
}

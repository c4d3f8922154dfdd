//! What one notification costs the host: a flood of log notifications fed to a [`Connection`] the way the worker
//! transport feeds frames, with a handler that parses each log message as the manager does.
//!
//! `cargo run --release -p mcp-worker-client --example notification_cost [count] [unlimited]`: with `unlimited`,
//! every notification is delivered (the cost of one within the rate); without, the default rate drops all but the
//! first 500 (the cost of one over the rate; the bound that disconnects a flooding server is off here).

#![allow(clippy::disallowed_methods, reason = "a native measurement, not shipped")]

use mcp_worker_client::Connection;
use mcp_worker_client::limits::NotificationLimits;
use mcp_worker_protocol::LoggingMessageParams;
use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

fn main() {
    let count: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
    let frames: Vec<String> = (0..count)
        .map(|i| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"flood","data":"line {i} of a noisy server"}}}}"#
            )
        })
        .collect();
    let now = Rc::new(Cell::new(0.0));
    let clock = now.clone();
    let connection = Connection::new("flood", Box::new(|_| Ok(())), Rc::new(move || clock.get()));
    if std::env::args().nth(2).as_deref() == Some("unlimited") {
        connection.set_notification_limits(NotificationLimits::unlimited());
    } else {
        connection.set_notification_limits(NotificationLimits::default().max_dropped_per_second(0));
    }
    let delivered = Rc::new(Cell::new(0_usize));
    let seen = delivered.clone();
    connection.set_notification_handler(Some(Rc::new(move |notification| {
        let params = notification.params.as_deref().map(|raw| serde_json::from_str::<LoggingMessageParams>(raw.get()));
        if let Some(Ok(_)) = params {
            seen.set(seen.get() + 1);
        }
    })));
    let started = Instant::now();
    for frame in &frames {
        connection.receive(frame);
    }
    let elapsed = started.elapsed();
    connection.sweep();
    let per = elapsed.as_nanos() as f64 / count as f64;
    println!("{count} log notifications in {elapsed:?}: {per:.0} ns each, {} delivered", delivered.get());
}

//! Parameters of the notifications both sides send: progress and cancellation.

use crate::jsonrpc::RequestId;
use serde::{Deserialize, Serialize};

/// A progress token: a string or an integer, chosen by the requester (`params._meta.progressToken`).
pub type ProgressToken = RequestId;

/// `notifications/progress` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressParams {
    /// The token from the request being reported on.
    pub progress_token: ProgressToken,
    /// Progress so far; increases with each notification.
    pub progress: f64,
    /// The total, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A human-readable message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl ProgressParams {
    /// Progress against `token`.
    pub fn new(progress_token: ProgressToken, progress: f64) -> Self {
        Self { progress_token, progress, total: None, message: None }
    }
}

/// `notifications/cancelled` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledParams {
    /// The id of the request to cancel.
    pub request_id: RequestId,
    /// Why, for logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl CancelledParams {
    /// Cancels `request_id`, saying why.
    pub fn new(request_id: RequestId, reason: impl Into<String>) -> Self {
        Self { request_id, reason: Some(reason.into()) }
    }
}

//! The `notifications/cancelled` a side owes when it gives up a request (timed out, or abandoned by its caller).

use crate::jsonrpc::{RequestId, encode_notification};
use crate::methods;
use crate::notifications::CancelledParams;

/// The `notifications/cancelled` frame for request `id`, of `method`, giving `reason`; `None` when none may be
/// sent: the spec forbids cancelling `initialize` (a failed handshake ends the connection instead).
pub fn cancel_notice(id: i64, method: &str, reason: &str) -> Option<String> {
    if method == methods::INITIALIZE {
        return None;
    }
    let params = CancelledParams::new(RequestId::Number(id), reason);
    encode_notification(methods::CANCELLED, Some(&params)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Message;

    #[test]
    fn a_cancel_notice_names_the_request_and_the_reason() {
        let frame = cancel_notice(7, methods::TOOLS_CALL, "timed out after 5 ms").unwrap();
        assert_eq!(
            frame,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"timed out after 5 ms"}}"#
        );
        let Ok(Message::Notification(notification)) = Message::parse(&frame) else { panic!("not a notification") };
        let params: CancelledParams = crate::json::from_str(notification.params.unwrap().get()).unwrap();
        assert_eq!(params, CancelledParams::new(RequestId::Number(7), "timed out after 5 ms"));
    }

    #[test]
    fn initialize_is_never_cancelled() {
        assert_eq!(cancel_notice(1, methods::INITIALIZE, "timed out after 10 ms"), None);
    }

    #[test]
    fn every_other_method_may_be_cancelled() {
        for method in [methods::PING, methods::ELICITATION_CREATE, methods::SAMPLING_CREATE_MESSAGE, "x/custom"] {
            assert!(cancel_notice(1, method, "").is_some(), "{method}");
        }
    }
}

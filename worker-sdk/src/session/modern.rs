//! Requests of the modern era (MCP 2026-07-28). Each carries its own protocol version, client capabilities and
//! log level, so the session serves it without a handshake. Every result says its `resultType` and names the
//! server; lists, reads and `server/discover` carry caching hints; `tools/call`, `prompts/get` and
//! `resources/read` may answer `input_required` (multi round-trip requests, see [`crate::input_rounds`]). What the
//! revision removed (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe` and `unsubscribe`) is an
//! unknown method here.

use super::{RequestEra, Session, Work, parse_optional_params};
use crate::clock::now_ms;
use crate::context::{Carried, Modern};
use crate::input_rounds::{Interrupt, Rounds};
use crate::state::State;
use futures_util::future::{Either, select};
use mcp_worker_protocol::jsonrpc::encode_result_text;
use mcp_worker_protocol::modern::{
    CacheHint, CacheScope, DiscoverResult, ModernMeta, all_versions, complete_result, input_required_result,
    methods as modern_methods,
};
use mcp_worker_protocol::{ErrorCode, ErrorObject, Request, RequestId, methods};
use serde::Serialize;
use std::rc::Rc;

impl Session {
    pub(super) fn on_modern_request(&self, request: Request, meta: ModernMeta) {
        self.state.peer.set_modern();
        let id = &request.id;
        let params = request.params.as_deref();
        let lists = self.list_cache();
        match request.method.as_str() {
            modern_methods::SERVER_DISCOVER => self.answer(id, Ok(self.discover()), lists),
            methods::TOOLS_LIST => {
                let state = &self.state;
                let outcome = parse_optional_params(params)
                    .and_then(|p| self.tools_list_result(p, true, |page| complete(state, Ok(page), lists)));
                state.peer.reply_kept(id, outcome);
            }
            methods::TOOLS_CALL => {
                self.serve_rounds(&request, &meta, None, |m| self.call_tool(&request, Carried::Modern(m)));
            }
            modern_methods::SUBSCRIPTIONS_LISTEN => self.listen(&request),
            _ if self.serve_offered(&request, RequestEra::Modern(&meta)) => {}
            other => self.answer::<()>(id, Err(ErrorObject::method_not_found(other)), None),
        }
    }

    /// The caching hint of list results.
    fn list_cache(&self) -> Option<CacheHint> {
        Some(CacheHint { ttl_ms: self.state.config.list_ttl_ms, cache_scope: CacheScope::Public })
    }

    /// Answers a list request of either era (`modern`: the request's `_meta`, for MCP 2026-07-28).
    pub(super) fn reply_list<R: Serialize>(
        &self,
        id: &RequestId,
        modern: Option<&ModernMeta>,
        outcome: Result<R, ErrorObject>,
    ) {
        match modern {
            None => self.state.peer.reply(id, outcome),
            Some(_) => self.answer(id, outcome, self.list_cache()),
        }
    }

    fn discover(&self) -> DiscoverResult {
        let config = &self.state.config;
        DiscoverResult {
            supported_versions: all_versions().into_iter().map(str::to_owned).collect(),
            capabilities: config.capabilities.clone(),
            instructions: config.instructions.clone(),
        }
    }

    /// Answers a request whose result is ready.
    pub(super) fn answer<R: Serialize>(
        &self,
        id: &RequestId,
        outcome: Result<R, ErrorObject>,
        cache: Option<CacheHint>,
    ) {
        let frame = complete(&self.state, outcome, cache).map(|result| encode_result_text(id, &result));
        self.state.peer.answer(id, frame);
    }

    /// Serves a request that may need input from the client: opens its rounds (its `requestState` and
    /// `inputResponses`), starts its handler with them, and answers its result, or `input_required` when the
    /// handler asked what the client has not answered yet.
    pub(super) fn serve_rounds<R: Serialize + 'static>(
        &self,
        request: &Request,
        meta: &ModernMeta,
        cache: Option<CacheHint>,
        start: impl FnOnce(Modern) -> Result<Work<R>, ErrorObject>,
    ) {
        let id = &request.id;
        let key = self.state.state_key.clone();
        let rounds = Rc::new(Rounds::start(key, &request.method, request.params.as_deref(), meta.capabilities.clone()));
        let modern = Modern {
            capabilities: meta.capabilities.clone(),
            log_level: meta.log_level,
            rounds: Some(rounds.clone()),
            progress_token: meta.progress_token.clone(),
        };
        let (cancel, work) = match start(modern) {
            Ok(work) => work,
            Err(error) => return self.answer::<()>(id, Err(error), None),
        };
        let state = self.state.clone();
        self.spawn_written(id.clone(), cancel, async move {
            match select(work, rounds.interrupted()).await {
                Either::Left((outcome, _)) => complete(&state, outcome, cache),
                Either::Right((Interrupt::InputRequired, _)) => {
                    let result = rounds.input_required(now_ms())?;
                    input_required_result(&result, &state.config.info_meta).map_err(unserializable)
                }
                Either::Right((Interrupt::Failed(error), _)) => Err(error),
            }
        });
    }
}

/// A complete modern result as JSON text, or the error as this era spells it.
pub(super) fn complete<R: Serialize>(
    state: &State,
    outcome: Result<R, ErrorObject>,
    cache: Option<CacheHint>,
) -> Result<String, ErrorObject> {
    match outcome {
        Ok(result) => complete_result(&result, &state.config.info_meta, cache).map_err(unserializable),
        // 2026-07-28 retired -32002: a resource that does not exist is invalid params.
        Err(error) if error.code == ErrorCode::RESOURCE_NOT_FOUND => {
            Err(ErrorObject { code: ErrorCode::INVALID_PARAMS, ..error })
        }
        Err(error) => Err(error),
    }
}

fn unserializable(e: serde_json::Error) -> ErrorObject {
    ErrorObject::internal_error(format!("result not serializable: {e}"))
}

//! Requests of the modern era (MCP 2026-07-28). Each carries its own protocol version, client capabilities and
//! log level, so the session serves it without a handshake. Every result says its `resultType` and names the
//! server; lists, reads and `server/discover` carry caching hints; `tools/call`, `prompts/get` and
//! `resources/read` may answer `input_required` (multi round-trip requests, see [`crate::input_rounds`]). What the
//! revision removed (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe` and `unsubscribe`) is an
//! unknown method here.

use super::{Session, Work, parse_optional_params};
use crate::clock::now_ms;
use crate::context::Modern;
use crate::input_rounds::{Interrupt, Rounds};
use crate::state::State;
use futures_util::future::{Either, select};
use mcp_worker_protocol::modern::{
    CacheHint, CacheScope, DiscoverResult, ModernMeta, all_versions, complete_result, input_required_result,
    methods as modern_methods,
};
use mcp_worker_protocol::{ErrorCode, ErrorObject, Request, RequestId, methods};
use serde::Serialize;
use serde_json::value::RawValue;
use std::rc::Rc;

/// Resource reads may hold what only this user may see, and change at any time.
const READ_CACHE: CacheHint = CacheHint { ttl_ms: 0, cache_scope: CacheScope::Private };

impl Session {
    pub(super) fn on_modern_request(&self, request: Request, meta: ModernMeta) {
        self.state.peer.set_modern();
        let id = &request.id;
        let params = request.params.as_deref();
        let lists = Some(CacheHint { ttl_ms: self.state.config.list_ttl_ms, cache_scope: CacheScope::Public });
        match request.method.as_str() {
            modern_methods::SERVER_DISCOVER => self.answer(id, Ok(self.discover()), lists),
            methods::TOOLS_LIST => {
                let state = &self.state;
                let outcome = parse_optional_params(params)
                    .and_then(|p| self.tools_list_result(p, true, |page| complete(state, Ok(page), lists)));
                state.peer.reply_kept(id, outcome);
            }
            methods::TOOLS_CALL => self.serve_rounds(&request, &meta, None, |m| self.call_tool(&request, Some(m))),
            methods::RESOURCES_LIST if self.offers_resources() => {
                self.answer(id, parse_optional_params(params).and_then(|p| self.list_resources(p)), lists);
            }
            methods::RESOURCES_TEMPLATES_LIST if self.offers_resources() => {
                self.answer(id, parse_optional_params(params).and_then(|p| self.list_resource_templates(p)), lists);
            }
            methods::RESOURCES_READ if self.offers_resources() => {
                self.serve_rounds(&request, &meta, Some(READ_CACHE), |m| self.read_resource(&request, Some(m)));
            }
            methods::PROMPTS_LIST if self.offers_prompts() => {
                self.answer(id, parse_optional_params(params).and_then(|p| self.list_prompts(p)), lists);
            }
            methods::PROMPTS_GET if self.offers_prompts() => {
                self.serve_rounds(&request, &meta, None, |m| self.get_prompt(&request, Some(m)));
            }
            methods::COMPLETION_COMPLETE if self.offers_completions() => match self.complete(&request) {
                Ok((cancel, work)) => {
                    let state = self.state.clone();
                    self.spawn_request(id.clone(), cancel, async move { complete(&state, work.await, None) });
                }
                Err(error) => self.answer::<()>(id, Err(error), None),
            },
            modern_methods::SUBSCRIPTIONS_LISTEN => self.listen(&request),
            other => self.answer::<()>(id, Err(ErrorObject::method_not_found(other)), None),
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
    fn answer<R: Serialize>(&self, id: &RequestId, outcome: Result<R, ErrorObject>, cache: Option<CacheHint>) {
        self.state.peer.reply(id, complete(&self.state, outcome, cache));
    }

    /// Serves a request that may need input from the client: opens its rounds (its `requestState` and
    /// `inputResponses`), starts its handler with them, and answers its result, or `input_required` when the
    /// handler asked what the client has not answered yet.
    fn serve_rounds<R: Serialize + 'static>(
        &self,
        request: &Request,
        meta: &ModernMeta,
        cache: Option<CacheHint>,
        start: impl FnOnce(Modern) -> Result<Work<R>, ErrorObject>,
    ) {
        let id = &request.id;
        let key = self.state.state_key.as_ref();
        let params = request.params.as_deref();
        let rounds = match Rounds::start(key, &request.method, params, meta.capabilities.clone(), now_ms()) {
            Ok(rounds) => Rc::new(rounds),
            Err(error) => return self.answer::<()>(id, Err(error), None),
        };
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
        self.spawn_request(id.clone(), cancel, async move {
            match select(work, rounds.interrupted()).await {
                Either::Left((outcome, _)) => complete(&state, outcome, cache),
                Either::Right((Interrupt::InputRequired, _)) => {
                    let result = rounds.input_required(state.state_key.as_ref(), now_ms())?;
                    input_required_result(&result, &state.config.info).map_err(unserializable)
                }
                Either::Right((Interrupt::Failed(error), _)) => Err(error),
            }
        });
    }
}

/// A complete modern result, or the error as this era spells it.
fn complete<R: Serialize>(
    state: &State,
    outcome: Result<R, ErrorObject>,
    cache: Option<CacheHint>,
) -> Result<Box<RawValue>, ErrorObject> {
    match outcome {
        Ok(result) => complete_result(&result, &state.config.info, cache).map_err(unserializable),
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

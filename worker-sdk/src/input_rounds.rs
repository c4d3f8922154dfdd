//! Multi round-trip requests (MCP 2026-07-28), from the handler's side.
//!
//! In the modern era a server sends no requests of its own: a handler serving `tools/call`, `prompts/get` or
//! `resources/read` that needs the client (elicitation, sampling, roots) asks through its [`crate::Ctx`] as in the
//! handshake era, and the question becomes part of the answer. The handler runs until it asks something the
//! client has not answered yet; the session then drops it and answers `input_required` with every question asked
//! in that run, and the client retries the request with its answers. The retry runs the handler again from the
//! start: questions are numbered in the order asked, and each one answered (in this round, or in an earlier one
//! through the sealed `requestState`) returns its answer at once. So a handler asks its questions before it does
//! anything it would not want done twice.

use crate::request_state::{self, Answers, ServerKey, StateKey};
use mcp_worker_protocol::members::object;
use mcp_worker_protocol::modern::{InputRequest, InputRequiredResult, missing_capability};
use mcp_worker_protocol::{ClientCapabilities, ErrorObject, NameMap, methods};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::cell::{Cell, OnceCell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// Why a run of the handler stops before its result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Interrupt {
    /// It asked questions the client has not answered: answer `input_required`.
    InputRequired,
    /// It asked for something the client did not declare (-32021), or the client's answer is not valid (-32602).
    Failed(ErrorObject),
}

/// One run of a modern request that may need input: the answers known, the questions asked.
///
/// The request's `requestState` and `inputResponses` are read when its handler first asks something, not before: a
/// server whose handlers never ask (no [`crate::Ctx`] question in its code) then links neither the reading nor the
/// sealing of states (HMAC-SHA-256: about 7 KiB of gzip in its bundle), and a handler that asks nothing has nothing
/// to read them for. A handler asks its questions before it does anything it would not want done twice, so a state refused
/// at the first question stops it as early as one refused before it ran.
pub(crate) struct Rounds {
    /// The request's method and params (their text): each sealed `requestState` is bound to them, and the params
    /// carry the state and answers of earlier rounds.
    method: String,
    params: String,
    /// Their binding, computed when a state is opened or sealed: most runs need neither.
    binding: OnceCell<String>,
    capabilities: ClientCapabilities,
    /// The server's key, which opens and seals states.
    state_key: Rc<ServerKey>,
    /// The answers carried by the request (its `requestState` opened, with its `inputResponses`), read at the first
    /// question.
    answers: OnceCell<Result<Answers, ErrorObject>>,
    /// How to seal the answers into the next round's `requestState`: set by the first question, so that only a
    /// server that asks links it.
    sealer: Cell<Option<Sealer>>,
    asked: Cell<usize>,
    questions: RefCell<NameMap<InputRequest>>,
    interrupt: RefCell<Option<Interrupt>>,
    waker: RefCell<Option<Waker>>,
}

/// Seals a run's answers under the server's key at a time (ms), as a `requestState`.
type Sealer = fn(&Rounds, &StateKey, u64) -> String;

/// What a question gets.
pub(crate) enum Asked {
    /// The client's answer.
    Answered(Value),
    /// Nothing yet: the run is interrupted (the handler is dropped before it would see anything).
    Interrupted,
}

impl Rounds {
    /// Starts a run of the request `method` with `params`. Its `requestState` and `inputResponses` are read at its
    /// first question ([`Rounds::ask`]).
    pub(crate) fn start(
        state_key: Rc<ServerKey>,
        method: &str,
        params: Option<&RawValue>,
        capabilities: ClientCapabilities,
    ) -> Self {
        Self {
            state_key,
            method: method.to_owned(),
            params: params.map_or("", RawValue::get).to_owned(),
            binding: OnceCell::new(),
            capabilities,
            answers: OnceCell::new(),
            sealer: Cell::new(None),
            asked: Cell::new(0),
            questions: RefCell::new(NameMap::new()),
            interrupt: RefCell::new(None),
            waker: RefCell::new(None),
        }
    }

    /// The answers the request carries: its `requestState` opened (refused when altered, of another request, or
    /// expired at `now_ms`) and its `inputResponses`.
    fn carried_answers(&self, now_ms: u64) -> Result<Answers, ErrorObject> {
        /// The members a run reads; the rest of the params are the handler's.
        #[derive(Deserialize, Default)]
        #[serde(rename_all = "camelCase")]
        struct Carried {
            #[serde(default)]
            request_state: Value,
            #[serde(default)]
            input_responses: Value,
        }
        let params = self.params.as_str();
        let carried: Carried = match params.starts_with('{') {
            true => mcp_worker_protocol::json::from_str(params)
                .map_err(|e| ErrorObject::invalid_params(format!("invalid params: {e}")))?,
            false => Carried::default(),
        };
        let mut answers = match &carried.request_state {
            Value::Null => Answers::new(),
            Value::String(state) => {
                let key = self.state_key.get();
                let key =
                    key.ok_or_else(|| ErrorObject::invalid_params("requestState was not issued by this server"))?;
                let bound = self.binding.get_or_init(|| bind(&self.method, params));
                request_state::open(key, bound, now_ms, state)
                    .map_err(|e| ErrorObject::invalid_params(e.to_string()))?
            }
            _ => return Err(ErrorObject::invalid_params("requestState must be a string")),
        };
        match carried.input_responses {
            Value::Null => {}
            Value::Object(responses) => answers.extend(responses),
            _ => return Err(ErrorObject::invalid_params("inputResponses must be an object")),
        }
        Ok(answers)
    }

    /// Asks the client `method` with `params`, under `key` (or the next `<kind>-<n>` of this run): its answer when it
    /// has one, otherwise the question is recorded and the run interrupted.
    ///
    /// The first question reads the answers the request carries (its state checked at `now_ms`): a state refused,
    /// or answers not of the right shape, fail the run (-32602).
    pub(crate) fn ask(&self, now_ms: u64, key: Option<&str>, method: &str, params: Option<Value>) -> Asked {
        let answers = match self.answers.get_or_init(|| self.carried_answers(now_ms)) {
            Ok(answers) => answers,
            Err(error) => return self.stop(Interrupt::Failed(error.clone())),
        };
        self.sealer.set(Some(seal_answers));
        let (kind, required) = match method {
            methods::ELICITATION_CREATE => ("elicitation", self.declares_form_elicitation()),
            methods::SAMPLING_CREATE_MESSAGE => ("sampling", self.capabilities.sampling.is_some()),
            methods::ROOTS_LIST => ("roots", self.capabilities.roots.is_some()),
            other => {
                let error = ErrorObject::internal_error(format!("{other} cannot be asked of a client"));
                return self.stop(Interrupt::Failed(error));
            }
        };
        if !required {
            let needed = match kind {
                "elicitation" => object([("elicitation", object([("form", object([]))]))]),
                other => object([(other, object([]))]),
            };
            let message =
                format!("serving this request needs the client's {kind} capability, which it did not declare");
            return self.stop(Interrupt::Failed(missing_capability(message, needed)));
        }
        let key = key.map_or_else(
            || {
                let number = self.asked.get();
                self.asked.set(number + 1);
                format!("{kind}-{number}")
            },
            str::to_owned,
        );
        if let Some(answer) = answers.get(&key) {
            return Asked::Answered(answer.clone());
        }
        self.questions.borrow_mut().insert(key, InputRequest { method: method.to_owned(), params });
        self.stop(Interrupt::InputRequired)
    }

    /// Stops the run because the client's answer to `method` does not have the shape it needs.
    pub(crate) fn invalid_answer(&self, method: &str, reason: &str) {
        let error =
            ErrorObject::invalid_params(format!("the inputResponses answer to {method} is not valid: {reason}"));
        self.stop(Interrupt::Failed(error));
    }

    fn declares_form_elicitation(&self) -> bool {
        // `{}` means form mode (as in the handshake era); otherwise `form` must be listed.
        self.capabilities.elicitation.as_ref().is_some_and(|e| e.is_empty() || e.contains_key("form"))
    }

    fn stop(&self, interrupt: Interrupt) -> Asked {
        let mut current = self.interrupt.borrow_mut();
        // A failure outranks questions: the request cannot complete whatever the client answers.
        if !matches!(*current, Some(Interrupt::Failed(_))) {
            *current = Some(interrupt);
        }
        drop(current);
        if let Some(waker) = self.waker.borrow_mut().take() {
            waker.wake();
        }
        Asked::Interrupted
    }

    /// Completes when the run is interrupted.
    pub(crate) fn interrupted(self: &Rc<Self>) -> Interrupted {
        Interrupted { rounds: self.clone() }
    }

    /// The `input_required` result of an interrupted run: its questions, and every answer so far sealed in
    /// `requestState` (sealed even when there are none yet, so that each round's state is fresh and bound to the
    /// request).
    pub(crate) fn input_required(&self, now_ms: u64) -> Result<InputRequiredResult, ErrorObject> {
        let questions = std::mem::take(&mut *self.questions.borrow_mut());
        let key = self.state_key.get();
        let key = key.ok_or_else(|| ErrorObject::internal_error("the server has no key to seal requestState"))?;
        let seal = self.sealer.get().ok_or_else(|| ErrorObject::internal_error("input required, yet nothing asked"))?;
        Ok(InputRequiredResult { input_requests: Some(questions), request_state: Some(seal(self, key, now_ms)) })
    }
}

/// The [`Sealer`] of every run: its answers so far, bound to its request.
fn seal_answers(rounds: &Rounds, key: &StateKey, now_ms: u64) -> String {
    let binding = rounds.binding.get_or_init(|| bind(&rounds.method, &rounds.params));
    let no_answers = Answers::new();
    let answers = rounds.answers.get().and_then(|a| a.as_ref().ok()).unwrap_or(&no_answers);
    request_state::seal(key, binding, now_ms, answers)
}

/// The binding of a request whose params are `params` (JSON text, or empty for none).
fn bind(method: &str, params: &str) -> String {
    request_state::binding(method, &mcp_worker_protocol::json::from_str(params).unwrap_or(Value::Null))
}

/// The future of [`Rounds::interrupted`].
pub(crate) struct Interrupted {
    rounds: Rc<Rounds>,
}

impl Future for Interrupted {
    type Output = Interrupt;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Interrupt> {
        if let Some(interrupt) = self.rounds.interrupt.borrow().clone() {
            return Poll::Ready(interrupt);
        }
        *self.rounds.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

#[cfg(test)]
#[path = "input_rounds_tests.rs"]
mod tests;

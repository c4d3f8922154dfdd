//! `completion/complete`: suggestions for a prompt argument or a resource-template variable.

use super::{RequestEra, Session, Work, parse_params};
use crate::completion::CompletionRequest;
use mcp_worker_protocol::{
    CompleteParams, CompleteResult, Completion, CompletionReference, ErrorObject, Request, methods,
};

/// Serves `completion/complete` ([`super::ServeCapability`]), for a server with resources or prompts.
pub(super) fn serve(session: &Session, request: &Request, era: RequestEra<'_>) -> bool {
    if request.method != methods::COMPLETION_COMPLETE {
        return false;
    }
    let id = &request.id;
    match (session.complete(request), era.modern()) {
        (work, None) => session.serve(id, work),
        (Ok((cancel, work)), Some(_)) => {
            let state = session.state.clone();
            session.spawn_written(id.clone(), cancel, async move { super::modern::complete(&state, work.await, None) });
        }
        (Err(error), Some(_)) => session.answer::<()>(id, Err(error), None),
    }
    true
}

impl Session {
    pub(super) fn complete(&self, request: &Request) -> Result<Work<CompleteResult>, ErrorObject> {
        let params: CompleteParams = parse_params(request.params.as_deref())?;
        let argument = params.argument.name.clone();
        // Cloned out so that the registry is free while the completer runs.
        let completer = {
            let registry = self.state.registry.borrow();
            match &params.reference {
                CompletionReference::Prompt { name, .. } => match registry.prompts.get(name) {
                    Some(prompt) => Ok(prompt.completers.get(&argument)),
                    None => Err(ErrorObject::invalid_params(format!("Unknown prompt: {name}"))),
                },
                CompletionReference::Resource { uri } => match registry.templates.get(uri) {
                    Some(template) => Ok(template.completers.get(&argument)),
                    // A static resource has no variables to complete.
                    None if registry.resources.get(uri).is_some() => Ok(None),
                    None => Err(ErrorObject::invalid_params(format!("Unknown resource template: {uri}"))),
                },
                _ => Err(ErrorObject::invalid_params("unsupported completion reference")),
            }
        };
        let completer = completer?;
        let context = params.context.and_then(|c| c.arguments).unwrap_or_default();
        let completion_request = CompletionRequest { argument, value: params.argument.value, context };
        Ok((
            crate::cancel::CancelSignal::default(),
            Box::pin(async move {
                let values = match completer {
                    Some(complete) => complete(completion_request).await,
                    None => Vec::new(),
                };
                Ok(CompleteResult { completion: Completion::from_all(values), meta: None })
            }),
        ))
    }
}

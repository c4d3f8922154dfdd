//! The resources of the conformance suite's `resources-*` scenarios.

use crate::Shared;
use crate::fixtures::{PNG, STATIC_TEXT};
use mcp_worker_sdk::protocol::members::object;
use mcp_worker_sdk::{ResourceContents, ResourceDef, ResourceTemplateDef, Server};
use std::rc::Rc;

pub(crate) fn register(server: Server, shared: &Rc<Shared>) -> Server {
    let watched = shared.clone();
    server
        .resource(
            ResourceDef::new("test://static-text", "Static Text Resource", |_| async { STATIC_TEXT })
                .description("A static text resource for testing")
                .mime_type("text/plain"),
        )
        .resource(
            ResourceDef::new("test://static-binary", "Static Binary Resource", |req| async move {
                ResourceContents::blob(req.uri(), Some("image/png"), PNG)
            })
            .description("A static binary/blob resource for testing")
            .mime_type("image/png"),
        )
        .resource(
            ResourceDef::new("test://watched-resource", "Watched Resource", move |_| {
                let version = watched.watched_version.get();
                async move { format!("Watched resource, version {version}") }
            })
            .description("A resource that changes when update_watched_resource is called; subscribe to hear of it")
            .mime_type("text/plain"),
        )
        .resource_template(
            ResourceTemplateDef::new("test://template/{id}/data", "Dynamic Resource", |req| async move {
                let id = req.var("id").unwrap_or_default();
                let data = format!("Data for ID: {id}");
                let members = [("id", id.into()), ("templateTest", true.into()), ("data", data.into())];
                serde_json::to_string(&object(members)).unwrap_or_default()
            })
            .description("A dynamic resource with parameter substitution")
            .mime_type("application/json")
            .complete_values("id", ["1", "2", "3"]),
        )
}

//! Resources: static ones with a fixed URI, and families named by a URI template, each read by an async function.

use crate::completion::{self, Completers, CompletionRequest};
use crate::context::Ctx;
use crate::uri_template::UriTemplate;
use futures_util::future::{FutureExt, LocalBoxFuture};
use mcp_worker_protocol::NameMap;
use mcp_worker_protocol::lifecycle::Icon;
use mcp_worker_protocol::{Annotations, ErrorObject, ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use std::fmt::Display;
use std::future::Future;
use std::rc::Rc;

/// A `resources/read` as a read function sees it.
#[derive(Debug)]
pub struct ResourceRequest {
    uri: String,
    variables: NameMap<String>,
    ctx: Ctx,
}

impl ResourceRequest {
    pub(crate) fn new(uri: String, variables: NameMap<String>, ctx: Ctx) -> Self {
        Self { uri, variables, ctx }
    }

    /// The URI being read.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The value of a template variable (percent-decoded); `None` for static resources and unknown names.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.variables.get(name).map(String::as_str)
    }

    /// Every template variable.
    pub fn variables(&self) -> &NameMap<String> {
        &self.variables
    }

    /// The request context: environment, credentials, logging, progress.
    pub fn ctx(&self) -> &Ctx {
        &self.ctx
    }
}

/// What a read function may return.
///
/// - `String` or `&'static str`: text contents, with the resource's MIME type;
/// - `Vec<u8>`: binary contents (sent base64-encoded), with the resource's MIME type;
/// - [`ResourceContents`], `Vec<ResourceContents>` or [`ReadResourceResult`]: as they are;
/// - `Option<T>`: `None` means there is no such resource (error -32002, "Resource not found");
/// - `Result<T, E>` with `E: Display`: an `Err` is an internal error (-32603) carrying the error's text.
pub trait IntoReadResult {
    /// Performs the conversion for the resource at `uri`, whose declared MIME type is `mime_type`.
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ErrorObject>;
}

impl IntoReadResult for ReadResourceResult {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        Ok(self)
    }
}

impl IntoReadResult for Vec<ResourceContents> {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        Ok(ReadResourceResult::new(self))
    }
}

impl IntoReadResult for ResourceContents {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        Ok(ReadResourceResult::new(vec![self]))
    }
}

impl IntoReadResult for String {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        Ok(ReadResourceResult::new(vec![ResourceContents::text(uri, mime_type, self)]))
    }
}

impl IntoReadResult for &'static str {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        self.to_owned().into_read_result(uri, mime_type)
    }
}

impl IntoReadResult for Vec<u8> {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        let blob = crate::base64::base64_encode(&self);
        Ok(ReadResourceResult::new(vec![ResourceContents::blob(uri, mime_type, blob)]))
    }
}

impl<T: IntoReadResult> IntoReadResult for Option<T> {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        match self {
            Some(value) => value.into_read_result(uri, mime_type),
            None => Err(ErrorObject::resource_not_found(uri)),
        }
    }
}

impl<T: IntoReadResult, E: Display> IntoReadResult for Result<T, E> {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ErrorObject> {
        match self {
            Ok(value) => value.into_read_result(uri, mime_type),
            Err(err) => Err(ErrorObject::internal_error(format!("reading {uri} failed: {err}"))),
        }
    }
}

/// A read function with its output converted; the session passes the resource's declared MIME type.
pub(crate) type ReadFn =
    Rc<dyn Fn(ResourceRequest, Option<String>) -> LocalBoxFuture<'static, Result<ReadResourceResult, ErrorObject>>>;

fn read_fn<F, Fut>(read: F) -> ReadFn
where
    F: Fn(ResourceRequest) -> Fut + 'static,
    Fut: Future + 'static,
    Fut::Output: IntoReadResult,
{
    Rc::new(move |request: ResourceRequest, mime_type: Option<String>| {
        let uri = request.uri.clone();
        read(request).map(move |out| out.into_read_result(&uri, mime_type.as_deref())).boxed_local()
    })
}

/// A resource with a fixed URI (`resources/list` shows it).
#[must_use]
pub struct ResourceDef {
    pub(crate) definition: Resource,
    pub(crate) read: ReadFn,
}

impl std::fmt::Debug for ResourceDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceDef").field("definition", &self.definition).finish_non_exhaustive()
    }
}

impl ResourceDef {
    /// The resource at `uri`, named `name`, read by `read`.
    ///
    /// ```
    /// use mcp_worker_sdk::ResourceDef;
    /// let readme = ResourceDef::new("docs://readme", "readme", |_req| async { "# Hello" })
    ///     .mime_type("text/markdown")
    ///     .description("The project's README");
    /// assert_eq!(readme.definition().uri, "docs://readme");
    /// ```
    pub fn new<F, Fut>(uri: impl Into<String>, name: impl Into<String>, read: F) -> Self
    where
        F: Fn(ResourceRequest) -> Fut + 'static,
        Fut: Future + 'static,
        Fut::Output: IntoReadResult,
    {
        Self { definition: Resource::new(uri, name), read: read_fn(read) }
    }

    /// The definition `resources/list` shows.
    pub fn definition(&self) -> &Resource {
        &self.definition
    }

    /// A display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.definition.title = Some(title.into());
        self
    }

    /// What the resource is, for the model.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.definition.description = Some(description.into());
        self
    }

    /// The MIME type, also given to text and binary contents the read function returns.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.definition.mime_type = Some(mime_type.into());
        self
    }

    /// The size in bytes, when known.
    pub fn size(mut self, size: u64) -> Self {
        self.definition.size = Some(size);
        self
    }

    /// Display hints (audience, priority, last modified).
    pub fn annotations(mut self, annotations: Annotations) -> Self {
        self.definition.annotations = Some(annotations);
        self
    }

    /// An icon for display.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.definition.icons.get_or_insert_with(Vec::new).push(icon);
        self
    }
}

/// A family of resources named by an RFC 6570 URI template (levels 1-2: `{var}`, `{+var}`, `{#var}`), read by one
/// function that receives the variables (`resources/templates/list` shows it).
#[must_use]
pub struct ResourceTemplateDef {
    pub(crate) definition: ResourceTemplate,
    pub(crate) template: Result<UriTemplate, String>,
    pub(crate) read: ReadFn,
    pub(crate) completers: Completers,
}

impl std::fmt::Debug for ResourceTemplateDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceTemplateDef").field("definition", &self.definition).finish_non_exhaustive()
    }
}

impl ResourceTemplateDef {
    /// Resources whose URIs match `uri_template`, named `name`, read by `read`. A template that is not valid is
    /// reported when the server starts (or by [`crate::ServerHandle::add_resource_template`]).
    ///
    /// ```
    /// use mcp_worker_sdk::ResourceTemplateDef;
    /// let notes = ResourceTemplateDef::new("notes://{id}", "note", |req| async move {
    ///     // `None`: no such note, which the client sees as -32002 "Resource not found".
    ///     req.var("id").filter(|id| *id == "1").map(|_| "The first note".to_owned())
    /// })
    /// .complete_values("id", ["1"]);
    /// assert_eq!(notes.definition().uri_template, "notes://{id}");
    /// ```
    pub fn new<F, Fut>(uri_template: impl Into<String>, name: impl Into<String>, read: F) -> Self
    where
        F: Fn(ResourceRequest) -> Fut + 'static,
        Fut: Future + 'static,
        Fut::Output: IntoReadResult,
    {
        let uri_template = uri_template.into();
        let template = UriTemplate::parse(&uri_template);
        let definition = ResourceTemplate::new(uri_template, name);
        Self { definition, template, read: read_fn(read), completers: Completers::default() }
    }

    /// The definition `resources/templates/list` shows.
    pub fn definition(&self) -> &ResourceTemplate {
        &self.definition
    }

    /// A display name.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.definition.title = Some(title.into());
        self
    }

    /// What the resources are, for the model.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.definition.description = Some(description.into());
        self
    }

    /// The MIME type shared by every resource of the template.
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.definition.mime_type = Some(mime_type.into());
        self
    }

    /// Display hints.
    pub fn annotations(mut self, annotations: Annotations) -> Self {
        self.definition.annotations = Some(annotations);
        self
    }

    /// An icon for display.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.definition.icons.get_or_insert_with(Vec::new).push(icon);
        self
    }

    /// Suggests values for the variable `name` with an async function (`completion/complete`).
    pub fn complete<F, Fut>(mut self, name: impl Into<String>, complete: F) -> Self
    where
        F: Fn(CompletionRequest) -> Fut + 'static,
        Fut: Future<Output = Vec<String>> + 'static,
    {
        self.completers.set(name.into(), completion::completer(complete));
        self
    }

    /// Suggests, for the variable `name`, the listed values that start with what was typed (ignoring case).
    pub fn complete_values<S: Into<String>>(
        mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = S>,
    ) -> Self {
        self.completers.set(name.into(), completion::from_values(values.into_iter().map(Into::into).collect()));
        self
    }
}

//! Fetching a manifest in the page. Only the HTTP exchange is here; reading it is [`super::BundleManifest::parse`].

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The text at `url`, and the absolute URL it came from (after redirects); `None` when there is none (404 or 410:
/// the bundle has no manifest). Any other failure (the network, another HTTP status) is an error naming the URL.
pub(crate) async fn fetch_text(url: &str) -> Result<Option<(String, String)>, String> {
    let failed =
        |e: wasm_bindgen::JsValue| format!("cannot fetch {url}: {}", mcp_worker_client::worker::describe_js(&e));
    let window = web_sys::window().ok_or_else(|| format!("cannot fetch {url}: no window"))?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(failed)?;
    let response: web_sys::Response = response.dyn_into().map_err(failed)?;
    match response.status() {
        404 | 410 => return Ok(None),
        _ if !response.ok() => return Err(format!("cannot fetch {url}: HTTP {}", response.status())),
        _ => {}
    }
    let text = JsFuture::from(response.text().map_err(failed)?).await.map_err(failed)?;
    let text = text.as_string().ok_or_else(|| format!("cannot read {url}: the body is not text"))?;
    let from = response.url();
    Ok(Some((text, if from.is_empty() { url.to_owned() } else { from })))
}

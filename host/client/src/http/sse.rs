//! Server-sent events, decoded incrementally as the HTML standard's "event stream interpretation" says: lines end in
//! CR, LF or CRLF (and may be split anywhere between chunks), `data` lines join with LF, `:` starts a comment, an
//! event is dispatched at a blank line, `id` sets the last event ID (unless it holds NUL) and `retry` the
//! reconnection time (digits only). A leading BOM is skipped.
//!
//! Hand-written rather than a crate: the format is small and fixed, and the crates that decode it bring a parser
//! combinator library into every host's download.

/// One event of a stream.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// `event:` (empty means the default type, `message`).
    pub event: String,
    /// The `data:` lines, joined with LF.
    pub data: String,
    /// The last event ID when the event was dispatched (it persists across events, as in the standard).
    pub id: Option<String>,
}

/// Decodes a stream of text chunks into events.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// The current line, not yet ended.
    line: String,
    /// The previous chunk ended in CR: a LF at the start of the next one ends nothing.
    after_cr: bool,
    started: bool,
    event: String,
    data: String,
    has_data: bool,
    last_id: Option<String>,
    retry_ms: Option<u32>,
    /// Bytes held in `line` and `data`, bounded by `max_event_chars`.
    max_event_chars: usize,
    overflowed: bool,
}

/// An event larger than the decoder's bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventTooLarge {
    /// The bound, in characters.
    pub max: usize,
}

impl SseDecoder {
    /// A decoder that refuses events of more than `max_event_chars` characters (data and the line being read).
    pub fn new(max_event_chars: usize) -> Self {
        Self { max_event_chars, ..Self::default() }
    }

    /// The last event ID seen (`id:`), to send as `Last-Event-ID` when the stream is resumed.
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref()
    }

    /// The reconnection time the server asked for (`retry:`), in milliseconds.
    pub fn retry_ms(&self) -> Option<u32> {
        self.retry_ms
    }

    /// Feeds a chunk; returns the events it completed. Past the bound, every later call fails.
    pub fn push(&mut self, chunk: &str) -> Result<Vec<SseEvent>, EventTooLarge> {
        if self.overflowed {
            return Err(EventTooLarge { max: self.max_event_chars });
        }
        let mut chunk = chunk;
        if !self.started && !chunk.is_empty() {
            self.started = true;
            chunk = chunk.strip_prefix('\u{feff}').unwrap_or(chunk);
        }
        let mut events = Vec::new();
        let mut rest = chunk;
        if self.after_cr {
            self.after_cr = false;
            rest = rest.strip_prefix('\n').unwrap_or(rest);
        }
        while let Some(end) = rest.find(['\r', '\n']) {
            self.line.push_str(&rest[..end]);
            let ending = rest.as_bytes()[end];
            rest = &rest[end + 1..];
            if ending == b'\r' {
                match rest.strip_prefix('\n') {
                    Some(after) => rest = after,
                    None if rest.is_empty() => self.after_cr = true,
                    None => {}
                }
            }
            let line = std::mem::take(&mut self.line);
            if let Some(event) = self.take_line(&line) {
                events.push(event);
            }
            self.check_size()?;
        }
        self.line.push_str(rest);
        self.check_size()?;
        Ok(events)
    }

    fn check_size(&mut self) -> Result<(), EventTooLarge> {
        if self.max_event_chars > 0 && self.line.len() + self.data.len() > self.max_event_chars {
            self.overflowed = true;
            self.line = String::new();
            self.data = String::new();
            return Err(EventTooLarge { max: self.max_event_chars });
        }
        Ok(())
    }

    /// Processes one line; a blank one dispatches the event being built.
    fn take_line(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            return self.dispatch();
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => value.clone_into(&mut self.event),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "id" if !value.contains('\0') => self.last_id = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry_ms = Some(value.parse().unwrap_or(u32::MAX));
            }
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        if !std::mem::take(&mut self.has_data) {
            return None;
        }
        let data = std::mem::take(&mut self.data);
        Some(SseEvent { event, data, id: self.last_id.clone() })
    }
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod tests;

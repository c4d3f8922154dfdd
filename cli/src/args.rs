//! Command-line arguments: positional values, `--option value` (or `--option=value`) and `--flag`.

use crate::Result;

/// Arguments of one command, checked against the options it takes.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub(crate) positional: Vec<String>,
    options: Vec<(String, String)>,
    flags: Vec<String>,
}

impl Parsed {
    /// Parses `args`, refusing an option or flag not in `options` / `flags`.
    pub(crate) fn parse(args: &[String], options: &[&str], flags: &[&str]) -> Result<Self> {
        let mut parsed = Self::default();
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            if !arg.starts_with("--") {
                parsed.positional.push(arg.clone());
                continue;
            }
            let (name, inline) = match arg.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (arg.as_str(), None),
            };
            if flags.contains(&name) && inline.is_none() {
                parsed.flags.push(name.to_owned());
            } else if options.contains(&name) {
                let value = inline.or_else(|| iter.next().cloned()).ok_or(format!("`{name}` needs a value"))?;
                parsed.options.push((name.to_owned(), value));
            } else {
                let known: Vec<&str> = options.iter().chain(flags).copied().collect();
                let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
                return Err(format!("unknown option `{name}` (this command takes: {known})"));
            }
        }
        Ok(parsed)
    }

    pub(crate) fn option(&self, name: &str) -> Option<&str> {
        self.options.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    pub(crate) fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    /// The one positional argument a command needs.
    pub(crate) fn single(&self, what: &str) -> Result<&str> {
        match self.positional.as_slice() {
            [one] => Ok(one),
            [] => Err(format!("missing {what}")),
            [_, extra, ..] => Err(format!("unexpected argument `{extra}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Parsed> {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        Parsed::parse(&args, &["--port", "--name"], &["--release"])
    }

    #[test]
    fn options_flags_and_positionals() {
        let parsed = parse(&["dir", "--port", "9000", "--release", "--name=x"]).unwrap();
        assert_eq!(parsed.single("a directory"), Ok("dir"));
        assert_eq!(parsed.option("--port"), Some("9000"));
        assert_eq!(parsed.option("--name"), Some("x"));
        assert!(parsed.flag("--release"));
    }

    #[test]
    fn mistakes_are_named() {
        assert!(parse(&["--verbose"]).unwrap_err().contains("--verbose"));
        assert!(parse(&["--port"]).unwrap_err().contains("needs a value"));
        assert!(parse(&[]).unwrap().single("a directory").unwrap_err().contains("missing a directory"));
        assert!(parse(&["a", "b"]).unwrap().single("a directory").unwrap_err().contains("`b`"));
    }
}

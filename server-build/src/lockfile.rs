//! Reading versions and names from `Cargo.lock` and `Cargo.toml` without a TOML parser: the few keys a build needs.

use crate::Result;

/// The version of the package `name` in a Cargo.lock; an error if the lock holds several versions of it.
pub fn locked_version(lock: &str, name: &str) -> Result<Option<String>> {
    let mut versions: Vec<String> = Vec::new();
    for block in lock.split("[[package]]").skip(1) {
        let field = |key: &str| {
            block.lines().find_map(|line| {
                let (k, v) = line.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
            })
        };
        if field("name").as_deref() == Some(name)
            && let Some(version) = field("version")
            && !versions.contains(&version)
        {
            versions.push(version);
        }
    }
    match versions.len() {
        0 => Ok(None),
        1 => Ok(versions.pop()),
        _ => Err(format!(
            "Cargo.lock holds several versions of {name} ({}): the wasm-bindgen CLI can match only one; \
             pin one version in the workspace Cargo.toml",
            versions.join(", ")
        )),
    }
}

/// The string value of `key = "…"` in the `[section]` of a TOML manifest (enough for Cargo.toml names).
pub fn toml_string(manifest: &str, section: &str, key: &str) -> Option<String> {
    let mut current = String::new();
    for line in manifest.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            current = header.trim_end_matches(']').trim().to_owned();
            continue;
        }
        if current != section {
            continue;
        }
        let Some((k, value)) = line.split_once('=') else { continue };
        if k.trim() != key {
            continue;
        }
        let value = value.trim();
        let value = value.strip_prefix('"')?;
        return value.split_once('"').map(|(text, _)| text.to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "abc"
dependencies = [
 "cfg-if",
]

[[package]]
name = "xtask"
version = "0.1.0"
"#;

    #[test]
    fn finds_the_exact_package() {
        assert_eq!(locked_version(LOCK, "wasm-bindgen"), Ok(Some("0.2.130".to_owned())));
        assert_eq!(locked_version(LOCK, "xtask"), Ok(Some("0.1.0".to_owned())));
    }

    #[test]
    fn absent_package_is_none() {
        assert_eq!(locked_version(LOCK, "wasm-bindgen-cli"), Ok(None));
        assert_eq!(locked_version("", "wasm-bindgen"), Ok(None));
    }

    #[test]
    fn several_versions_are_an_error() {
        let lock = format!("{LOCK}\n[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.99\"\n");
        let error = locked_version(&lock, "wasm-bindgen").unwrap_err();
        assert!(error.contains("0.2.130") && error.contains("0.2.99"), "{error}");
    }

    const MANIFEST: &str = r#"
[package]
name = "echo-server" # the sample
version.workspace = true

[lib]
crate-type = ["cdylib"]

[dependencies]
name = "not-this"
"#;

    #[test]
    fn manifest_names() {
        assert_eq!(toml_string(MANIFEST, "package", "name").as_deref(), Some("echo-server"));
        assert_eq!(toml_string(MANIFEST, "lib", "name"), None);
        assert_eq!(toml_string(MANIFEST, "dependencies", "name").as_deref(), Some("not-this"));
        assert_eq!(toml_string("[package]\nname = 'x'\n", "package", "name"), None);
    }
}

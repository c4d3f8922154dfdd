//! `mcp-worker new <dir>`: a server crate from the template, ready for `mcp-worker build`.

use std::fs;
use std::path::{Path, PathBuf};

use crate::Result;
use crate::args::Parsed;

/// The template's files, with `{name}`, `{title}` and `{sdk}` to fill in.
const CARGO_TOML: &str = include_str!("../template/Cargo.toml.in");
const LIB_RS: &str = include_str!("../template/lib.rs.in");
const CARGO_CONFIG: &str = include_str!("../template/cargo-config.toml");
const GITIGNORE: &str = "/target\n/bundle\n";

pub(crate) fn run(args: &Parsed) -> Result {
    let dir = PathBuf::from(args.single("the directory of the new crate (`mcp-worker new my-server`)")?);
    let name = match args.option("--name") {
        Some(name) => name.to_owned(),
        None => dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
    };
    check_name(&name)?;
    if dir.exists() && fs::read_dir(&dir).map(|mut d| d.next().is_some()).unwrap_or(true) {
        return Err(format!("{} exists and is not empty: choose a new directory", dir.display()));
    }
    let files = render(&name, &sdk_dependency());
    for (path, text) in &files {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    println!("created the server crate `{name}` in {}", dir.display());
    println!("next: cd {} && mcp-worker build   (then `mcp-worker dev` to try it in the console)", dir.display());
    Ok(())
}

/// The crate's files, relative to its directory.
fn render(name: &str, sdk: &str) -> Vec<(&'static str, String)> {
    let title: String = name
        .split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect::<Vec<_>>()
        .join(" ");
    let fill = |text: &str| text.replace("{name}", name).replace("{title}", &title).replace("{sdk}", sdk);
    vec![
        ("Cargo.toml", fill(CARGO_TOML)),
        ("src/lib.rs", fill(LIB_RS)),
        (".gitignore", GITIGNORE.to_owned()),
        (".cargo/config.toml", CARGO_CONFIG.to_owned()),
    ]
}

/// A crate name cargo accepts, which is also a server name a host accepts.
fn check_name(name: &str) -> Result {
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.len() <= 64;
    if valid {
        Ok(())
    } else {
        Err(format!(
            "`{name}` cannot name a server crate: use letters, digits, `-` and `_`, starting with a letter \
             (or pass --name)"
        ))
    }
}

/// How the new crate depends on the worker SDK: the SDK of the checkout this command was built from, when there
/// is one (`cargo install --path cli`), else the registry's.
fn sdk_dependency() -> String {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../worker-sdk");
    match checkout.join("Cargo.toml").canonicalize() {
        Ok(manifest) => {
            let dir = manifest.parent().unwrap_or(&manifest).display().to_string();
            format!("path = {dir:?}")
        }
        Err(_) => format!("version = \"{}\"", env!("CARGO_PKG_VERSION")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_is_filled_in() {
        let files = render("weather-tools", "path = \"/sdk\"");
        let cargo = &files[0].1;
        assert!(cargo.contains("name = \"weather-tools\""), "{cargo}");
        assert!(cargo.contains("mcp-worker-sdk = { path = \"/sdk\" }"), "{cargo}");
        assert!(cargo.contains("mcp-worker-sdk = { path = \"/sdk\", features = [\"testing\"] }"), "{cargo}");
        assert!(cargo.contains("opt-level = \"z\""), "{cargo}");
        let config = files.iter().find(|(path, _)| *path == ".cargo/config.toml").map(|(_, text)| text);
        assert!(config.is_some_and(|c| c.contains(r#"'sha2_backend_soft="compact"'"#)), "{config:?}");
        let lib = &files[1].1;
        assert!(lib.contains("Server::new(\"weather-tools\"") && lib.contains(".title(\"Weather Tools\")"), "{lib}");
        for (path, text) in files {
            for hole in ["{name}", "{title}", "{sdk}"] {
                assert!(!text.contains(hole), "{path} still has {hole}");
            }
        }
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("echo").is_ok());
        assert!(check_name("my_server-2").is_ok());
        for bad in ["", "2fast", "a b", "../x", "é"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn from_a_checkout_the_sdk_is_a_path() {
        assert!(sdk_dependency().starts_with("path = "), "{}", sdk_dependency());
    }
}

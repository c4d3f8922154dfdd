//! `case_convert`: identifiers and phrases from one naming convention to another, a line at a time.

use crate::limits::{MAX_TEXT_BYTES, check_text};
use heck::{ToKebabCase, ToLowerCamelCase, ToShoutySnakeCase, ToSnakeCase, ToTitleCase, ToTrainCase, ToUpperCamelCase};
use mcp_worker_sdk::ToolDef;
use schemars::JsonSchema;
use serde::Deserialize;

/// The conventions.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Case {
    /// `user_account_id`
    Snake,
    /// `USER_ACCOUNT_ID`
    ScreamingSnake,
    /// `userAccountId`
    Camel,
    /// `UserAccountId`
    Pascal,
    /// `user-account-id`
    Kebab,
    /// `User-Account-Id`
    Train,
    /// `User Account Id`
    Title,
    /// `USER ACCOUNT ID` (the text as it is, in capitals)
    Upper,
    /// `user account id` (the text as it is, in small letters)
    Lower,
}

#[derive(Deserialize, JsonSchema)]
struct CaseArgs {
    /// The text: an identifier or phrase, or several, one a line (each line is converted on its own).
    text: String,
    /// The convention to convert to: snake, screaming_snake, camel, pascal, kebab, train, title, upper or lower.
    to: Case,
}

pub(crate) fn tool() -> ToolDef {
    ToolDef::new("case_convert", |args: CaseArgs| async move { convert(&args) })
        .title("Convert case")
        .description(format!(
            "Converts identifiers or phrases between naming conventions: snake_case, SCREAMING_SNAKE_CASE, camelCase, \
             PascalCase, kebab-case, Train-Case, Title Case, UPPER and lower. Word boundaries are found in any of \
             them (`userID`, `user_id`, `User ID` all have two words). Each line is converted on its own. At most \
             {MAX_TEXT_BYTES} bytes."
        ))
        .read_only()
        .idempotent()
}

fn convert(args: &CaseArgs) -> Result<String, String> {
    check_text("text", &args.text)?;
    let lines: Vec<String> = args.text.lines().map(|line| convert_line(line, args.to)).collect();
    Ok(lines.join("\n"))
}

fn convert_line(line: &str, case: Case) -> String {
    match case {
        Case::Snake => line.to_snake_case(),
        Case::ScreamingSnake => line.to_shouty_snake_case(),
        Case::Camel => line.to_lower_camel_case(),
        Case::Pascal => line.to_upper_camel_case(),
        Case::Kebab => line.to_kebab_case(),
        Case::Train => line.to_train_case(),
        Case::Title => line.to_title_case(),
        Case::Upper => line.to_uppercase(),
        Case::Lower => line.to_lowercase(),
    }
}

//! The text-tools server through a real SDK session: what a user of each tool gets back.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]
#![allow(clippy::disallowed_methods, reason = "tests read JSON with serde_json itself")]

use mcp_worker_sdk::testing::TestClient;
use serde_json::{Value, json};

fn server() -> TestClient {
    TestClient::new(text_tools_server::server(&Default::default()))
}

#[test]
fn every_tool_is_listed_with_a_description_and_a_schema() {
    let mut s = server();
    let tools = s.list_tools();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["regex_find", "regex_replace", "diff", "text_stats", "case_convert"]);
    for tool in &tools {
        assert!(tool["description"].as_str().is_some_and(|d| d.len() > 40), "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
    }
    let find = &tools[0];
    assert_eq!(find["inputSchema"]["required"], json!(["pattern", "text"]));
    assert!(find["inputSchema"]["properties"]["case_insensitive"].is_object(), "flattened pattern options");
    let case_schema = tools[4]["inputSchema"].to_string();
    assert!(case_schema.contains("screaming_snake") && case_schema.contains("USER_ACCOUNT_ID"), "{case_schema}");
}

#[test]
fn regex_find_gives_positions_and_groups() {
    let mut s = server();
    let text = "contact: ann@example.com\nand bob@test.org, café@x.fr";
    let r = s.call("regex_find", json!({"pattern": r"(?P<user>\w+)@(\w+)\.(com|org)", "text": text}));
    assert_eq!(r["isError"], Value::Null, "{r}");
    assert_eq!(
        r["structuredContent"]["matches"][1],
        json!({"text": "bob@test.org", "start": 29, "end": 41, "line": 2, "column": 5,
               "groups": ["bob", "test", "org"], "named": {"user": "bob"}})
    );
    assert_eq!(r["structuredContent"]["count"], 2);
    assert_eq!(
        r["content"][0]["text"],
        "2 match(es):\n1:10 (chars 9..24): \"ann@example.com\" groups [\"ann\", \"example\", \"com\"]\n\
         2:5 (chars 29..41): \"bob@test.org\" groups [\"bob\", \"test\", \"org\"]"
    );
    // Unicode word characters and character offsets.
    let r = s.call("regex_find", json!({"pattern": r"\w+@x", "text": text}));
    assert_eq!(r["structuredContent"]["matches"][0]["text"], "café@x");
    assert_eq!(r["structuredContent"]["matches"][0]["start"], 43);
}

#[test]
fn regex_find_options_and_bounds() {
    let mut s = server();
    let r =
        s.call("regex_find", json!({"pattern": "A.C", "text": "abc a.c", "case_insensitive": true, "literal": true}));
    assert_eq!(r["structuredContent"]["matches"][0]["start"], 4);
    assert_eq!(r["structuredContent"]["count"], 1);
    let r = s.call("regex_find", json!({"pattern": "^x", "text": "x\nx\nx", "multi_line": true, "max_matches": 2}));
    assert_eq!(r["structuredContent"]["count"], 2);
    assert_eq!(r["structuredContent"]["truncated"], true);
    let r = s.call("regex_find", json!({"pattern": "z", "text": "abc"}));
    assert_eq!(r["content"][0]["text"], "no match");
    // A pattern that backtracking engines take exponential time on is linear here.
    let r = s.call("regex_find", json!({"pattern": "(a+)+$", "text": format!("{}b", "a".repeat(50_000))}));
    assert_eq!(r["structuredContent"]["count"], 0);
}

#[test]
fn regex_errors_are_readable() {
    let mut s = server();
    let r = s.call("regex_find", json!({"pattern": "(unclosed", "text": "x"}));
    assert_eq!(r["isError"], true);
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("the pattern is not a valid regex:\nregex parse error:"), "{text}");
    assert!(text.contains("unclosed group"), "{text}");
    let r = s.call("regex_find", json!({"pattern": r"(\w)\1", "text": "aa"}));
    assert!(r["content"][0]["text"].as_str().unwrap().contains("backreferences are not supported"), "{r}");
    let r = s.call("regex_find", json!({"pattern": "x".repeat(5000), "text": "x"}));
    assert_eq!(r["content"][0]["text"], "`pattern` is 5000 bytes; the limit is 4096 bytes");
}

#[test]
fn regex_replace_uses_captures() {
    let mut s = server();
    let r = s.call(
        "regex_replace",
        json!({"pattern": r"(?P<y>\d{4})-(\d{2})-(\d{2})", "text": "from 2024-03-01 to 2024-12-31",
               "replacement": "$3/$2/${y}"}),
    );
    assert_eq!(r["content"][0]["text"], "from 01/03/2024 to 31/12/2024");
    assert_eq!(r["structuredContent"], json!({"text": "from 01/03/2024 to 31/12/2024", "replacements": 2}));
    let r = s.call("regex_replace", json!({"pattern": "o", "text": "foo boo", "replacement": "0", "limit": 3}));
    assert_eq!(r["structuredContent"], json!({"text": "f00 b0o", "replacements": 3}));
    let r =
        s.call("regex_replace", json!({"pattern": "$5", "literal": true, "text": "costs $5", "replacement": "$$6"}));
    assert_eq!(r["content"][0]["text"], "costs $6");
}

#[test]
fn regex_replace_cannot_blow_up_memory() {
    let mut s = server();
    let r =
        s.call("regex_replace", json!({"pattern": "", "text": "a".repeat(100_000), "replacement": "x".repeat(100)}));
    assert_eq!(r["isError"], true);
    assert_eq!(r["content"][0]["text"], "the result would be longer than 4194304 bytes (the limit)");
}

#[test]
fn diff_of_lines_is_a_unified_diff() {
    let mut s = server();
    let old = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n";
    let new = "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\nnine\n";
    let r = s.call("diff", json!({"old": old, "new": new, "context": 1, "old_name": "a.txt", "new_name": "b.txt"}));
    assert_eq!(
        r["content"][0]["text"],
        "--- a.txt\n+++ b.txt\n@@ -3,3 +3,3 @@\n three\n-four\n+FOUR\n five\n@@ -8 +8,2 @@\n eight\n+nine\n"
    );
    let summary = &r["structuredContent"];
    assert_eq!((summary["added"].as_u64(), summary["removed"].as_u64()), (Some(2), Some(1)));
    assert_eq!(summary["hunks"], 2);
    assert_eq!(summary["similarity"], 0.8235);
    assert_eq!(summary["identical"], false);
    let r = s.call("diff", json!({"old": "same\n", "new": "same\n"}));
    assert_eq!(r["content"][0]["text"], "the texts are identical");
    assert_eq!(r["structuredContent"]["similarity"], 1.0);
}

#[test]
fn diff_of_texts_that_differ_everywhere_is_quick() {
    let mut s = server();
    let old: String = (0..40_000).map(|i| format!("a{i}\n")).collect();
    let new: String = (0..40_000).map(|i| if i % 2 == 0 { format!("b{i}\n") } else { format!("a{i}\n") }).collect();
    let started = std::time::Instant::now();
    let r = s.call("diff", json!({"old": old, "new": new}));
    assert_eq!(r["structuredContent"]["added"], 20_000);
    assert!(started.elapsed().as_secs() < 10, "took {:?}", started.elapsed());
}

#[test]
fn diff_of_words_marks_changes_inline() {
    let mut s = server();
    let r = s.call(
        "diff",
        json!({"old": "The quick brown fox jumps", "new": "The slow brown fox leaps high", "mode": "words"}),
    );
    assert_eq!(r["content"][0]["text"], "The [-quick-]{+slow+} brown fox [-jumps-]{+leaps high+}");
    let r = s.call("diff", json!({"old": "a", "new": "b", "mode": "chars"}));
    assert_eq!(r["isError"], true, "an unknown mode is refused: {r}");
}

#[test]
fn text_stats_counts_as_people_do() {
    let mut s = server();
    let text = "Hello world! How are you?\n\nI'm fine, thanks. 👍🏽 café\n";
    let r = s.call("text_stats", json!({"text": text}));
    let stats = &r["structuredContent"];
    assert_eq!(stats["characters"], 53);
    assert_eq!(stats["graphemes"], 52, "👍🏽 is two characters, one grapheme");
    assert_eq!(stats["words"], 9);
    assert_eq!(stats["lines"], 3);
    assert_eq!(stats["sentences"], 3, "a period before a lowercase word ends no sentence (UAX #29)");
    assert_eq!(stats["paragraphs"], 2);
    assert_eq!(stats["reading_seconds"], 3);
    assert_eq!(stats["top_words"][0], json!({"word": "are", "count": 1}));
    assert!(r["content"][0]["text"].as_str().unwrap().starts_with("characters: 53\ngraphemes: 52\n"));
}

#[test]
fn case_convert_handles_every_convention_a_line_at_a_time() {
    let mut s = server();
    let text = "userAccountID\nHTTP request-handler\nalready_snake";
    let expect = [
        ("snake", "user_account_id\nhttp_request_handler\nalready_snake"),
        ("screaming_snake", "USER_ACCOUNT_ID\nHTTP_REQUEST_HANDLER\nALREADY_SNAKE"),
        ("camel", "userAccountId\nhttpRequestHandler\nalreadySnake"),
        ("pascal", "UserAccountId\nHttpRequestHandler\nAlreadySnake"),
        ("kebab", "user-account-id\nhttp-request-handler\nalready-snake"),
        ("title", "User Account Id\nHttp Request Handler\nAlready Snake"),
        ("upper", "USERACCOUNTID\nHTTP REQUEST-HANDLER\nALREADY_SNAKE"),
    ];
    for (to, converted) in expect {
        let r = s.call("case_convert", json!({"text": text, "to": to}));
        assert_eq!(r["content"][0]["text"], converted, "{to}");
    }
    let r = s.call("case_convert", json!({"text": "x", "to": "sponge"}));
    assert_eq!(r["isError"], true);
}

#[test]
fn the_catalogue_entry_names_this_server_and_its_example_works() {
    let entry: Value = serde_json::from_str(include_str!("../catalogue.json")).unwrap();
    assert_eq!(entry["id"], "text-tools");
    assert_eq!(entry["config"]["workerUrl"], "./bundles/text-tools/bootstrap.js");
    assert_eq!(entry["needs"], json!({"credentials": [], "network": []}));
    let mut s = server();
    let r = s.call(entry["try"]["tool"].as_str().unwrap(), entry["try"]["arguments"].clone());
    assert_eq!(r["isError"], Value::Null, "{r}");
    assert!(r["content"][0]["text"].as_str().is_some_and(|t| !t.is_empty()), "{r}");
}

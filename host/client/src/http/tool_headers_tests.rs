use super::*;

fn param(header: &str) -> HeaderParam {
    HeaderParam { path: vec![header.to_lowercase()], header: header.to_owned() }
}

fn listed(name: &str, params: Option<&[&str]>) -> Listed {
    (name.to_owned(), params.map(|headers| headers.iter().map(|h| param(h)).collect()))
}

#[test]
fn a_page_sets_what_each_tool_mirrors_and_later_pages_change_only_the_tools_they_list() {
    let mut table = ToolHeaders::default();
    table.update(vec![listed("search", Some(&["Region"])), listed("echo", Some(&[])), listed("fetch", Some(&["Url"]))]);
    assert_eq!(table.get("search"), &[param("Region")]);
    assert_eq!(table.get("fetch"), &[param("Url")]);
    assert!(table.get("echo").is_empty(), "a tool that mirrors nothing");
    assert!(table.get("unknown").is_empty(), "a tool never listed");
    assert_eq!(table.0.len(), 2, "only tools that mirror arguments are kept");

    // The next page: `search` now mirrors nothing, `fetch` turned invalid, `echo` mirrors, `zeta` is new.
    table.update(vec![
        listed("fetch", None),
        listed("zeta", Some(&["Z"])),
        listed("search", Some(&[])),
        listed("echo", Some(&["Text"])),
    ]);
    assert!(table.get("search").is_empty());
    assert!(table.get("fetch").is_empty(), "invalid annotations leave the tool none");
    assert_eq!(table.get("echo"), &[param("Text")]);
    assert_eq!(table.get("zeta"), &[param("Z")]);
    assert_eq!(table.0.len(), 2);

    // A page that lists other tools leaves these as they were.
    table.update(vec![listed("alpha", Some(&["A"]))]);
    assert_eq!(table.get("echo"), &[param("Text")]);
    assert_eq!(table.get("alpha"), &[param("A")]);
    assert_eq!(table.0.len(), 3);
}

#[test]
fn a_tool_listed_twice_in_a_page_mirrors_what_it_says_last() {
    let mut table = ToolHeaders::default();
    table.update(vec![listed("t", Some(&["First"])), listed("u", Some(&["U"])), listed("t", Some(&["Last"]))]);
    assert_eq!(table.get("t"), &[param("Last")]);
    table.update(vec![listed("t", Some(&["Again"])), listed("t", None)]);
    assert!(table.get("t").is_empty(), "listed last with invalid annotations");
    assert_eq!(table.get("u"), &[param("U")]);
}

#[test]
fn pages_of_many_tools_leave_the_table_sorted_and_complete() {
    let mut table = ToolHeaders::default();
    // Two interleaved pages of 100,000 tools each, in an order that is not sorted.
    let page = |parity: u32| -> Vec<Listed> {
        (0..100_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) % 1_000_000) * 2 + parity)
            .map(|n| listed(&format!("tool_{n:07}"), Some(&["H"])))
            .collect()
    };
    table.update(page(0));
    table.update(page(1));
    assert_eq!(table.0.len(), 200_000);
    assert!(table.0.windows(2).all(|pair| pair[0].0 < pair[1].0), "sorted, no name twice");
    assert_eq!(table.get(&table.0[123_456].0.clone()), &[param("H")]);
}

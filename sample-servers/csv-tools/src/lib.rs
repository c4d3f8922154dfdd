//! The csv-tools server: CSV to JSON and back, column statistics and simple queries, with the csv crate.

mod from_json;
mod query;
mod stats;
mod table;
mod to_json;
mod values;

use mcp_worker_sdk::{Env, Server};

/// Builds the csv-tools server.
pub fn server(_env: &Env) -> Server {
    Server::new("csv-tools", env!("CARGO_PKG_VERSION"))
        .title("CSV Tools")
        .description("CSV to JSON and back, per-column statistics and simple queries (filter, sort, select), offline")
        .instructions(
            "Pass the CSV text itself (up to 2 MiB; a header row unless has_headers is false; delimiter \",\" \
             unless told, \"tab\" for TSV). csv_stats profiles the columns: start there with an unknown file. \
             csv_query filters with `where` conditions, sorts and pages; csv_to_json and json_to_csv convert. \
             Numbers are only what is plainly written as one (\"007\" and \"1,5\" stay text).",
        )
        .tool(to_json::tool())
        .tool(from_json::tool())
        .tool(stats::tool())
        .tool(query::tool())
}

mcp_worker_sdk::export_server!(server);

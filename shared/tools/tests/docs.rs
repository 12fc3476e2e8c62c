//! `docs/tools.md` stays in step with the code: one `### name` section per tool, in the
//! order of `specs()`, each with the tool's kind, exactly its argument names and the
//! top-level fields of its result; its table of the tools at a glance and the
//! `tools/list` snapshot name the same tools in the same order. The README stays a front
//! door (at most 16 KiB, its tool count the code's) and `docs/benchmarks.md` a page of
//! current figures (at most 24 KiB; their history is in git).

use std::collections::BTreeSet;

/// The tool contract page, read at compile time so an edit to it rebuilds this test.
const TOOLS_MD: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/tools.md"));
/// The README, for its size and its count of tools.
const README: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"));
/// The benchmarks page, for its size.
const BENCHMARKS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/benchmarks.md"));
/// The README's bound: what it is, the two commands, connecting, deploying, where to read on.
const README_MAX_BYTES: usize = 16 * 1024;
/// The benchmarks page's bound: the current figures and how to take them again.
const BENCHMARKS_MAX_BYTES: usize = 24 * 1024;
/// The `tools/list` snapshot the end-to-end tests keep equal to what the server sends.
const SNAPSHOT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/tests/tools_list.snapshot.json"
));

/// One tool's section as the page writes it.
#[derive(Debug, PartialEq, Eq)]
struct Section {
    name: String,
    kind: String,
    /// Every argument name, optional or not.
    arguments: BTreeSet<String>,
    /// The arguments written without a trailing `?`.
    required: BTreeSet<String>,
    /// The result's top-level fields, each with whether it is always there (no `?`).
    result: Vec<(String, bool)>,
}

/// Reads every `### ` section; each must have exactly one `Kind:` and one `Arguments:` line.
fn sections(markdown: &str) -> Result<Vec<Section>, String> {
    type Found = (String, Vec<String>, Vec<String>, Vec<String>);
    let mut found: Vec<Found> = Vec::new();
    for line in markdown.lines() {
        if let Some(name) = line.strip_prefix("### ") {
            found.push((name.trim().to_owned(), Vec::new(), Vec::new(), Vec::new()));
        } else if line.starts_with("## ") {
            // A new top-level section ends the tool section before it.
            found.push((String::new(), Vec::new(), Vec::new(), Vec::new()));
        } else if let Some((_, kinds, args, results)) = found.last_mut() {
            if let Some(kind) = line.strip_prefix("Kind:") {
                kinds.push(kind.trim().to_owned());
            } else if let Some(list) = line.strip_prefix("Arguments:") {
                args.push(list.trim().to_owned());
            } else if let Some(result) = line.strip_prefix("Result:") {
                results.push(result.trim().to_owned());
            }
        }
    }
    found
        .into_iter()
        .filter(|(name, ..)| !name.is_empty())
        .map(|(name, kinds, args, results)| {
            let [result] = results.as_slice() else {
                return Err(format!("{name}: {} `Result:` lines, want 1", results.len()));
            };
            let result = top_level_fields(result).ok_or(format!("{name}: Result has no `{{ … }}`"))?;
            let [kind] = kinds.as_slice() else {
                return Err(format!("{name}: {} `Kind:` lines, want 1", kinds.len()));
            };
            let [list] = args.as_slice() else {
                return Err(format!("{name}: {} `Arguments:` lines, want 1", args.len()));
            };
            let mut arguments = BTreeSet::new();
            let mut required = BTreeSet::new();
            if list != "none" {
                for item in list.split(',').map(str::trim) {
                    let (arg, optional) = match item.strip_suffix('?') {
                        Some(arg) => (arg, true),
                        None => (item, false),
                    };
                    if arg.is_empty() || !arguments.insert(arg.to_owned()) {
                        return Err(format!("{name}: argument {item:?} empty or repeated"));
                    }
                    if !optional {
                        required.insert(arg.to_owned());
                    }
                }
            }
            Ok(Section {
                name,
                kind: kind.clone(),
                arguments,
                required,
                result,
            })
        })
        .collect()
}

/// The top-level field names of the first `` `{ … }` `` on a Result line, each with
/// whether it is always present (no trailing `?`).
fn top_level_fields(line: &str) -> Option<Vec<(String, bool)>> {
    let start = line.find("`{")? + 2;
    let mut depth = 0usize;
    let mut fields = Vec::new();
    let mut current = String::new();
    let mut in_value = false;
    for c in line[start..].chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                fields.push(std::mem::take(&mut current));
                in_value = false;
                continue;
            }
            ':' if depth == 0 => in_value = true,
            _ if depth == 0 && !in_value => current.push(c),
            _ => {}
        }
    }
    fields.push(current);
    Some(
        fields
            .iter()
            .map(|f| f.trim())
            .filter(|f| !f.is_empty())
            .map(|f| match f.strip_suffix('?') {
                Some(name) => (name.to_owned(), false),
                None => (f.to_owned(), true),
            })
            .collect(),
    )
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// The checker itself reads the format as meant, and refuses a section it cannot read.
#[test]
fn the_format_is_read_exactly() {
    let page = "# T\n\n### a\n\nKind: read\n\nArguments: none\n\nResult: `{ x, y: [{ z }], w? }`\n\n## Writes\n\n\
                ### b\n\nKind: write (idempotent)\n\nArguments: vault?, name, kind\n\nResult: `{ id }`\n\n\
                ## Planned\n\nKind: not a tool\n";
    assert_eq!(
        sections(page),
        Ok(vec![
            Section {
                name: "a".into(),
                kind: "read".into(),
                arguments: set(&[]),
                required: set(&[]),
                result: vec![("x".into(), true), ("y".into(), true), ("w".into(), false)],
            },
            Section {
                name: "b".into(),
                kind: "write (idempotent)".into(),
                arguments: set(&["vault", "name", "kind"]),
                required: set(&["name", "kind"]),
                result: vec![("id".into(), true)],
            },
        ])
    );
    assert_eq!(
        sections("### a\nKind: read\nResult: `{ x }`\n"),
        Err("a: 0 `Arguments:` lines, want 1".to_owned())
    );
    assert_eq!(
        sections("### a\nKind: read\nArguments: x, x?\nResult: `{ x }`\n"),
        Err("a: argument \"x?\" empty or repeated".to_owned())
    );
    assert_eq!(
        sections("### a\nKind: read\nArguments: none\n"),
        Err("a: 0 `Result:` lines, want 1".to_owned())
    );
}

/// Every tool of the code has its section, in order, with its kind and exactly its arguments.
#[test]
fn tools_md_matches_the_code() {
    let documented = sections(TOOLS_MD).expect("docs/tools.md sections");
    let specs = dochiya_tools::specs();
    let names: Vec<&str> = documented.iter().map(|s| s.name.as_str()).collect();
    let expected_names: Vec<&str> = specs.iter().map(|s| s.name).collect();
    assert_eq!(
        names, expected_names,
        "one `### name` section per tool, in specs() order"
    );

    for (doc, spec) in documented.iter().zip(&specs) {
        let a = &spec.annotations;
        let kind = if a.read_only {
            "read".to_owned()
        } else {
            let hints: Vec<&str> = [(a.destructive, "destructive"), (a.idempotent, "idempotent")]
                .into_iter()
                .filter_map(|(on, hint)| on.then_some(hint))
                .collect();
            if hints.is_empty() {
                "write".to_owned()
            } else {
                format!("write ({})", hints.join(", "))
            }
        };
        assert_eq!(doc.kind, kind, "{}: Kind line", spec.name);

        let arguments: BTreeSet<String> = spec.input_schema["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let required: BTreeSet<String> = spec.input_schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        assert_eq!(doc.arguments, arguments, "{}: argument names", spec.name);
        assert_eq!(doc.required, required, "{}: required arguments", spec.name);

        // Every field the page names is published, and one it shows without `?` is always there.
        let always: BTreeSet<&str> = spec.output_schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        let properties = spec.output_schema["properties"].as_object();
        for (field, required) in &doc.result {
            assert!(
                properties.is_some_and(|p| p.contains_key(field)),
                "{}: result field {field} is not published",
                spec.name
            );
            if *required {
                assert!(
                    always.contains(field.as_str()),
                    "{}: {field} is not required",
                    spec.name
                );
            }
        }
    }
}

/// The tool names of the first Markdown table under `header`: the first `` `name` `` of
/// each row, up to the first line that is not a row.
fn table_names<'a>(markdown: &'a str, header: &str) -> Option<Vec<&'a str>> {
    let table = markdown.split(header).nth(1)?;
    Some(
        table
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with("| `"))
            .filter_map(|l| l.split('`').nth(1))
            .collect(),
    )
}

/// The table reader takes each row's first name and stops at the table's end.
#[test]
fn table_names_reads_rows_up_to_the_end() {
    let page = "x\n| tool | what it does |\n|---|---|\n| `a` | uses `b` |\n| `c` | z |\n\n| `d` | after |\n";
    assert_eq!(table_names(page, "| tool | what it does |"), Some(vec!["a", "c"]));
    assert_eq!(table_names(page, "| nothing |"), None);
}

/// docs/tools.md's table of the tools at a glance and the `tools/list` snapshot name
/// exactly the tools of the code, in its order.
#[test]
fn tools_md_table_and_snapshot_name_the_same_tools() {
    let code: Vec<&str> = dochiya_tools::specs().iter().map(|s| s.name).collect();
    let table = table_names(TOOLS_MD, "| tool | what it does |").expect("docs/tools.md's table of the tools");
    assert_eq!(table, code, "docs/tools.md's table of the tools at a glance");
    let snapshot: serde_json::Value = serde_json::from_str(SNAPSHOT).expect("snapshot JSON");
    let listed: Vec<&str> = snapshot["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(listed, code, "tools/list snapshot");
}

/// The README and the benchmarks page stay within their bounds: what grows goes to a page
/// of docs/ (and a figure's history to git), not into them.
#[test]
fn front_pages_stay_short() {
    assert!(
        README.len() <= README_MAX_BYTES,
        "README.md is {} bytes, over {README_MAX_BYTES}: move detail to docs/",
        README.len()
    );
    assert!(
        BENCHMARKS.len() <= BENCHMARKS_MAX_BYTES,
        "docs/benchmarks.md is {} bytes, over {BENCHMARKS_MAX_BYTES}: keep current figures, history is in git",
        BENCHMARKS.len()
    );
}

/// The README's count of tools, and of the reads among them, is the code's.
#[test]
fn readme_counts_the_tools_of_the_code() {
    let specs = dochiya_tools::specs();
    let reads = specs.iter().filter(|s| s.annotations.read_only).count();
    let claim = format!("**{} tools**: {reads} reads", specs.len());
    assert!(README.contains(&claim), "README.md should say {claim:?}");
}

//! `docs/tools.md` stays in step with the code: one `### name` section per tool, in the
//! order of `specs()`, each with the tool's kind and exactly its argument names.

use std::collections::BTreeSet;

/// The tool contract page, read at compile time so an edit to it rebuilds this test.
const TOOLS_MD: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/tools.md"));

/// One tool's section as the page writes it.
#[derive(Debug, PartialEq, Eq)]
struct Section {
    name: String,
    kind: String,
    /// Every argument name, optional or not.
    arguments: BTreeSet<String>,
    /// The arguments written without a trailing `?`.
    required: BTreeSet<String>,
}

/// Reads every `### ` section; each must have exactly one `Kind:` and one `Arguments:` line.
fn sections(markdown: &str) -> Result<Vec<Section>, String> {
    let mut found: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    for line in markdown.lines() {
        if let Some(name) = line.strip_prefix("### ") {
            found.push((name.trim().to_owned(), Vec::new(), Vec::new()));
        } else if line.starts_with("## ") {
            // A new top-level section ends the tool section before it.
            found.push((String::new(), Vec::new(), Vec::new()));
        } else if let Some((_, kinds, args)) = found.last_mut() {
            if let Some(kind) = line.strip_prefix("Kind:") {
                kinds.push(kind.trim().to_owned());
            } else if let Some(list) = line.strip_prefix("Arguments:") {
                args.push(list.trim().to_owned());
            }
        }
    }
    found
        .into_iter()
        .filter(|(name, _, _)| !name.is_empty())
        .map(|(name, kinds, args)| {
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
            })
        })
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// The checker itself reads the format as meant, and refuses a section it cannot read.
#[test]
fn the_format_is_read_exactly() {
    let page = "# T\n\n### a\n\nKind: read\n\nArguments: none\n\n## Writes\n\n\
                ### b\n\nKind: write (idempotent)\n\nArguments: vault?, name, kind\n\n\
                ## Planned\n\nKind: not a tool\n";
    assert_eq!(
        sections(page),
        Ok(vec![
            Section {
                name: "a".into(),
                kind: "read".into(),
                arguments: set(&[]),
                required: set(&[]),
            },
            Section {
                name: "b".into(),
                kind: "write (idempotent)".into(),
                arguments: set(&["vault", "name", "kind"]),
                required: set(&["name", "kind"]),
            },
        ])
    );
    assert_eq!(
        sections("### a\nKind: read\n"),
        Err("a: 0 `Arguments:` lines, want 1".to_owned())
    );
    assert_eq!(
        sections("### a\nKind: read\nArguments: x, x?\n"),
        Err("a: argument \"x?\" empty or repeated".to_owned())
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
    }
}

//! The command line of `dochiya-mcp`: parsed here (testable), run by [`crate::run`].

/// What the binary was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Serve: under Lambda when a runtime API is present, else the local server.
    Serve {
        /// `--port` (overrides `DOCHIYA_PORT`).
        port: Option<u16>,
    },
    /// Print a dev token.
    Token {
        /// The token's `sub`.
        sub: String,
        /// `--name`: the display name others see in a shared vault (default: the `sub`).
        name: Option<String>,
        /// Space-separated scopes.
        scopes: String,
        /// `--port`: the local port whose resource URL is the audience.
        port: Option<u16>,
    },
    /// Create the DynamoDB table `DOCHIYA_TABLE` (local DynamoDB-compatible servers).
    CreateTable,
    /// Write a vault's full backup (JSON lines) to stdout.
    Export {
        /// `--vault`: the vault's name (optional when the person has one).
        vault: Option<String>,
        /// `--sub`: whose vault (the person's subject).
        sub: String,
    },
    /// Restore a backup read from stdin into the configured store.
    Import {
        /// `--person OLD=NEW`: restore a person's items under another subject.
        persons: Vec<(String, String)>,
        /// `--check`: read and check the file, say whom it gives access, write nothing.
        check: bool,
    },
    /// Post the recurring entries due in every vault (the scheduled run), once.
    PostDue {
        /// `--at`: as of this time (RFC 3339; never later than now; default now).
        at: Option<jiff::Timestamp>,
        /// `--max-vaults`: most vaults this run visits (default `DOCHIYA_POST_DUE_MAX_VAULTS`).
        max_vaults: Option<usize>,
    },
    /// Print usage.
    Help,
}

/// Usage text.
pub const USAGE: &str = "\
usage: dochiya-mcp [serve] [--port N]
       dochiya-mcp token [--sub S] [--name N] [--scopes \"ledger:read ledger:write\"] [--port N]
       dochiya-mcp create-table
       dochiya-mcp export [--vault NAME] [--sub S] > book.jsonl
       dochiya-mcp import [--check] [--person OLD_SUB=NEW_SUB]... < book.jsonl
       dochiya-mcp post-due [--at 2026-03-15T00:00:00Z] [--max-vaults N]
Configuration is read from DOCHIYA_* environment variables (see README).";

/// Parse the arguments after the program name.
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut args = args.into_iter().peekable();
    let sub = match args.peek().map(String::as_str) {
        Some("serve") | Some("token") | Some("create-table") | Some("export") | Some("import")
        | Some("post-due") | Some("help") => args.next(),
        Some("-h") | Some("--help") => return Ok(Command::Help),
        _ => None,
    };
    let mut port = None;
    let mut subject = None;
    let mut name = None;
    let mut scopes = None;
    let mut vault = None;
    let mut persons = Vec::new();
    let mut at = None;
    let mut max_vaults = None;
    let mut check = false;
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--port" => port = Some(crate::config::parse_port(&value()?)?),
            "--sub" => subject = Some(value()?),
            "--name" => name = Some(value()?),
            "--scopes" => scopes = Some(value()?),
            "--vault" => vault = Some(value()?),
            "--person" => {
                let v = value()?;
                match v.split_once('=') {
                    Some((old, new)) if !old.is_empty() && !new.is_empty() => {
                        persons.push((old.to_owned(), new.to_owned()))
                    }
                    _ => return Err(format!("--person needs OLD_SUB=NEW_SUB, not {v:?}")),
                }
            }
            "--at" => {
                let v = value()?;
                at = Some(v.parse::<jiff::Timestamp>().map_err(|_| {
                    format!("--at needs an RFC 3339 time such as 2026-03-15T00:00:00Z, not {v:?}")
                })?);
            }
            "--max-vaults" => {
                let v = value()?;
                max_vaults = Some(
                    v.parse::<usize>()
                        .ok()
                        .filter(|n| (1..=100_000).contains(n))
                        .ok_or_else(|| {
                            format!("--max-vaults needs a whole number from 1 to 100000, not {v:?}")
                        })?,
                );
            }
            "--check" if inline.is_none() => check = true,
            "-h" | "--help" => return Ok(Command::Help),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if vault.is_some() && sub.as_deref() != Some("export") {
        return Err("--vault belongs to `export`".to_owned());
    }
    if (!persons.is_empty() || check) && sub.as_deref() != Some("import") {
        return Err("--person and --check belong to `import`".to_owned());
    }
    if (at.is_some() || max_vaults.is_some()) && sub.as_deref() != Some("post-due") {
        return Err("--at and --max-vaults belong to `post-due`".to_owned());
    }
    let only_port = |cmd: &str| {
        if subject.is_some() || scopes.is_some() || name.is_some() {
            Err(format!(
                "--sub, --name and --scopes belong to `token`, not `{cmd}`"
            ))
        } else {
            Ok(())
        }
    };
    match sub.as_deref() {
        None | Some("serve") => only_port("serve").map(|()| Command::Serve { port }),
        Some("token") => Ok(Command::Token {
            sub: subject.unwrap_or_else(|| crate::assemble::STARTUP_TOKEN_SUBJECT.to_owned()),
            name,
            scopes: scopes.unwrap_or_else(|| "ledger:read ledger:write".to_owned()),
            port,
        }),
        Some("create-table") => match (port, only_port("create-table")) {
            (Some(_), _) => Err("--port does not apply to create-table".to_owned()),
            (None, r) => r.map(|()| Command::CreateTable),
        },
        Some("export") => match (port, scopes) {
            (None, None) => Ok(Command::Export {
                vault,
                sub: subject.unwrap_or_else(|| crate::assemble::STARTUP_TOKEN_SUBJECT.to_owned()),
            }),
            _ => Err("export takes --vault and --sub only".to_owned()),
        },
        Some("import") => match (port, only_port("import")) {
            (Some(_), _) => Err("--port does not apply to import".to_owned()),
            (None, r) => r.map(|()| Command::Import { persons, check }),
        },
        Some("post-due") => match (port, only_port("post-due")) {
            (Some(_), _) => Err("--port does not apply to post-due".to_owned()),
            (None, r) => r.map(|()| Command::PostDue { at, max_vaults }),
        },
        _ => Ok(Command::Help),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(|s| (*s).to_owned()))
    }

    #[test]
    fn default_is_serve() {
        assert_eq!(p(&[]), Ok(Command::Serve { port: None }));
        assert_eq!(p(&["--port", "9100"]), Ok(Command::Serve { port: Some(9100) }));
        assert_eq!(p(&["serve", "--port=0"]), Ok(Command::Serve { port: Some(0) }));
    }

    #[test]
    fn token_takes_sub_scopes_and_port() {
        assert_eq!(
            p(&[
                "token",
                "--sub",
                "alice",
                "--name",
                "Alice",
                "--scopes",
                "ledger:read"
            ]),
            Ok(Command::Token {
                sub: "alice".into(),
                name: Some("Alice".into()),
                scopes: "ledger:read".into(),
                port: None
            })
        );
        assert_eq!(
            p(&["token"]),
            Ok(Command::Token {
                sub: "local".into(),
                name: None,
                scopes: "ledger:read ledger:write".into(),
                port: None
            })
        );
    }

    #[test]
    fn errors_are_named() {
        assert_eq!(p(&["--port"]), Err("--port needs a value".into()));
        assert_eq!(p(&["--bogus"]), Err("unknown argument \"--bogus\"".into()));
        assert_eq!(
            p(&["--port", "x"]),
            Err("\"x\" is not a port number (0-65535)".into())
        );
        assert_eq!(
            p(&["serve", "--sub", "a"]),
            Err("--sub, --name and --scopes belong to `token`, not `serve`".into())
        );
        assert_eq!(
            p(&["create-table", "--port", "1"]),
            Err("--port does not apply to create-table".into())
        );
        assert_eq!(p(&["create-table"]), Ok(Command::CreateTable));
        assert_eq!(p(&["--help"]), Ok(Command::Help));
    }

    #[test]
    fn post_due_takes_a_time_and_a_cap() {
        assert_eq!(
            p(&["post-due", "--at", "2026-03-15T00:00:00Z", "--max-vaults=50"]),
            Ok(Command::PostDue {
                at: "2026-03-15T00:00:00Z".parse().ok(),
                max_vaults: Some(50)
            })
        );
        assert_eq!(
            p(&["post-due"]),
            Ok(Command::PostDue {
                at: None,
                max_vaults: None
            })
        );
        assert_eq!(
            p(&["post-due", "--at", "yesterday"]),
            Err("--at needs an RFC 3339 time such as 2026-03-15T00:00:00Z, not \"yesterday\"".into())
        );
        assert_eq!(
            p(&["post-due", "--max-vaults", "0"]),
            Err("--max-vaults needs a whole number from 1 to 100000, not \"0\"".into())
        );
        assert_eq!(
            p(&["serve", "--at", "2026-03-15T00:00:00Z"]),
            Err("--at and --max-vaults belong to `post-due`".into())
        );
        assert_eq!(
            p(&["post-due", "--port", "1"]),
            Err("--port does not apply to post-due".into())
        );
    }

    #[test]
    fn export_and_import_take_their_own_flags() {
        assert_eq!(
            p(&["export", "--vault", "우리집"]),
            Ok(Command::Export {
                vault: Some("우리집".into()),
                sub: "local".into()
            })
        );
        assert_eq!(
            p(&["import", "--person", "local=google-123", "--person=a=b"]),
            Ok(Command::Import {
                persons: vec![("local".into(), "google-123".into()), ("a".into(), "b".into())],
                check: false,
            })
        );
        assert_eq!(
            p(&["import", "--check"]),
            Ok(Command::Import {
                persons: vec![],
                check: true,
            })
        );
        assert_eq!(
            p(&["export", "--check"]),
            Err("--person and --check belong to `import`".into())
        );
        assert_eq!(
            p(&["import", "--person", "local"]),
            Err("--person needs OLD_SUB=NEW_SUB, not \"local\"".into())
        );
        assert_eq!(
            p(&["import", "--vault", "x"]),
            Err("--vault belongs to `export`".into())
        );
        assert_eq!(
            p(&["export", "--person", "a=b"]),
            Err("--person and --check belong to `import`".into())
        );
        assert_eq!(
            p(&["export", "--port", "1"]),
            Err("export takes --vault and --sub only".into())
        );
    }
}

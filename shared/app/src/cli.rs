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
    /// Delete a person's data (vaults they alone keep, their memberships, grants).
    DeletePerson {
        /// `--sub`: whose (required: no default person is deleted).
        sub: String,
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
       dochiya-mcp delete-person --sub S
Configuration is read from DOCHIYA_* environment variables (see README).";

/// The subcommands, each as the first argument.
const SUBCOMMANDS: [&str; 8] = [
    "serve",
    "token",
    "create-table",
    "export",
    "import",
    "post-due",
    "delete-person",
    "help",
];

/// Parse the arguments after the program name.
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut parser = lexopt::Parser::from_args(args);
    // Only the first argument can name a subcommand; a later word is an unknown argument.
    let sub = parser
        .raw_args()
        .map_err(message)?
        .next_if(|first| first.to_str().is_some_and(|f| SUBCOMMANDS.contains(&f)))
        .and_then(|sub| sub.into_string().ok());
    let flags = read_flags(&mut parser)?;
    command(sub.as_deref(), flags)
}

/// The flags as given, before they are checked against the subcommand.
#[derive(Default)]
struct Flags {
    port: Option<u16>,
    subject: Option<String>,
    name: Option<String>,
    scopes: Option<String>,
    vault: Option<String>,
    persons: Vec<(String, String)>,
    at: Option<jiff::Timestamp>,
    max_vaults: Option<usize>,
    check: bool,
    /// `-h` or `--help` came before anything wrong: usage, whatever else was given.
    help: bool,
}

/// Read every flag (`--flag value` or `--flag=value`); stop at `-h`/`--help`.
fn read_flags(parser: &mut lexopt::Parser) -> Result<Flags, String> {
    use lexopt::Arg::{Long, Short};
    let mut flags = Flags::default();
    while let Some(arg) = parser.next().map_err(message)? {
        match arg {
            Long("port") => flags.port = Some(crate::config::parse_port(&value(parser)?)?),
            Long("sub") => flags.subject = Some(value(parser)?),
            Long("name") => flags.name = Some(value(parser)?),
            Long("scopes") => flags.scopes = Some(value(parser)?),
            Long("vault") => flags.vault = Some(value(parser)?),
            Long("person") => {
                let v = value(parser)?;
                match v.split_once('=') {
                    Some((old, new)) if !old.is_empty() && !new.is_empty() => {
                        flags.persons.push((old.to_owned(), new.to_owned()))
                    }
                    _ => return Err(format!("--person needs OLD_SUB=NEW_SUB, not {v:?}")),
                }
            }
            Long("at") => {
                let v = value(parser)?;
                flags.at = Some(v.parse::<jiff::Timestamp>().map_err(|_| {
                    format!("--at needs an RFC 3339 time such as 2026-03-15T00:00:00Z, not {v:?}")
                })?);
            }
            Long("max-vaults") => {
                let v = value(parser)?;
                flags.max_vaults = Some(
                    v.parse::<usize>()
                        .ok()
                        .filter(|n| (1..=100_000).contains(n))
                        .ok_or_else(|| {
                            format!("--max-vaults needs a whole number from 1 to 100000, not {v:?}")
                        })?,
                );
            }
            Long("check") => flags.check = true,
            Short('h') | Long("help") => {
                flags.help = true;
                break;
            }
            other => return Err(message(other.unexpected())),
        }
    }
    Ok(flags)
}

/// The value of the flag just read.
fn value(parser: &mut lexopt::Parser) -> Result<String, String> {
    let value = parser.value().map_err(message)?;
    value
        .into_string()
        .map_err(|v| format!("{:?} is not UTF-8", v.to_string_lossy()))
}

/// The parser's refusals in our words (the same words as before it was used).
fn message(error: lexopt::Error) -> String {
    match error {
        lexopt::Error::MissingValue { option: Some(option) } => format!("{option} needs a value"),
        lexopt::Error::UnexpectedOption(option) => format!("unknown argument {option:?}"),
        lexopt::Error::UnexpectedValue { option, .. } => format!("{option} takes no value"),
        lexopt::Error::UnexpectedArgument(argument) => {
            format!("unknown argument {:?}", argument.to_string_lossy())
        }
        other => other.to_string(),
    }
}

/// The command `sub` names, with the flags that belong to it (and no others).
fn command(sub: Option<&str>, flags: Flags) -> Result<Command, String> {
    if flags.help {
        return Ok(Command::Help);
    }
    let Flags {
        port,
        subject,
        name,
        scopes,
        vault,
        persons,
        at,
        max_vaults,
        check,
        help: _,
    } = flags;
    if vault.is_some() && sub != Some("export") {
        return Err("--vault belongs to `export`".to_owned());
    }
    if (!persons.is_empty() || check) && sub != Some("import") {
        return Err("--person and --check belong to `import`".to_owned());
    }
    if (at.is_some() || max_vaults.is_some()) && sub != Some("post-due") {
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
    match sub {
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
        Some("delete-person") => match (subject, port, scopes, name) {
            (Some(sub), None, None, None) => Ok(Command::DeletePerson { sub }),
            (None, ..) => Err("delete-person needs --sub: whose data to delete".to_owned()),
            _ => Err("delete-person takes --sub only".to_owned()),
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

    /// Where a parser reads differently from splitting by hand: `--` ends the flags (what
    /// follows is an argument, refused), a subcommand counts only first, a flag that takes
    /// no value refuses one, and a value may start with `-`.
    #[test]
    fn the_command_line_reads_as_getopt_does() {
        assert_eq!(p(&["--"]), Ok(Command::Serve { port: None }));
        assert_eq!(
            p(&["--", "--port", "1"]),
            Err("unknown argument \"--port\"".into())
        );
        assert_eq!(
            p(&["--port", "1", "token"]),
            Err("unknown argument \"token\"".into())
        );
        assert_eq!(p(&["serve", "extra"]), Err("unknown argument \"extra\"".into()));
        assert_eq!(p(&["-x"]), Err("unknown argument \"-x\"".into()));
        assert_eq!(
            p(&["import", "--check=yes"]),
            Err("--check takes no value".into())
        );
        assert_eq!(
            p(&["token", "--sub", "-h"]),
            Ok(Command::Token {
                sub: "-h".into(),
                name: None,
                scopes: "ledger:read ledger:write".into(),
                port: None
            })
        );
        assert_eq!(p(&["--help", "--bogus"]), Ok(Command::Help));
        assert_eq!(p(&["-h"]), Ok(Command::Help));
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
    fn delete_person_names_its_person_and_nothing_else() {
        assert_eq!(
            p(&["delete-person", "--sub", "u-1"]),
            Ok(Command::DeletePerson { sub: "u-1".into() })
        );
        assert_eq!(
            p(&["delete-person"]),
            Err("delete-person needs --sub: whose data to delete".into())
        );
        assert_eq!(
            p(&["delete-person", "--sub", "u-1", "--port", "9"]),
            Err("delete-person takes --sub only".into())
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

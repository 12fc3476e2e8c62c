//! The local sign-in code: proof that whoever signs in on the local page can read the
//! data directory (or the terminal that started the server).
//!
//! The local server is for one person on this machine. Anything on the machine, and any
//! web page in its browser, can reach 127.0.0.1, so the sign-in page must ask for
//! something only that person has: a code made at each start, printed on the terminal
//! and written to `signin-code` (0600) in the data directory (0700). Wrong codes are
//! limited to [`MAX_WRONG_PER_MINUTE`] a minute across the process, so the 60-bit code
//! cannot be guessed (docs/decisions/033-one-address-policy-for-outbound-fetches.md).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The file in the data directory that holds the current code.
pub const CODE_FILE: &str = "signin-code";
/// Wrong codes accepted per minute before every attempt is refused for the rest of it.
pub const MAX_WRONG_PER_MINUTE: usize = 5;
const WINDOW: Duration = Duration::from_secs(60);
/// Crockford's base32: no I, L, O, U (read aloud and typed without confusion).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Why a typed code was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeRefusal {
    /// Not the code.
    Wrong,
    /// Too many wrong codes in the last minute; nothing is compared until it passes.
    TooMany,
}

/// The code of this run and the recent wrong attempts.
pub struct SignInCode {
    code: String,
    wrong: Mutex<VecDeque<Instant>>,
}

impl std::fmt::Debug for SignInCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SignInCode([redacted])")
    }
}

impl SignInCode {
    /// A new random code (12 characters, 60 bits, shown as `XXXX-XXXX-XXXX`).
    pub fn generate() -> Result<Self, aws_lc_rs::error::Unspecified> {
        let mut bytes = [0u8; 12];
        aws_lc_rs::rand::fill(&mut bytes)?;
        let code = bytes
            .iter()
            .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
            .collect();
        Ok(Self::from_code(code))
    }

    /// This exact code (tests).
    pub fn from_code(code: String) -> Self {
        SignInCode {
            code: normalize(&code),
            wrong: Mutex::new(VecDeque::new()),
        }
    }

    /// The code as printed: `XXXX-XXXX-XXXX`.
    pub fn display(&self) -> String {
        let chars: Vec<char> = self.code.chars().collect();
        chars
            .chunks(4)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// Whether `typed` is the code (case, dashes and spaces ignored; `O`→`0`, `I`/`L`→`1`).
    pub fn check(&self, typed: &str) -> Result<(), CodeRefusal> {
        let mut wrong = self.wrong.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        while wrong.front().is_some_and(|at| now.duration_since(*at) >= WINDOW) {
            wrong.pop_front();
        }
        if wrong.len() >= MAX_WRONG_PER_MINUTE {
            return Err(CodeRefusal::TooMany);
        }
        // Bounded before normalizing: the code is 12 characters.
        let typed: String = typed.chars().take(64).collect();
        if crate::web::same_secret(&normalize(&typed), &self.code) {
            return Ok(());
        }
        wrong.push_back(now);
        Err(CodeRefusal::Wrong)
    }

    /// Write the code to [`CODE_FILE`] in `data_dir` (0600, through a temporary file and a
    /// rename, so a reader never sees half of it); the path written.
    pub fn write_to(&self, data_dir: &Path) -> std::io::Result<PathBuf> {
        let path = data_dir.join(CODE_FILE);
        dochiya_outbound::private_file::replace(&path, format!("{}\n", self.display()).as_bytes())?;
        Ok(path)
    }
}

fn normalize(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_is_forgiving_in_spelling_and_limits_wrong_guesses() {
        let code = SignInCode::from_code("AB01-CD23-EF45".into());
        assert_eq!(code.display(), "AB01-CD23-EF45");
        assert_eq!(code.check("ab0l cd23 ef45"), Ok(()));
        assert_eq!(code.check("abO1-cd23-ef45"), Ok(()));
        for _ in 0..MAX_WRONG_PER_MINUTE {
            assert_eq!(code.check("AB01-CD23-EF46"), Err(CodeRefusal::Wrong));
        }
        // Five wrong in the minute: even the right code waits now.
        assert_eq!(code.check("AB01-CD23-EF45"), Err(CodeRefusal::TooMany));
        assert_eq!(code.check(&"x".repeat(100_000)), Err(CodeRefusal::TooMany));
    }

    #[test]
    fn generated_codes_are_twelve_crockford_characters_and_written_private() {
        let a = SignInCode::generate().unwrap();
        let b = SignInCode::generate().unwrap();
        assert_ne!(a.display(), b.display());
        let shown = a.display();
        assert_eq!(shown.len(), 14);
        assert!(shown.chars().all(|c| c == '-' || ALPHABET.contains(&(c as u8))));
        let dir = std::env::temp_dir().join(format!("dochiya-signin-code-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = a.write_to(&dir).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{shown}\n"));
        // A second start replaces the code.
        b.write_to(&dir).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().trim(), b.display());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

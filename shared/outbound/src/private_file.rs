//! Owner-only files (0600 on Unix) written whole: a temporary file beside the target,
//! synced, then linked or renamed to its name, so no reader sees a partial file.
//!
//! Here because it is the lowest crate both `auth` (the dev secret) and `authserver`
//! (the signing key, the sign-in code) already depend on.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Create `path` holding `bytes` (0600) unless it exists (`AlreadyExists`): a racing
/// start that lost keeps the winner's file.
pub fn create(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    place(path, bytes, |temp| std::fs::hard_link(temp, path))
}

/// Write `path` holding `bytes` (0600), replacing any file of that name whole.
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    place(path, bytes, |temp| std::fs::rename(temp, path))
}

/// Write the temporary file, hand it to `link`, and remove it whatever happened (after a
/// rename there is nothing left to remove).
fn place(path: &Path, bytes: &[u8], link: impl FnOnce(&Path) -> std::io::Result<()>) -> std::io::Result<()> {
    let temp = temp_beside(path);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let written = options
        .open(&temp)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()));
    let placed = written.and_then(|()| link(&temp));
    let _ = std::fs::remove_file(&temp);
    placed
}

/// `.<name>.<pid>.tmp` beside `path`: one per process, so two starts never share one.
fn temp_beside(path: &Path) -> PathBuf {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dochiya-private-file-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// The names in `dir`, sorted: no temporary file is left behind.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn create_writes_once_and_then_refuses() {
        let dir = temp_dir("create");
        let path = dir.join("secret");
        create(&path, b"first").unwrap();
        let again = create(&path, b"second").unwrap_err();
        assert_eq!(again.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        #[cfg(unix)]
        assert_eq!(mode(&path), 0o600);
        assert_eq!(names(&dir), ["secret"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn replace_overwrites_whole_and_private() {
        let dir = temp_dir("replace");
        let path = dir.join("code");
        std::fs::write(&path, b"an older, longer text").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        replace(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        #[cfg(unix)]
        assert_eq!(mode(&path), 0o600);
        assert_eq!(names(&dir), ["code"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_no_temporary_file() {
        let dir = temp_dir("missing");
        // The parent of the target does not exist: the temporary file cannot be opened.
        let err = replace(&dir.join("absent").join("code"), b"x").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
        assert_eq!(names(&dir), Vec::<String>::new());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Atomic file writes: the one implementation every crate of the workspace uses (checkpoints,
//! shards' temporary names, ladders, viewer pages, draw-rate stores and reports, repaired PGN
//! logs). A reader never sees a half-written file and a kill mid-write loses nothing: the bytes go
//! to a temporary name in the same directory (so the rename stays on one file system), are
//! flushed to disk, then renamed over the target.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A fresh temporary name next to `path`: `.NAME.PID.N.tmp` in the same directory, unique within
/// the process (a counter) and between processes (the process id).
pub fn temp_name(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Writes `bytes` to `path` through [`temp_name`], `fsync` and a rename, creating the parent
/// directory if needed. On failure the temporary file is removed and `path` is untouched.
///
/// # Errors
/// The I/O error, its message prefixed with `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(named)?;
    }
    let tmp = temp_name(path);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(named)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_whole_files_and_leave_no_temporaries() {
        let dir = std::env::temp_dir().join(format!("anqi-fsio-{}", std::process::id()));
        let path = dir.join("sub").join("a.txt");
        write_atomic(&path, b"first").expect("write");
        write_atomic(&path, b"second").expect("rewrite");
        assert_eq!(std::fs::read(&path).expect("read"), b"second");
        let left: Vec<_> = std::fs::read_dir(path.parent().expect("parent")).expect("dir").collect();
        assert_eq!(left.len(), 1, "temporaries left behind");
        assert_ne!(temp_name(&path), temp_name(&path));
        std::fs::remove_dir_all(&dir).expect("clean");
    }

    #[test]
    fn a_failed_write_names_the_path() {
        // A directory where the file should be: the rename fails.
        let dir = std::env::temp_dir().join(format!("anqi-fsio-dir-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("taken").join("x")).expect("mkdir");
        let e = write_atomic(&dir.join("taken"), b"x").expect_err("a directory is in the way");
        assert!(e.to_string().contains("taken"), "{e}");
        std::fs::remove_dir_all(&dir).expect("clean");
    }
}

//! Build script for `anqi-farm`.
//!
//! * rpath to libtorch (`DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB`, exported by `anqi-models`' build
//!   script) and `--no-as-needed` for `libtorch_cuda.so`, for this package's own test and example
//!   binaries, so they run without `LD_LIBRARY_PATH` and find CUDA (`rustc-link-arg` reaches only
//!   this package's targets; the `anqi-torch` binary gets the same flags from `anqi-selfplay`'s
//!   build script);
//! * `ANQI_GIT_REVISION`: `git rev-parse --short=12 HEAD` at build time, or `unknown` (recorded in
//!   checkpoints and printed by `anqi doctor`).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB");
    println!("cargo:rerun-if-env-changed=DEP_ANQI_TORCH_RPATH_TORCH_CUDA");
    match env::var("DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB") {
        Ok(lib) => {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
            if env::var("DEP_ANQI_TORCH_RPATH_TORCH_CUDA").as_deref() == Ok("1") {
                println!("cargo:rustc-link-arg=-Wl,--no-as-needed,-ltorch_cuda,--as-needed");
            }
        }
        Err(_) => println!("cargo:warning=anqi-models exported no libtorch dir; no rpath emitted"),
    }

    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    // selfplay/farm: the repository is two levels up.
    let root = manifest_dir.ancestors().nth(2).unwrap_or(&manifest_dir).to_path_buf();
    println!("cargo:rustc-env=ANQI_GIT_REVISION={}", git_revision(&root));
}

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (!s.is_empty()).then_some(s)
}

fn git_revision(root: &Path) -> String {
    // Rerun when HEAD moves: watch HEAD and the refs (directories are scanned
    // recursively; only existing paths, since a missing one reruns every build).
    if let Some(git_dir) = git(root, &["rev-parse", "--absolute-git-dir"]) {
        let git_dir = PathBuf::from(git_dir);
        for p in ["HEAD", "refs/heads", "packed-refs"] {
            let p = git_dir.join(p);
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
    git(root, &["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_owned())
}

//! Build script for `anqi-models`.
//!
//! torch-sys (`links = "tch"`) exports the libtorch library directory as
//! `DEP_TCH_LIBTORCH_LIB`. From it this script
//! * adds an rpath to it for this crate's own test/bench binaries,
//! * forces `libtorch_cuda.so` to stay a runtime dependency (`--no-as-needed`),
//!   otherwise the linker drops it and CUDA is reported unavailable,
//! * re-exports the directory as `cargo:libtorch_lib=` (this crate has
//!   `links = "anqi_torch_rpath"`, so dependants see
//!   `DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB`) together with `cargo:torch_cuda=0|1`,
//! * records the libtorch and tch versions as compile-time env vars
//!   (`ANQI_LIBTORCH_VERSION`, `ANQI_TCH_VERSION`, `ANQI_TORCH_SYS_VERSION`).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");

    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let lock = manifest_dir.join("..").join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let lock_text = fs::read_to_string(&lock).unwrap_or_default();
    let tch = locked_version(&lock_text, "tch").unwrap_or_else(|| "unknown".into());
    let torch_sys = locked_version(&lock_text, "torch-sys").unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=ANQI_TCH_VERSION={tch}");
    println!("cargo:rustc-env=ANQI_TORCH_SYS_VERSION={torch_sys}");

    let Ok(lib) = env::var("DEP_TCH_LIBTORCH_LIB") else {
        // torch-sys only exports this on Linux/macOS (and not with `doc-only`).
        println!("cargo:warning=DEP_TCH_LIBTORCH_LIB not set by torch-sys; no rpath emitted");
        println!("cargo:rustc-env=ANQI_LIBTORCH_VERSION=unknown");
        println!("cargo:rustc-env=ANQI_LIBTORCH_LIB=unknown");
        println!("cargo:torch_cuda=0");
        return;
    };
    // Canonical path: `.venv/libtorch/lib` is a symlink into the pip torch package;
    // the real directory keeps torch's own `$ORIGIN/../../nvidia/...` rpaths meaningful.
    let lib = fs::canonicalize(&lib).unwrap_or_else(|_| PathBuf::from(&lib));
    let lib_s = lib.display().to_string();

    let version = libtorch_version(
        Path::new(&env::var("DEP_TCH_LIBTORCH_LIB").unwrap_or_default()),
        &lib,
    )
    .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=ANQI_LIBTORCH_VERSION={version}");
    println!("cargo:rustc-env=ANQI_LIBTORCH_LIB={lib_s}");

    println!("cargo:rustc-link-arg=-Wl,-rpath,{lib_s}");
    let cuda = lib.join("libtorch_cuda.so").exists();
    if cuda {
        println!("cargo:rustc-link-arg=-Wl,--no-as-needed,-ltorch_cuda,--as-needed");
    }
    println!("cargo:libtorch_lib={lib_s}");
    println!("cargo:torch_cuda={}", u8::from(cuda));
}

/// `version = "…"` following `name = "<name>"` in Cargo.lock.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let needle = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == needle {
            let v = lines
                .next()?
                .trim()
                .strip_prefix("version = \"")?
                .strip_suffix('"')?;
            return Some(v.to_owned());
        }
    }
    None
}

/// Version of the libtorch whose lib dir is `lib` (as given, and canonical):
/// `../build-version` (e.g. `2.13.0+cu130`, libtorch zips and `scripts/setup`),
/// else MAJOR.MINOR.PATCH from `../include/torch/headeronly/version.h`.
fn libtorch_version(lib_given: &Path, lib_real: &Path) -> Option<String> {
    for lib in [lib_given, lib_real] {
        let Some(root) = lib.parent() else { continue };
        let bv = root.join("build-version");
        if let Ok(s) = fs::read_to_string(&bv) {
            // Only existing files: a missing rerun-if-changed path reruns every build.
            println!("cargo:rerun-if-changed={}", bv.display());
            let s = s.trim();
            if !s.is_empty() {
                return Some(s.to_owned());
            }
        }
    }
    for lib in [lib_given, lib_real] {
        let Some(root) = lib.parent() else { continue };
        for rel in [
            "include/torch/headeronly/version.h",
            "include/torch/csrc/api/include/torch/version.h",
        ] {
            let Ok(h) = fs::read_to_string(root.join(rel)) else {
                continue;
            };
            println!("cargo:rerun-if-changed={}", root.join(rel).display());
            let get = |m: &str| {
                h.lines().find_map(|l| {
                    let rest = l.trim().strip_prefix("#define ")?.strip_prefix(m)?;
                    rest.trim().parse::<u32>().ok()
                })
            };
            if let (Some(a), Some(b), Some(c)) = (
                get("TORCH_VERSION_MAJOR"),
                get("TORCH_VERSION_MINOR"),
                get("TORCH_VERSION_PATCH"),
            ) {
                return Some(format!("{a}.{b}.{c}"));
            }
        }
    }
    None
}

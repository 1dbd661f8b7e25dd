//! How `anqi` runs the commands that need libtorch: it replaces itself (unix `exec`) with
//! `anqi-torch`, its torch-linked twin with the same command line ([`super::app::Cli`]), found
//! beside its own executable, passing the arguments on; stdin, stdout, stderr, the process id and
//! the exit status are then the helper's. So `anqi` itself never maps libtorch and starts in
//! milliseconds, and `anqi train`, `anqi play --red net:…` and the rest work as before.
//!
//! `cargo build --workspace` and `cargo build -p anqi-selfplay` build both binaries, but
//! `cargo run --bin anqi` builds only `anqi`. So when `anqi` runs from a cargo profile directory
//! (`target/release`, it has `.fingerprint/`) under cargo (`CARGO` is set: `cargo run` and
//! `cargo test` set it for the programs they run) and the helper is missing or older than `anqi`,
//! `anqi` first builds it with that cargo, in the same profile and target directory. Otherwise a
//! missing helper is an error naming its path and the command that builds it.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::SystemTime;

/// File name of the torch-linked helper binary (without `EXE_SUFFIX`).
pub const HELPER: &str = "anqi-torch";

/// The package whose binaries `anqi` and `anqi-torch` are.
pub const PACKAGE: &str = "anqi-selfplay";

/// Why a torch command could not be handed to the helper.
#[derive(Debug, thiserror::Error)]
pub enum HelperError {
    /// The running executable's path is unknown.
    #[error("cannot locate the running anqi executable: {0}")]
    CurrentExe(std::io::Error),
    /// The helper is not beside `anqi` and cannot be built here.
    #[error(
        "{} is missing: this command needs libtorch, which only that helper (anqi's command line, \
         torch-linked) links; build it with `{build}` (or everything: `cargo build --release --workspace`) \
         and keep it beside anqi",
        helper.display()
    )]
    Missing {
        /// Where the helper should be.
        helper: PathBuf,
        /// The command that builds it.
        build: Box<BuildCommand>,
    },
    /// Cargo could not be started to build the helper.
    #[error("could not start `{build}` to build {}: {error}", helper.display())]
    Spawn {
        /// Where the helper should be.
        helper: PathBuf,
        /// The command that was to build it.
        build: Box<BuildCommand>,
        /// The failure.
        error: std::io::Error,
    },
    /// Cargo failed to build the helper.
    #[error("`{build}` failed ({status}), and this command needs {}", helper.display())]
    BuildFailed {
        /// Where the helper should be.
        helper: PathBuf,
        /// The command that was to build it.
        build: Box<BuildCommand>,
        /// Cargo's exit status.
        status: ExitStatus,
    },
    /// Cargo succeeded but the helper is not where `anqi` looks for it.
    #[error("`{build}` succeeded but {} is still missing", helper.display())]
    NotBuilt {
        /// Where the helper should be.
        helper: PathBuf,
        /// The command that built it.
        build: Box<BuildCommand>,
    },
    /// The helper could not be executed.
    #[error("could not run {}: {error}", helper.display())]
    Exec {
        /// The helper.
        helper: PathBuf,
        /// The failure.
        error: std::io::Error,
    },
}

/// `cargo build` of the helper in one profile, with where it runs when `anqi` runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildCommand {
    /// The cargo program (`$CARGO`, or `cargo` when only shown).
    pub cargo: OsString,
    /// The cargo profile (`dev` for `target/debug`).
    pub profile: String,
    /// `--manifest-path`, when given.
    pub manifest: Option<PathBuf>,
    /// `--target-dir`, when given.
    pub target_dir: Option<PathBuf>,
}

impl BuildCommand {
    /// The command shown to a user for `profile`: `cargo build --release -p anqi-selfplay --bin
    /// anqi-torch` (no profile flag for `dev`, `--profile P` for others).
    pub fn shown(profile: &str) -> BuildCommand {
        BuildCommand { cargo: "cargo".into(), profile: profile.to_owned(), manifest: None, target_dir: None }
    }

    /// The arguments after the cargo program.
    pub fn args(&self) -> Vec<OsString> {
        let mut a: Vec<OsString> = vec!["build".into()];
        match self.profile.as_str() {
            "dev" => {}
            "release" => a.push("--release".into()),
            p => a.extend(["--profile".into(), p.into()]),
        }
        a.extend(["-p".into(), PACKAGE.into(), "--bin".into(), HELPER.into()]);
        if let Some(m) = &self.manifest {
            a.extend(["--manifest-path".into(), m.into()]);
        }
        if let Some(t) = &self.target_dir {
            a.extend(["--target-dir".into(), t.into()]);
        }
        a
    }
}

impl fmt::Display for BuildCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Path::new(&self.cargo).display())?;
        for a in self.args() {
            write!(f, " {}", Path::new(&a).display())?;
        }
        Ok(())
    }
}

/// The cargo profile whose output directory is `dir` (`target/debug` is the `dev` profile's).
pub fn profile_of_dir(dir: &Path) -> Option<String> {
    match dir.file_name()?.to_str()? {
        "debug" => Some("dev".to_owned()),
        name => Some(name.to_owned()),
    }
}

/// The helper beside a given `anqi` executable.
#[derive(Clone, Debug)]
pub struct Helper {
    exe: PathBuf,
    path: PathBuf,
}

impl Helper {
    /// The helper beside the running executable.
    ///
    /// # Errors
    /// [`HelperError::CurrentExe`].
    pub fn beside_current_exe() -> Result<Helper, HelperError> {
        let exe = std::env::current_exe().map_err(HelperError::CurrentExe)?;
        Ok(Helper::beside(exe))
    }

    /// The helper beside `exe`.
    pub fn beside(exe: PathBuf) -> Helper {
        let path = exe.with_file_name(format!("{HELPER}{}", std::env::consts::EXE_SUFFIX));
        Helper { exe, path }
    }

    /// Where the helper is (or should be).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The cargo profile of `anqi`'s directory when it is a cargo output directory (it holds
    /// `.fingerprint/`), so that cargo can build the helper there.
    fn cargo_profile(&self) -> Option<String> {
        let dir = self.exe.parent()?;
        if !dir.join(".fingerprint").is_dir() {
            return None;
        }
        profile_of_dir(dir)
    }

    /// Makes sure the helper can run: present, and under cargo also not older than `anqi`
    /// (built with `$CARGO` when needed; see the module documentation).
    ///
    /// # Errors
    /// The helper is missing and cannot be built here, or building it failed.
    pub fn ensure(&self) -> Result<(), HelperError> {
        let missing = !self.path.is_file();
        let cargo = std::env::var_os("CARGO").filter(|c| !c.is_empty());
        let profile = self.cargo_profile();
        let (Some(cargo), Some(profile)) = (cargo, profile.clone()) else {
            if missing {
                let build = Box::new(BuildCommand::shown(profile.as_deref().unwrap_or("release")));
                return Err(HelperError::Missing { helper: self.path.clone(), build });
            }
            return Ok(());
        };
        if !missing && !older(&self.path, &self.exe) {
            return Ok(());
        }
        match self.build(cargo, profile, missing) {
            Ok(()) => Ok(()),
            // An older helper that cargo could not refresh still runs the command.
            Err(e) if !missing => {
                eprintln!("anqi: warning: {e}; running the existing {}", self.path.display());
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Builds the helper with `cargo` in `profile`, into `anqi`'s target directory.
    fn build(&self, cargo: OsString, profile: String, missing: bool) -> Result<(), HelperError> {
        let build = Box::new(BuildCommand {
            cargo,
            profile,
            manifest: Some(manifest_path()),
            target_dir: self.exe.parent().and_then(Path::parent).map(Path::to_path_buf),
        });
        let what = if missing { "is missing; building it" } else { "is older than anqi; bringing it up to date" };
        eprintln!("anqi: {} (anqi linked with libtorch, for this command) {what}: {build}", self.path.display());
        let status = Command::new(&build.cargo)
            .args(build.args())
            .status()
            .map_err(|error| HelperError::Spawn { helper: self.path.clone(), build: build.clone(), error })?;
        if !status.success() {
            return Err(HelperError::BuildFailed { helper: self.path.clone(), build, status });
        }
        if !self.path.is_file() {
            return Err(HelperError::NotBuilt { helper: self.path.clone(), build });
        }
        // Cargo leaves an up-to-date helper untouched; mark it checked against this anqi so the
        // next run does not ask cargo again (best effort).
        if let Ok(f) = std::fs::File::open(&self.path) {
            let _ = f.set_modified(SystemTime::now());
        }
        Ok(())
    }

    /// Runs the helper with `args` (the arguments after the program name) and `arg0` as its
    /// `argv[0]`: on unix this process becomes the helper and this returns only on failure;
    /// elsewhere the helper runs as a child and this process exits with its status.
    ///
    /// # Errors
    /// [`Helper::ensure`]'s, or the helper could not be executed.
    pub fn run<I>(&self, arg0: &OsStr, args: I) -> Result<std::convert::Infallible, HelperError>
    where
        I: IntoIterator<Item = OsString>,
    {
        self.ensure()?;
        let mut command = Command::new(&self.path);
        command.args(args);
        // libtorch's OpenMP reads its spin count when it loads, before the helper's `main`: set
        // here, the helper need not re-execute itself to get it (farm::run's
        // `reexec_with_short_openmp_spin` explains the value; an explicit setting is respected).
        if std::env::var_os("OMP_WAIT_POLICY").is_none() && std::env::var_os("GOMP_SPINCOUNT").is_none() {
            command.env("GOMP_SPINCOUNT", SHORT_OPENMP_SPIN);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let error = command.arg0(arg0).exec();
            Err(HelperError::Exec { helper: self.path.clone(), error })
        }
        #[cfg(not(unix))]
        {
            let _ = arg0;
            match command.status() {
                Ok(status) => std::process::exit(status.code().unwrap_or(1)),
                Err(error) => Err(HelperError::Exec { helper: self.path.clone(), error }),
            }
        }
    }
}

/// The OpenMP spin count the helper runs with (`GOMP_SPINCOUNT`): the value of
/// `farm::run::reexec_with_short_openmp_spin`, which re-executes a helper started without it.
pub const SHORT_OPENMP_SPIN: &str = "20000";

/// Whether `a` was modified before `b` (unknown times: no).
fn older(a: &Path, b: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((modified(a), modified(b)), (Some(ta), Some(tb)) if ta < tb)
}

/// The manifest to build the helper from: the source tree this `anqi` was built from when it is
/// still there, else the package cargo is running now (`CARGO_MANIFEST_DIR` at run time).
fn manifest_path() -> PathBuf {
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    if built_from.is_file() {
        return built_from;
    }
    match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => Path::new(&dir).join("Cargo.toml"),
        None => built_from,
    }
}

/// Hands the running command to the helper beside this executable, with this process's
/// arguments; returns only when that failed.
pub fn hand_over() -> HelperError {
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| "anqi".into());
    match Helper::beside_current_exe().and_then(|h| h.run(&arg0, args)) {
        Ok(never) => match never {},
        Err(e) => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_of_cargo_output_directories() {
        assert_eq!(profile_of_dir(Path::new("/w/target/release")).as_deref(), Some("release"));
        assert_eq!(profile_of_dir(Path::new("/w/target/debug")).as_deref(), Some("dev"));
        assert_eq!(profile_of_dir(Path::new("/w/target/profiling")).as_deref(), Some("profiling"));
    }

    #[test]
    fn build_commands_name_the_profile_package_and_binary() {
        assert_eq!(BuildCommand::shown("release").to_string(), "cargo build --release -p anqi-selfplay --bin anqi-torch");
        assert_eq!(BuildCommand::shown("dev").to_string(), "cargo build -p anqi-selfplay --bin anqi-torch");
        assert_eq!(BuildCommand::shown("bench").to_string(), "cargo build --profile bench -p anqi-selfplay --bin anqi-torch");
        let full = BuildCommand {
            cargo: "/c/cargo".into(),
            profile: "release".into(),
            manifest: Some("/w/selfplay/Cargo.toml".into()),
            target_dir: Some("/w/target".into()),
        };
        assert_eq!(
            full.to_string(),
            "/c/cargo build --release -p anqi-selfplay --bin anqi-torch --manifest-path /w/selfplay/Cargo.toml --target-dir /w/target"
        );
    }

    #[test]
    fn the_helper_is_beside_the_executable() {
        let h = Helper::beside(PathBuf::from("/w/target/release/anqi"));
        assert_eq!(h.path(), Path::new(&format!("/w/target/release/anqi-torch{}", std::env::consts::EXE_SUFFIX)));
    }

    #[test]
    fn a_missing_helper_outside_a_target_directory_is_an_error_naming_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let h = Helper::beside(dir.path().join("anqi"));
        let e = h.ensure().err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(&h.path().display().to_string()), "{e}");
        assert!(e.contains("cargo build --release -p anqi-selfplay --bin anqi-torch"), "{e}");
    }
}

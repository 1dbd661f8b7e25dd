//! Build script of the fuzz harness: an rpath to libtorch (`DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB`,
//! exported by `anqi-models`' build script, hence that direct dependency in Cargo.toml) for
//! every target. The targets that link `anqi-selfplay` pull in object files of the torch-linked
//! farm (the torch commands' clap options live there); a normal build's `--gc-sections` drops
//! their libtorch references, but libFuzzer's coverage instrumentation keeps every function
//! alive, so those targets need libtorch at run time and find it here without
//! `LD_LIBRARY_PATH`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB");
    match std::env::var("DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB") {
        Ok(lib) => println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}"),
        Err(_) => println!("cargo:warning=anqi-models exported no libtorch dir; no rpath emitted"),
    }
}

//! Build script for `anqi-selfplay`.
//!
//! rpath to libtorch (`DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB`, exported by
//! `anqi-models`' build script), so `anqi-torch` and the tests run without
//! `LD_LIBRARY_PATH`; plus `--no-as-needed` for `libtorch_cuda.so` so CUDA is
//! found at runtime, for `anqi-torch` only. `anqi` gets neither: it must not
//! load libtorch (`--no-as-needed` would make it). (The git revision of
//! checkpoints and `anqi doctor` is `anqi-farm`'s.)

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB");
    println!("cargo:rerun-if-env-changed=DEP_ANQI_TORCH_RPATH_TORCH_CUDA");

    match env::var("DEP_ANQI_TORCH_RPATH_LIBTORCH_LIB") {
        Ok(lib) => {
            println!("cargo:rustc-link-arg-bin=anqi-torch=-Wl,-rpath,{lib}");
            println!("cargo:rustc-link-arg-tests=-Wl,-rpath,{lib}");
            if env::var("DEP_ANQI_TORCH_RPATH_TORCH_CUDA").as_deref() == Ok("1") {
                println!("cargo:rustc-link-arg-bin=anqi-torch=-Wl,--no-as-needed,-ltorch_cuda,--as-needed");
            }
        }
        Err(_) => println!("cargo:warning=anqi-models exported no libtorch dir; no rpath emitted"),
    }
}

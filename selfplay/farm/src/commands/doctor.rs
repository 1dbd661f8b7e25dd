//! `anqi doctor`: versions, CUDA availability and thread counts.

/// What `anqi doctor` was asked (`selfplay::cli::doctor::Args`), and who asks.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Also allocate a small tensor on every visible CUDA device and run an op there.
    pub probe: bool,
    /// The first line's version of anqi, e.g. `0.1.0 (git 0123456789ab)`.
    pub anqi: String,
}

/// Run `anqi doctor`.
///
/// # Errors
/// A `probe` fails on a CUDA device.
pub fn run(a: Options) -> anyhow::Result<()> {
    let info = models::torch_info();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    println!("anqi {}", a.anqi);
    println!(
        "tch crate {} (torch-sys {})",
        info.tch_version, info.torch_sys_version
    );
    println!("libtorch {} ({})", info.libtorch_version, info.libtorch_lib);
    println!("cuda available {}", yes_no(info.cuda_available));
    println!("cuda devices {}", info.cuda_device_count);
    println!("cudnn available {}", yes_no(info.cudnn_available));
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!("available parallelism {cpus}");
    println!(
        "torch threads {} (inter-op {})",
        info.torch_threads, info.torch_interop_threads
    );
    if a.probe {
        for i in 0..info.cuda_device_count {
            models::device::probe(models::device::DeviceSpec::Cuda(i).resolve()?)?;
            println!("cuda:{i} probe ok");
        }
        if info.cuda_device_count == 0 {
            println!("probe: no CUDA device to probe");
        }
    }
    Ok(())
}

//! `anqi doctor`: versions, CUDA availability and thread counts.

/// Print the anqi version and git revision, the tch/libtorch versions, whether
/// CUDA is available (and how many devices), and the thread counts available.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Options {
    /// Also allocate a small tensor on every visible CUDA device and run an op there.
    #[arg(long)]
    pub probe: bool,
}

/// Run `anqi doctor`.
///
/// # Errors
/// A `probe` fails on a CUDA device.
pub fn run(a: Options) -> anyhow::Result<()> {
    let info = models::torch_info();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    println!("anqi {} (git {})", env!("CARGO_PKG_VERSION"), crate::run::GIT_REVISION);
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

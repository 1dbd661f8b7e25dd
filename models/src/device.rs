//! The linked libtorch: versions, CUDA availability, and device selection.

use std::fmt;
use std::str::FromStr;

/// Version of the `tch` crate this build links (from Cargo.lock, via build.rs).
pub const TCH_VERSION: &str = env!("ANQI_TCH_VERSION");
/// Version of the `torch-sys` crate this build links.
pub const TORCH_SYS_VERSION: &str = env!("ANQI_TORCH_SYS_VERSION");
/// Version of the libtorch compiled and linked against, e.g. `2.13.0+cu130`
/// (`unknown` when the build script could not determine it).
pub const LIBTORCH_VERSION: &str = env!("ANQI_LIBTORCH_VERSION");
/// Canonical libtorch library directory used at build time (and as rpath).
pub const LIBTORCH_LIB: &str = env!("ANQI_LIBTORCH_LIB");

/// Errors from device queries and selection.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DeviceError {
    /// The device string is not `cpu`, `cuda`, `cuda:N` or `auto`.
    #[error("unrecognised device {0:?} (expected cpu, cuda, cuda:N or auto)")]
    Parse(String),
    /// A CUDA device was requested but libtorch sees no CUDA device.
    #[error("CUDA requested but not available (libtorch {LIBTORCH_VERSION})")]
    CudaUnavailable,
    /// A CUDA device index beyond the number of visible devices.
    #[error("CUDA device {index} requested but only {count} visible")]
    NoSuchCudaDevice {
        /// Requested index.
        index: usize,
        /// Number of visible CUDA devices.
        count: usize,
    },
    /// A libtorch operation failed on a device (see [`probe`]).
    #[error("probe on {device} failed: {detail}")]
    Probe {
        /// The device, e.g. `Cuda(0)`.
        device: String,
        /// What went wrong.
        detail: String,
    },
}

/// Build and runtime information about torch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TorchInfo {
    /// `tch` crate version.
    pub tch_version: &'static str,
    /// `torch-sys` crate version.
    pub torch_sys_version: &'static str,
    /// libtorch version (build time).
    pub libtorch_version: &'static str,
    /// libtorch library directory (build time; also the binary's rpath).
    pub libtorch_lib: &'static str,
    /// Whether at least one CUDA device is usable now.
    pub cuda_available: bool,
    /// Number of visible CUDA devices.
    pub cuda_device_count: usize,
    /// Whether cuDNN is usable.
    pub cudnn_available: bool,
    /// libtorch intra-op thread count.
    pub torch_threads: i32,
    /// libtorch inter-op thread count.
    pub torch_interop_threads: i32,
}

/// Query the linked libtorch.
pub fn torch_info() -> TorchInfo {
    let cuda_available = tch::Cuda::is_available();
    TorchInfo {
        tch_version: TCH_VERSION,
        torch_sys_version: TORCH_SYS_VERSION,
        libtorch_version: LIBTORCH_VERSION,
        libtorch_lib: LIBTORCH_LIB,
        cuda_available,
        cuda_device_count: cuda_device_count(),
        cudnn_available: cuda_available && tch::Cuda::cudnn_is_available(),
        torch_threads: tch::get_num_threads(),
        torch_interop_threads: tch::get_num_interop_threads(),
    }
}

/// Number of visible CUDA devices (0 without CUDA).
pub fn cuda_device_count() -> usize {
    usize::try_from(tch::Cuda::device_count()).unwrap_or(0)
}

/// Allocate a small tensor on `device`, reduce it there and check the result.
pub fn probe(device: tch::Device) -> Result<(), DeviceError> {
    let err = |detail: String| DeviceError::Probe {
        device: format!("{device:?}"),
        detail,
    };
    let sum = tch::Tensor::f_ones([1024], (tch::Kind::Float, device))
        .and_then(|t| t.f_sum(tch::Kind::Float))
        .and_then(|t| t.f_double_value(&[]))
        .map_err(|e| err(e.to_string()))?;
    if sum == 1024.0 {
        Ok(())
    } else {
        Err(err(format!("sum of 1024 ones gave {sum}")))
    }
}

/// A device request, as given on a command line or in a config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeviceSpec {
    /// CUDA device 0 when available, else the CPU.
    #[default]
    Auto,
    /// The CPU.
    Cpu,
    /// CUDA device `n`.
    Cuda(usize),
}

impl FromStr for DeviceSpec {
    type Err = DeviceError;

    fn from_str(s: &str) -> Result<Self, DeviceError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "auto" => Ok(Self::Auto),
            "cpu" => Ok(Self::Cpu),
            "cuda" | "gpu" => Ok(Self::Cuda(0)),
            _ => t
                .strip_prefix("cuda:")
                .and_then(|n| n.parse().ok())
                .map(Self::Cuda)
                .ok_or_else(|| DeviceError::Parse(s.to_owned())),
        }
    }
}

impl fmt::Display for DeviceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Auto => f.write_str("auto"),
            Self::Cpu => f.write_str("cpu"),
            Self::Cuda(n) => write!(f, "cuda:{n}"),
        }
    }
}

impl DeviceSpec {
    /// Resolve against the devices visible now.
    pub fn resolve(self) -> Result<tch::Device, DeviceError> {
        self.resolve_with(cuda_device_count())
    }

    /// Resolve given `cuda_count` visible CUDA devices (testable without a GPU).
    pub fn resolve_with(self, cuda_count: usize) -> Result<tch::Device, DeviceError> {
        match self {
            Self::Cpu => Ok(tch::Device::Cpu),
            Self::Auto if cuda_count > 0 => Ok(tch::Device::Cuda(0)),
            Self::Auto => Ok(tch::Device::Cpu),
            Self::Cuda(_) if cuda_count == 0 => Err(DeviceError::CudaUnavailable),
            Self::Cuda(index) if index >= cuda_count => Err(DeviceError::NoSuchCudaDevice {
                index,
                count: cuda_count,
            }),
            Self::Cuda(index) => Ok(tch::Device::Cuda(index)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_specs() {
        assert_eq!("cpu".parse(), Ok(DeviceSpec::Cpu));
        assert_eq!("Auto".parse(), Ok(DeviceSpec::Auto));
        assert_eq!("cuda".parse(), Ok(DeviceSpec::Cuda(0)));
        assert_eq!("cuda:3".parse(), Ok(DeviceSpec::Cuda(3)));
        assert_eq!(
            "cuda:x".parse::<DeviceSpec>(),
            Err(DeviceError::Parse("cuda:x".into()))
        );
        assert_eq!(
            "tpu".parse::<DeviceSpec>(),
            Err(DeviceError::Parse("tpu".into()))
        );
        for s in [DeviceSpec::Auto, DeviceSpec::Cpu, DeviceSpec::Cuda(2)] {
            assert_eq!(s.to_string().parse(), Ok(s));
        }
    }

    #[test]
    fn resolve_specs() {
        assert_eq!(DeviceSpec::Auto.resolve_with(0), Ok(tch::Device::Cpu));
        assert_eq!(DeviceSpec::Auto.resolve_with(2), Ok(tch::Device::Cuda(0)));
        assert_eq!(DeviceSpec::Cpu.resolve_with(2), Ok(tch::Device::Cpu));
        assert_eq!(
            DeviceSpec::Cuda(1).resolve_with(2),
            Ok(tch::Device::Cuda(1))
        );
        assert_eq!(
            DeviceSpec::Cuda(0).resolve_with(0),
            Err(DeviceError::CudaUnavailable)
        );
        assert_eq!(
            DeviceSpec::Cuda(2).resolve_with(2),
            Err(DeviceError::NoSuchCudaDevice { index: 2, count: 2 })
        );
    }

    /// Exercises the real libtorch: links, loads and computes on the CPU.
    #[test]
    fn libtorch_runs() {
        let info = torch_info();
        assert_eq!(
            info.tch_version.split('.').take(2).collect::<Vec<_>>(),
            ["0", "26"]
        );
        assert!(
            info.libtorch_version.starts_with("2.13.0"),
            "{}",
            info.libtorch_version
        );
        assert_eq!(info.cuda_available, info.cuda_device_count > 0);
        assert!(info.torch_threads >= 1);
        let t = tch::Tensor::from_slice(&[1.0f32, 2.0, 3.0]);
        assert_eq!(t.sum(tch::Kind::Float).double_value(&[]), 6.0);
        assert_eq!(probe(tch::Device::Cpu), Ok(()));
        let dev = DeviceSpec::Auto.resolve().expect("auto always resolves");
        let on = t.to_device(dev);
        assert_eq!(on.sum(tch::Kind::Float).double_value(&[]), 6.0);
    }
}

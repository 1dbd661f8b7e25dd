//! The inner loops of inference, twice: a portable path and the same loops compiled for AVX2
//! (chosen at run time where the CPU has it). Integer arithmetic with wrapping sums makes both
//! give bit-identical results whatever the compiler vectorizes.

#![allow(unsafe_code)]

use super::{HIDDEN, QA};

/// Whether the AVX2 path can run on this CPU.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[inline(always)]
fn output_portable(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (half, w) in [(us, &w[..HIDDEN]), (them, &w[HIDDEN..2 * HIDDEN])] {
        for j in 0..HIDDEN {
            let v = half[j].clamp(0, QA as i16);
            // v * w fits i16: |w| <= 127 (WEIGHT_CLIP * QB), v <= 255.
            let vw = v.wrapping_mul(w[j]) as i32;
            sum = sum.wrapping_add(vw * v as i32);
        }
    }
    sum
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn output_avx2(us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16]) -> i32 {
    output_portable(us, them, w)
}

/// `sum_j v_j * (v_j * w_j)` over both halves, `v = clamp(acc, 0, QA)` (wrapping `i32`).
#[inline]
pub fn output(simd: bool, us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` is set only where `available()` found AVX2 on this CPU.
        return unsafe { output_avx2(us, them, w) };
    }
    let _ = simd;
    output_portable(us, them, w)
}

#[inline(always)]
fn update_portable(acc: &mut [i16; HIDDEN], add: &[&[i16]], sub: &[&[i16]]) {
    for r in add {
        for j in 0..HIDDEN {
            acc[j] = acc[j].wrapping_add(r[j]);
        }
    }
    for r in sub {
        for j in 0..HIDDEN {
            acc[j] = acc[j].wrapping_sub(r[j]);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2(acc: &mut [i16; HIDDEN], add: &[&[i16]], sub: &[&[i16]]) {
    update_portable(acc, add, sub)
}

/// Adds the rows `add` to and subtracts the rows `sub` from `acc` (each row `HIDDEN` long,
/// wrapping `i16`).
#[inline]
pub fn update(simd: bool, acc: &mut [i16; HIDDEN], add: &[&[i16]], sub: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` is set only where `available()` found AVX2 on this CPU.
        return unsafe { update_avx2(acc, add, sub) };
    }
    let _ = simd;
    update_portable(acc, add, sub)
}

//! The machine's bit-manipulation instructions, used where the CPU has them.
//!
//! The rules engines live on popcounts, bit scans and shifts. The baseline x86-64 that a default
//! `cargo build` targets has no `popcnt`: counting bits takes a dozen instructions instead of one.
//! Built for a newer CPU (`-C target-cpu=native`), the binary would not run on an older one. So
//! the hottest loops (Ataxx's and Tablut's perft, the built-in bot's Ataxx evaluation) are
//! compiled twice, once for the baseline and once with `popcnt`, `lzcnt`, BMI1 and BMI2 (most
//! x86-64 CPUs since 2013: Intel Haswell, AMD Excavator and Zen on, though not every Pentium,
//! Celeron or Atom of those years), and the CPU is asked once, at run time, which one to run.
//! [`bit_instructions`] says which; `TAVOLA_CPU=baseline` forces the baseline copy (to compare
//! them, or to test it on a newer machine), in the host and in-process bots (a worker's bot
//! gets nothing of the user's environment). Other architectures run the one copy they have.
//!
//! The built-in bot's networks add rows of 16-bit numbers: their loops have a copy built with
//! AVX2 (twice the baseline's vector width; Intel Haswell, AMD Excavator and Zen on), which
//! [`vector_instructions`] picks the same way.

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

/// The environment variable that, set to `baseline`, keeps the baseline copy of the hot loops.
pub const CPU_VARIABLE: &str = "TAVOLA_CPU";

/// Whether the hot loops run their copy built with `popcnt`, `lzcnt`, BMI1 and BMI2: the CPU
/// has all four and [`CPU_VARIABLE`] does not say `baseline`. Asked once, then cached.
#[must_use]
#[inline]
pub fn bit_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        /// 0: not asked yet; 1: no; 2: yes.
        static CHOICE: AtomicU8 = AtomicU8::new(0);
        cached(&CHOICE, || {
            std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the loops over vectors of 16-bit numbers (the built-in bot's networks) run their
/// copy built with AVX2 (16 numbers to an instruction, 8 on the baseline): the CPU has it and
/// [`CPU_VARIABLE`] does not say `baseline`. Asked once, then cached.
#[must_use]
#[inline]
pub fn vector_instructions() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        /// 0: not asked yet; 1: no; 2: yes.
        static CHOICE: AtomicU8 = AtomicU8::new(0);
        cached(&CHOICE, || std::arch::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The answer kept in `choice` (0: not asked yet; 1: no; 2: yes), or else whether the CPU has
/// what `has` asks and [`CPU_VARIABLE`] does not say `baseline`, kept there.
#[cfg(target_arch = "x86_64")]
#[inline]
fn cached(choice: &AtomicU8, has: impl FnOnce() -> bool) -> bool {
    match choice.load(Ordering::Relaxed) {
        0 => {
            let yes = detect(has);
            choice.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
        kept => kept == 2,
    }
}

#[cfg(target_arch = "x86_64")]
#[cold]
fn detect(has: impl FnOnce() -> bool) -> bool {
    let forced_off = std::env::var(CPU_VARIABLE).is_ok_and(|v| v.eq_ignore_ascii_case("baseline"));
    !forced_off && has()
}

/// Defines free functions twice, in a module `baseline` and in a module `bits` (built with
/// `popcnt`, `lzcnt`, BMI1, BMI2), and for each a function of the same name beside them that calls
/// the copy [`bit_instructions`] picks. A call from a body to one of the functions of the same
/// invocation (recursion, say) stays in its own copy, and what the bodies call that the compiler
/// inlines is compiled for that copy too: mark small hot helpers `#[inline]`.
///
/// Limits, as the copies live in modules of their own: the bodies may not use `Self`, and
/// `self::`/`super::` paths in them start one module deeper (items of the surrounding module are
/// in scope by name); each invocation makes the modules `baseline` and `bits`, so a module holds
/// one invocation (of as many functions as it likes) and no modules of those names; arguments
/// are plain names (no patterns, no `mut`) and every function writes its return type; a
/// function's attributes (its docs, a `#[cfg]`) go on its dispatcher only; and the expansion
/// holds an `unsafe` block, so a crate that forbids `unsafe_code` cannot use it. The feature list
/// of the `bits` copies is the one [`bit_instructions`] checks.
///
/// ```
/// tavola_sdk::multiversion! {
///     /// The pieces of `bits` next to an empty square of `empty` (a 7x7 board, as Ataxx's).
///     pub fn crowded(bits: u64, empty: u64) -> u32 {
///         let near = empty << 1 | empty >> 1 | empty << 7 | empty >> 7;
///         (bits & near).count_ones()
///     }
/// }
///
/// fn main() {
///     assert_eq!(crowded(0b110, 0b001), 1);
/// }
/// ```
#[macro_export]
macro_rules! multiversion {
    ($(
        $(#[$meta:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block
    )+) => {
        /// The baseline copies of this module's multiversioned functions.
        mod baseline {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[allow(dead_code)]
                pub(super) fn $name($($arg: $ty),*) -> $ret $body
            )+
        }

        /// The copies built with `popcnt`, `lzcnt`, BMI1 and BMI2.
        #[cfg(target_arch = "x86_64")]
        mod bits {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[allow(dead_code)]
                #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
                pub(super) fn $name($($arg: $ty),*) -> $ret $body
            )+
        }

        $(
            $(#[$meta])*
            #[allow(dead_code)]
            $vis fn $name($($arg: $ty),*) -> $ret {
                #[cfg(target_arch = "x86_64")]
                if $crate::cpu::bit_instructions() {
                    // SAFETY: the CPU has every feature the copy is built with.
                    return unsafe { bits::$name($($arg),*) };
                }
                baseline::$name($($arg),*)
            }
        )+
    };
}

#[cfg(test)]
mod tests {
    use super::bit_instructions;

    mod sample {
        crate::multiversion! {
            /// The number of set bits of `x`, the recursive way.
            pub(super) fn ones(x: u64) -> u32 {
                if x == 0 {
                    0
                } else {
                    1 + ones(x & (x - 1))
                }
            }
        }

        #[test]
        fn both_copies_agree() {
            for x in [0, 1, 0xFF, u64::MAX, 0x8000_0000_0000_0001] {
                assert_eq!(baseline::ones(x), x.count_ones());
                assert_eq!(ones(x), x.count_ones());
                #[cfg(target_arch = "x86_64")]
                if super::bit_instructions() {
                    // SAFETY: the CPU has the features (just asked).
                    assert_eq!(unsafe { bits::ones(x) }, x.count_ones());
                }
            }
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_copy_with_bit_instructions_runs_exactly_where_the_cpu_has_them() {
        let has = std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        let forced =
            std::env::var(super::CPU_VARIABLE).is_ok_and(|v| v.eq_ignore_ascii_case("baseline"));
        assert_eq!(bit_instructions(), has && !forced);
        assert_eq!(
            super::vector_instructions(),
            std::arch::is_x86_feature_detected!("avx2") && !forced
        );
    }
}

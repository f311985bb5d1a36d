//! The evaluations, one file per game (each an [`super::Evaluate`] implementation).

pub mod ataxx;

//! Entry points for the fuzz targets in `fuzz/` (not part of the API): the readers of text that
//! Tavola does not keep public, each wrapped so that a target can feed it anything.

use tavola_sdk::Position as _;

/// `go ...` of the UAI front end (`tavola uai`): its words parsed, or the error line.
///
/// # Errors
/// The reason the words are refused.
pub fn uai_go(words: &[&str]) -> Result<(), String> {
    crate::uai::parse_go(words).map(drop)
}

/// `position ...` of the UAI front end: the position reached, in its text.
///
/// # Errors
/// The reason the words are refused.
pub fn uai_position(words: &[&str]) -> Result<String, String> {
    crate::uai::parse_position(words).map(|p| p.to_string())
}

/// An outside engine's `info` line, as the host reads it.
#[must_use]
pub fn engine_info(line: &str) -> Option<tavola_sdk::SearchInfo> {
    crate::seat::engine::parse_info(line)
}

/// An openings file's text, read for `G` (in its default variant).
///
/// # Errors
/// As [`crate::arena::runner::parse_openings`].
pub fn openings<G: tavola_sdk::Game>(text: &str) -> anyhow::Result<Vec<String>> {
    let variant = G::start(None)?.variant().to_owned();
    crate::arena::runner::parse_openings::<G>(text, "openings", &variant)
}

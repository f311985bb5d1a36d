//! The Tavola host: seats (human, built-in, random, plugin), the referee, and the front ends.
//!
//! The binary `tavola` is a thin command line over this library; the end-to-end tests and the
//! benchmarks use the library directly. Layering: `gui, text_ui → referee → seat → tavola_sdk`.

pub mod arena;
pub mod builtin;
#[doc(hidden)]
pub mod fuzzing;
pub mod gui;
pub mod menu;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod seat;
pub mod text_ui;
pub mod uai;

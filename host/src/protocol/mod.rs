//! The text protocols Tavola speaks with the outside: as an engine for outside hosts (UGI), and,
//! to come, outside engines in Tavola's seats.

pub mod ugi;

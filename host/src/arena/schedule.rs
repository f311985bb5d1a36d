//! Pure scheduling of the games of a match or a tournament.

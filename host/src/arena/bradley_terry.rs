//! Bradley-Terry ratings over all the games of a tournament.

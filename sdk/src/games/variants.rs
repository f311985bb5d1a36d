//! The rule-set enum a game with several variants declares: [`rule_sets!`].

/// Declares `$variant`, the rule sets of game `$game`, each with its name on the command line; the
/// first listed is the default. It brings `ALL`, `name()`, `Display`, `FromStr` (ignoring case
/// and surrounding whitespace, erring with [`crate::UnknownVariantError`]), `Default`, and
/// `from_option` (the default for `None`), which the game's [`crate::Game`] impl uses.
macro_rules! rule_sets {
    (
        $(#[$meta:meta])*
        pub enum $variant:ident for $game:ident {
            $( $(#[$variant_meta:meta])* $name:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $variant {
            $( $(#[$variant_meta])* $name ),+
        }

        impl $variant {
            /// Every variant, the default first.
            pub const ALL: [$variant; [$($text),+].len()] = [$($variant::$name),+];
            /// Every variant's name, the default first.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The name on the command line.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $( $variant::$name => $text ),+
                }
            }

            /// The variant named `name`, or the default for `None`.
            ///
            /// # Errors
            /// [`crate::UnknownVariantError`] for a name the game does not have.
            pub fn from_option(name: Option<&str>) -> Result<$variant, $crate::UnknownVariantError> {
                name.map_or(Ok($variant::default()), str::parse)
            }
        }

        impl Default for $variant {
            fn default() -> $variant {
                $variant::ALL[0]
            }
        }

        impl ::std::fmt::Display for $variant {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $variant {
            type Err = $crate::UnknownVariantError;

            /// Reads a variant name, ignoring case and surrounding whitespace.
            fn from_str(name: &str) -> Result<$variant, $crate::UnknownVariantError> {
                $variant::ALL
                    .into_iter()
                    .find(|v| v.name().eq_ignore_ascii_case(name.trim()))
                    .ok_or_else(|| $crate::UnknownVariantError {
                        game: <$game as $crate::Game>::NAME,
                        variant: name.to_owned(),
                        known: $variant::NAMES.join(", "),
                    })
            }
        }
    };
}

pub(crate) use rule_sets;

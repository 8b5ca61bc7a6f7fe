//! Declarations shared by every module.

/// Declares a wire enum: its variants, their snake_case names, and lookups both ways.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $vis:vis $name:ident { $($(#[$vmeta:meta])* $variant:ident = $wire:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        // Not every enum uses every lookup (some are crate-internal).
        #[allow(dead_code)]
        impl $name {
            /// Every value, in schema order.
            $vis const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The wire name.
            $vis fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                }
            }

            /// The value with this wire name.
            $vis fn from_wire(s: &str) -> Option<Self> {
                match s {
                    $($wire => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

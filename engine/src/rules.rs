//! Rule sets as data: named variants and `key=value` options, shared by every game.

use std::fmt;

/// A named bundle of rules and the source it follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The name used with `--variant`.
    pub name: &'static str,
    /// Which source text (seed file and evidence) the bundle follows, in a few words.
    pub source: &'static str,
}

/// One option a rule set accepts, with its allowed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The key used with `--option key=value`.
    pub key: &'static str,
    /// The accepted values, in words (`5, 6 or 20`).
    pub values: &'static str,
}

/// Why a variant or option was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// No variant of that name.
    #[error("unknown variant '{name}' for {game} (known: {known})")]
    UnknownVariant {
        /// The game.
        game: &'static str,
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// No option with that key.
    #[error("unknown option '{key}' for {game} (known: {known})")]
    UnknownOption {
        /// The game.
        game: &'static str,
        /// The key given.
        key: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// A known option with a value it does not accept.
    #[error("bad value '{value}' for option '{key}' (expected {expected})")]
    BadValue {
        /// The option's key.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// An option not written as `key=value`.
    #[error("malformed option '{0}' (expected key=value)")]
    Malformed(String),
}

/// A game's rule set: its named variants and its options.
pub trait RuleSet: Sized + Clone + fmt::Debug + Default {
    /// The game these rules belong to (for error messages).
    const GAME: &'static str;

    /// The named variants, the default first.
    fn variants() -> &'static [VariantInfo];

    /// The options and their accepted values.
    fn option_info() -> &'static [OptionInfo];

    /// The rule set of a named variant.
    ///
    /// # Errors
    /// [`RuleError::UnknownVariant`] naming the variant and the known ones.
    fn variant(name: &str) -> Result<Self, RuleError>;

    /// Overrides one option.
    ///
    /// # Errors
    /// [`RuleError::UnknownOption`] or [`RuleError::BadValue`] naming the bad key or value.
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), RuleError>;

    /// Every option's resolved value, in [`RuleSet::option_info`] order, as `set_option` reads it.
    fn resolved(&self) -> Vec<(&'static str, String)>;

    /// Applies a `key=value` text, as given to `--option`.
    ///
    /// # Errors
    /// [`RuleError::Malformed`] if there is no `=`; otherwise as [`RuleSet::set_option`].
    fn apply_option_text(&mut self, text: &str) -> Result<(), RuleError> {
        let (k, v) = text
            .split_once('=')
            .ok_or_else(|| RuleError::Malformed(text.to_string()))?;
        self.set_option(k.trim(), v.trim())
    }

    /// The rule set of `variant` (or the default variant) with `options` applied in order.
    ///
    /// # Errors
    /// As [`RuleSet::variant`] and [`RuleSet::apply_option_text`].
    fn resolve(variant: Option<&str>, options: &[String]) -> Result<Self, RuleError> {
        let mut rules = match variant {
            Some(name) => Self::variant(name)?,
            None => Self::default(),
        };
        for o in options {
            rules.apply_option_text(o)?;
        }
        Ok(rules)
    }

    /// The error for an unknown key, listing the known ones.
    fn unknown_option(key: &str) -> RuleError {
        RuleError::UnknownOption {
            game: Self::GAME,
            key: key.to_string(),
            known: Self::option_info()
                .iter()
                .map(|o| o.key)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The error for an unknown variant, listing the known ones.
    fn unknown_variant(name: &str) -> RuleError {
        RuleError::UnknownVariant {
            game: Self::GAME,
            name: name.to_string(),
            known: Self::variants()
                .iter()
                .map(|v| v.name)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// Reads an optional ply cap: a positive number, or `none`.
///
/// # Errors
/// [`RuleError::BadValue`] for anything else.
pub fn parse_ply_cap(key: &str, value: &str) -> Result<Option<u32>, RuleError> {
    if value == "none" {
        return Ok(None);
    }
    match value.parse::<u32>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(RuleError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: "a positive number of plies, or none",
        }),
    }
}

/// Writes an optional ply cap as [`parse_ply_cap`] reads it.
#[must_use]
pub fn format_ply_cap(cap: Option<u32>) -> String {
    cap.map_or_else(|| "none".to_string(), |n| n.to_string())
}

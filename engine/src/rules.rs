//! Rule sets as data: named variants and `key=value` options, shared by every game.
//!
//! Each game declares its options once, in one table of [`RuleOption`]s (key, accepted values,
//! getter, setter, what the option decides and its source), and its named variants once, as
//! [`VariantInfo`]s (a name, a source and `key=value` settings over the default). Parsing
//! ([`RuleSet::set_option`]), writing ([`RuleSet::resolved`], which run manifests record), the
//! error texts and the help text ([`RuleSet::describe`], printed by `cowrie rules`) all read
//! those two tables. A choice option's words are declared once too, with their meanings, by
//! the `choice!` macro beside the enum they stand for.
//!
//! An option several games share is declared once, as a [`SharedOption`] that each game's table
//! completes with its getter, setter and source: [`PLY_CAP`] here, `BEAR_OFF` and `LARGER_DIE` in
//! the tables module.

use std::fmt::{self, Write as _};

use crate::quote::quote_input;

/// One word of a choice option and what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    /// The word used with `--option key=word`.
    pub word: &'static str,
    /// What the rule is under this word, in one line.
    pub meaning: &'static str,
}

/// An enum whose values are an option's words: declared with the `choice!` macro,
/// which writes each value's word and meaning once, beside the value.
pub trait Choice: Copy + Eq + 'static {
    /// Every value, in declaration order.
    const ALL: &'static [Self];
    /// The word and meaning of each value of [`Choice::ALL`], in the same order.
    const WORDS: &'static [Word];

    /// This value's word.
    #[must_use]
    fn word(self) -> &'static str {
        let i = Self::ALL.iter().position(|&v| v == self);
        Self::WORDS[i.expect("every value is in ALL")].word
    }

    /// Former spellings of words, each with the value it now stands for: read (so run
    /// manifests and weights written under the old spelling still resolve), never written.
    const FORMER: &'static [(&'static str, Self)];

    /// The value a word, or a former spelling of one ([`Choice::FORMER`]), stands for, if any.
    #[must_use]
    fn from_word(word: &str) -> Option<Self> {
        match Self::WORDS.iter().position(|w| w.word == word) {
            Some(i) => Some(Self::ALL[i]),
            None => Self::FORMER.iter().find(|f| f.0 == word).map(|f| f.1),
        }
    }
}

/// Declares a choice enum and its words in one place: each value with its word and a one-line
/// meaning (the value's doc summary and its line in `cowrie rules`), then any further doc. A
/// renamed word keeps its former spellings after `formerly` ([`Choice::FORMER`]).
///
/// ```text
/// choice! {
///     /// What happens to goats with no move.
///     pub enum GoatsBlocked {
///         Lose = "lose": "the goats lose, as blocked tigers do",
///         Pass = "pass" formerly "skip": "the goats pass and the tigers move again",
///     }
/// }
/// ```
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $value:ident = $word:literal $(formerly $($former:literal),+)? : $meaning:literal
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $(
                #[doc = $meaning]
                #[doc = ""]
                $(#[$vmeta])*
                $value,
            )+
        }

        impl $crate::rules::Choice for $name {
            const ALL: &'static [Self] = &[$($name::$value),+];
            const WORDS: &'static [$crate::rules::Word] = &[
                $($crate::rules::Word { word: $word, meaning: $meaning }),+
            ];
            const FORMER: &'static [(&'static str, Self)] = &[
                $($($(($former, $name::$value),)+)?)+
            ];
        }
    };
}
pub(crate) use choice;

/// The values an option accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// One of a choice enum's words ([`Choice::WORDS`]).
    Words(&'static [Word]),
    /// `on` (the rule applies, as the first text says) or `off` (as the second says).
    Switch {
        /// What `on` means.
        on: &'static str,
        /// What `off` means.
        off: &'static str,
    },
    /// A number (or other text), described in words: `a number of captures from 1 to 20`.
    Text(&'static str),
}

impl Values {
    /// The words an option accepts with their meanings; empty for [`Values::Text`].
    #[must_use]
    pub fn words(&self) -> Vec<Word> {
        match *self {
            Values::Words(words) => words.to_vec(),
            Values::Switch { on, off } => vec![
                Word {
                    word: "on",
                    meaning: on,
                },
                Word {
                    word: "off",
                    meaning: off,
                },
            ],
            Values::Text(_) => Vec::new(),
        }
    }

    /// What is accepted, in words: `lose or pass`, `none, threefold-draw or no-recreate`, or the
    /// text of a [`Values::Text`].
    #[must_use]
    pub fn describe(&self) -> String {
        if let Values::Text(text) = *self {
            return text.to_string();
        }
        let words: Vec<&str> = self.words().iter().map(|w| w.word).collect();
        match words.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => words.concat(),
        }
    }
}

/// One rule option of rule set `R`: everything about it, declared once.
pub struct RuleOption<R> {
    /// The key used with `--option key=value` and in run manifests.
    pub key: &'static str,
    /// The values it accepts.
    pub values: Values,
    /// What the option decides, in one line.
    pub doc: &'static str,
    /// The source of the rule and of the default reading: the publication with its clause ids
    /// (docs/sources.md), and the program or rules description each other value follows.
    pub source: &'static str,
    /// The value in `rules`, written as [`RuleOption::set`] reads it.
    pub get: fn(&R) -> String,
    /// Sets the value from its text; `None` if the text is not one of [`RuleOption::values`].
    pub set: fn(&mut R, &str) -> Option<()>,
}

impl<R> fmt::Debug for RuleOption<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuleOption")
            .field("key", &self.key)
            .field("values", &self.values)
            .finish_non_exhaustive()
    }
}

/// Sets a choice field from its word: a [`RuleOption::set`] for a [`Choice`].
pub fn set_word<T: Choice>(field: &mut T, text: &str) -> Option<()> {
    *field = T::from_word(text)?;
    Some(())
}

/// Sets an on/off field: a [`RuleOption::set`] for a [`Values::Switch`].
pub fn set_switch(field: &mut bool, text: &str) -> Option<()> {
    *field = match text {
        "on" => true,
        "off" => false,
        _ => return None,
    };
    Some(())
}

/// Writes an on/off field as [`set_switch`] reads it.
#[must_use]
pub fn switch_word(on: bool) -> String {
    if on { "on" } else { "off" }.to_string()
}

/// Sets a number field from its text if it parses and `accept` takes it.
pub fn set_number<T: std::str::FromStr>(
    field: &mut T,
    text: &str,
    accept: fn(&T) -> bool,
) -> Option<()> {
    let n = text.parse::<T>().ok().filter(accept)?;
    *field = n;
    Some(())
}

/// Reads an optional ply cap: a positive number, or `none`.
#[must_use]
pub fn parse_ply_cap(text: &str) -> Option<Option<u32>> {
    if text == "none" {
        return Some(None);
    }
    text.parse::<u32>().ok().filter(|&n| n > 0).map(Some)
}

/// Writes an optional ply cap as [`parse_ply_cap`] reads it.
#[must_use]
pub fn format_ply_cap(cap: Option<u32>) -> String {
    cap.map_or_else(|| "none".to_string(), |n| n.to_string())
}

/// Sets a ply-cap field from its text: a [`RuleOption::set`] for [`PLY_CAP`].
pub fn set_ply_cap(field: &mut Option<u32>, text: &str) -> Option<()> {
    *field = parse_ply_cap(text)?;
    Some(())
}

/// An option several games share, declared once: its key, values and what it decides. Each
/// game makes its [`RuleOption`] with [`SharedOption::with`], giving its field and source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedOption {
    /// The key.
    pub key: &'static str,
    /// The values it accepts.
    pub values: Values,
    /// What the option decides, in one line.
    pub doc: &'static str,
}

impl SharedOption {
    /// The option for one game: `get` and `set` reach the game's field, `source` cites the
    /// game's reading.
    #[must_use]
    pub const fn with<R>(
        self,
        get: fn(&R) -> String,
        set: fn(&mut R, &str) -> Option<()>,
        source: &'static str,
    ) -> RuleOption<R> {
        RuleOption {
            key: self.key,
            values: self.values,
            doc: self.doc,
            source,
            get,
            set,
        }
    }
}

/// The `ply-cap` option every game has (its field written with [`format_ply_cap`] and
/// [`set_ply_cap`]).
pub const PLY_CAP: SharedOption = SharedOption {
    key: "ply-cap",
    values: Values::Text("a positive number of plies, or none"),
    doc: "the most decision plies a game may last; a game reaching it ends truncated",
};

/// A named bundle of rules and the source it follows: `settings` over the default rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The name used with `--variant`.
    pub name: &'static str,
    /// Which publication the bundle follows, in a few words (docs/sources.md).
    pub source: &'static str,
    /// The `key=value` options that turn the default rules into this variant, in order (none
    /// for the default variant, which is listed first).
    pub settings: &'static [&'static str],
}

/// Why a variant or option was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// No variant of that name.
    #[error("unknown variant {} for {game} (known: {known})", quote_input(name))]
    UnknownVariant {
        /// The game.
        game: &'static str,
        /// The name given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// No option with that key.
    #[error("unknown option {} for {game} (known: {known})", quote_input(key))]
    UnknownOption {
        /// The game.
        game: &'static str,
        /// The key given.
        key: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// A known option with a value it does not accept.
    #[error(
        "bad value {} for option '{key}' (expected {expected})",
        quote_input(value)
    )]
    BadValue {
        /// The option's key.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// An option not written as `key=value`.
    #[error("malformed option {} (expected key=value)", quote_input(.0))]
    Malformed(String),
    /// The same option's key given twice in one list of overrides (which one is meant is not
    /// said, so neither is taken).
    #[error("option {} given twice (give each option once)", quote_input(.0))]
    Repeated(String),
}

/// A game's rule set: its named variants and its options, each declared once in a table.
pub trait RuleSet: Sized + Clone + fmt::Debug + Default + 'static {
    /// The game these rules belong to (for error messages).
    const GAME: &'static str;

    /// The named variants, the default first (with no settings).
    const VARIANTS: &'static [VariantInfo];

    /// The options, in the order they are listed and resolved.
    const OPTIONS: &'static [RuleOption<Self>];

    /// The named variants, the default first.
    #[must_use]
    fn variants() -> &'static [VariantInfo] {
        Self::VARIANTS
    }

    /// The options, in the order they are listed and resolved.
    #[must_use]
    fn options() -> &'static [RuleOption<Self>] {
        Self::OPTIONS
    }

    /// The rule set of a named variant: the default with the variant's settings applied.
    ///
    /// # Errors
    /// [`RuleError::UnknownVariant`] naming the variant and the known ones.
    fn variant(name: &str) -> Result<Self, RuleError> {
        let v = Self::VARIANTS
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| Self::unknown_variant(name))?;
        let mut rules = Self::default();
        for s in v.settings {
            rules.apply_option_text(s)?;
        }
        Ok(rules)
    }

    /// Overrides one option.
    ///
    /// # Errors
    /// [`RuleError::UnknownOption`] or [`RuleError::BadValue`] naming the bad key or value.
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), RuleError> {
        let o = Self::OPTIONS
            .iter()
            .find(|o| o.key == key)
            .ok_or_else(|| Self::unknown_option(key))?;
        (o.set)(self, value).ok_or_else(|| RuleError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: o.values.describe(),
        })
    }

    /// Every option's resolved value, in [`RuleSet::OPTIONS`] order, as `set_option` reads it.
    #[must_use]
    fn resolved(&self) -> Vec<(&'static str, String)> {
        Self::OPTIONS
            .iter()
            .map(|o| (o.key, (o.get)(self)))
            .collect()
    }

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
    /// As [`RuleSet::variant`] and [`RuleSet::apply_option_text`]; [`RuleError::Repeated`] where
    /// two of `options` set the same key.
    ///
    /// # Examples
    ///
    /// ```
    /// use cowrie_engine::{BaghchalRules, RuleSet};
    ///
    /// // Averbakh's reading (the tigers win on the sixth capture) with a shorter ply cap.
    /// let options = ["ply-cap=200".to_string()];
    /// let rules = BaghchalRules::resolve(Some("averbakh-1995"), &options).unwrap();
    /// assert_eq!((rules.win_captures, rules.ply_cap), (6, Some(200)));
    /// assert_eq!(
    ///     rules.resolved().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
    ///     ["win-captures=6", "goats-blocked=lose", "repetition=none", "ply-cap=200"],
    /// );
    ///
    /// // Options apply after the variant's settings, so an option overrides its variant.
    /// let options = ["win-captures=5".to_string()];
    /// let rules = BaghchalRules::resolve(Some("averbakh-1995"), &options).unwrap();
    /// assert_eq!(rules, BaghchalRules::variant("five-captures").unwrap());
    ///
    /// // Unknown names and bad values are refused, saying what is known or accepted.
    /// let err = BaghchalRules::resolve(Some("nepal"), &[]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "unknown variant 'nepal' for baghchal (known: five-captures, averbakh-1995, parlett-1976)"
    /// );
    /// let err = BaghchalRules::resolve(None, &["win-captures=0".to_string()]).unwrap_err();
    /// assert!(err.to_string().starts_with("bad value '0' for option 'win-captures'"), "{err}");
    ///
    /// // A key given twice is refused, naming it, whatever the two values.
    /// let options = ["ply-cap=5".to_string(), " ply-cap = 9".to_string()];
    /// let err = BaghchalRules::resolve(None, &options).unwrap_err();
    /// assert_eq!(err.to_string(), "option 'ply-cap' given twice (give each option once)");
    /// ```
    fn resolve(variant: Option<&str>, options: &[String]) -> Result<Self, RuleError> {
        let mut rules = match variant {
            Some(name) => Self::variant(name)?,
            None => Self::default(),
        };
        let mut seen: Vec<&str> = Vec::new();
        for o in options {
            rules.apply_option_text(o)?;
            // A malformed option was refused above, so each has a key.
            let key = o.split_once('=').map_or(o.as_str(), |(k, _)| k).trim();
            if seen.contains(&key) {
                return Err(RuleError::Repeated(key.to_string()));
            }
            seen.push(key);
        }
        Ok(rules)
    }

    /// The error for an unknown key, listing the known ones.
    #[must_use]
    fn unknown_option(key: &str) -> RuleError {
        RuleError::UnknownOption {
            game: Self::GAME,
            key: key.to_string(),
            known: Self::OPTIONS
                .iter()
                .map(|o| o.key)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The error for an unknown variant, listing the known ones.
    #[must_use]
    fn unknown_variant(name: &str) -> RuleError {
        RuleError::UnknownVariant {
            game: Self::GAME,
            name: name.to_string(),
            known: Self::VARIANTS
                .iter()
                .map(|v| v.name)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The variants and options in words, with their sources and defaults (`cowrie rules`).
    #[must_use]
    fn describe() -> String {
        describe::<Self>()
    }
}

fn describe<R: RuleSet>() -> String {
    const INDENT: &str = "                     ";
    let mut s = format!("{}\nvariants (the first is the default):\n", R::GAME);
    for v in R::VARIANTS {
        let _ = writeln!(s, "  {:<18} {}", v.name, v.source);
        if !v.settings.is_empty() {
            let _ = writeln!(s, "{INDENT}options: {}", v.settings.join(" "));
        }
    }
    s += "options (--option key=value), each with the default variant's value:\n";
    let defaults = R::default();
    for o in R::OPTIONS {
        let _ = writeln!(
            s,
            "  {:<18} {} (default {})",
            o.key,
            o.doc,
            (o.get)(&defaults)
        );
        let words = o.values.words();
        if words.is_empty() {
            let _ = writeln!(s, "{INDENT}values: {}", o.values.describe());
        }
        let width = words.iter().map(|w| w.word.len()).max().unwrap_or(0);
        for w in words {
            let _ = writeln!(s, "{INDENT}{:<width$}  {}", w.word, w.meaning);
        }
        let _ = writeln!(s, "{INDENT}source: {}", o.source);
    }
    s
}

/// Checks a rule set's tables against each other, for each game's tests: keys distinct; every
/// word of every option accepted by its setter and written back the same by its getter; the
/// default's values read back to the default; every variant's settings accepted; the first
/// variant the default.
///
/// # Panics
/// On the first inconsistency, naming it.
pub fn check_tables<R: RuleSet + PartialEq>() {
    let defaults = R::default();
    for (i, o) in R::OPTIONS.iter().enumerate() {
        assert!(
            R::OPTIONS[..i].iter().all(|p| p.key != o.key),
            "option {} listed twice",
            o.key
        );
        for w in o.values.words() {
            let mut r = defaults.clone();
            r.set_option(o.key, w.word)
                .unwrap_or_else(|e| panic!("{}: {e}", R::GAME));
            assert_eq!(
                (o.get)(&r),
                w.word,
                "{}={} does not read back",
                o.key,
                w.word
            );
        }
        let mut r = defaults.clone();
        r.set_option(o.key, &(o.get)(&defaults))
            .unwrap_or_else(|e| panic!("{}: default of {}: {e}", R::GAME, o.key));
        assert!(r == defaults, "the default of {} does not read back", o.key);
    }
    assert!(
        R::VARIANTS[0].settings.is_empty(),
        "the first variant is the default"
    );
    for v in R::VARIANTS {
        R::variant(v.name).unwrap_or_else(|e| panic!("variant {}: {e}", v.name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::baghchal::Repetition;
    use crate::{BaghchalRules, BargeseRules, FrangiehRules, JulbaharRules};

    #[test]
    fn accepted_values_are_listed_in_words() {
        assert_eq!(
            Values::Words(Repetition::WORDS).describe(),
            "none, threefold-draw or no-recreate"
        );
        let switch = Values::Switch { on: "a", off: "b" };
        assert_eq!(switch.describe(), "on or off");
        assert_eq!(Values::Text("a number").describe(), "a number");
        let e = BaghchalRules::default()
            .set_option("repetition", "twice")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value 'twice' for option 'repetition' (expected none, threefold-draw or no-recreate)"
        );
    }

    /// Every option's key, default, source and every word appear in the help text.
    fn help_is_complete<R: RuleSet>() {
        let text = R::describe();
        let defaults = R::default();
        for v in R::VARIANTS {
            assert!(
                text.contains(v.name) && text.contains(v.source),
                "{}",
                v.name
            );
        }
        for o in R::OPTIONS {
            let line = format!("  {:<18} {} (default {})", o.key, o.doc, (o.get)(&defaults));
            assert!(text.contains(&line), "{}: {line}", R::GAME);
            assert!(text.contains(o.source), "{}", o.key);
            for w in o.values.words() {
                assert!(
                    text.contains(w.word) && text.contains(w.meaning),
                    "{}",
                    w.word
                );
            }
        }
        assert!(!text.to_lowercase().contains("issue"), "{text}");
    }

    #[test]
    fn help_lists_every_option_with_its_values_default_and_source() {
        help_is_complete::<BaghchalRules>();
        help_is_complete::<FrangiehRules>();
        help_is_complete::<JulbaharRules>();
        help_is_complete::<BargeseRules>();
    }
}

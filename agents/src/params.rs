//! Agent parameters as data: each kind's parameters are declared once, in one table of
//! [`Param`]s (its key, the values it accepts, its default, what it sets, and how the kind's
//! parameters read and write it), as the engine declares rule options
//! ([`cowrie_engine::RuleOption`]). The spec parser ([`Kind::parse`]), its errors (the known
//! keys, the values accepted, a missing budget), the canonical spec text ([`Kind::write`]) and
//! the parameter tables of `docs/agents.md` ([`markdown`]) all read those tables. The tables
//! are in [`crate::spec`], beside the parameters they fill; this machinery is generic over the
//! spec type a kind builds (`S`), so it depends on nothing there.

use std::fmt::{self, Write as _};

use cowrie_engine::Word;

/// Why an agent kind's parameters were refused: each a one-line message naming the kind and
/// what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A required parameter missing.
    #[error("agent '{kind}' needs {expected}")]
    MissingParam {
        /// The agent kind.
        kind: String,
        /// The parameter it needs, as `key=VALUE (what it is)`.
        expected: String,
    },
    /// A parameter the kind does not take.
    #[error("agent '{kind}' takes no parameter '{param}' (known: {known})")]
    UnknownParam {
        /// The agent kind.
        kind: String,
        /// The parameter given.
        param: String,
        /// The parameters the kind takes, comma-separated (`none` if it takes none).
        known: String,
    },
    /// A parameter given twice.
    #[error("agent '{kind}': parameter '{param}' given twice")]
    Repeated {
        /// The agent kind.
        kind: String,
        /// The parameter.
        param: String,
    },
    /// A parameter value that does not parse or is out of range.
    #[error("agent '{kind}': bad value '{value}' for '{param}' (expected {expected})")]
    BadValue {
        /// The agent kind.
        kind: String,
        /// The parameter.
        param: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// A parameter given without the one it goes with.
    #[error("agent '{kind}': '{param}' (given '{value}') applies only with {with}")]
    Needs {
        /// The agent kind.
        kind: String,
        /// The parameter given.
        param: String,
        /// The value given.
        value: String,
        /// What it goes with, in words: `'widen' on`, `ply=2`.
        with: String,
    },
    /// A search without a budget.
    #[error("agent '{kind}' needs a budget: {expected}")]
    MissingBudget {
        /// The agent kind.
        kind: String,
        /// The budget parameters it accepts.
        expected: String,
    },
    /// Two budgets where one is taken.
    #[error("agent '{kind}': give either {keys}, not both")]
    BothBudgets {
        /// The agent kind.
        kind: String,
        /// The budget parameters, as `'iterations=' or 'ms='`.
        keys: String,
    },
}

/// The values a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Values {
    /// A finite number from `min` (above it unless `min_included`), up to `max` (included) if
    /// there is one; with `or_none`, also the word `none`.
    Number {
        /// The least value.
        min: f64,
        /// Whether `min` itself is accepted.
        min_included: bool,
        /// The largest value, if any.
        max: Option<f64>,
        /// Whether `none` is accepted.
        or_none: bool,
    },
    /// A whole number of `unit` (empty for a plain number) from `min` to `max`; with `or_none`,
    /// also the word `none`.
    Whole {
        /// The least value.
        min: u64,
        /// The largest value.
        max: u64,
        /// What it counts, in the plural (`plies`), or empty.
        unit: &'static str,
        /// Whether `none` is accepted.
        or_none: bool,
    },
    /// One of these words.
    Words(&'static [Word]),
    /// `on` or `off`.
    Switch,
    /// Any text but the empty one.
    Text {
        /// What stands for the text in the docs and errors (`DIR`).
        placeholder: &'static str,
        /// What the text may be, in words.
        meaning: &'static str,
    },
    /// The rest of the spec, commas included (so the parameter is written last), not blank.
    Rest {
        /// What stands for the text in the docs and errors (`COMMAND`).
        placeholder: &'static str,
        /// What the text may be, in words.
        meaning: &'static str,
    },
}

/// A parameter's value, read from its text and checked against its [`Values`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// The word `none`.
    None,
    /// A number.
    Number(f64),
    /// A whole number.
    Whole(u64),
    /// One of the parameter's words.
    Word(&'static str),
    /// `on` (true) or `off`.
    Switch(bool),
    /// Text.
    Text(&'a str),
}

impl Value<'_> {
    /// The number, if this is one.
    #[must_use]
    pub fn number(self) -> Option<f64> {
        match self {
            Value::Number(x) => Some(x),
            _ => None,
        }
    }

    /// The whole number, if this is one.
    #[must_use]
    pub fn whole(self) -> Option<u64> {
        match self {
            Value::Whole(n) => Some(n),
            _ => None,
        }
    }

    /// The whole number, if this is one that fits in a `u32`.
    #[must_use]
    pub fn whole_u32(self) -> Option<u32> {
        u32::try_from(self.whole()?).ok()
    }

    /// The word, if this is one.
    #[must_use]
    pub fn word(self) -> Option<&'static str> {
        match self {
            Value::Word(w) => Some(w),
            _ => None,
        }
    }

    /// On or off, if this is a switch.
    #[must_use]
    pub fn switch(self) -> Option<bool> {
        match self {
            Value::Switch(on) => Some(on),
            _ => None,
        }
    }
}

impl<'a> Value<'a> {
    /// The text, if this is text.
    #[must_use]
    pub fn text(self) -> Option<&'a str> {
        match self {
            Value::Text(t) => Some(t),
            _ => None,
        }
    }
}

impl fmt::Display for Value<'_> {
    /// The value as a spec writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::None => f.write_str("none"),
            Value::Number(x) => write!(f, "{x}"),
            Value::Whole(n) => write!(f, "{n}"),
            Value::Word(w) | Value::Text(w) => f.write_str(w),
            Value::Switch(on) => f.write_str(if on { "on" } else { "off" }),
        }
    }
}

/// Writes a bound: a power of ten of seven digits or more as `10^k`, any other as digits.
fn bound(n: u64) -> String {
    let digits = n.to_string();
    if digits.len() > 6 && digits[1..].bytes().all(|b| b == b'0') && digits.starts_with('1') {
        format!("10^{}", digits.len() - 1)
    } else {
        digits
    }
}

impl Values {
    /// Reads `text`: `None` if it is not one of these values.
    #[must_use]
    pub fn read(self, text: &str) -> Option<Value<'_>> {
        match self {
            Values::Number { or_none: true, .. } | Values::Whole { or_none: true, .. }
                if text == "none" =>
            {
                Some(Value::None)
            }
            Values::Number {
                min,
                min_included,
                max,
                ..
            } => {
                let x = text.parse::<f64>().ok()?;
                let above = if min_included { x >= min } else { x > min };
                // `-0` reads as 0, so that a spec has one canonical text.
                (x.is_finite() && above && max.is_none_or(|m| x <= m))
                    .then_some(Value::Number(x + 0.0))
            }
            Values::Whole { min, max, .. } => {
                let n = text.parse::<u64>().ok()?;
                (min..=max).contains(&n).then_some(Value::Whole(n))
            }
            Values::Words(words) => words
                .iter()
                .find(|w| w.word == text)
                .map(|w| Value::Word(w.word)),
            Values::Switch => match text {
                "on" => Some(Value::Switch(true)),
                "off" => Some(Value::Switch(false)),
                _ => None,
            },
            Values::Text { .. } => (!text.is_empty()).then_some(Value::Text(text)),
            Values::Rest { .. } => (!text.trim().is_empty()).then_some(Value::Text(text)),
        }
    }

    /// What is accepted, in words, as errors say it: `a finite number >= 0`, `random or
    /// heuristic`, `a whole number of milliseconds from 1 to 86400000`.
    #[must_use]
    pub fn describe(self) -> String {
        let or_none = |s: String, none: bool| if none { s + ", or none" } else { s };
        match self {
            Values::Number {
                min,
                min_included,
                max: Some(max),
                or_none: none,
            } => {
                let open = if min_included { '[' } else { '(' };
                or_none(format!("a number in {open}{min}, {max}]"), none)
            }
            Values::Number {
                min,
                min_included,
                max: None,
                or_none: none,
            } => {
                let op = if min_included { ">=" } else { ">" };
                or_none(format!("a finite number {op} {min}"), none)
            }
            Values::Whole {
                min,
                max,
                unit,
                or_none: none,
            } => {
                if unit.is_empty() && !none && max - min < 3 {
                    let all: Vec<String> = (min..=max).map(|n| n.to_string()).collect();
                    return one_of(&all);
                }
                let of = if unit.is_empty() {
                    String::new()
                } else {
                    format!(" of {unit}")
                };
                or_none(
                    format!("a whole number{of} from {min} to {}", bound(max)),
                    none,
                )
            }
            Values::Words(words) => {
                let all: Vec<String> = words.iter().map(|w| w.word.to_string()).collect();
                one_of(&all)
            }
            Values::Switch => "on or off".to_string(),
            Values::Text { meaning, .. } | Values::Rest { meaning, .. } => meaning.to_string(),
        }
    }

    /// What stands for a value in `key=VALUE` (errors naming a missing budget or parameter):
    /// `N` for a number, the placeholder for text.
    #[must_use]
    pub fn placeholder(self) -> &'static str {
        match self {
            Values::Number { .. } | Values::Whole { .. } => "N",
            Values::Words(_) | Values::Switch => "VALUE",
            Values::Text { placeholder, .. } | Values::Rest { placeholder, .. } => placeholder,
        }
    }
}

/// `a, b or c`.
fn one_of(words: &[String]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

/// What a parameter is when the spec does not give it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fallback {
    /// This value, written in the canonical text as a given one is.
    Value(Value<'static>),
    /// This value, left out of the canonical text (written only when set otherwise), so that
    /// the specs recorded before the parameter existed keep their text.
    Quiet(Value<'static>),
    /// None: the parameter must be given.
    Required,
    /// A budget of which exactly one must be given (`mcts`'s `iterations` and `ms`).
    OneOf,
    /// A budget of which at least one must be given; this value, if any, when another is.
    AnyOf(Option<Value<'static>>),
    /// This value while the parameter `key` is set otherwise than by its default; without it,
    /// the parameter may not be given (`widen_exp`, the exponent of `widen`).
    With {
        /// The parameter it goes with.
        key: &'static str,
        /// Its value when not given.
        value: Value<'static>,
    },
}

impl Fallback {
    /// The value the parameter takes when not given, if any.
    #[must_use]
    pub fn value(self) -> Option<Value<'static>> {
        match self {
            Fallback::Value(v)
            | Fallback::Quiet(v)
            | Fallback::AnyOf(Some(v))
            | Fallback::With { value: v, .. } => Some(v),
            Fallback::Required | Fallback::OneOf | Fallback::AnyOf(None) => None,
        }
    }
}

/// Picks the budgets of which exactly one is given.
const ONE_OF: fn(&Fallback) -> bool = |d| matches!(d, Fallback::OneOf);
/// Picks the budgets of which at least one is given.
const ANY_OF: fn(&Fallback) -> bool = |d| matches!(d, Fallback::AnyOf(_));

/// One parameter of an agent kind whose parameters are a `P`: everything about it, declared
/// once.
pub struct Param<P> {
    /// The key, as in `key=value`.
    pub key: &'static str,
    /// The values it accepts.
    pub values: Values,
    /// What it is when not given.
    pub default: Fallback,
    /// What it sets, in one line.
    pub doc: &'static str,
    /// Its value in `P`, as the spec writes it; `None` where it has none (a budget not chosen,
    /// an exponent without its widening).
    pub get: fn(&P) -> Option<String>,
    /// Sets it from a value [`Param::values`] accepted; `None` if `P` cannot take it.
    pub set: fn(&mut P, Value<'_>) -> Option<()>,
}

impl<P> fmt::Debug for Param<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Param")
            .field("key", &self.key)
            .field("values", &self.values)
            .field("default", &self.default)
            .finish_non_exhaustive()
    }
}

/// A parameter several kinds share, declared once: each kind makes its [`Param`] with
/// [`Shared::with`], giving how its parameters read and write it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shared {
    /// The key.
    pub key: &'static str,
    /// The values it accepts.
    pub values: Values,
    /// What it is when not given.
    pub default: Fallback,
    /// What it sets, in one line.
    pub doc: &'static str,
}

impl Shared {
    /// The parameter for one kind.
    #[must_use]
    pub const fn with<P>(
        self,
        get: fn(&P) -> Option<String>,
        set: fn(&mut P, Value<'_>) -> Option<()>,
    ) -> Param<P> {
        Param {
            key: self.key,
            values: self.values,
            default: self.default,
            doc: self.doc,
            get,
            set,
        }
    }
}

/// An agent kind whose parameters are a `P`, read into a spec `S`: its name, what it plays, and
/// its parameters.
pub struct Kind<P: 'static, S> {
    /// The name before the `:`.
    pub name: &'static str,
    /// What the agent plays, in one line.
    pub doc: &'static str,
    /// Canonical specs of this kind, for the docs (each reads back to itself).
    pub examples: &'static [&'static str],
    /// The parameters, in the order the canonical text writes them.
    pub params: &'static [Param<P>],
    /// The parameters before any is read: each is then set from the spec or its default, so
    /// this decides only what a budget left out leaves.
    pub blank: fn() -> P,
    /// The spec of this kind with these parameters.
    pub wrap: fn(P) -> S,
}

impl<P, S> fmt::Debug for Kind<P, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kind")
            .field("name", &self.name)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl<P, S> Kind<P, S> {
    fn param(&self, key: &str) -> Option<&Param<P>> {
        self.params.iter().find(|p| p.key == key)
    }

    /// The parameters whose default `of` picks, each written by `item`, joined by `join`.
    fn list(&self, of: fn(&Fallback) -> bool, item: fn(&Param<P>) -> String, join: &str) -> String {
        let items: Vec<String> = self
            .params
            .iter()
            .filter(|p| of(&p.default))
            .map(item)
            .collect();
        items.join(join)
    }

    /// The `key=value` items of `text`, each a known key given once; a [`Values::Rest`]
    /// parameter takes the rest of the text.
    fn items<'a>(&self, text: &'a str) -> Result<Vec<(&'static str, &'a str)>, ParamError> {
        let mut items: Vec<(&'static str, &'a str)> = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let end = text[at..].find(',').map_or(text.len(), |i| at + i);
            let item = &text[at..end];
            at = end + 1;
            if item.is_empty() {
                continue;
            }
            let param = item
                .split_once('=')
                .and_then(|(k, _)| self.param(k))
                .ok_or_else(|| ParamError::UnknownParam {
                    kind: self.name.to_string(),
                    param: item.to_string(),
                    known: match self.params {
                        [] => "none".to_string(),
                        _ => self.list(|_| true, |p| p.key.to_string(), ", "),
                    },
                })?;
            if items.iter().any(|(seen, _)| *seen == param.key) {
                return Err(ParamError::Repeated {
                    kind: self.name.to_string(),
                    param: param.key.to_string(),
                });
            }
            let start = end - item.len() + param.key.len() + 1;
            let value = if let Values::Rest { .. } = param.values {
                at = text.len();
                &text[start..]
            } else {
                &text[start..end]
            };
            items.push((param.key, value));
        }
        Ok(items)
    }

    /// Refuses a spec without its budget or a required parameter.
    fn check_given(&self, given: &[(&'static str, &str)]) -> Result<(), ParamError> {
        let is_given = |p: &Param<P>| given.iter().any(|(k, _)| *k == p.key);
        let count = |of: fn(&Fallback) -> bool| {
            let all = self.params.iter().filter(|p| of(&p.default));
            (all.clone().count(), all.filter(|p| is_given(p)).count())
        };
        let written = |p: &Param<P>| format!("{}={}", p.key, p.values.placeholder());
        let missing = |expected: String| ParamError::MissingBudget {
            kind: self.name.to_string(),
            expected,
        };
        match count(ONE_OF) {
            (0, _) | (_, 1) => {}
            (_, 0) => return Err(missing(self.list(ONE_OF, written, " or "))),
            _ => {
                return Err(ParamError::BothBudgets {
                    kind: self.name.to_string(),
                    keys: self.list(ONE_OF, |p| format!("'{}='", p.key), " or "),
                })
            }
        }
        if let (1.., 0) = count(ANY_OF) {
            return Err(missing(self.list(ANY_OF, written, " and/or ")));
        }
        match self
            .params
            .iter()
            .find(|p| p.default == Fallback::Required && !is_given(p))
        {
            Some(p) => Err(ParamError::MissingParam {
                kind: self.name.to_string(),
                expected: format!("{} ({})", written(p), p.values.describe()),
            }),
            None => Ok(()),
        }
    }

    /// Whether the parameter `key` is set otherwise than by its default in `p`.
    fn is_on(&self, key: &str, p: &P) -> bool {
        let other = self.param(key).expect("a declared key");
        let default = other.default.value();
        (other.get)(p).is_some_and(|text| default.is_none_or(|d| d.to_string() != text))
    }

    /// Reads the parameters `text` gives (what follows `name:`, if anything), every other at
    /// its default.
    ///
    /// # Errors
    /// An unknown or repeated key, a budget missing or doubled, a required parameter missing, a
    /// value not accepted: each a one-line [`ParamError`] naming it.
    pub fn parse(&self, text: Option<&str>) -> Result<P, ParamError> {
        let given = self.items(text.unwrap_or(""))?;
        self.check_given(&given)?;
        let mut p = (self.blank)();
        for param in self.params {
            let text = given.iter().find(|(k, _)| *k == param.key).map(|(_, v)| *v);
            let value = match (text, param.default) {
                (Some(text), Fallback::With { key, .. }) if !self.is_on(key, &p) => {
                    return Err(ParamError::Needs {
                        kind: self.name.to_string(),
                        param: param.key.to_string(),
                        with: format!("'{key}' on"),
                        value: text.to_string(),
                    })
                }
                (Some(text), _) => param.values.read(text),
                (None, Fallback::With { key, .. }) if !self.is_on(key, &p) => continue,
                (None, default) => match default.value() {
                    Some(value) => Some(value),
                    None => continue,
                },
            };
            if value.and_then(|v| (param.set)(&mut p, v)).is_none() {
                return Err(ParamError::BadValue {
                    kind: self.name.to_string(),
                    param: param.key.to_string(),
                    value: text
                        .map_or_else(|| value.map(|v| v.to_string()), |t| Some(t.into()))
                        .unwrap_or_default(),
                    expected: param.values.describe(),
                });
            }
        }
        Ok(p)
    }

    /// Writes the canonical spec of `p`: the name, then `:key=value,...` for every parameter
    /// with a value in table order, but for [`Fallback::Quiet`] ones at their default.
    ///
    /// # Errors
    /// As the writer's.
    pub fn write<W: fmt::Write + ?Sized>(&self, f: &mut W, p: &P) -> fmt::Result {
        f.write_str(self.name)?;
        let mut sep = ':';
        for param in self.params {
            let Some(text) = (param.get)(p) else {
                continue;
            };
            if let Fallback::Quiet(d) = param.default {
                if d.to_string() == text {
                    continue;
                }
            }
            write!(f, "{sep}{}={text}", param.key)?;
            sep = ',';
        }
        Ok(())
    }

    /// What the parameter is when not given, in markdown.
    fn default_markdown(&self, param: &Param<P>) -> String {
        let keys = |of| self.list(of, |p| format!("`{}`", p.key), " and ");
        match param.default {
            Fallback::Value(v) => format!("`{v}`"),
            Fallback::Quiet(v) => format!("`{v}` (written only when set otherwise)"),
            Fallback::Required => "required".to_string(),
            Fallback::OneOf => format!("exactly one of {} is required", keys(ONE_OF)),
            Fallback::AnyOf(v) => format!(
                "{}; at least one of {} is required",
                v.map_or("none".to_string(), |v| format!("`{v}`")),
                keys(ANY_OF)
            ),
            Fallback::With { key, value } => format!("`{value}` (with `{key}` only)"),
        }
    }
}

/// An agent kind building a spec `S`, with its parameters' type left out: what the spec parser
/// and the docs go through (as [`crate::spec::KINDS`] lists them).
pub trait AnyKind<S>: Sync {
    /// The name before the `:`.
    fn name(&self) -> &'static str;
    /// Reads the parameters after the `:` (if any) into a spec.
    ///
    /// # Errors
    /// As [`Kind::parse`].
    fn read(&self, text: Option<&str>) -> Result<S, ParamError>;
    /// The kind's row of the docs' table of kinds.
    fn kind_row(&self) -> String;
    /// The kind's rows of the docs' table of parameters.
    fn param_rows(&self) -> String;
    /// Checks the table against itself (for the tests): keys distinct; every default
    /// accepted by its values; a [`Fallback::With`] names an earlier parameter; a
    /// [`Values::Rest`] parameter last; a required parameter text; docs on one line without a
    /// `|`; every example of this kind and canonical (it reads back and writes as itself).
    ///
    /// # Panics
    /// On the first inconsistency, naming it.
    fn check_table(&self);
}

impl<P, S> AnyKind<S> for Kind<P, S> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn read(&self, text: Option<&str>) -> Result<S, ParamError> {
        self.parse(text).map(self.wrap)
    }

    fn kind_row(&self) -> String {
        let keys: Vec<String> = self.params.iter().map(|p| format!("`{}`", p.key)).collect();
        let examples: Vec<String> = self.examples.iter().map(|e| format!("`{e}`")).collect();
        format!(
            "| `{}` | {} | {} | {} |\n",
            self.name,
            self.doc,
            if keys.is_empty() {
                "none".to_string()
            } else {
                keys.join(", ")
            },
            examples.join(", ")
        )
    }

    fn param_rows(&self) -> String {
        let mut s = String::new();
        for p in self.params {
            let accepts = match p.values {
                Values::Words(words) => {
                    let words: Vec<String> = words
                        .iter()
                        .map(|w| format!("`{}` ({})", w.word, w.meaning))
                        .collect();
                    one_of(&words)
                }
                v => v.describe(),
            };
            let _ = writeln!(
                s,
                "| `{}` | `{}` | {accepts} | {} | {} |",
                self.name,
                p.key,
                self.default_markdown(p),
                p.doc
            );
        }
        s
    }

    fn check_table(&self) {
        let name = self.name;
        let text = [self.doc]
            .into_iter()
            .chain(self.params.iter().map(|p| p.doc));
        for t in text {
            assert!(!t.contains(['|', '\n']), "{name}: {t:?}");
        }
        for (i, p) in self.params.iter().enumerate() {
            let key = p.key;
            assert!(
                self.params[..i].iter().all(|q| q.key != key),
                "{name}: {key} declared twice"
            );
            let default = match p.default {
                Fallback::Value(v) | Fallback::Quiet(v) | Fallback::AnyOf(Some(v)) => Some(v),
                Fallback::With { key: with, value } => {
                    assert!(
                        self.params[..i].iter().any(|q| q.key == with),
                        "{name}: {key} goes with {with}, declared after it or not at all"
                    );
                    Some(value)
                }
                Fallback::Required => {
                    assert!(
                        matches!(p.values, Values::Text { .. } | Values::Rest { .. }),
                        "{name}: {key} is required, so text"
                    );
                    None
                }
                Fallback::OneOf | Fallback::AnyOf(None) => None,
            };
            if let Some(d) = default {
                assert_eq!(
                    p.values.read(&d.to_string()),
                    Some(d),
                    "{name}: the default of {key} is not one of its values"
                );
            }
            if let Values::Rest { .. } = p.values {
                assert_eq!(
                    i + 1,
                    self.params.len(),
                    "{name}: {key} takes the rest, so last"
                );
            }
        }
        assert!(!self.examples.is_empty(), "{name}: an example");
        for e in self.examples {
            let given = match e.split_once(':') {
                Some((kind, given)) => (kind == name).then_some(Some(given)),
                None => (*e == name).then_some(None),
            };
            let given = given.unwrap_or_else(|| panic!("{e} is a {name} spec"));
            let p = self.parse(given).unwrap_or_else(|err| panic!("{e}: {err}"));
            let mut written = String::new();
            self.write(&mut written, &p)
                .expect("a String takes any text");
            assert_eq!(written, *e, "{name}: an example is canonical");
        }
    }
}

/// The docs' tables of agent kinds and of their parameters (in `docs/agents.md`), rendered
/// from the declarations.
#[must_use]
pub fn markdown<S>(kinds: &[&dyn AnyKind<S>]) -> String {
    let mut s = String::from(
        "| spec | plays | parameters | canonical examples |\n| --- | --- | --- | --- |\n",
    );
    for k in kinds {
        s += &k.kind_row();
    }
    s += "\n| spec | parameter | accepts | default | sets |\n| --- | --- | --- | --- | --- |\n";
    for k in kinds {
        s += &k.param_rows();
    }
    s
}

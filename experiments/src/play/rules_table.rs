//! The rule set a game is played under, as the play page and the line mode show it: every
//! option's value, what set it (the game's default, the named variant, or `--option`), what it
//! decides and its source, as `cowrie rules` lists them.

use cowrie_engine::RuleSet;
use serde::Serialize;

/// One rule option as played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleRow {
    /// The option's key.
    pub key: &'static str,
    /// Its value in the rules played.
    pub value: String,
    /// `default`, `variant NAME` or `--option`.
    pub set_by: String,
    /// What the option decides.
    pub doc: &'static str,
    /// The publication (docs/sources.md clause ids) or program each reading follows.
    pub source: &'static str,
}

/// The rule set played: the variant and its source, and every option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesTable {
    /// The variant's name.
    pub variant: String,
    /// The publication the variant follows.
    pub variant_source: &'static str,
    /// Every option, in the game's order.
    pub options: Vec<RuleRow>,
}

/// The table of `rules`, the variant `variant` with the `key=value` overrides `overrides`.
#[must_use]
pub fn table<R: RuleSet>(rules: &R, variant: &str, overrides: &[String]) -> RulesTable {
    let info = R::variants().iter().find(|v| v.name == variant);
    let key_of = |text: &str| text.split_once('=').map(|(k, _)| k.trim().to_string());
    let options = R::options()
        .iter()
        .map(|o| {
            let set_by = if overrides
                .iter()
                .any(|t| key_of(t).as_deref() == Some(o.key))
            {
                "--option".to_string()
            } else if info.is_some_and(|v| {
                v.settings
                    .iter()
                    .any(|t| key_of(t).as_deref() == Some(o.key))
            }) {
                format!("variant {variant}")
            } else {
                "default".to_string()
            };
            RuleRow {
                key: o.key,
                value: (o.get)(rules),
                set_by,
                doc: o.doc,
                source: o.source,
            }
        })
        .collect();
    RulesTable {
        variant: variant.to_string(),
        variant_source: info.map_or("", |v| v.source),
        options,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cowrie_engine::BaghchalRules;

    #[test]
    fn each_option_says_what_set_it() {
        let overrides = ["ply-cap=200".to_string()];
        let rules = BaghchalRules::resolve(Some("averbakh-1995"), &overrides).unwrap();
        let t = table(&rules, "averbakh-1995", &overrides);
        let row = |k: &str| t.options.iter().find(|r| r.key == k).unwrap().clone();
        // Averbakh's tigers win on the sixth capture (docs/rules/baghchal.md).
        assert_eq!(
            (row("win-captures").value, row("win-captures").set_by),
            ("6".to_string(), "variant averbakh-1995".to_string())
        );
        assert_eq!(
            (row("ply-cap").value, row("ply-cap").set_by),
            ("200".to_string(), "--option".to_string())
        );
        assert_eq!(row("repetition").set_by, "default");
        assert!(!t.variant_source.is_empty());
    }
}

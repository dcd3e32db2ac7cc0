//! Agent specs as written on the command line: `kind` or `kind:key=value,key=value`.
//!
//! Known kinds: `random` (no parameters). Every unknown kind or parameter is refused with an
//! error naming it.

use std::fmt;
use std::str::FromStr;

/// A parsed, validated agent spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// `random`: uniform random play.
    Random,
}

/// Why an agent spec was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The kind before `:` is not known.
    #[error("unknown agent '{0}' (known: random)")]
    UnknownKind(String),
    /// A parameter the kind does not take.
    #[error("agent '{kind}' takes no parameter '{param}'")]
    UnknownParam {
        /// The agent kind.
        kind: String,
        /// The parameter given.
        param: String,
    },
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let (kind, params) = match text.split_once(':') {
            Some((k, p)) => (k, Some(p)),
            None => (text, None),
        };
        match kind {
            "random" => {
                if let Some(p) = params.filter(|p| !p.is_empty()) {
                    return Err(SpecError::UnknownParam {
                        kind: kind.to_string(),
                        param: p.split(',').next().unwrap_or(p).to_string(),
                    });
                }
                Ok(AgentSpec::Random)
            }
            _ => Err(SpecError::UnknownKind(text.to_string())),
        }
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical spec text, as written to CSV.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => write!(f, "random"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        assert_eq!("random".parse::<AgentSpec>(), Ok(AgentSpec::Random));
        assert_eq!(AgentSpec::Random.to_string(), "random");
        let e = "rnadom".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("'rnadom'"), "{e}");
        let e = "random:depth=3"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("'depth=3'"), "{e}");
    }
}

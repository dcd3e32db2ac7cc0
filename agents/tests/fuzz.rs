//! Fuzzing of the agent-spec parser: random texts and valid specs with random edits give a
//! spec or a one-line error, never a panic, and a parsed spec writes its canonical form,
//! which reads back to the same spec.
//!
//! CI runs a few thousand inputs; the long run is
//! `PROPTEST_CASES=1000000 cargo test --release -p cowrie-agents --test fuzz`.

use cowrie_agents::AgentSpec;
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(5000);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

const VALID: &[&str] = &[
    "random",
    "heuristic:temperature=0.5",
    "mcts:iterations=100,c=1.4,rollout=heuristic,cutoff=10",
    "mcts:ms=50",
    "expectimax:depth=2,ms=100",
    "td:ply=1",
    "td:ply=2,nodes=5000",
    "external:timeout_ms=500,cmd=python3 agent.py",
];

fn check(text: &str) -> Result<(), TestCaseError> {
    match text.parse::<AgentSpec>() {
        Ok(spec) => {
            let canonical = spec.to_string();
            let again: AgentSpec = canonical
                .parse()
                .map_err(|e| TestCaseError::fail(format!("{canonical:?}: {e}")))?;
            prop_assert_eq!(again, spec, "{:?}", text);
        }
        Err(e) => prop_assert!(!e.to_string().contains('\n'), "{text:?}: {e}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn agent_specs(
        base in proptest::sample::select(VALID),
        at in any::<usize>(),
        cut in 0usize..4,
        insert in "[a-z0-9=:,.\\-_ ]{0,6}|.{0,3}",
        random in ".{0,30}",
    ) {
        let chars: Vec<char> = base.chars().collect();
        let at = at % (chars.len() + 1);
        let end = (at + cut).min(chars.len());
        let edited: String = chars[..at].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(chars[end..].iter()).collect();
        check(base)?;
        check(&edited)?;
        check(&random)?;
    }
}

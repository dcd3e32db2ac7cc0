//! Fuzzing of every text parser the engine offers a user: each game's position and action
//! notation, rule options and variants, and GNU Backgammon Position IDs. Inputs are random
//! strings and valid texts with random edits (cut, inserted, replaced characters); every one
//! must give a value or a one-line error, never a panic. And round trips: the notation of
//! random reachable positions of every game reads back to the same position.
//!
//! CI runs a few thousand inputs per parser (the proptest default below); the long run is
//! `PROPTEST_CASES=1000000 cargo test --release -p cowrie-engine --test fuzz`.

use cowrie_engine::{
    sample_outcome, tables, Baghchal, Bargese, Frangieh, Game, Julbahar, RuleSet, ToAct,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

/// Cases per property unless `PROPTEST_CASES` says otherwise.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(3000);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The position reached by `plies` uniformly random steps from the start (chance outcomes
/// sampled), stopping at the end of the game.
fn reachable<G: Game>(seed: u64, plies: u32) -> G {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut state = G::new(&G::Rules::default());
    let (mut actions, mut outcomes) = (Vec::new(), Vec::new());
    for _ in 0..plies {
        match state.to_act() {
            ToAct::Terminal(_) => break,
            ToAct::Chance => {
                state.chance_outcomes(&mut outcomes);
                let o = sample_outcome(&outcomes, &mut rng);
                state.apply_outcome(o);
            }
            ToAct::Decision(_) => {
                state.legal_actions(&mut actions);
                let a = actions[rng.gen_range(0..actions.len())];
                state.play_unchecked(a);
            }
        }
    }
    state
}

/// `text` with `edits` random character edits (deletions, insertions, replacements) drawn
/// from `alphabet` and arbitrary characters.
fn mutate(text: &str, edits: &[(u8, usize, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(kind, at, c) in edits {
        let at = if chars.is_empty() {
            0
        } else {
            at % (chars.len() + 1)
        };
        match kind % 3 {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => chars.insert(at, c),
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

/// Characters that notations use, so that edits stay near the valid texts.
fn notation_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::sample::select(
            "0123456789abcdefghijklmnopqrstuvwxyzTG./,:-x*=+ \t;kKoO|()[]".chars().collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ]
}

fn edits() -> impl Strategy<Value = Vec<(u8, usize, char)>> {
    proptest::collection::vec((any::<u8>(), any::<usize>(), notation_char()), 1..6)
}

/// A parse of any text gives a value or a one-line error; a value's notation parses again to
/// the same state.
fn check_position<G: Game>(text: &str) {
    match G::from_notation(text, &G::Rules::default()) {
        Ok(state) => {
            let again = G::from_notation(&state.notation(), &G::Rules::default())
                .expect("a state's own notation parses");
            assert_eq!(again.hash(), state.hash(), "{text:?}");
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "{text:?}: {e}"),
    }
}

/// Every action text parses to an action or a one-line error; the checked API plays a parsed
/// action exactly when it is legal, and refuses it otherwise, never panicking.
fn check_action<G: Game>(state: &G, text: &str) {
    match state.parse_action(text) {
        Ok(a) => {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let played = state.clone().try_play(a);
            assert_eq!(played.is_ok(), legal.contains(&a), "{text:?}: {played:?}");
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "{text:?}: {e}"),
    }
}

/// A decision node of game `G` reached from `seed` (the start if none is found).
fn decision<G: Game>(seed: u64, plies: u32) -> G {
    let mut s = reachable::<G>(seed, plies);
    let mut buf = Vec::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    while s.to_act() == ToAct::Chance {
        s.chance_outcomes(&mut buf);
        let o = sample_outcome(&buf, &mut rng);
        s.apply_outcome(o);
    }
    s
}

fn fuzz_game<G: Game>(seed: u64, plies: u32, edits: &[(u8, usize, char)], random: &str) {
    let state = reachable::<G>(seed, plies);
    let text = state.notation();
    // Round trip on a reachable position.
    let back = G::from_notation(&text, state.rules()).expect("notation of a reachable state");
    assert_eq!(back.notation(), text);
    assert_eq!(back.hash(), state.hash());
    check_position::<G>(&mutate(&text, edits));
    check_position::<G>(random);
    let d = decision::<G>(seed, plies);
    if matches!(d.to_act(), ToAct::Decision(_)) {
        let mut legal = Vec::new();
        d.legal_actions(&mut legal);
        let shown = d.action_to_string(legal[seed as usize % legal.len()]);
        assert_eq!(
            d.parse_action(&shown).ok(),
            Some(legal[seed as usize % legal.len()])
        );
        check_action(&d, &mutate(&shown, edits));
        check_action(&d, random);
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn baghchal_texts(seed in any::<u64>(), plies in 0u32..120, e in edits(), r in ".{0,40}") {
        fuzz_game::<Baghchal>(seed, plies, &e, &r);
    }

    #[test]
    fn frangieh_texts(seed in any::<u64>(), plies in 0u32..200, e in edits(), r in ".{0,40}") {
        fuzz_game::<Frangieh>(seed, plies, &e, &r);
    }

    #[test]
    fn julbahar_texts(seed in any::<u64>(), plies in 0u32..300, e in edits(), r in ".{0,40}") {
        fuzz_game::<Julbahar>(seed, plies, &e, &r);
    }

    #[test]
    fn bargese_texts(seed in any::<u64>(), plies in 0u32..150, e in edits(), r in ".{0,40}") {
        fuzz_game::<Bargese>(seed, plies, &e, &r);
    }

    #[test]
    fn rule_options_and_variants(
        key in "[a-z-]{0,14}",
        value in ".{0,12}",
        variant in proptest::option::of("[a-z0-9-]{0,14}"),
        e in edits(),
    ) {
        let option = mutate(&format!("{key}={value}"), &e);
        for result in [
            <Baghchal as Game>::Rules::resolve(variant.as_deref(), std::slice::from_ref(&option)).map(|_| ()),
            <Frangieh as Game>::Rules::resolve(variant.as_deref(), std::slice::from_ref(&option)).map(|_| ()),
            <Julbahar as Game>::Rules::resolve(variant.as_deref(), std::slice::from_ref(&option)).map(|_| ()),
            <Bargese as Game>::Rules::resolve(variant.as_deref(), std::slice::from_ref(&option)).map(|_| ()),
        ] {
            if let Err(err) = result {
                prop_assert!(!err.to_string().contains('\n'), "{option:?}: {err}");
            }
        }
    }

    #[test]
    fn position_ids(e in edits(), r in "[A-Za-z0-9+/]{0,16}") {
        for text in [mutate("4HPwATDgc/ABMA", &e), r] {
            if let Err(err) = tables::decode_position_id(&text) {
                prop_assert!(!err.contains('\n'), "{text:?}: {err}");
            }
        }
    }
}

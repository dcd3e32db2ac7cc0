//! The five legal-move cases of `data/frangieh_legal_moves.json` (validated with GNU Backgammon,
//! copied from `shared/cases`): under `modern`, the legal plays lead to exactly the listed
//! resulting positions and to none of the listed illegal ones. Also the cases' Position IDs.

use std::collections::BTreeSet;

use cowrie_engine::games::frangieh::Phase;
use cowrie_engine::games::tables::{Direction, Roll};
use cowrie_engine::{Frangieh, FrangiehRules, Game, Player, RuleSet};
use serde_json::Value;

fn modern() -> FrangiehRules {
    FrangiehRules::variant("modern").unwrap()
}

type View = ([i8; 24], [u8; 2], [u8; 2]);

fn view(v: &Value) -> View {
    let pts: Vec<i8> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap() as i8)
        .collect();
    let pair = |k: &str| {
        let a = v[k].as_array().unwrap();
        [a[0].as_u64().unwrap() as u8, a[1].as_u64().unwrap() as u8]
    };
    (pts.try_into().unwrap(), pair("bar"), pair("off"))
}

fn cases() -> Vec<Value> {
    let v: Value = serde_json::from_str(include_str!("data/frangieh_legal_moves.json")).unwrap();
    v["cases"].as_array().unwrap().clone()
}

fn state(case: &Value) -> Frangieh {
    let (pts, bar, off) = view(&case["position"]);
    let board =
        cowrie_engine::games::tables::Board::from_view(0, &pts, bar, off, Direction::Opposite)
            .unwrap();
    let d = case["dice"].as_array().unwrap();
    let roll = Roll::new(d[0].as_u64().unwrap() as u8, d[1].as_u64().unwrap() as u8);
    Frangieh::from_parts(modern(), board, Player::ONE, Phase::Play(roll), 0).unwrap()
}

/// The resulting positions of every legal action, from the mover's side (before the turn passes).
fn results(s: &Frangieh) -> BTreeSet<View> {
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    let out: BTreeSet<View> = buf
        .iter()
        .map(|&a| {
            let mut n = *s;
            n.play_unchecked(a);
            n.board().to_view(0, Direction::Opposite)
        })
        .collect();
    assert_eq!(out.len(), buf.len(), "two actions lead to one position");
    out
}

#[test]
fn the_five_cases_give_exactly_the_listed_positions() {
    let all = cases();
    assert_eq!(all.len(), 5);
    for case in &all {
        let name = case["name"].as_str().unwrap();
        let s = state(case);
        let got = results(&s);
        let want: BTreeSet<View> = case["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| view(&r["position"]))
            .collect();
        assert_eq!(
            want.len() as u64,
            case["n_legal_results"].as_u64().unwrap(),
            "{name}: the file is self-consistent"
        );
        assert_eq!(got, want, "{name}");
        if let Some(bad) = case.get("illegal_examples") {
            for b in bad.as_array().unwrap() {
                assert!(
                    !got.contains(&view(&b["position"])),
                    "{name}: illegal {} generated",
                    b["moves"]
                );
            }
        }
        // The listed plays parse (in GNU Backgammon's own notation) to legal actions.
        let mut buf = Vec::new();
        s.legal_actions(&mut buf);
        for r in case["results"].as_array().unwrap() {
            let Some(text) = r.get("gnubg_notation").and_then(Value::as_str) else {
                continue;
            };
            let a = s.parse_action(text).unwrap();
            if !buf.contains(&a) {
                // GNU Backgammon collapses paths ("24/20"); the representative listed may pass
                // another way, so compare by result instead.
                let mut n = s;
                n.play_unchecked(a);
                assert!(
                    got.contains(&n.board().to_view(0, Direction::Opposite)),
                    "{name}: '{text}'"
                );
            }
        }
    }
}

#[test]
fn position_ids_of_the_cases_read_and_write() {
    for case in &cases() {
        let id = case["gnubg_position_id"].as_str().unwrap();
        let s = state(case);
        assert_eq!(s.position_id(), id, "{}", case["name"]);
        let back = Frangieh::from_position_id(id, Roll(6, 1), modern()).unwrap();
        assert_eq!(back.board(), s.board(), "{}", case["name"]);
    }
    let start = Frangieh::new(&modern());
    assert_eq!(start.position_id(), "4HPwATDgc/ABMA");
}

#[test]
fn closed_board_is_one_pass() {
    let case = &cases()[4];
    let s = state(case);
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    assert_eq!(buf.len(), 1);
    assert!(buf[0].is_pass());
    assert_eq!(s.action_to_string(buf[0]), "pass");
}

#[test]
fn larger_die_case_under_barakat_allows_both() {
    // Case 3 (6-5, only one die playable): `modern` allows only 13/7; with larger-die off
    // (Barakat 1974 is silent [1769.9]) both 13/7 and 13/8 are legal.
    let case = &cases()[2];
    let mut s = state(case);
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    let texts: Vec<String> = buf.iter().map(|&a| s.action_to_string(a)).collect();
    assert_eq!(texts, ["13/7"]);
    let mut rules = modern();
    rules.larger_die = false;
    s = Frangieh::from_parts(rules, *s.board(), Player::ONE, s.phase(), 0).unwrap();
    s.legal_actions(&mut buf);
    let mut texts: Vec<String> = buf.iter().map(|&a| s.action_to_string(a)).collect();
    texts.sort();
    assert_eq!(texts, ["13/7", "13/8"]);
}

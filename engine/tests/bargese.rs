//! Bargese: conformance per variant and option, the sources' worked example, hand-checked
//! positions, a brute-force cross-check of the turn generator, random-play invariants.

use std::collections::BTreeSet;

use cowrie_engine::games::bargese::*;
use cowrie_engine::testing::conformance;
use cowrie_engine::{sample_outcome, ChanceChain, EndReason, Game, Player, RuleSet, ToAct};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rules(opts: &[&str]) -> BargeseRules {
    let mut r = BargeseRules::default();
    for o in opts {
        r.apply_option_text(o).unwrap();
    }
    r
}

fn pos(text: &str, r: &BargeseRules) -> Bargese {
    Bargese::from_notation(text, r).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal actions written in the action notation, sorted.
fn legal(s: &Bargese) -> Vec<String> {
    let mut buf = Vec::new();
    s.legal_actions(&mut buf);
    let mut v: Vec<String> = buf.iter().map(|&a| s.action_to_string(a)).collect();
    v.sort();
    v
}

fn throw(s: &mut Bargese, t: Throw) {
    s.try_apply_outcome(BargeseOutcome::Throw(t)).unwrap();
}

fn play(s: &mut Bargese, text: &str) {
    let a = s.parse_action(text).unwrap();
    s.try_play(a)
        .unwrap_or_else(|e| panic!("{text}: {e}; legal {:?}", legal(s)));
}

// ---------------------------------------------------------------- throws

#[test]
fn chance_nodes_list_the_binomial_throws() {
    let mut s = Bargese::new(&BargeseRules::default());
    let mut buf = Vec::new();
    s.chance_outcomes(&mut buf);
    // Three shells: 1, 3, 3, 1 in 8.
    let p: Vec<f64> = buf.iter().map(|o| o.1 * 8.0).collect();
    assert_eq!(p, vec![1.0, 3.0, 3.0, 1.0]);
    s.apply_outcome(BargeseOutcome::Shells(3));
    s.apply_outcome(BargeseOutcome::Shells(0));
    assert_eq!(s.shells_winner(), Some(Player::ONE));
    s.chance_outcomes(&mut buf);
    // Six cowries: 1, 6, 15, 20, 15, 6, 1 in 64; a further throw 14 in 64.
    let p: Vec<f64> = buf.iter().map(|o| o.1 * 64.0).collect();
    assert_eq!(p, vec![1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
    let again: f64 = buf
        .iter()
        .filter(|(o, _)| matches!(o, BargeseOutcome::Throw(t) if t.grants_another()))
        .map(|o| o.1)
        .sum();
    assert_eq!(again, 14.0 / 64.0);
    // Another bias: none mouths up is (1 - p)^6.
    let s = Bargese::new(&rules(&["p=0.52"]));
    let mut s = s;
    s.apply_outcome(BargeseOutcome::Shells(1));
    s.apply_outcome(BargeseOutcome::Shells(2));
    assert_eq!(s.shells_winner(), Some(Player::TWO));
    s.chance_outcomes(&mut buf);
    assert!((buf[0].1 - 0.48f64.powi(6)).abs() < 1e-15);
    assert!((buf.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn opening_tie_throws_again_and_only_dust_or_bange_starts() {
    let r = BargeseRules::default();
    let mut s = Bargese::new(&r);
    s.apply_outcome(BargeseOutcome::Shells(2));
    s.apply_outcome(BargeseOutcome::Shells(2));
    assert_eq!(s.stage(), Stage::ShellsFirst);
    s.apply_outcome(BargeseOutcome::Shells(1));
    s.apply_outcome(BargeseOutcome::Shells(2));
    assert_eq!(s.stage(), Stage::Opening(Player::TWO));
    // A shaka before anyone's dust or bange is void by default: the throw passes.
    throw(&mut s, Throw::Shaka);
    assert_eq!(s.stage(), Stage::Opening(Player::ONE));
    assert_eq!(s.throws(), [0; 7]);
    throw(&mut s, Throw::Arba);
    assert_eq!(s.stage(), Stage::Opening(Player::TWO));
    throw(&mut s, Throw::Bange);
    assert_eq!(s.stage(), Stage::Throwing(Player::TWO));
    throw(&mut s, Throw::Doi);
    assert_eq!(s.stage(), Stage::Moving(Player::TWO));

    // Under opening-extra=keep the shaka joins the turn once a dust follows.
    let mut s = Bargese::new(&rules(&["opening-extra=keep"]));
    s.apply_outcome(BargeseOutcome::Shells(3));
    s.apply_outcome(BargeseOutcome::Shells(1));
    throw(&mut s, Throw::Shaka);
    assert_eq!(s.stage(), Stage::Opening(Player::ONE));
    throw(&mut s, Throw::Dust);
    throw(&mut s, Throw::Tlaite);
    assert_eq!(s.stage(), Stage::Moving(Player::ONE));
    // The initial dust has placed the first piece on the X (opening-entry=on, [1604.T5]).
    assert_eq!(s.throws(), [1, 0, 0, 1, 0, 0, 0]);
    assert_eq!(s.pieces(Player::ONE), [X_ENTRY, OFF, OFF, OFF]);
    // ...and a chain that ends without a dust or bange is void.
    let mut s = Bargese::new(&rules(&["opening-extra=keep"]));
    s.apply_outcome(BargeseOutcome::Shells(3));
    s.apply_outcome(BargeseOutcome::Shells(1));
    throw(&mut s, Throw::Bara);
    throw(&mut s, Throw::Doi);
    assert_eq!(s.stage(), Stage::Opening(Player::TWO));
    assert_eq!(s.throws(), [0; 7]);
}

// ---------------------------------------------------------------- Tajeddin's example

/// Finkel 2002, Tajeddin: "A player throws dust, followed by another dust, followed by shaka and
/// finally doi."
fn tajeddin_start(r: &BargeseRules) -> Bargese {
    let mut s = Bargese::new(r);
    s.apply_outcome(BargeseOutcome::Shells(2));
    s.apply_outcome(BargeseOutcome::Shells(1));
    for t in [Throw::Dust, Throw::Dust, Throw::Shaka, Throw::Doi] {
        throw(&mut s, t);
    }
    assert_eq!(s.stage(), Stage::Moving(Player::ONE));
    s
}

#[test]
fn tajeddin_first_continuation() {
    // First dust: a piece on the X (index 10). Second dust: the hal enters a second piece next
    // to the kitchen (index 0) and the first piece moves 10 (to 20). Shaka: the first piece
    // moves 6 (to 26). Doi: the second piece moves 2 down the home column (to 2).
    let s = tajeddin_start(&BargeseRules::default());
    let l = legal(&s);
    assert!(l.contains(&"2,26,o,o".to_string()), "{l:?}");
    let mut s = s;
    play(&mut s, "2,26,o,o");
    assert_eq!(s.pieces(Player::ONE), [2, 26, OFF, OFF]);
    assert_eq!(s.first_entered(), Some(Player::ONE));
    assert_eq!(s.stage(), Stage::Throwing(Player::TWO));
    assert_eq!(s.shells_winner(), Some(Player::ONE));
    for p in Player::BOTH {
        assert_eq!((s.in_kitchen(p), s.hammerings(p)), (0, 0));
    }
}

#[test]
fn tajeddin_second_continuation() {
    // Both dusts enter a piece on the X; then "either piece 6 and then 2": one piece both
    // (to 18) or one each (16 and 12).
    let s = tajeddin_start(&BargeseRules::default());
    let l = legal(&s);
    for want in ["10,18,o,o", "12,16,o,o"] {
        assert!(l.contains(&want.to_string()), "{want} not in {l:?}");
    }
    // Using fewer throws than possible is not allowed by default...
    assert!(!l.contains(&"10,10,o,o".to_string()));
    // ...but is under must-use=free (passing too).
    let free = legal(&tajeddin_start(&rules(&["must-use=free"])));
    assert!(free.contains(&"10,10,o,o".to_string()));
    assert!(free.contains(&"pass".to_string()));
    let mut s = s;
    play(&mut s, "10,18,o,o");
    assert_eq!(s.pieces(Player::ONE), [10, 18, OFF, OFF]);
}

// ---------------------------------------------------------------- hand-checked positions

#[test]
fn x_protects_where_a_plain_square_hammers() {
    let r = BargeseRules::default();
    // Player two stands on player one's index 21, an X (its own index 55). Arba from 17 lands
    // there: illegal, so the turn is a pass.
    let s = pos("17,o,o,o/55,o,o,o move1 arba 10 1 1 0,0", &r);
    assert_eq!(legal(&s), vec!["pass"]);
    // Player two on player one's index 22 (its 56), a plain square: arba from 18 hammers it.
    let mut s = pos("18,o,o,o/56,o,o,o move1 arba 10 1 1 0,0", &r);
    assert_eq!(legal(&s), vec!["22,o,o,o x56"]);
    play(&mut s, "22,o,o,o x56");
    assert_eq!(s.pieces(Player::TWO), [OFF; 4]);
    assert_eq!(s.hammerings(Player::ONE), 1);
    assert_eq!(s.hash(), s.hash_from_scratch());
    // Entering by dust on an X held by the opponent (player two's 44 = player one's 10) is
    // blocked, and so is the hal's 10 landing there: only the hal's entry is left.
    let s = pos("o,o,o,o/44,o,o,o move1 dust 10 1 2 0,0", &r);
    assert_eq!(legal(&s), vec!["0,o,o,o"]);
}

#[test]
fn dodo_enters_the_kitchen_only_with_the_hal() {
    for hal in ["hal=step", "hal=strict"] {
        let r = rules(&[hal]);
        // A t'laite cannot take the dodo (index 82) into the kitchen; only the other piece moves.
        let s = pos("40,82,k,k/o,o,o,o move1 t'laite 10 1 1 0,0", &r);
        assert_eq!(legal(&s), vec!["43,82,k,k"], "{hal}");
        // A dust: the dodo takes the hal and the other piece the 10, or the other piece the 11.
        let s = pos("40,82,k,k/o,o,o,o move1 dust 10 1 1 0,0", &r);
        assert_eq!(legal(&s), vec!["50,k,k,k", "51,82,k,k"], "{hal}");
        // A bange with no piece able to use the 24: the dodo goes in and the 24 is lost; under
        // hal=step the hal may instead step the other piece (the 24 lost again).
        let s = pos("70,82,k,k/o,o,o,o move1 bange 10 1 1 0,0", &r);
        let want = if hal == "hal=step" {
            vec!["70,k,k,k", "71,82,k,k"]
        } else {
            vec!["70,k,k,k"]
        };
        assert_eq!(legal(&s), want, "{hal}");
    }
}

#[test]
fn no_overshooting_the_dodo() {
    let r = BargeseRules::default();
    // Two short of the dodo: no arba, a doi lands exactly.
    let s = pos("80,k,k,k/o,o,o,o move1 arba 10 1 1 0,0", &r);
    assert_eq!(legal(&s), vec!["pass"]);
    let s = pos("80,k,k,k/o,o,o,o move1 doi 10 1 1 0,0", &r);
    assert_eq!(legal(&s), vec!["82,k,k,k"]);
}

#[test]
fn one_short_of_the_dodo_moves_only_by_the_hal_step() {
    // No throw but the hal is worth 1.
    for t in ["shaka", "doi", "t'laite", "arba", "bara"] {
        let s = pos(
            &format!("81,k,k,k/o,o,o,o move1 {t} 10 1 1 0,0"),
            &BargeseRules::default(),
        );
        assert_eq!(legal(&s), vec!["pass"], "{t}");
    }
    // hal=onto-dodo (default) and hal=step: a dust's hal steps it onto the dodo; the 10 is lost.
    for hal in ["hal=onto-dodo", "hal=step"] {
        let s = pos("81,k,k,k/o,o,o,o move1 dust 10 1 1 0,0", &rules(&[hal]));
        assert_eq!(legal(&s), vec!["82,k,k,k"], "{hal}");
    }
    // hal=strict: stranded.
    let s = pos(
        "81,k,k,k/o,o,o,o move1 dust 10 1 1 0,0",
        &rules(&["hal=strict"]),
    );
    assert_eq!(legal(&s), vec!["pass"]);
}

/// [1604.7]: "a piece must move the full value of a single throw, unless one of the throws allows
/// the entering of a piece". Two pieces on the board, nothing to enter, one dust: under
/// `hal=strict` and `hal=onto-dodo` one piece moves the whole 11; `hal=step` also splits it
/// into a step of one piece and 10 of the other.
#[test]
fn the_hal_splits_a_dust_only_under_step() {
    let text = "30,50,k,k/o,o,o,o move1 dust 10 1 1 0,0";
    let whole = vec!["30,61,k,k", "41,50,k,k"];
    assert_eq!(legal(&pos(text, &BargeseRules::default())), whole);
    assert_eq!(legal(&pos(text, &rules(&["hal=strict"]))), whole);
    assert_eq!(
        legal(&pos(text, &rules(&["hal=step"]))),
        vec!["30,61,k,k", "31,60,k,k", "40,51,k,k", "41,50,k,k"]
    );
}

/// The order of a hal and its remainder [1604.T11]: "the dodo will only take the hal ... Another
/// piece can move the other 10 or 24 squares."
#[test]
fn the_remainder_and_its_hal() {
    // One dust, a piece ten short of the dodo: under any-order its 10 takes it onto the dodo and
    // the same dust's hal then into the kitchen; played as one use, hal first, the hal has no
    // piece to take (none on the dodo or off the board), and the whole 11 overshoots.
    let text = "72,k,k,k/o,o,o,o move1 dust 10 1 1 0,0";
    assert_eq!(legal(&pos(text, &BargeseRules::default())), vec!["k,k,k,k"]);
    for opt in ["remainder=with-hal", "remainder=other-piece"] {
        assert_eq!(legal(&pos(text, &rules(&[opt]))), vec!["pass"], "{opt}");
    }
    // A dodo and a piece off the board, one dust: under every reading the dodo takes the hal and
    // the 10 is unplayable (a piece off the board moves only by entering), or the waiting piece
    // enters on the X with the whole dust; leftover=fewest prefers the whole dust.
    let text = "82,o,k,k/o,o,o,o move1 dust 10 1 1 0,0";
    for opt in [
        "remainder=any-order",
        "remainder=with-hal",
        "remainder=other-piece",
    ] {
        assert_eq!(
            legal(&pos(text, &rules(&[opt]))),
            vec!["10,82,k,k"],
            "{opt}"
        );
        assert_eq!(
            legal(&pos(text, &rules(&[opt, "leftover=optional"]))),
            vec!["0,82,k,k", "10,82,k,k", "k,k,k,o"],
            "{opt}"
        );
    }
    // hal=step: the opponent on the square after ours (its 65 is our 31). Under any-order our
    // piece may step onto it with the hal, hammering it, then move the 10; as one use on one
    // piece the dust is one move of 11, landing only on 41.
    let text = "30,k,k,k/65,o,o,o move1 dust 10 1 2 0,0";
    assert_eq!(
        legal(&pos(text, &rules(&["hal=step"]))),
        vec!["41,k,k,k", "41,k,k,k x65"]
    );
    assert_eq!(
        legal(&pos(text, &rules(&["hal=step", "remainder=with-hal"]))),
        vec!["41,k,k,k"]
    );
    // A bange, nothing on the board: the bange square, or the hal entering a piece and its 24
    // taking the same piece on (any-order, with-hal); under other-piece the 24 has no other
    // piece to take, so it would go unplayed, and leftover=fewest refuses that.
    let text = "o,o,o,o/o,o,o,o move1 bange 0 1 - 0,0";
    for opt in ["remainder=any-order", "remainder=with-hal"] {
        assert_eq!(
            legal(&pos(text, &rules(&[opt]))),
            vec!["23,o,o,o", "24,o,o,o"]
        );
    }
    assert_eq!(
        legal(&pos(text, &rules(&["remainder=other-piece"]))),
        vec!["23,o,o,o"]
    );
    assert_eq!(
        legal(&pos(
            text,
            &rules(&["remainder=other-piece", "leftover=optional"])
        )),
        vec!["0,o,o,o", "23,o,o,o"]
    );
}

/// Tajeddin [1604.T5]: "If the initial throw was dust the player will place his first piece on
/// the right-hand X square. If the initial throw was bange the player places his piece on the /
/// square."
#[test]
fn the_initial_throw_places_the_first_piece() {
    for (entry, want) in [
        ("opening-entry=on", vec!["25,o,o,o"]),
        ("opening-entry=off", vec!["25,o,o,o", "26,o,o,o"]),
    ] {
        let mut s = Bargese::new(&rules(&[entry]));
        s.apply_outcome(BargeseOutcome::Shells(2));
        s.apply_outcome(BargeseOutcome::Shells(1));
        throw(&mut s, Throw::Bange);
        throw(&mut s, Throw::Doi);
        // On: the bange put the piece on the / square (23), the doi takes it to 25; off: the
        // bange may also enter it by the hal and take it 24 on, to 26.
        assert_eq!(legal(&s), want, "{entry}");
    }
    // After a dust the first piece stands on the X before anything else is played.
    let mut s = Bargese::new(&BargeseRules::default());
    s.apply_outcome(BargeseOutcome::Shells(0));
    s.apply_outcome(BargeseOutcome::Shells(3));
    throw(&mut s, Throw::Dust);
    assert_eq!(s.pieces(Player::TWO), [X_ENTRY, OFF, OFF, OFF]);
    assert_eq!(s.first_entered(), Some(Player::TWO));
    assert_eq!(s.notation(), "o,o,o,o/10,o,o,o throw2 - 0 2 2 0,0");
    // Under bange-square=inner the bange places it on 16.
    let mut s = Bargese::new(&rules(&["bange-square=inner"]));
    s.apply_outcome(BargeseOutcome::Shells(2));
    s.apply_outcome(BargeseOutcome::Shells(1));
    throw(&mut s, Throw::Bange);
    assert_eq!(s.pieces(Player::ONE), [16, OFF, OFF, OFF]);
}

/// [1604.6], the DLP's own summary in record 1604: no three-shell throw; the players take turns
/// throwing until one throws a dust or bange, who then throws on and plays.
#[test]
fn the_dlp_1604_opening() {
    let mut s = Bargese::new(&BargeseRules::variant("dlp-1604").unwrap());
    assert_eq!(s.stage(), Stage::Opening(Player::ONE));
    throw(&mut s, Throw::Arba);
    assert_eq!(s.stage(), Stage::Opening(Player::TWO));
    throw(&mut s, Throw::Shaka);
    assert_eq!(s.stage(), Stage::Opening(Player::ONE));
    throw(&mut s, Throw::Dust);
    // No placement: the dust waits to be played with the rest.
    assert_eq!(s.stage(), Stage::Throwing(Player::ONE));
    assert_eq!(s.throws(), [0, 1, 0, 0, 0, 0, 0]);
    throw(&mut s, Throw::Doi);
    assert_eq!(legal(&s), vec!["12,o,o,o"]);
    assert_eq!(s.shells_winner(), None);
    // Player one begins the throwing, as the shells' winner does under finkel-2002.
    assert_eq!(s.starter(), Some(Player::ONE));
}

#[test]
fn strict_hal_strands_games_into_truncation() {
    // Both players stranded one short of the dodo: under hal=strict nobody can ever finish and
    // the game ends by the cap, reported as truncated; under hal=step somebody wins.
    let start = "81,k,k,k/81,k,k,k throw1 - 0 1 1 0,0";
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (opt, truncated) in [("hal=strict", true), ("hal=step", false)] {
        let r = rules(&[opt, "ply-cap=300"]);
        for _ in 0..20 {
            let s = run_random(pos(start, &r), &mut rng, &mut Vec::new(), &mut Vec::new());
            let end = s.end_reason().unwrap();
            assert_eq!(end == EndReason::Truncated, truncated, "{opt}: {end:?}");
            if truncated {
                assert_eq!(s.plies(), 300);
                assert_eq!(s.returns(), [0.0, 0.0]);
            }
        }
    }
}

#[test]
fn homeward_pieces_and_the_outer_end() {
    // Player two's piece on its own outer end on the way home (its 75) stands on player one's
    // index 41. Player one lands there from 37 with an arba.
    let text = "37,o,o,o/75,o,o,o move1 arba 10 1 1 0,0";
    // Default: it lies on its side (outer-end=home) and blocks the landing (beside-safe=blocked).
    assert_eq!(legal(&pos(text, &BargeseRules::default())), vec!["pass"]);
    // beside-safe=share: player one may land beside it; it is not hammered.
    let r = rules(&["beside-safe=share"]);
    let mut s = pos(text, &r);
    assert_eq!(legal(&s), vec!["41,o,o,o"]);
    play(&mut s, "41,o,o,o");
    assert_eq!(s.pieces(Player::TWO), [75, OFF, OFF, OFF]);
    // outer-end=open: the outer end is not yet home, so the piece is hammered.
    let s = pos(text, &rules(&["outer-end=open"]));
    assert_eq!(legal(&s), vec!["41,o,o,o x75"]);
    // The same square on player two's way out (its 7) is always open to hammering.
    let s = pos(
        "37,o,o,o/7,o,o,o move1 arba 10 1 1 0,0",
        &BargeseRules::default(),
    );
    assert_eq!(legal(&s), vec!["41,o,o,o x7"]);
}

#[test]
fn bange_square_entry_options() {
    // Player two stands on player one's bange square (player one's 23, its own 57).
    let text = "o,o,o,o/57,o,o,o move1 bange 10 1 2 0,0";
    // Default: entering there hammers it; or the hal enters next to the kitchen and the same
    // piece takes the 24.
    assert_eq!(
        legal(&pos(text, &BargeseRules::default())),
        vec!["23,o,o,o x57", "24,o,o,o"]
    );
    assert_eq!(
        legal(&pos(text, &rules(&["entry-onto=blocked"]))),
        vec!["24,o,o,o"]
    );
    // [1604.1]: "the bottom left corner" of the arm to the player's right, as seen from its
    // outer end (index 23, the default) or by the owner (index 16, bange-square=inner). There
    // the 57 is no longer on the bange square; a piece on player one's 16 (its own 50) is.
    assert_eq!(
        legal(&pos(text, &rules(&["bange-square=inner"]))),
        vec!["16,o,o,o", "24,o,o,o"]
    );
    assert_eq!(
        legal(&pos(
            "o,o,o,o/50,o,o,o move1 bange 10 1 2 0,0",
            &rules(&["bange-square=inner"])
        )),
        vec!["16,o,o,o x50", "24,o,o,o"]
    );
    assert_eq!(
        legal(&pos(text, &rules(&["bange-entry=off"]))),
        vec!["24,o,o,o"]
    );
    // A piece already on the board landing there with a plain move still hammers.
    let s = pos(
        "19,o,o,o/57,o,o,o move1 arba 10 1 2 0,0",
        &rules(&["entry-onto=blocked"]),
    );
    assert_eq!(legal(&s), vec!["23,o,o,o x57"]);
}

#[test]
fn after_each_throw_timing() {
    let r = BargeseRules::variant("ludii").unwrap();
    let mut s = Bargese::new(&r);
    s.apply_outcome(BargeseOutcome::Shells(2));
    s.apply_outcome(BargeseOutcome::Shells(1));
    throw(&mut s, Throw::Dust);
    // The initial dust places the first piece on the X at once (opening-entry=on), and its
    // extra throw follows.
    assert_eq!(s.stage(), Stage::Throwing(Player::ONE));
    assert_eq!(s.pieces(Player::ONE), [X_ENTRY, OFF, OFF, OFF]);
    assert_eq!(s.plies(), 0);
    throw(&mut s, Throw::Doi);
    assert_eq!(legal(&s), vec!["12,o,o,o"]);
    play(&mut s, "12,o,o,o");
    assert_eq!(s.stage(), Stage::Throwing(Player::TWO));

    let mut r = r;
    r.opening_entry = false;
    let mut s = Bargese::new(&r);
    s.apply_outcome(BargeseOutcome::Shells(2));
    s.apply_outcome(BargeseOutcome::Shells(1));
    throw(&mut s, Throw::Dust);
    // Without the placement the dust is played at once: on the X, or the hal and its 10 (which
    // must be used, so the piece entered by the hal takes it to the same X)...
    assert_eq!(s.stage(), Stage::Moving(Player::ONE));
    assert_eq!(legal(&s), vec!["10,o,o,o"]);
    play(&mut s, "10,o,o,o");
    // ...and its extra throw follows.
    assert_eq!(s.stage(), Stage::Throwing(Player::ONE));
}

#[test]
fn summary_variant_has_no_opening() {
    let s = Bargese::new(&BargeseRules::variant("summary").unwrap());
    assert_eq!(s.stage(), Stage::Throwing(Player::ONE));
    let mut s = s;
    throw(&mut s, Throw::Arba);
    // Nothing on the board, nothing to enter: an explicit pass.
    assert_eq!(legal(&s), vec!["pass"]);
    play(&mut s, "pass");
    assert_eq!(s.plies(), 1);
    assert_eq!(s.stage(), Stage::Throwing(Player::TWO));
}

#[test]
fn long_chains_neither_overflow_nor_blow_up() {
    let r = BargeseRules::default();
    // 600 baras with every piece off the board: counted up to MAX_COUNT (a turn can use at most
    // 336 throws), the chance node keeps offering throws, nothing overflows; none can be used.
    let mut s = pos("o,o,o,o/o,o,o,o throw1 - 0 1 1 0,0", &r);
    for _ in 0..600 {
        throw(&mut s, Throw::Bara);
    }
    assert_eq!(s.throws()[6], MAX_COUNT);
    assert_eq!(s.stage(), Stage::Throwing(Player::ONE));
    assert_eq!(s.hash(), s.hash_from_scratch());
    throw(&mut s, Throw::Doi);
    assert_eq!(legal(&s), vec!["pass"]);
    // A chain of six throws (about one turn in 2,000) on a spread-out position: the distinct
    // results are many, but they come quickly and once each.
    let mut s = pos("3,30,o,o/12,40,60,o throw1 - 0 1 1 0,0", &r);
    for t in [
        Throw::Shaka,
        Throw::Dust,
        Throw::Bara,
        Throw::Shaka,
        Throw::Dust,
    ] {
        throw(&mut s, t);
    }
    throw(&mut s, Throw::Arba);
    let t = std::time::Instant::now();
    let l = legal(&s);
    let took = t.elapsed();
    assert!(l.len() > 100, "{}", l.len());
    assert!(took.as_secs_f64() < 5.0, "{took:?} for {} results", l.len());
    let distinct: BTreeSet<&String> = l.iter().collect();
    assert_eq!(distinct.len(), l.len());
}

// ---------------------------------------------------------------- brute force cross-check

/// A turn's result: the mover's pieces and the opponent's, each sorted.
type Outcome = (Vec<u8>, Vec<u8>);

/// An item of the brute force's pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Item {
    /// A throw not yet played, by value.
    Real(u8),
    /// The 10 or 24 of a dust or bange whose hal was played.
    Rem(u8),
    /// The hal still owed by a dust or bange whose 10 or 24 was played first.
    HalOwed,
    /// A 10 or 24 given up when its hal was played (`remainder=with-hal|other-piece`).
    Lost,
}

/// The options the brute force reads; every other option at its default.
#[derive(Clone, Copy)]
struct Opts {
    hal: Hal,
    remainder: Remainder,
    /// `leftover=fewest`.
    fewest: bool,
    bange_square: u8,
}

impl Opts {
    fn of(r: &BargeseRules) -> Opts {
        Opts {
            hal: r.hal,
            remainder: r.remainder,
            fewest: r.leftover == Leftover::Fewest,
            bange_square: match r.bange_square {
                BangeSquare::Outer => 23,
                BangeSquare::Inner => 16,
            },
        }
    }
}

/// An independent, slow turn generator: a plain search over every order of every use of every
/// throw (states already seen are skipped), stopping anywhere; a stop is valid when no hal is
/// owed; the results are the valid stops using the most throws, then (`leftover=fewest`)
/// leaving the fewest 10s and 24s. Under `remainder=with-hal|other-piece` a hal's remainder is
/// played at once, by another piece (or, under `with-hal`, by the hal's own piece as one move
/// of the whole throw), or given up. Returns `(pieces sorted, opponent pieces sorted)`.
fn brute(
    opts: Opts,
    me: Player,
    mine: [u8; 4],
    theirs: [u8; 4],
    throws: &[u8],
) -> BTreeSet<(Vec<u8>, Vec<u8>)> {
    type Key = (Vec<u8>, Vec<u8>, Vec<Item>);
    struct Search {
        opts: Opts,
        me: Player,
        seen: std::collections::HashSet<Key>,
        stops: Vec<(Outcome, i64)>,
        n_real: i64,
    }
    impl Search {
        /// Moves piece `i` to `t` if the landing is legal; hammers what it lands on.
        fn land(&self, mine: &mut [u8], theirs: &mut [u8], i: usize, t: u8) -> bool {
            if t <= DODO {
                let c = coord(self.me, t);
                let mut hit = Vec::new();
                for (j, &u) in theirs.iter().enumerate() {
                    if u <= DODO && coord(self.me.opponent(), u) == c {
                        // X squares and homeward pieces (75 on, outer-end=home) never share
                        // with an opponent (beside-safe=blocked).
                        if is_x(c) || u >= 75 {
                            return false;
                        }
                        hit.push(j);
                    }
                }
                for j in hit {
                    theirs[j] = OFF;
                }
            }
            mine[i] = t;
            true
        }

        /// Where the hal takes a piece on `p`.
        fn hal_target(&self, p: u8) -> Option<u8> {
            if p == OFF {
                Some(ENTRY)
            } else if p == DODO {
                Some(KITCHEN)
            } else if p < DODO {
                match self.opts.hal {
                    Hal::Step => Some(p + 1),
                    Hal::OntoDodo => (p + 1 == DODO).then_some(p + 1),
                    Hal::Strict => None,
                }
            } else {
                None
            }
        }

        fn visit(&mut self, mine: Vec<u8>, theirs: Vec<u8>, pool: Vec<Item>) {
            let mut a = mine.clone();
            a.sort_unstable();
            let mut b = theirs.clone();
            b.sort_unstable();
            let mut key_pool = pool.clone();
            key_pool.sort_unstable();
            if !self.seen.insert((a.clone(), b.clone(), key_pool)) {
                return;
            }
            if !pool.contains(&Item::HalOwed) {
                let reals = pool.iter().filter(|x| matches!(x, Item::Real(_))).count() as i64;
                let rems = pool
                    .iter()
                    .filter(|x| matches!(x, Item::Rem(_) | Item::Lost))
                    .count() as i64;
                let weight = i64::from(self.opts.fewest);
                self.stops
                    .push(((a, b), ((self.n_real - reals) << 20) - weight * rems));
            }
            let one_use = self.opts.remainder != Remainder::AnyOrder;
            for k in 0..pool.len() {
                let item = pool[k];
                let mut rest = pool.clone();
                rest.remove(k);
                for i in 0..4 {
                    let p = mine[i];
                    // (target, pushes this item, counts as an entry)
                    let mut tries: Vec<(u8, Option<Item>)> = Vec::new();
                    let hal_target = self.hal_target(p);
                    match item {
                        Item::Real(v) => {
                            if p <= DODO && p + v <= DODO {
                                tries.push((p + v, None));
                            }
                            if p == OFF && v == 11 {
                                tries.push((X_ENTRY, None));
                            }
                            if p == OFF && v == 25 {
                                tries.push((self.opts.bange_square, None));
                            }
                            if (v == 11 || v == 25) && !one_use {
                                if let Some(t) = hal_target {
                                    tries.push((t, Some(Item::Rem(v - 1))));
                                }
                                if p <= DODO && p + v - 1 <= DODO {
                                    tries.push((p + v - 1, Some(Item::HalOwed)));
                                }
                            }
                            if (v == 11 || v == 25) && one_use {
                                if let Some(t) = hal_target {
                                    self.hal_then_remainder(&mine, &theirs, &rest, i, t, v - 1);
                                }
                            }
                        }
                        Item::Rem(v) => {
                            if p <= DODO && p + v <= DODO {
                                tries.push((p + v, None));
                            }
                        }
                        Item::HalOwed => {
                            if let Some(t) = hal_target {
                                tries.push((t, None));
                            }
                        }
                        Item::Lost => {}
                    }
                    for (t, push) in tries {
                        let (mut m, mut th) = (mine.clone(), theirs.clone());
                        if self.land(&mut m, &mut th, i, t) {
                            let mut next = rest.clone();
                            if let Some(x) = push {
                                next.push(x);
                            }
                            self.visit(m, th, next);
                        }
                    }
                }
            }
        }

        /// Piece `i`'s hal to `t`, then its remainder `r` at once: given up, on another piece,
        /// or (`with-hal`) on piece `i` itself as one move from where the hal took it.
        #[allow(clippy::too_many_arguments)]
        fn hal_then_remainder(
            &mut self,
            mine: &[u8],
            theirs: &[u8],
            rest: &[Item],
            i: usize,
            t: u8,
            r: u8,
        ) {
            let (mut m, mut th) = (mine.to_vec(), theirs.to_vec());
            if !self.land(&mut m, &mut th, i, t) {
                return;
            }
            let mut lost = rest.to_vec();
            lost.push(Item::Lost);
            self.visit(m.clone(), th.clone(), lost);
            for j in 0..4 {
                if j == i && self.opts.remainder != Remainder::WithHal {
                    continue;
                }
                let q = m[j];
                if q <= DODO && q + r <= DODO {
                    let (mut m2, mut th2) = (m.clone(), th.clone());
                    if j == i {
                        // One move of the whole throw: no landing on the hal's square.
                        m2 = mine.to_vec();
                        th2 = theirs.to_vec();
                    }
                    if self.land(&mut m2, &mut th2, j, q + r) {
                        self.visit(m2, th2, rest.to_vec());
                    }
                }
            }
        }
    }
    let mut search = Search {
        opts,
        me,
        seen: std::collections::HashSet::new(),
        stops: Vec::new(),
        n_real: throws.len() as i64,
    };
    search.visit(
        mine.to_vec(),
        theirs.to_vec(),
        throws.iter().map(|&v| Item::Real(v)).collect(),
    );
    let best = search.stops.iter().map(|o| o.1).max().unwrap();
    search
        .stops
        .into_iter()
        .filter(|o| o.1 == best)
        .map(|o| o.0)
        .collect()
}

/// Checks the generator against [`brute`] at `want` decisions of at most four throws (`multi`
/// of them of two or more) in random games under `r`.
fn agree_with_brute_force(r: &BargeseRules, seed: u64, want: usize, multi_want: usize) {
    let opts = Opts::of(r);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut outcomes = Vec::new();
    let mut checked = 0;
    let mut multi = 0;
    while checked < want {
        let mut s = Bargese::new(r);
        while let Some(()) = match s.to_act() {
            ToAct::Terminal(_) => None,
            _ => Some(()),
        } {
            match s.to_act() {
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(me) => {
                    let th = s.throws();
                    let n: u16 = th.iter().sum();
                    if n <= 4 {
                        let mut list = Vec::new();
                        for t in Throw::ALL {
                            for _ in 0..th[t as usize] {
                                list.push(t.value());
                            }
                        }
                        let want = brute(opts, me, s.pieces(me), s.pieces(me.opponent()), &list);
                        s.legal_actions(&mut buf);
                        let got: BTreeSet<Outcome> = buf
                            .iter()
                            .map(|&a| {
                                let mut c = s.clone();
                                c.play_unchecked(a);
                                (c.pieces(me).to_vec(), c.pieces(me.opponent()).to_vec())
                            })
                            .collect();
                        assert_eq!(got.len(), buf.len(), "two actions, one result");
                        assert_eq!(got, want, "at {}", s.notation());
                        checked += 1;
                        if n > 1 {
                            multi += 1;
                        }
                    }
                    s.legal_actions(&mut buf);
                    let a = buf[rng.gen_range(0..buf.len())];
                    s.play_unchecked(a);
                }
                ToAct::Terminal(_) => unreachable!(),
            }
        }
    }
    assert!(multi > multi_want, "only {multi} multi-throw turns checked");
}

#[test]
fn generator_agrees_with_brute_force() {
    agree_with_brute_force(&BargeseRules::default(), 77, 1500, 150);
}

/// Each option the brute force reads, against it: the hal's readings, the remainder's, the
/// leftover tie-break and the other bange square.
#[test]
fn generator_agrees_with_brute_force_under_options() {
    for (i, opts) in [
        &["hal=step"][..],
        &["hal=strict"],
        &["remainder=with-hal"],
        &["remainder=other-piece"],
        &["remainder=other-piece", "hal=step", "leftover=optional"],
        &["leftover=optional"],
        &["bange-square=inner", "remainder=with-hal"],
        &["bange-square=inner", "hal=step"],
    ]
    .into_iter()
    .enumerate()
    {
        agree_with_brute_force(&rules(opts), 100 + i as u64, 300, 30);
    }
}

// ---------------------------------------------------------------- random play

fn run_random(
    mut s: Bargese,
    rng: &mut ChaCha8Rng,
    actions: &mut Vec<BargeseAction>,
    outcomes: &mut Vec<(BargeseOutcome, f64)>,
) -> Bargese {
    loop {
        match s.to_act() {
            ToAct::Terminal(_) => return s,
            ToAct::Chance => {
                s.chance_outcomes(outcomes);
                let o = sample_outcome(outcomes, rng);
                s.apply_outcome(o);
            }
            ToAct::Decision(_) => {
                s.legal_actions(actions);
                let a = actions[rng.gen_range(0..actions.len())];
                s.play_unchecked(a);
            }
        }
    }
}

fn check_invariants(s: &Bargese) {
    assert_eq!(s.hash(), s.hash_from_scratch(), "hash at {}", s.notation());
    for p in Player::BOTH {
        let pieces = s.pieces(p);
        assert!(pieces.windows(2).all(|w| w[0] <= w[1]));
        assert!(pieces.iter().all(|&c| c <= OFF), "{}", s.notation());
    }
    for &a in &s.pieces(Player::ONE) {
        for &b in &s.pieces(Player::TWO) {
            if a <= DODO && b <= DODO {
                let c = coord(Player::ONE, a);
                if c == coord(Player::TWO, b) {
                    assert!(!is_x(c), "opposing pieces share an X: {}", s.notation());
                }
            }
        }
    }
}

/// Random play from the start under `r` until `target` plies, checking the invariants at every
/// node; returns the games played.
fn random_invariants(r: &BargeseRules, seed: u64, target: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut actions = Vec::new();
    let mut outcomes = Vec::new();
    let (mut plies, mut games) = (0u64, 0u64);
    while plies < target {
        let mut s = Bargese::new(r);
        loop {
            check_invariants(&s);
            match s.to_act() {
                ToAct::Terminal(e) => {
                    assert!(matches!(e, EndReason::Win(_)), "{e:?}");
                    break;
                }
                ToAct::Chance => {
                    s.chance_outcomes(&mut outcomes);
                    let o = sample_outcome(&outcomes, &mut rng);
                    s.apply_outcome(o);
                }
                ToAct::Decision(me) => {
                    s.legal_actions(&mut actions);
                    let a = actions[rng.gen_range(0..actions.len())];
                    let before = s.pieces(me.opponent());
                    s.play_unchecked(a);
                    plies += 1;
                    // A homeward piece (index 75 and on, outer-end=home) is never hammered.
                    let after = s.pieces(me.opponent());
                    let home =
                        |v: [u8; 4]| v.iter().filter(|&&c| (75..=KITCHEN).contains(&c)).count();
                    assert_eq!(home(before), home(after), "homeward piece hammered");
                }
            }
        }
        games += 1;
    }
    games
}

#[test]
fn a_million_random_plies_keep_the_invariants() {
    // A million plies move by move (ludii: one decision per throw), where a ply is cheap...
    let games = random_invariants(&BargeseRules::variant("ludii").unwrap(), 2002, 1_000_000);
    assert!(games > 1000, "{games}");
    // ...and whole turns under the default rules, whose rare long chains of throws have many
    // results each.
    let games = random_invariants(&BargeseRules::default(), 2003, 100_000);
    assert!(games > 100, "{games}");
}

// ---------------------------------------------------------------- conformance

#[test]
fn conformance_per_variant() {
    for v in BargeseRules::variants() {
        let r = BargeseRules::variant(v.name).unwrap();
        let rep = conformance::<Bargese>(&r, 60, 11);
        assert_eq!(rep.games, 60);
        assert_eq!(rep.truncated, 0, "{}", v.name);
        // Every variant has the three-shell opening (ties thrown again, then throws to and fro
        // until a dust or bange) or extra throws before the move: chains have no bound, and
        // chains of more than three chance nodes occur.
        assert_eq!(Bargese::facts(&r).chance_chain, ChanceChain::Unbounded);
        assert!(rep.longest_chance_chain > 3, "{}: {rep:?}", v.name);
    }
}

#[test]
fn conformance_per_option() {
    for opts in [
        &["opening-extra=keep"][..],
        &["must-use=free"],
        &["hal=strict", "ply-cap=1500"],
        &["entry-onto=blocked"],
        &["outer-end=open"],
        &["beside-safe=share"],
        &["bange-entry=off"],
        &["p=0.52"],
        &["timing=after-each", "must-use=free", "opening=none"],
        &["ply-cap=40"],
    ] {
        let r = rules(opts);
        let rep = conformance::<Bargese>(&r, 40, 12);
        assert_eq!(rep.games, 40, "{opts:?}");
        if opts == ["ply-cap=40"] {
            assert_eq!(rep.truncated, 40);
        }
        if opts.contains(&"timing=after-each") && opts.contains(&"opening=none") {
            // No opening and each throw played as thrown: a decision after every throw.
            assert_eq!(Bargese::facts(&r).chance_chain, ChanceChain::Bounded(1));
            assert_eq!(rep.longest_chance_chain, 1);
        }
    }
}

#[test]
fn notation_round_trip_of_the_start() {
    let s = Bargese::new(&BargeseRules::default());
    assert_eq!(s.notation(), "o,o,o,o/o,o,o,o shells - 0 - - 0,0");
    assert!(Bargese::from_notation("o,o,o/o,o,o,o shells - 0 - - 0,0", s.rules()).is_err());
    assert!(Bargese::from_notation("o,o,o,o/o,o,o,o dance - 0 - - 0,0", s.rules()).is_err());
    assert!(Bargese::from_notation("o,o,o,o/o,o,o,90 shells - 0 - - 0,0", s.rules()).is_err());
}

#[test]
fn docs_draw_the_board_as_the_code_has_it() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/rules/bargese.md");
    let doc = std::fs::read_to_string(path).expect("docs/rules/bargese.md");
    assert!(
        doc.contains(&diagram()),
        "regenerate the drawing:\n{}",
        diagram()
    );
}

#[test]
#[ignore]
fn print_diagram() {
    print!("{}", diagram());
}

/// The shell bias `p` has an accepted range: both ends play random games to their end with
/// every turn enumerated (each game checked by the invariants), and a value just outside is
/// refused with an error naming the range. (At 0.2, outside it, one turn's results needed more
/// than a gigabyte.)
#[test]
fn the_shell_bias_plays_at_both_ends_of_its_range_and_is_refused_beyond() {
    for (p, seed) in [(P_MIN, 31), (P_MAX, 32)] {
        let r = rules(&[&format!("p={p}")]);
        let games = random_invariants(&r, seed, 20_000);
        assert!(games >= 20, "p={p}: {games} games");
    }
    for bad in ["p=0.34", "p=0.81", "p=0.001", "p=0.999999", "p=1e-300"] {
        let e = BargeseRules::default()
            .apply_option_text(bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("from 0.35 to 0.8"), "{bad}: {e}");
    }
}

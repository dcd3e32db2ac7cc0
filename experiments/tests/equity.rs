//! `cowrie equity` on a hand-made `subgames.csv`: the model's table and the raw counts worked
//! out by hand, and one-line refusals.
mod common;
use common::{cowrie, read_rows, refused};

use std::path::Path;
use std::process::Output;

/// `cowrie equity --subgames INPUT` with `extra` arguments, into `out`.
fn equity(input: &Path, extra: &[&str], out: &Path) -> Output {
    let mut args = vec!["equity", "--subgames", input.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    cowrie(&args)
}

/// Two matches to 3 in which every game is worth one point: half the games to their first
/// mover, half to the other player, so the model is a race of fair coin flips.
const SUBGAMES: &str = "game_index,pair_index,seed,game_number,first_mover_seat,bore_off_seat,points_p1,points_p2,plies,turns
0,0,1,1,1,1,1,0,9,9
0,0,1,2,1,2,0,1,9,9
0,0,1,3,2,1,1,0,9,9
0,0,1,4,2,1,1,0,9,9
1,0,1,1,2,2,0,1,9,9
1,0,1,2,1,1,1,0,9,9
1,0,1,3,2,2,0,1,9,9
1,0,1,4,1,2,0,1,9,9
";

#[test]
fn the_table_of_a_race_of_coin_flips_and_its_raw_counts() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("subgames.csv");
    std::fs::write(&input, SUBGAMES).unwrap();
    let out = dir.path().join("eq");
    let o = equity(&input, &["--target", "3", "--resamples", "20"], &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = read_rows(&out.join("equity.csv"));
    assert_eq!(rows.len(), 3 * 3 * 2);
    let col = |c: &str| h.iter().position(|x| x == c).unwrap();
    let cell = |a: &str, b: &str, starts: &str| {
        rows.iter()
            .find(|r| &r[0] == a && &r[1] == b && &r[2] == starts)
            .unwrap()
            .clone()
    };
    // P(2 heads before 3 tails) = 11/16 from 1-0, whoever starts; 1/2 from 1-1.
    assert_eq!(&cell("1", "0", "yes")[col("model_equity")], "0.687500");
    assert_eq!(&cell("1", "0", "no")[col("model_equity")], "0.687500");
    assert_eq!(&cell("0", "1", "no")[col("model_equity")], "0.312500");
    assert_eq!(&cell("1", "1", "yes")[col("model_equity")], "0.500000");
    // By hand: the scores before each game from its first mover's view, and who won the
    // match (seat 1 the first, 3-1; seat 2 the second, 1-3).
    let raw = |a: &str, b: &str, starts: &str| {
        let r = cell(a, b, starts);
        (
            r[col("raw_wins")].to_string(),
            r[col("raw_visits")].to_string(),
        )
    };
    let pair = |w: &str, v: &str| (w.to_string(), v.to_string());
    assert_eq!(raw("0", "0", "yes"), pair("2", "2"));
    assert_eq!(raw("1", "0", "yes"), pair("1", "1"));
    assert_eq!(raw("1", "1", "yes"), pair("1", "2"));
    assert_eq!(raw("1", "2", "yes"), pair("0", "2"));
    assert_eq!(raw("0", "1", "yes"), pair("0", "1"));
    assert_eq!(raw("2", "1", "no"), pair("2", "2"));
    assert_eq!(&cell("2", "2", "yes")[col("raw_equity")], "");
}

#[test]
fn bad_inputs_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eq");
    let missing = dir.path().join("none.csv");
    let o = equity(&missing, &[], &out);
    refused(&o, "none.csv");
    let input = dir.path().join("subgames.csv");
    std::fs::write(&input, SUBGAMES).unwrap();
    let o = equity(&input, &["--target", "0"], &out);
    refused(
        &o,
        "'0' for '--target <TARGET>': must be a whole number from 1 to 200 points",
    );
    assert!(!out.exists());
}

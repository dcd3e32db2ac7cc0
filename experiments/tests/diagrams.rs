//! The board diagrams (`cowrie show`): parsed as SVG and checked for what they must show, and
//! rendered with resvg and the font kept in `tests/data/fonts/` against golden PNG images of
//! positions from the source texts. `COWRIE_BLESS_DIAGRAMS=1 cargo test -p
//! cowrie-experiments --test diagrams` rewrites the golden images (then look at them); every
//! run writes its renderings to `target/tmp/diagrams/` to be looked at.

use std::path::PathBuf;

use cowrie_engine::bargese::Throw;
use cowrie_engine::{
    Baghchal, BaghchalRules, Bargese, BargeseOutcome, BargeseRules, Frangieh, FrangiehRules, Game,
    Julbahar, JulbaharRules, Player,
};
use cowrie_experiments::pages::board::Draw;
use resvg::tiny_skia::Pixmap;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

fn render(svg: &str) -> Pixmap {
    cowrie_experiments::pages::board::png::pixmap(svg).unwrap()
}

/// Compares the rendering of `svg` with the golden image `name`.png: the same size, and at
/// most 0.1% of the pixels differing by more than 48 in a channel (anti-aliasing may move
/// between versions of the rasteriser; a moved or missing piece or label changes far more).
fn golden(name: &str, svg: &str) {
    let got = render(svg);
    std::fs::create_dir_all(seen()).unwrap();
    std::fs::write(seen().join(format!("{name}.svg")), svg).unwrap();
    same_as_golden(name, &got);
}

/// Where every run writes its renderings.
fn seen() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diagrams")
}

/// Compares `got` with the golden image `name`.png, as [`golden`] says.
fn same_as_golden(name: &str, got: &Pixmap) {
    let seen = seen();
    std::fs::create_dir_all(&seen).unwrap();
    got.save_png(seen.join(format!("{name}.png"))).unwrap();
    let path = data(&format!("diagrams/{name}.png"));
    if std::env::var_os("COWRIE_BLESS_DIAGRAMS").is_some() {
        got.save_png(&path).unwrap();
        return;
    }
    let want = Pixmap::load_png(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        (got.width(), got.height()),
        (want.width(), want.height()),
        "{name}: size"
    );
    let differing = got
        .data()
        .chunks(4)
        .zip(want.data().chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 48))
        .count();
    let total = (got.width() * got.height()) as usize;
    assert!(
        differing * 1000 <= total,
        "{name}: {differing} of {total} pixels differ from {} (the rendering is in {})",
        path.display(),
        seen.display()
    );
}

/// The elements whose `class` attribute holds `class` as one of its words.
fn count_class(doc: &roxmltree::Document<'_>, class: &str) -> usize {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .count()
}

fn all_text(doc: &roxmltree::Document<'_>) -> String {
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Finkel 2002, Tajeddin's example: "A player throws dust, followed by another dust, followed
/// by shaka and finally doi", after the three-shell throw won by the first player; with
/// `opening-entry=off`, so that all four throws are still to play (by default the initial dust
/// has already put the first piece on the X).
fn tajeddin() -> Bargese {
    let r = BargeseRules {
        opening_entry: false,
        ..BargeseRules::default()
    };
    let mut s = Bargese::new(&r);
    s.apply_outcome(BargeseOutcome::Shells(2));
    s.apply_outcome(BargeseOutcome::Shells(1));
    for t in [Throw::Dust, Throw::Dust, Throw::Shaka, Throw::Doi] {
        s.apply_outcome(BargeseOutcome::Throw(t));
    }
    s
}

#[test]
fn bargese_tajeddin_example_before_and_after_the_move() {
    let s = tajeddin();
    let svg = s.diagram();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let words = all_text(&doc);
    // All eight pieces off the board, four throws to play, the mover named.
    assert_eq!(count_class(&doc, "off-board"), 2);
    assert_eq!(
        count_class(&doc, "p1") + count_class(&doc, "p2"),
        8,
        "{svg}"
    );
    for want in [
        "South off the board: 4",
        "North off the board: 4",
        "2 \u{d7} dust (1 mouth up) = 11,",
        "or the hal (1) and 10",
        "shaka (0 mouths up) = 6",
        "doi (2 mouths up) = 2",
        "South to play the throws",
    ] {
        assert!(words.contains(want), "'{want}' not in {words}");
    }
    // Eight X squares and two bange squares on the cross.
    assert_eq!(count_class(&doc, "x-square"), 8);
    assert_eq!(count_class(&doc, "bange"), 2);
    golden("bargese-tajeddin", &svg);

    // Her first continuation: one piece on 26 (round the east arm), one two squares down the
    // home column (track index 2).
    let mut after = s.clone();
    let a = after.parse_action("2,26,o,o").unwrap();
    after.try_play(a).unwrap();
    let svg = after.diagram();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let tracks: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("data-track"))
        .collect();
    assert_eq!(tracks, ["2", "26"]);
    assert!(all_text(&doc).contains("South off the board: 2"));
    golden("bargese-tajeddin-played", &svg);
}

#[test]
fn bargese_pieces_lying_and_the_dodo() {
    // South: one piece on its way home (78, lying), one on the dodo (82), one in the kitchen.
    let s = Bargese::from_notation(
        "30,78,82,k/5,o,o,o move2 arba 10 1 1 0,0",
        &BargeseRules::default(),
    )
    .unwrap();
    let doc_text = s.diagram();
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    assert_eq!(count_class(&doc, "lying"), 2);
    assert_eq!(count_class(&doc, "kitchen-piece"), 1);
    assert!(all_text(&doc).contains("North to play the throws"));
    golden("bargese-home", &doc_text);
}

#[test]
fn frangieh_standard_start() {
    // Barakat 1974 (seed 1769.2): the standard backgammon start; X to play 3-1.
    let s = Frangieh::from_notation(
        "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 1 3-1 0",
        &FrangiehRules::default(),
    )
    .unwrap();
    let svg = s.diagram();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(count_class(&doc, "p1"), 15);
    assert_eq!(count_class(&doc, "p2"), 15);
    assert_eq!(count_class(&doc, "die"), 2);
    let words = all_text(&doc);
    assert!(words.contains("X to play the roll 3-1"), "{words}");
    assert!(words.contains("Pips to go: X 167, O 167"), "{words}");
    // X's two back checkers are on its 24-point, drawn where O counts 1.
    let points: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("stack"))
        .filter_map(|n| n.attribute("data-point"))
        .collect();
    assert_eq!(points, ["6", "8", "13", "24", "19", "17", "12", "1"]);
    golden("frangieh-start", &svg);
}

#[test]
fn julbahar_start_and_a_match_score() {
    let r = JulbaharRules::default();
    let s = Julbahar::new(&r);
    let doc_text = s.diagram();
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    // Fifteen on one point each: five drawn, the last numbered.
    assert_eq!(count_class(&doc, "p1"), 5);
    assert!(all_text(&doc).contains("Match score (to 31): X 0, O 0"));
    golden("julbahar-start", &doc_text);
    let later =
        Julbahar::from_notation("1:3,2:2,off:10/18:4,20:11 2 5-2 40 12-7 3 1 0-0 10 5 1", &r)
            .unwrap();
    let words = all_text(&roxmltree::Document::parse(&later.diagram()).unwrap());
    assert!(
        words.contains("Match score (to 31): X 12, O 7; game 3, scored in it: X 0, O 0"),
        "{words}"
    );
    assert!(words.contains("O to play the roll 5-2"), "{words}");
}

#[test]
fn baghchal_tigers_trapped() {
    // docs/rules/baghchal.md: the four corner tigers blocked by 17 goats with 3 in hand; the
    // tigers to move cannot, so the goats have won (Parlett 1976, Averbakh 1995).
    let s = Baghchal::from_notation(
        "TGGGT/GG.GG/G.G.G/GG.GG/TGGGT t 3 0 34",
        &BaghchalRules::default(),
    )
    .unwrap();
    let svg = s.diagram();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(count_class(&doc, "tiger"), 4);
    // 17 on the board and 3 in hand.
    assert_eq!(count_class(&doc, "goat"), 20);
    let words = all_text(&doc);
    assert!(
        words.contains("Game over: won by the goats (the tigers cannot move)"),
        "{words}"
    );
    assert!(words.contains("Goats in hand: 3 of 20"), "{words}");
    golden("baghchal-tigers-trapped", &svg);
    let _ = Player::ONE;
}

/// `bange-square=inner` marks the bange squares at the corners of the arms next to the kitchen
/// ([1604.1], as the owner sees "bottom left"), the default at the arms' outer corners.
#[test]
fn bargese_bange_marks_follow_the_option() {
    // Each mark's distance from the kitchen's centre.
    let distances = |r: &BargeseRules| -> Vec<f64> {
        let svg = Bargese::new(r).diagram();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let num = |n: roxmltree::Node<'_, '_>, a: &str| -> f64 {
            n.attribute(a).unwrap().parse().unwrap()
        };
        let k = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("kitchen"))
            .unwrap();
        let (kx, ky) = (
            num(k, "x") + num(k, "width") / 2.0,
            num(k, "y") + num(k, "height") / 2.0,
        );
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("bange"))
            .map(|g| {
                let l = g.descendants().find(|n| n.has_tag_name("line")).unwrap();
                let x = (num(l, "x1") + num(l, "x2")) / 2.0;
                let y = (num(l, "y1") + num(l, "y2")) / 2.0;
                (x - kx).hypot(y - ky)
            })
            .collect()
    };
    let outer = distances(&BargeseRules::default());
    let inner = distances(&BargeseRules {
        bange_square: cowrie_engine::bargese::BangeSquare::Inner,
        ..BargeseRules::default()
    });
    assert_eq!((outer.len(), inner.len()), (2, 2));
    // Two squares and a half from the kitchen's centre against nine.
    let (near, far) = (
        inner.iter().copied().fold(0.0, f64::max),
        outer.iter().copied().fold(f64::MAX, f64::min),
    );
    assert!(near * 3.0 < far, "inner {inner:?}, outer {outer:?}");
}

#[test]
fn show_writes_png_by_the_extension_and_refuses_other_formats() {
    // The standard backgammon start, as `frangieh_standard_start` draws it: the PNG the binary
    // writes is that golden image.
    let dir = tempfile::tempdir().unwrap();
    let show = |out: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_cowrie"))
            .args(["show", "--game", "frangieh", "--position"])
            .arg("24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 1 3-1 0")
            .arg("--out")
            .arg(out)
            .output()
            .unwrap()
    };
    let png = dir.path().join("start.PNG");
    let o = show(&png);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    same_as_golden("frangieh-start", &Pixmap::decode_png(&bytes).unwrap());
    for (name, needle) in [
        ("start.jpg", "unknown image format '.jpg'"),
        ("start", "no extension"),
    ] {
        let out = dir.path().join(name);
        let o = show(&out);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle) && err.contains(name), "{err}");
        assert!(!out.exists());
    }
}

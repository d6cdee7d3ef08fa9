//! Calibrate once from rendered frames of a known deal at 1440×900, then read other deals at other
//! window sizes and scales, in full, partly cleared, selected and empty-stock positions: every card
//! read must be right, with no unknowns. (The sizes here are those where reading is exact today;
//! `solitaire-agent accuracy` measures the others, see the README's vision section.)

use solitaire_agent::cards::Deck;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::accuracy::{calibrate_rendered, measure, CALIBRATION_SEED};
use solitaire_agent::vision::recognize::Matcher;

/// Every place not read right, at each size, over `deals` deals.
fn mistakes(theme: &str, sizes: &[(u32, u32, f32)], deals: u64) -> Vec<String> {
    let mut r = Renderer::new(Theme::load(theme).unwrap());
    let templates = calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED)).unwrap();
    let mut matcher = Matcher::new(&templates);
    let mut out = Vec::new();
    for &size in sizes {
        let tally = measure(&mut r, &mut matcher, size, deals);
        assert!(tally.places() > 0, "{theme} at {size:?}: nothing read");
        out.extend(tally.mistakes.into_iter().map(|m| format!("{theme} {m}")));
    }
    out
}

#[test]
fn built_in_theme_reads_every_card_at_every_size_and_scale() {
    // At scale 2.5 the selected card's gold frame covers part of its index corner.
    let sizes = [(1440, 900, 1.0), (1200, 760, 1.0), (2560, 1440, 2.5)];
    let errors = mistakes("builtin", &sizes, 3);
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn anglo_theme_reads_every_card() {
    let sizes = [(1920, 1080, 1.5), (2560, 1440, 1.0), (2560, 1440, 2.5)];
    let errors = mistakes("anglo", &sizes, 2);
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn accuracy_command_prints_the_table_and_refuses_a_bad_size() {
    let agent = env!("CARGO_BIN_EXE_solitaire-agent");
    let out = std::process::Command::new(agent)
        .args([
            "accuracy",
            "--themes",
            "builtin",
            "--sizes",
            "1440x900,1200x760@1.5",
        ])
        .args(["--deals", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("| theme | 1440x900@1 | 1200x760@1.5 |"),
        "{text}"
    );
    assert!(text.contains("| builtin | 100.0% |"), "{text}");
    assert!(text.contains("Confusions: none"), "{text}");
    // The time table: a row per size, each over the frames of the one deal.
    assert!(
        text.contains("| size | frames | mean | median | max |"),
        "{text}"
    );
    let frames = solitaire_agent::vision::accuracy::positions(0).len();
    assert!(
        text.lines()
            .any(|l| l.starts_with(&format!("| 1200x760@1.5 | {frames} |"))),
        "{text}"
    );
    let bad = std::process::Command::new(agent)
        .args(["accuracy", "--sizes", "1440x900@7"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("scale after @ must be 1.0 to 2.5"));
}

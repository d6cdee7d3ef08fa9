//! Frames that are not a readable Pyramid board are refused with a reason, never read as one: a
//! black or blank capture, another window, a dialog or window over the table, and cards in motion
//! (drawn by the practice table's own animation, frame by frame). `read` exits 2 on them.

use image::{Rgba, RgbaImage};
use solitaire_agent::cards::{Card, Deck};
use solitaire_agent::games::pyramid::solver;
use solitaire_agent::games::pyramid::table::game::Table;
use solitaire_agent::games::pyramid::table::layout::Layout;
use solitaire_agent::games::pyramid::table::scene::Scene;
use solitaire_agent::games::pyramid::vision::accuracy::{calibrate_rendered, CALIBRATION_SEED};
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::games::pyramid::vision::read_frame;
use solitaire_agent::games::pyramid::State;
use solitaire_agent::table::chrome::DialogShown;
use solitaire_agent::table::harness::Faults;
use solitaire_agent::table::rect::Rect;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::recognize::{Matcher, Seen};

const ANIMATION_MS: u64 = 300;

/// How close to a place (a pyramid slot, the stock, the waste), in card widths across and down, a
/// card in flight looks like the card at rest there: one frame cannot tell it from that card.
const ALL_BUT_AT_REST: f32 = 0.12;

fn matcher_for(r: &mut Renderer) -> Matcher {
    Matcher::new(&calibrate_rendered(r, &Deck::shuffled(CALIBRATION_SEED)).unwrap())
}

/// Whether what was read is what the picture shows once its flying cards have landed: the
/// scene's cards at rest, place by place, but for places read as unsure (claiming nothing).
fn read_as_at_rest(
    board: &solitaire_agent::games::pyramid::vision::board::Board,
    scene: &Scene,
) -> bool {
    let same = |truth: Option<Card>, seen: Seen| match (truth, seen) {
        (None, Seen::Empty) | (_, Seen::Unknown(_)) => true,
        (Some(c), Seen::Card(g, _)) => c == g,
        _ => false,
    };
    let stock = if scene.stock_count > 0 {
        scene.stock_top
    } else {
        None
    };
    (0..28).all(|i| same(scene.pyramid[i], board.pyramid[i]))
        && same(stock, board.stock_top)
        && same(scene.waste_top, board.waste)
}

/// Whether a card in flight at (x, y) lies within `ALL_BUT_AT_REST` of a place.
fn near_a_place(layout: &Layout, x: f32, y: f32) -> bool {
    let near = |r: &Rect| {
        let reach = ALL_BUT_AT_REST * layout.card_w as f32;
        (x - r.x as f32).abs() <= reach && (y - r.y as f32).abs() <= reach
    };
    layout
        .slots
        .iter()
        .chain([&layout.stock, &layout.waste])
        .any(near)
}

/// Plays the solutions of the first `deals` winnable deals on the practice table drawn in `theme` at `size`, reads frames
/// in the middle of every move's animation, and checks each: refused, or read as the table is
/// once still (places unsure of what they show allowed). Only a frame whose flying card lies all but on a place may be read otherwise (it
/// shows that card at rest there). Returns (frames read, refused, all but at rest).
fn check_motion(theme: &str, size: (u32, u32), deals: usize) -> (usize, usize, usize) {
    let mut r = Renderer::new(Theme::load(theme).unwrap());
    let mut matcher = matcher_for(&mut r);
    let layout = r.layout(size.0, size.1, 1.0);
    let (mut frames, mut refused, mut at_rest) = (0, 0, 0);
    let mut wrong = Vec::new();
    // The first winnable deals.
    let winnable = (0..).filter_map(|seed| {
        let deal = State::deal(&Deck::shuffled(seed));
        Some((seed, solver::solve(&deal).ok()?.steps?))
    });
    for (seed, steps) in winnable.take(deals) {
        let mut table = Table::seeded(seed, ANIMATION_MS, Faults::default());
        let mut now = 0;
        for (n, step) in steps.iter().enumerate() {
            table.play(*step, now);
            for sixth in 1..6 {
                let scene = table.scene(&layout, now + sixth * ANIMATION_MS / 6);
                assert!(
                    !scene.flights.is_empty(),
                    "deal {seed} step {n}: no card moving"
                );
                let frame = r.render(&scene, &layout);
                frames += 1;
                let read = read_frame(&frame, &Profile::practice_table(), &mut matcher);
                if scene
                    .flights
                    .iter()
                    .any(|f| near_a_place(&layout, f.x, f.y))
                {
                    at_rest += 1;
                    continue;
                }
                match read {
                    Err(_) => refused += 1,
                    Ok((board, _)) if read_as_at_rest(&board, &scene) => {}
                    Ok(_) => wrong.push(format!("deal {seed} step {n} ({step}) at {sixth}/6")),
                }
            }
            now += 2 * ANIMATION_MS;
        }
    }
    assert!(
        wrong.is_empty(),
        "{theme}: {} of {frames} frames in motion read as a board they are not:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    (frames, refused, at_rest)
}

#[test]
fn frames_of_cards_in_motion_are_refused() {
    for (theme, size, deals) in [("builtin", (1440, 900), 1), ("anglo", (1024, 768), 1)] {
        let (frames, refused, at_rest) = check_motion(theme, size, deals);
        eprintln!(
            "{theme}: {frames} frames in motion, {refused} refused, {at_rest} all but at rest"
        );
        // Most frames show their cards well off any place (a card all but at rest is one just
        // leaving its place, or about to land), and those are nearly all refused: the rest show
        // a card over the felt outside the table, which changes no place.
        assert!(
            at_rest * 3 < frames,
            "{theme}: {at_rest} of {frames} all but at rest"
        );
        assert!(
            refused * 4 > 3 * (frames - at_rest),
            "{theme}: {refused} of {frames} refused"
        );
    }
}

/// A window's look: a light face, a title bar, lines of text.
fn paint_window(frame: &mut RgbaImage, (x0, y0, w, h): (u32, u32, u32, u32)) {
    let mut fill = |x0: u32, y0: u32, w: u32, h: u32, colour: [u8; 4]| {
        for y in y0..(y0 + h).min(frame.height()) {
            for x in x0..(x0 + w).min(frame.width()) {
                frame.put_pixel(x, y, Rgba(colour));
            }
        }
    };
    fill(x0, y0, w, h, [240, 240, 240, 255]);
    fill(x0, y0, w, 30, [40, 80, 160, 255]);
    let mut y = y0 + 50;
    while y + 10 < y0 + h {
        fill(x0 + 20, y, w.saturating_sub(60), 8, [30, 30, 30, 255]);
        y += 24;
    }
}

/// The pictures that are no board to read, each with words its refusal must hold; and the table
/// they were made from, which reads.
fn not_boards() -> (RgbaImage, Vec<(&'static str, RgbaImage, &'static str)>) {
    let mut r = Renderer::new(Theme::built_in());
    let layout = r.layout(1440, 900, 1.0);
    let state = State::deal(&Deck::shuffled(3));
    let still = Scene::still(&state, None, "DEAL 3".into());
    let table = r.render(&still, &layout);
    let over = |area| {
        let mut frame = table.clone();
        paint_window(&mut frame, area);
        frame
    };
    let mut document = RgbaImage::new(1440, 900);
    paint_window(&mut document, (0, 0, 1440, 900));
    let dialog = Scene {
        dialog: DialogShown::Open,
        ..still.clone()
    };
    let mut cases = vec![
        (
            "black",
            RgbaImage::from_pixel(1440, 900, Rgba([0, 0, 0, 255])),
            "black",
        ),
        (
            "blank",
            RgbaImage::from_pixel(1440, 900, Rgba([128, 128, 128, 255])),
            "blank",
        ),
        ("another window", document, "cannot be read"),
        (
            "the Undo board dialog",
            r.render(&dialog, &layout),
            "dialog",
        ),
    ];
    let windows = [
        ("a dialog over the pyramid", (520, 350, 400, 200)),
        ("a dialog over the piles", (600, 600, 300, 200)),
        ("a small dialog by the apex", (650, 80, 200, 120)),
        ("a window over a third of the table", (960, 0, 480, 900)),
    ];
    cases.extend(windows.map(|(what, area)| (what, over(area), "where no card belongs")));
    (table, cases)
}

#[test]
fn pictures_that_are_no_readable_board_are_refused_with_a_reason() {
    let mut matcher = matcher_for(&mut Renderer::new(Theme::built_in()));
    let (table, cases) = not_boards();
    let profile = Profile::practice_table();
    let (board, _) = read_frame(&table, &profile, &mut matcher).expect("the table itself reads");
    assert_eq!(board.shown(), 29);
    assert!(board.unknowns().is_empty());
    for (what, frame, why) in cases {
        match read_frame(&frame, &profile, &mut matcher) {
            Ok((board, _)) => panic!("{what}: read as a board of {} cards", board.shown()),
            Err(e) => assert!(
                e.0.contains(why),
                "{what}: refused as '{e}', not for '{why}'"
            ),
        }
    }
}

#[test]
fn read_exits_2_naming_what_is_wrong_with_the_frame() {
    let dir = std::env::temp_dir().join(format!("sa-not-a-board-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Renderer::new(Theme::built_in());
    calibrate_rendered(&mut r, &Deck::shuffled(CALIBRATION_SEED))
        .unwrap()
        .save(&dir.join("set"))
        .unwrap();
    let (table, cases) = not_boards();
    let read = |frame: &RgbaImage, name: &str| {
        let path = dir.join(format!("{name}.png"));
        frame.save(&path).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
            .args(["read", path.to_str().unwrap(), "--json", "--templates"])
            .arg(dir.join("set"))
            .output()
            .unwrap()
    };
    let ok = read(&table, "table");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let (_, frame, why) = &cases[4];
    let out = read(frame, "dialog");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no board printed");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a readable Pyramid board") && err.contains(why),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one message: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

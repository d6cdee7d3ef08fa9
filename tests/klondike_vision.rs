//! Reading Klondike's table: templates calibrated once on Pyramid's table (the same card art, as a
//! user calibrates once), then Klondike frames of positions never seen (along solutions in Draw 1
//! and Draw 3), at several window sizes and scales and with installed themes, are read whole:
//! every pile's face-down count and face-up cards, the stock, the waste's top and how many of its
//! cards show, the foundations; none wrong or unknown. A picture of another game is refused.
//!
//! Environment: KLONDIKE_THEMES (default "builtin,anglo"; "all" for the built-in theme and every
//! installed one).

use solitaire_agent::cards::{Card, Deck};
use solitaire_agent::games::klondike::rules::Table as Position;
use solitaire_agent::games::klondike::solver::{self, Budget};
use solitaire_agent::games::klondike::table::layout::Layout;
use solitaire_agent::games::klondike::table::scene::{foundation_top, render, status_line, Scene};
use solitaire_agent::games::klondike::vision::{Board, Reader};
use solitaire_agent::games::klondike::{Draw, KlondikeDeck, Step};
use solitaire_agent::games::pyramid::vision::accuracy::calibrate_rendered_at;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::recognize::{Matcher, Seen};

fn frame(renderer: &mut Renderer, p: &Position, size: (u32, u32), scale: f32) -> image::RgbaImage {
    let layout = Layout::new(size.0, size.1, scale, renderer.theme().aspect());
    let scene = Scene::still(p, status_line("1", p, 0));
    render(renderer, &scene, &layout)
}

/// What the board shows, as the reader writes it: each pile's face-down count and face-up cards,
/// the stock, the waste's top and shown count, the foundations' tops.
fn truth(p: &Position) -> String {
    let mut out = String::new();
    for pile in &p.piles {
        let up: Vec<String> = pile.cards[pile.down..]
            .iter()
            .map(Card::to_string)
            .collect();
        out += &format!("{}:{} ", pile.down, up.join(","));
    }
    let shown = Layout::waste_shown(p);
    let top = p.waste.last().map_or("-".to_string(), Card::to_string);
    out += &format!("| stock {} | waste {top}/{shown} |", !p.stock.is_empty());
    for f in 0..4 {
        out += &format!(
            " {}",
            foundation_top(p, f).map_or("-".to_string(), |c| c.to_string())
        );
    }
    out
}

fn seen(s: &Seen) -> String {
    match s {
        Seen::Card(c, _) => c.to_string(),
        Seen::Empty => "-".into(),
        Seen::Unknown(score) => format!("?{score:.2}"),
    }
}

fn read_as_text(b: &Board) -> String {
    let mut out = String::new();
    for pile in &b.piles {
        let up: Vec<String> = pile.up.iter().map(seen).collect();
        out += &format!("{}:{} ", pile.down, up.join(","));
    }
    out += &format!(
        "| stock {} | waste {}/{} |",
        b.stock,
        seen(&b.waste),
        b.waste_shown
    );
    for f in &b.foundations {
        out += &format!(" {}", seen(f));
    }
    out
}

/// Positions along a solution of a seeded deal: every `every` steps, and the last.
fn positions(seed: u64, draw: Draw, every: usize) -> Vec<Position> {
    let deck = KlondikeDeck::shuffled(seed);
    let steps: Vec<Step> = solver::solve(&deck, draw, Budget::default())
        .steps
        .expect("a winnable seed");
    let mut p = Position::deal(&deck, draw);
    let mut out = vec![p.clone()];
    for (i, step) in steps.iter().enumerate() {
        p.play(*step).unwrap();
        if (i + 1) % every == 0 && !p.is_won() {
            out.push(p.clone());
        }
    }
    out
}

#[test]
fn every_pile_and_pile_card_is_read_right_at_every_size_and_theme() {
    let themes = std::env::var("KLONDIKE_THEMES").unwrap_or_else(|_| "builtin,anglo".into());
    let themes: Vec<String> = if themes == "all" {
        std::iter::once("builtin".to_string())
            .chain(Theme::installed().iter().map(|p| p.display().to_string()))
            .collect()
    } else {
        themes.split(',').map(str::to_string).collect()
    };
    let games = [(3, Draw::Three, 9), (2, Draw::One, 11)];
    let mut wrong = Vec::new();
    let mut read = 0;
    for theme in &themes {
        let mut renderer = Renderer::new(Theme::load(theme).unwrap());
        // Calibrated once, on Pyramid's table at 1440x900 from a deal of its own.
        let templates =
            calibrate_rendered_at(&mut renderer, &Deck::shuffled(1000), (1440, 900), 1.0).unwrap();
        for (size, scale) in [((1200, 760), 1.0), ((1000, 700), 1.0), ((1920, 1080), 1.5)] {
            for &(seed, draw, every) in &games {
                let list = positions(seed, draw, every);
                let deal = frame(&mut renderer, &list[0], size, scale);
                let reader = match Reader::from_deal(&deal, Matcher::new(&templates)) {
                    Ok(reader) => reader,
                    Err(e) => {
                        wrong.push(format!("{theme} {size:?}@{scale} seed {seed}: {e}"));
                        continue;
                    }
                };
                // The layout found: the table's, within a pixel (the card's height comes from the
                // calibrated templates, whose aspect is the table's rounded at another size).
                let want = Layout::new(size.0, size.1, scale, renderer.theme().aspect());
                let places = |l: &Layout| {
                    let mut v = vec![l.stock, l.waste];
                    v.extend(l.foundations);
                    v.extend(l.piles);
                    v
                };
                for (got, want) in places(&reader.layout).iter().zip(places(&want)) {
                    let off = [
                        got.x - want.x,
                        got.y - want.y,
                        got.w - want.w,
                        got.h - want.h,
                    ];
                    if off.iter().any(|d| d.abs() > 1) {
                        wrong.push(format!("{theme} {size:?}@{scale}: {got:?} for {want:?}"));
                        break;
                    }
                }
                for (i, p) in list.iter().enumerate() {
                    let picture = frame(&mut renderer, p, size, scale);
                    let got = match reader.read(&picture) {
                        Ok(board) => read_as_text(&board),
                        Err(e) => e,
                    };
                    read += 1;
                    if got != truth(p) {
                        wrong.push(format!(
                            "{theme} {size:?}@{scale} seed {seed} position {i}:\n  read {got}\n  want {}",
                            truth(p)
                        ));
                    }
                }
            }
        }
    }
    println!("{read} positions read, {} wrong", wrong.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_picture_of_another_game_is_not_a_klondike_deal() {
    let mut renderer = Renderer::new(Theme::built_in());
    let templates =
        calibrate_rendered_at(&mut renderer, &Deck::shuffled(1000), (1440, 900), 1.0).unwrap();
    let layout = solitaire_agent::games::tripeaks::table::layout::Layout::new(
        1200,
        760,
        1.0,
        renderer.theme().aspect(),
    );
    let state = solitaire_agent::games::tripeaks::State::deal(&Deck::shuffled(2));
    let scene = solitaire_agent::games::tripeaks::table::scene::Scene::still(&state, "x".into());
    let picture =
        solitaire_agent::games::tripeaks::table::scene::render(&mut renderer, &scene, &layout);
    let e = Reader::from_deal(&picture, Matcher::new(&templates))
        .err()
        .unwrap();
    assert!(e.contains("not a fresh Klondike deal"), "{e}");
}

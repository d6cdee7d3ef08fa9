//! The agent's whole loop against the practice table in-process (renderer as the screen, the table
//! model as the game, simulated time): 40 seeded deals, with templates calibrated once, each end
//! cleared in exactly the solver's number of steps, or as no_solution; the table's log shows no
//! illegal move and no click off a target; with dropped clicks and lag injected, every deal still
//! ends cleared or stopped with a reason; with repaints that stall mid-move, or a window over the
//! cards for a while, a deal is still cleared; an interruption with an OK is dismissed, one without
//! stops play, and nothing is clicked under either.

mod common;

use common::pyramid_sim;
use image::RgbaImage;
use rayon::prelude::*;
use solitaire_agent::agent::hands::Options;
use solitaire_agent::agent::io::{Clock, Pointer, Screen};
use solitaire_agent::agent::report::{Cards, LogLines, Outcome, Watch};
use solitaire_agent::cards::Card;
use solitaire_agent::cards::Deck;
use solitaire_agent::cli::play::sim_templates;
use solitaire_agent::games::pyramid::agent::play;
use solitaire_agent::games::pyramid::solver;
use solitaire_agent::games::pyramid::table::game::Table;
use solitaire_agent::games::pyramid::vision::accuracy::calibrate_rendered_at;
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::games::pyramid::State;
use solitaire_agent::table::harness::{Event, Faults};
use solitaire_agent::table::interrupt::Planned;
use solitaire_agent::table::look::Look;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;
use solitaire_agent::vision::calibrate::Corners;
use solitaire_agent::vision::groups::Groups;
use solitaire_agent::vision::recognize::Matcher;
use std::sync::{Arc, OnceLock};

const SIZE: (u32, u32) = (1200, 760);

/// The templates, calibrated once as a user does, then used for every deal. Each test takes them
/// before it starts its deals in parallel: calibrating uses rayon's threads, so a deal waiting on
/// a rayon thread for the calibration another thread is doing would wait forever.
fn matcher() -> Matcher {
    static MATCHER: OnceLock<Matcher> = OnceLock::new();
    MATCHER
        .get_or_init(|| sim_templates(Renderer::new(Theme::built_in()), SIZE, 1.0).unwrap())
        .clone()
}

fn run(
    seed: u64,
    faults: Faults,
    matcher: &Matcher,
) -> (solitaire_agent::agent::report::Report, Vec<(u64, Event)>) {
    run_at(&BUILT_IN, seed, faults, matcher)
}

/// A theme at a window size and display scale, in one of the table's looks.
struct Setting {
    theme: &'static str,
    size: (u32, u32),
    scale: f32,
    look: Look,
}

const BUILT_IN: Setting = Setting {
    theme: "builtin",
    size: SIZE,
    scale: 1.0,
    look: Look::Practice,
};

/// Plays deal `seed` to the end at `look` with `matcher`'s templates.
fn run_at(
    look: &Setting,
    seed: u64,
    faults: Faults,
    matcher: &Matcher,
) -> (solitaire_agent::agent::report::Report, Vec<(u64, Event)>) {
    let (report, events, _) = run_logged(look, seed, faults, matcher);
    (report, events)
}

/// `run_at`, with the lines the agent logged.
fn run_logged(
    look: &Setting,
    seed: u64,
    faults: Faults,
    matcher: &Matcher,
) -> (
    solitaire_agent::agent::report::Report,
    Vec<(u64, Event)>,
    Vec<String>,
) {
    let matcher = matcher.clone();
    let table = Table::seeded(seed, 300, faults);
    let renderer = Renderer::with_look(Theme::load(look.theme).unwrap(), look.look);
    let (w, h) = look.size;
    let mut game = pyramid_sim(table, renderer, w, h, look.scale);
    let mut lines = Vec::new();
    let report = play(
        &mut game,
        Profile::of_look(look.look),
        Cards::Templates(matcher),
        Options::default(),
        &mut LogLines(|line: &str| lines.push(line.to_string())),
    );
    (report, game.events, lines)
}

/// How deal `seed` should end: cleared in the solver's number of steps, or no_solution (after
/// whatever steps were `taken`, none).
fn optimal_end(seed: u64, taken: usize) -> (Outcome, usize) {
    match solver::solve(&State::deal(&Deck::shuffled(seed)))
        .unwrap()
        .steps
    {
        Some(steps) => (Outcome::Cleared, steps.len()),
        None => (Outcome::NoSolution, taken),
    }
}

fn count(events: &[(u64, Event)], f: impl Fn(&Event) -> bool) -> usize {
    events.iter().filter(|(_, e)| f(e)).count()
}

/// The illegal moves the table saw, and the clicks that hit no target.
fn illegal_and_stray(events: &[(u64, Event)]) -> (usize, usize) {
    (
        count(events, |e| matches!(e, Event::Illegal { .. })),
        count(
            events,
            |e| matches!(e, Event::Click { target, .. } if target == "none"),
        ),
    )
}

/// Seeds 1 to `DEALS`, each played from its deal to the end.
const DEALS: u64 = 40;

/// The last part of a 300 ms flight in which the card, slowing down, already lies on its final
/// pixel (the table eases its moves): the picture shows the move landed, though the table's
/// clock has the move under way.
const TAIL_MS: u64 = 10;

/// A move's wait ends at the first picture that shows it landed, not a hold later: after every
/// draw but the first (whose place on the waste is learnt from it) and every removal, the next
/// click comes within one capture of the move's end (the simulated table paints each instant
/// exactly, with no latency), and never before the picture shows it landed.
#[test]
fn the_next_click_comes_at_the_first_picture_after_a_move_lands() {
    let matcher = matcher();
    let (report, events) = run(1, Faults::default(), &matcher);
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    let poll = Options::default().poll_ms;
    let mut gaps = Vec::new();
    for (i, (t, e)) in events.iter().enumerate() {
        let Event::Move { step } = e else { continue };
        // The next click, if the log has one before the next move or Undo board.
        let next = events[i + 1..].iter().find_map(|(tc, e)| match e {
            Event::Click { target, .. } if target != "undo_board" => Some(Some(*tc)),
            Event::Click { .. } | Event::Move { .. } => Some(None),
            _ => None,
        });
        if let Some(Some(tc)) = next {
            let gap = tc as i64 - (*t + 300) as i64;
            assert!(
                gap >= -(TAIL_MS as i64),
                "a click {} ms before {step} landed",
                -gap
            );
            gaps.push((gap, step.clone()));
        }
    }
    let late: Vec<&(i64, String)> = gaps.iter().filter(|(g, _)| *g > poll as i64).collect();
    // The first draw, the recycles and the draws of a king (with a card selected first) wait
    // for the hold.
    assert!(
        gaps.len() > 60 && late.len() <= 6,
        "{} of {} moves were followed by a click more than {poll} ms after they landed: {late:?}",
        late.len(),
        gaps.len()
    );
}

#[test]
fn forty_seeded_deals_are_cleared_with_exactly_the_planned_clicks() {
    let matcher = matcher();
    let cleared: usize = (1..=DEALS)
        .into_par_iter()
        .map(|seed| {
            let (report, events) = run(seed, Faults::default(), &matcher);
            let optimal = solver::solve(&State::deal(&Deck::shuffled(seed)))
                .unwrap()
                .steps;
            match &optimal {
                Some(steps) => {
                    assert_eq!(
                        report.result,
                        Outcome::Cleared,
                        "seed {seed}: {}",
                        report.reason
                    );
                    assert_eq!(report.steps, steps.len(), "seed {seed}");
                    assert_eq!(count(&events, |e| *e == Event::Cleared), 1, "seed {seed}");
                }
                None => assert_eq!(
                    report.result,
                    Outcome::NoSolution,
                    "seed {seed}: {}",
                    report.reason
                ),
            }
            assert_eq!(
                count(&events, |e| matches!(e, Event::Illegal { .. })),
                0,
                "seed {seed}: {events:?}"
            );
            let clicks = count(&events, |e| matches!(e, Event::Click { .. }));
            assert_eq!(
                clicks, report.clicks,
                "seed {seed}: every click the agent made reached the table"
            );
            assert_eq!(
                count(
                    &events,
                    |e| matches!(e, Event::Click { target, .. } if target == "none")
                ),
                0,
                "seed {seed}: a click missed every target"
            );
            assert_eq!(report.replans, 0);
            assert!(report.reveal_ms > 0 && (report.play_ms > 0 || optimal.is_none()));
            assert_eq!(
                count(
                    &events,
                    |e| matches!(e, Event::Click { flying_ms: Some(ms), .. } if *ms > TAIL_MS)
                ),
                0,
                "seed {seed}: a click came while a move was still flying"
            );
            (report.result == Outcome::Cleared) as usize
        })
        .sum();
    let solvable = (1..=DEALS)
        .filter(|&s| {
            solver::solve(&State::deal(&Deck::shuffled(s)))
                .unwrap()
                .is_solvable()
        })
        .count();
    eprintln!("{cleared} of {DEALS} deals cleared ({solvable} solvable)");
    assert_eq!(cleared, solvable);
}

/// The look of the anglo window test (`tests/agent_window.rs`), played in-process: calibrated
/// there on deal 5, then deals 1 to 20, each solvable one cleared in the optimal number of steps.
/// (Deal 10 once stopped safely here: an empty place over a court card read as a card.)
#[test]
fn anglo_deals_at_display_scale_one_and_a_half_are_cleared() {
    let look = Setting {
        theme: "anglo",
        size: (1920, 1080),
        scale: 1.5,
        look: Look::Practice,
    };
    let deck = Deck::shuffled(5);
    let mut r = Renderer::new(Theme::load(look.theme).unwrap());
    let templates = calibrate_rendered_at(&mut r, &deck, look.size, look.scale).unwrap();
    let matcher = Matcher::new(&templates);
    let failures: Vec<String> = (1..=20u64)
        .into_par_iter()
        .filter_map(|seed| {
            let (report, events) = run_at(&look, seed, Faults::default(), &matcher);
            assert_eq!(count(&events, |e| matches!(e, Event::Illegal { .. })), 0);
            ((report.result, report.steps) != optimal_end(seed, report.steps))
                .then(|| format!("deal {seed}: {:?}, {}", report.result, report.reason))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// In MSC's look (covered cards show only their index corner, Undo board and OK only where the
/// `msc` profile's fractions say), read with the `msc` profile, calibrated from that look's own
/// frames: deals are cleared in the solver's steps, with no illegal move and no click off a target.
const MSC: Setting = Setting {
    theme: "builtin",
    size: (1440, 900),
    scale: 1.0,
    look: Look::Msc,
};

/// `MSC`'s templates, calibrated once (as `matcher`).
fn msc_matcher() -> Matcher {
    static MATCHER: OnceLock<Matcher> = OnceLock::new();
    MATCHER
        .get_or_init(|| {
            let r = Renderer::with_look(Theme::built_in(), Look::Msc);
            sim_templates(r, MSC.size, MSC.scale).unwrap()
        })
        .clone()
}

#[test]
fn deals_in_the_msc_look_are_cleared_with_the_msc_profile() {
    let look = MSC;
    let matcher = msc_matcher();
    let failures: Vec<String> = (1..=4u64)
        .into_par_iter()
        .filter_map(|seed| {
            let (report, events) = run_at(&look, seed, Faults::default(), &matcher);
            let (illegal, stray) = illegal_and_stray(&events);
            let expected = optimal_end(seed, report.steps);
            ((report.result, report.steps) != expected || illegal + stray > 0).then(|| {
                format!(
                    "deal {seed}: {:?} after {} steps ({illegal} illegal, {stray} stray): {}",
                    report.result, report.steps, report.reason
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Ornamental in MSC's look: a covered card's corner shows its rank and not its suit (the suit
/// lies under the card over it), and on deal 1 the black nines are covered, and the red fours,
/// fives and eights: not even the full deck tells which is which. Pyramid looks at ranks only, so
/// the agent takes them one way round, says so, and plays; where one is later seen whole the
/// other way round, the two change places. The stock's top card there lies 9 pixels inside the
/// edges of the cards under it after two draws, past where its corner was snapped to, and is
/// looked for again past them (the agent used to stop: "after draw 2 the stock's top is
/// unknown"). The deal is cleared in the solver's steps (on the true deal), with no illegal move
/// and no click off a target.
#[test]
fn covered_cards_whose_suits_do_not_show_are_played_by_their_ranks() {
    let look = Setting {
        theme: "ornamental",
        size: (1440, 900),
        scale: 1.0,
        look: Look::Msc,
    };
    let lines = cleared_in_the_solver_s_steps(&look, 1);
    for said in ["whose suits do not show, taken as", "the two change places"] {
        assert!(
            lines.iter().any(|l| l.contains(said)),
            "{}",
            lines.join("\n")
        );
    }
}

/// KDE's nicu-white in MSC's look: no border, and its covered cards show their rank with no suit.
/// On deal 1, thirty steps in, an empty place over the faces of the 8h and 8d behind it showed
/// 0.75 of a top edge (borderless art's edge is the share of the columns where one shows), and
/// it and the three places under it were left unread: play stopped, "4 of 16 cards cannot be
/// read". The deal is cleared in the solver's steps with no illegal move and no click off a
/// target.
#[test]
fn a_nearly_cleared_borderless_table_is_read_to_the_end() {
    let look = Setting {
        theme: "/usr/share/carddecks/svg-nicu-white/white.svgz",
        size: SIZE,
        scale: 1.0,
        look: Look::Msc,
    };
    cleared_in_the_solver_s_steps(&look, 1);
}

/// Plays deal `seed` in `look`, calibrated as `play --sim` calibrates, and checks that it is
/// cleared in the solver's steps (on the true deal) with no illegal move and no click off a
/// target; returns the agent's log lines.
fn cleared_in_the_solver_s_steps(look: &Setting, seed: u64) -> Vec<String> {
    let r = Renderer::with_look(Theme::load(look.theme).unwrap(), look.look);
    let matcher = sim_templates(r, look.size, look.scale).unwrap();
    let (report, events, lines) = run_logged(look, seed, Faults::default(), &matcher);
    let (illegal, stray) = illegal_and_stray(&events);
    assert_eq!(
        (report.result, report.steps),
        optimal_end(seed, report.steps),
        "{}\n{}",
        report.reason,
        lines.join("\n")
    );
    assert_eq!((illegal, stray), (0, 0));
    lines
}

/// Cards without a border (one face runs into the next, so a card over others shows its top edge
/// only where felt or ink lies above it): calibrated from the deal on screen as a user's first
/// game is, then read by their corners where no edge shows. A second deal is cleared in the
/// solver's steps with no illegal move and no click off a target (anglo+borderless's deal 6
/// empties slots over the pips of the faces behind, which once read as a card there; in the msc
/// look its deal 2's first read, from the whole table's fit, left 14 cards unsure, and is now read
/// by the cards' corners); deal 1 too, through a "no more moves" and a notice over the cards, each
/// seen and closed by its OK.
#[test]
fn borderless_cards_are_calibrated_and_their_deals_cleared() {
    let settings = [
        (
            Setting {
                theme: "builtin+borderless",
                size: SIZE,
                scale: 1.0,
                look: Look::Practice,
            },
            2,
        ),
        (
            Setting {
                theme: "anglo+borderless",
                size: SIZE,
                scale: 1.0,
                look: Look::Practice,
            },
            6,
        ),
        (
            Setting {
                theme: "anglo+borderless",
                size: SIZE,
                scale: 1.0,
                look: Look::Msc,
            },
            2,
        ),
    ];
    for (look, plain_deal) in &settings {
        let plain_deal = *plain_deal;
        let r = Renderer::with_look(Theme::load(look.theme).unwrap(), look.look);
        let matcher = sim_templates(r, look.size, look.scale).unwrap();
        let interrupted = Faults {
            interrupts: vec![
                Planned::parse("30:no-moves").unwrap(),
                Planned::parse("34:notice").unwrap(),
            ],
            ..Faults::default()
        };
        let ((report, events), (plain, plain_events)) = rayon::join(
            || run_at(look, 1, interrupted, &matcher),
            || run_at(look, plain_deal, Faults::default(), &matcher),
        );
        cleared_through_oks(1, &report, &events, &["no-moves", "notice"]);
        let (illegal, stray) = illegal_and_stray(&plain_events);
        assert_eq!(
            (plain.result, plain.steps, illegal, stray),
            (
                Outcome::Cleared,
                optimal_end(plain_deal, plain.steps).1,
                0,
                0
            ),
            "{} deal {plain_deal}: {}",
            look.theme,
            plain.reason
        );
    }
}

/// The clicks made while each interruption showed, with the button that closed it (None: it
/// was still showing at the end).
fn clicks_while_interrupted(events: &[(u64, Event)]) -> Vec<(String, Vec<String>, Option<String>)> {
    let mut out: Vec<(String, Vec<String>, Option<String>)> = Vec::new();
    let mut open = false;
    for (_, e) in events {
        match e {
            Event::Interrupt { kind, .. } => {
                out.push((kind.clone(), Vec::new(), None));
                open = true;
            }
            Event::Click { target, .. } if open => out.last_mut().unwrap().1.push(target.clone()),
            Event::Dismiss { button, .. } => {
                out.last_mut().unwrap().2 = Some(button.clone());
                open = false;
            }
            _ => {}
        }
    }
    out
}

#[test]
fn interruptions_with_an_ok_are_dismissed_and_the_deal_still_cleared_optimally() {
    let faults = Faults {
        interrupts: vec![
            Planned::parse("30:no-moves").unwrap(),
            Planned::parse("34:notice").unwrap(),
        ],
        ..Faults::default()
    };
    let (report, events) = run(1, faults, &matcher());
    cleared_through_oks(1, &report, &events, &["no-moves", "notice"]);
}

/// Asserts deal `seed` cleared optimally with no illegal move, each of `kinds` closed by its OK
/// with no other click while it showed.
fn cleared_through_oks(
    seed: u64,
    report: &solitaire_agent::agent::report::Report,
    events: &[(u64, Event)],
    kinds: &[&str],
) {
    assert_eq!(
        (report.result, report.steps),
        optimal_end(seed, report.steps),
        "{}",
        report.reason
    );
    assert_eq!(report.dialogs, kinds.len());
    let want: Vec<_> = kinds
        .iter()
        .map(|kind| {
            (
                kind.to_string(),
                vec![format!("{kind}:ok")],
                Some("ok".to_string()),
            )
        })
        .collect();
    assert_eq!(clicks_while_interrupted(events), want);
    assert_eq!(count(events, |e| matches!(e, Event::Illegal { .. })), 0);
}

/// The msc look in a small window, where MSC's bar keeps its buttons large: the Undo board
/// dialog (whose OK the agent learns) is as large as they need.
const MSC_SMALL: Setting = Setting {
    theme: "builtin",
    size: (800, 600),
    scale: 1.0,
    look: Look::Msc,
};

#[test]
fn in_a_small_msc_window_the_games_ok_is_learnt_and_an_interruption_dismissed() {
    let r = Renderer::with_look(Theme::built_in(), Look::Msc);
    let matcher = sim_templates(r, MSC_SMALL.size, MSC_SMALL.scale).unwrap();
    let faults = Faults {
        interrupts: vec![Planned::parse("30:no-moves").unwrap()],
        ..Faults::default()
    };
    let (report, events) = run_at(&MSC_SMALL, 1, faults, &matcher);
    cleared_through_oks(1, &report, &events, &["no-moves"]);
}

#[test]
fn an_interruption_without_an_ok_stops_play_with_no_click_under_or_on_it() {
    // In the msc look: a notice is dismissed, then a bonus-game offer stops play.
    let faults = Faults {
        interrupts: vec![
            Planned::parse("31:notice").unwrap(),
            Planned::parse("33:bonus").unwrap(),
        ],
        ..Faults::default()
    };
    let (report, events) = run_at(&MSC, 1, faults, &msc_matcher());
    assert_eq!(report.result, Outcome::Stopped);
    assert!(
        report.reason.contains("dialog") && report.reason.contains("2 buttons"),
        "{}",
        report.reason
    );
    assert_eq!(report.dialogs, 1);
    let seen = clicks_while_interrupted(&events);
    assert_eq!(
        seen,
        vec![
            ("notice".into(), vec!["notice:ok".into()], Some("ok".into())),
            ("bonus".into(), vec![], None),
        ]
    );
}

#[test]
fn dropped_clicks_and_lag_never_lead_to_an_illegal_move() {
    let faults = Faults {
        drop_click_rate: 0.15,
        lag_ms: (50, 600),
        seed: 7,
        ..Faults::default()
    };
    let (report, events) = run(1, faults, &matcher());
    assert!(
        report.result == Outcome::Cleared
            || (report.result == Outcome::Stopped && !report.reason.is_empty()),
        "{report:?}"
    );
    assert_eq!(
        count(&events, |e| matches!(e, Event::Illegal { .. })),
        0,
        "{events:?}"
    );
    assert!(
        count(&events, |e| matches!(e, Event::Fault { .. })) > 0,
        "faults were injected"
    );
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::Click { target, .. } if target == "none")
        ),
        0
    );
}

#[test]
fn an_undo_board_dialog_drawn_late_is_waited_for() {
    // Undo board dims the table at once and draws its dialog 400 ms later: the dimmed table
    // looks still long before the OK is there.
    let faults = Faults {
        lag_ms: (400, 400),
        ..Faults::default()
    };
    let (report, events) = run(1, faults, &matcher());
    assert_eq!(report.result, Outcome::Cleared, "{report:?}");
    assert_eq!(
        count(&events, |e| matches!(e, Event::Illegal { .. })),
        0,
        "{events:?}"
    );
    let pressed = events
        .iter()
        .position(|(_, e)| matches!(e, Event::Click { target, .. } if target == "undo_board"))
        .expect("Undo board pressed");
    let (t_pressed, _) = events[pressed];
    let (t_ok, _) = events[pressed..]
        .iter()
        .find(|(_, e)| matches!(e, Event::Click { target, .. } if target == "ok"))
        .expect("its OK pressed");
    assert!(
        matches!(&events[pressed + 1].1, Event::Fault { kind, detail } if kind == "lag" && detail == "400 ms"),
        "the dialog was drawn late: {:?}",
        &events[pressed..pressed + 2]
    );
    assert!(*t_ok >= t_pressed + 400, "OK pressed once drawn");
    assert_eq!(
        count(&events, |e| matches!(e, Event::UndoBoard)),
        1,
        "{events:?}"
    );
}

/// In the msc look the OK is at a fixed place whether or not its dialog shows. With the dialog
/// drawn 400 ms after Undo board dims the table (which looks still well before), the agent waits
/// for the dialog itself, learns the game's OK from it, and so dismisses a later interruption by
/// that OK; nothing is clicked on the dimmed table.
#[test]
fn in_the_msc_look_a_late_undo_board_dialog_is_waited_for_and_its_ok_learnt() {
    let faults = Faults {
        lag_ms: (400, 400),
        interrupts: vec![Planned::parse("30:no-moves").unwrap()],
        ..Faults::default()
    };
    let (report, events) = run_at(&MSC, 1, faults, &msc_matcher());
    cleared_through_oks(1, &report, &events, &["no-moves"]);
    let pressed = events
        .iter()
        .position(|(_, e)| matches!(e, Event::Click { target, .. } if target == "undo_board"))
        .expect("Undo board pressed");
    let after: Vec<&(u64, Event)> = events[pressed + 1..]
        .iter()
        .filter(|(_, e)| matches!(e, Event::Click { .. }))
        .collect();
    assert!(
        matches!(&after[0].1, Event::Click { target, .. } if target == "ok")
            && after[0].0 >= events[pressed].0 + 400,
        "the next click is the OK, once drawn: {:?}",
        &events[pressed..pressed + 4]
    );
}

/// The practice table in-process, its repaints stalling in the middle of every move: after each
/// click, the picture freezes at its third change for `stall_ms`, long enough to look still, with
/// the card in flight (a busy machine's game does this).
struct Stalling {
    inner: solitaire_agent::agent::sim::SimView,
    stall_ms: u64,
    changes: usize,
    last: Option<Arc<RgbaImage>>,
    frozen_until: u64,
    stalls: usize,
}

impl Screen for Stalling {
    fn capture(&mut self) -> Result<Arc<RgbaImage>, String> {
        if let Some(last) = &self.last {
            if self.inner.now_ms() < self.frozen_until {
                return Ok(last.clone());
            }
        }
        let frame = self.inner.capture()?;
        if self.last.as_ref().is_some_and(|l| !Arc::ptr_eq(l, &frame)) {
            self.changes += 1;
            if self.changes == 3 {
                self.frozen_until = self.inner.now_ms() + self.stall_ms;
                self.stalls += 1;
            }
        }
        self.last = Some(frame.clone());
        Ok(frame)
    }
}

impl Pointer for Stalling {
    fn click(&mut self, x: i32, y: i32) -> Result<(), String> {
        self.changes = 0;
        self.inner.click(x, y)
    }
}

impl Clock for Stalling {
    fn now_ms(&self) -> u64 {
        self.inner.now_ms()
    }
    fn sleep_ms(&mut self, ms: u64) {
        self.inner.sleep_ms(ms)
    }
}

/// A game whose repaints stall mid-move looks still with a card in flight: the agent reads that
/// picture as unreadable or not yet the move, waits for the picture to move on, and clears the
/// deal in the optimal number of steps with no illegal move.
#[test]
fn repaints_that_stall_mid_move_are_waited_out() {
    let seed = 2;
    let table = Table::seeded(seed, 300, Faults::default());
    let renderer = Renderer::new(Theme::built_in());
    let mut game = Stalling {
        inner: pyramid_sim(table, renderer, SIZE.0, SIZE.1, 1.0),
        stall_ms: 200,
        changes: 0,
        last: None,
        frozen_until: 0,
        stalls: 0,
    };
    let report = play(
        &mut game,
        Profile::practice_table(),
        Cards::Templates(matcher()),
        Options::default(),
        &mut LogLines(|_: &str| {}),
    );
    let optimal = solver::solve(&State::deal(&Deck::shuffled(seed)))
        .unwrap()
        .steps
        .expect("deal 2 is solvable");
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    assert_eq!(report.steps, optimal.len());
    assert!(
        game.stalls >= 24 + optimal.len(),
        "every move stalled: {} stalls",
        game.stalls
    );
    let events = &game.inner.events;
    assert_eq!(count(events, |e| matches!(e, Event::Illegal { .. })), 0);
}

/// The practice table in-process with a window dragged over its cards for `cover_ms` right after
/// the agent's `after_click`-th click (the move it made still plays out underneath).
struct Covered {
    inner: solitaire_agent::agent::sim::SimView,
    after_click: usize,
    cover_ms: u64,
    clicks: usize,
    covered_from: Option<u64>,
}

impl Screen for Covered {
    fn capture(&mut self) -> Result<Arc<RgbaImage>, String> {
        let frame = self.inner.capture()?;
        let now = self.inner.now_ms();
        match self.covered_from {
            Some(t) if now < t + self.cover_ms => {
                let mut covered = (*frame).clone();
                let (w, h) = covered.dimensions();
                for y in h / 10..h / 2 {
                    for x in w / 4..w * 3 / 4 {
                        covered.put_pixel(x, y, image::Rgba([236, 236, 236, 255]));
                    }
                }
                Ok(Arc::new(covered))
            }
            _ => Ok(frame),
        }
    }
}

impl Pointer for Covered {
    fn click(&mut self, x: i32, y: i32) -> Result<(), String> {
        self.clicks += 1;
        if self.clicks == self.after_click {
            self.covered_from = Some(self.inner.now_ms());
        }
        self.inner.click(x, y)
    }
}

impl Clock for Covered {
    fn now_ms(&self) -> u64 {
        self.inner.now_ms()
    }
    fn sleep_ms(&mut self, ms: u64) {
        self.inner.sleep_ms(ms)
    }
}

/// A window over the cards for 3 s, longer than the agent waits for a slow move to show
/// (`late_ms`), right after a move: the agent cannot read the table, waits for the picture to
/// change (up to `covered_ms`), and clears the deal in the optimal number of steps.
#[test]
fn a_window_over_the_cards_after_a_move_is_waited_out() {
    let seed = 2;
    let table = Table::seeded(seed, 300, Faults::default());
    let renderer = Renderer::new(Theme::built_in());
    let mut game = Covered {
        inner: pyramid_sim(table, renderer, SIZE.0, SIZE.1, 1.0),
        after_click: 40,
        cover_ms: 3000,
        clicks: 0,
        covered_from: None,
    };
    let options = Options::default();
    assert!(options.late_ms < 3000 && 3000 < options.covered_ms);
    let report = play(
        &mut game,
        Profile::practice_table(),
        Cards::Templates(matcher()),
        options,
        &mut LogLines(|_: &str| {}),
    );
    let optimal = solver::solve(&State::deal(&Deck::shuffled(seed)))
        .unwrap()
        .steps
        .expect("deal 2 is solvable");
    assert!(game.covered_from.is_some(), "the window came");
    assert_eq!(report.result, Outcome::Cleared, "{}", report.reason);
    assert_eq!(report.steps, optimal.len());
    assert_eq!(
        count(&game.inner.events, |e| matches!(e, Event::Illegal { .. })),
        0
    );
}

/// A user who sees the cards and labels the groups (fixing any card put in the wrong group).
struct Labeller {
    truth: Vec<Card>,
    swaps: usize,
}

impl Watch for Labeller {
    fn label(&mut self, _corners: &Corners, mut groups: Groups) -> Result<Vec<Card>, String> {
        let a = common::answers(&groups.ranks, &self.truth);
        self.swaps = a.swaps.len();
        for (x, y) in &a.swaps {
            groups.swap(*x, *y);
        }
        let cards = groups.cards(&a.ranks, &a.suits)?;
        assert_eq!(
            cards, self.truth,
            "the labelled grouping gives the true cards"
        );
        Ok(cards)
    }
}

/// Guided calibration on a deal nobody told the agent: it clicks through the stock, groups the
/// cards, the user labels 13 ranks and 4 suits, and the deal is played to the end with the new
/// templates; the set saved reads other deals.
fn guided(theme: &str, size: (u32, u32), scale: f32, seed: u64) -> usize {
    let dir = std::env::temp_dir().join(format!("guided-{theme}-{seed}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let table = Table::seeded(seed, 300, Faults::default());
    let theme_art = Theme::load(theme).unwrap();
    let mut game = pyramid_sim(table, Renderer::new(theme_art), size.0, size.1, scale);
    let mut user = Labeller {
        truth: Deck::shuffled(seed).cards().to_vec(),
        swaps: usize::MAX,
    };
    let report = play(
        &mut game,
        Profile::practice_table(),
        Cards::CalibrateGuided(Some(dir.clone())),
        Options::default(),
        &mut user,
    );
    assert_eq!(
        report.result,
        Outcome::Cleared,
        "{theme}: {}",
        report.reason
    );
    assert_eq!(
        count(&game.events, |e| matches!(e, Event::Illegal { .. })),
        0
    );
    // The saved set plays another deal.
    let templates =
        solitaire_agent::vision::templates::Templates::load(dir.to_str().unwrap()).unwrap();
    let table = Table::seeded(seed + 1, 300, Faults::default());
    let mut game = pyramid_sim(
        table,
        Renderer::new(Theme::load(theme).unwrap()),
        size.0,
        size.1,
        scale,
    );
    let report = play(
        &mut game,
        Profile::practice_table(),
        Cards::Templates(Matcher::new(&templates)),
        Options::default(),
        &mut LogLines(|_: &str| {}),
    );
    assert_ne!(
        report.result,
        Outcome::Stopped,
        "{theme}: {}",
        report.reason
    );
    let _ = std::fs::remove_dir_all(&dir);
    user.swaps
}

#[test]
fn guided_calibration_needs_only_13_ranks_and_4_suits() {
    assert_eq!(guided("builtin", SIZE, 1.0, 2), 0);
    assert_eq!(guided("anglo", (1440, 900), 1.0, 5), 0);
}

#[test]
fn guided_calibration_stops_when_no_one_labels() {
    let table = Table::seeded(3, 300, Faults::default());
    let mut game = pyramid_sim(table, Renderer::new(Theme::built_in()), SIZE.0, SIZE.1, 1.0);
    let report = play(
        &mut game,
        Profile::practice_table(),
        Cards::CalibrateGuided(None),
        Options::default(),
        &mut LogLines(|_: &str| {}),
    );
    assert_eq!(report.result, Outcome::Stopped);
    assert!(report.reason.contains("labelled"), "{}", report.reason);
}

//! Score and Card challenges played by the agent against the practice table in-process (`play
//! --goal G --deals D`): deal after deal until the goal is met, each deal that cannot meet what is
//! left played for the most it allows, drawn through to its end and followed by New deal. The
//! table's own log (its moves and MSC's score, kept by the rules) is the witness. One challenge is
//! played in MSC's look, whose profile presses New deal at a fixed place.

mod common;

use common::pyramid_sim;
use solitaire_agent::agent::hands::Options;
use solitaire_agent::agent::report::{Cards, LogLines, Outcome, Report};
use solitaire_agent::cards::Deck;
use solitaire_agent::cli::play::sim_templates;
use solitaire_agent::games::pyramid::agent::play_challenge;
use solitaire_agent::games::pyramid::goal::Goal;
use solitaire_agent::games::pyramid::score::tally;
use solitaire_agent::games::pyramid::solver::solve_goal;
use solitaire_agent::games::pyramid::table::game::Table;
use solitaire_agent::games::pyramid::vision::profile::Profile;
use solitaire_agent::games::pyramid::State;
use solitaire_agent::table::harness::{Event, Faults};
use solitaire_agent::table::look::Look;
use solitaire_agent::table::render::Renderer;
use solitaire_agent::table::theme::Theme;

const SIZE: (u32, u32) = (1200, 760);

fn challenge(seed: u64, goal: &str, deals: u32) -> (Report, Vec<(u64, Event)>) {
    challenge_in(Look::Practice, seed, goal, deals)
}

/// `challenge` on the table in `look` (read with that look's profile).
fn challenge_in(look: Look, seed: u64, goal: &str, deals: u32) -> (Report, Vec<(u64, Event)>) {
    let renderer = || Renderer::with_look(Theme::built_in(), look);
    let matcher = sim_templates(renderer(), SIZE, 1.0).unwrap();
    let table = Table::seeded(seed, 300, Faults::default());
    let mut world = pyramid_sim(table, renderer(), SIZE.0, SIZE.1, 1.0);
    let report = play_challenge(
        &mut world,
        Profile::of_look(look),
        Cards::Templates(matcher),
        Options::default(),
        &mut LogLines(|_: &str| {}),
        goal.parse().unwrap(),
        deals,
    );
    (report, world.events)
}

/// The table's log cut at each deal (the log opens with the first): the last score logged in
/// each (0 when none was).
fn scores_by_deal(events: &[(u64, Event)]) -> Vec<u32> {
    let mut deals = Vec::new();
    for (_, e) in events {
        match e {
            Event::Deal { .. } => deals.push(0),
            Event::Score { points } => *deals.last_mut().unwrap() = *points,
            _ => {}
        }
    }
    deals
}

/// The most a seeded deal allows, by the solver's line counted by the rules' scoring.
fn most_points(seed: u64) -> u32 {
    let deal = State::deal(&Deck::shuffled(seed));
    let line = solve_goal(&deal, Goal::MaxScore).unwrap().steps.unwrap();
    tally(&deal, &line).unwrap().1.points
}

#[test]
fn a_score_challenge_plays_each_deal_for_its_most_until_the_total_is_reached() {
    // Seeds 3 and 4 are the first two deals; neither gives 500 alone.
    let (first, second) = (most_points(3), most_points(4));
    assert!(first < 500 && first + second < 500, "{first} {second}");
    let (report, events) = challenge(3, "score:500", 3);
    assert_eq!(report.result, Outcome::GoalMet, "{}", report.reason);
    let c = report.challenge.as_ref().unwrap();
    assert_eq!(c.deals.len(), 3);
    let logged = scores_by_deal(&events);
    assert_eq!(logged.len(), 3, "{logged:?}");
    // Each deal's points, as the table counted them, are what the report says; the first two
    // are the most those deals allow.
    let reported: Vec<u32> = c.deals.iter().map(|d| d.points).collect();
    assert_eq!(logged, reported);
    assert_eq!((logged[0], logged[1]), (first, second));
    assert!(c.met && c.total >= 500 && c.total == logged.iter().sum::<u32>());
    // The first two deals were drawn through to their end (two recycles each) before New deal.
    let recycles = events
        .iter()
        .filter(|(_, e)| matches!(e, Event::Move { step } if step == "Recycle"))
        .count();
    assert!(recycles >= 4, "{recycles} recycles");
    assert!(!events
        .iter()
        .any(|(_, e)| matches!(e, Event::Illegal { .. })));
}

#[test]
fn a_card_challenge_out_of_reach_plays_every_deal_and_says_so() {
    // In MSC's look: New deal is pressed where the msc profile says.
    let (report, events) = challenge_in(Look::Msc, 5, "clear:K:9", 2);
    assert_eq!(report.result, Outcome::GoalNotMet, "{}", report.reason);
    assert_eq!(
        events
            .iter()
            .filter(|(_, e)| matches!(e, Event::Deal { .. }))
            .count(),
        2
    );
    let c = report.challenge.as_ref().unwrap();
    assert_eq!((c.deals.len(), c.met), (2, false));
    assert!(c.total <= 8 && c.deals.iter().all(|d| d.cards.is_some()));
    // The kings the table saw removed match the report.
    let kings = events
        .iter()
        .filter(|(_, e)| matches!(e, Event::Move { step } if step.contains('K')))
        .count() as u32;
    assert_eq!(kings, c.total);
    assert!(report.reason.contains("not met"), "{}", report.reason);
}

/// `play --goal --deals` as a user runs it: the JSON report carries the challenge; bad input is
/// refused before anything is played.
#[test]
fn play_takes_a_goal_and_deals_on_the_command_line() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
            .args(args)
            .output()
            .unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    };
    let (status, stdout, stderr) = run(&[
        "play",
        "--sim",
        "--seed",
        "5",
        "--goal",
        "clear:A:6",
        "--deals",
        "3",
        "--json",
    ]);
    assert_eq!(status, Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["result"], "goal_met");
    let c = &report["challenge"];
    assert_eq!(
        (c["goal"].as_str(), c["met"].as_bool()),
        (Some("clear:A:6"), Some(true))
    );
    let cards: u64 = c["deals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["cards"].as_u64().unwrap())
        .sum();
    assert!(cards >= 6 && c["total"].as_u64() == Some(cards));
    for (args, says) in [
        (
            vec!["play", "--sim", "--goal", "score:x"],
            "`x` is not a number",
        ),
        (
            vec!["play", "--sim", "--goal", "score:10", "--deals", "0"],
            "--deals",
        ),
        (
            vec!["play", "--sim", "--game", "tripeaks", "--goal", "score:10"],
            "only the board goal",
        ),
    ] {
        let (status, stdout, stderr) = run(&args);
        assert_eq!(status, Some(2), "{args:?}");
        assert!(stdout.is_empty() && stderr.contains(says), "{stderr}");
    }
}

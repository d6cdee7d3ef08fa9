//! Klondike with every card known: the fewest steps on a deal whose shortest line is known, lines
//! on seeded deals in Draw 1 and Draw 3 replayed through the rules (separate from the solver), a
//! deal proved unwinnable by two searches, and the command line's contract and errors.

mod common;

use common::launch::Launch;
use solitaire_agent::cards::{Card, Deck};
use solitaire_agent::games::klondike::solver::{self, Budget, Reductions};
use solitaire_agent::games::klondike::{rules, Draw, KlondikeDeck};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_solitaire-agent"))
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect()
}

/// Every pile builds down one suit from its bottom card, and the stock holds the rest in order:
/// each card goes up the moment it shows, so the shortest line is one step per card plus one draw
/// per stock card: 52 + 24.
fn ordered_deal() -> KlondikeDeck {
    let piles =
        "Qh  Kh Ad  4d 3d 2d  8d 7d 6d 5d  Kd Qd Jd Td 9d  6c 5c 4c 3c 2c Ac  Kc Qc Jc Tc 9c 8c 7c";
    let stock = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh";
    let all: Vec<Card> = cards(piles).into_iter().chain(cards(stock)).collect();
    KlondikeDeck(Deck::from_cards(&all, Vec::new()).unwrap())
}

fn text(steps: &[solitaire_agent::games::klondike::Step]) -> Vec<String> {
    steps.iter().map(ToString::to_string).collect()
}

#[test]
fn the_shortest_line_is_found_and_proved_where_it_is_known() {
    let deck = ordered_deal();
    let a = solver::solve(&deck, Draw::One, Budget::default());
    let steps = text(a.steps.as_ref().expect("won"));
    assert_eq!(steps.len(), 76, "{steps:?}");
    assert!(a.proven && a.decided);
    assert_eq!(a.bound, 76);
    rules::replay(&deck, Draw::One, &steps).unwrap();
    assert_eq!(steps.iter().filter(|s| *s == "Draw").count(), 24);
    // One step fewer cannot win: the rules refuse the line without its last step.
    let err = rules::replay(&deck, Draw::One, &steps[..75]).unwrap_err();
    assert!(err.contains("51 of 52"), "{err}");
}

#[test]
fn seeded_deals_are_won_in_both_draws_and_every_line_replays() {
    for (seed, draw) in [
        (2, Draw::One),
        (3, Draw::One),
        (2, Draw::Three),
        (5, Draw::Three),
    ] {
        let deck = KlondikeDeck::shuffled(seed);
        let a = solver::solve(&deck, draw, Budget::default());
        let steps = text(
            a.steps
                .as_ref()
                .unwrap_or_else(|| panic!("seed {seed}: {a:?}")),
        );
        rules::replay(&deck, draw, &steps).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            steps.len() as u32 >= a.bound,
            "seed {seed}: shorter than the bound"
        );
        // The same line in the other draw is not the same game: a Draw turns another count.
        let other = if draw == Draw::One {
            Draw::Three
        } else {
            Draw::One
        };
        if steps.iter().any(|s| s == "Draw") {
            assert!(rules::replay(&deck, other, &steps).is_err(), "seed {seed}");
        }
    }
}

#[test]
fn an_unwinnable_deal_is_proved_so_by_both_searches() {
    let deck = KlondikeDeck::shuffled(20);
    let a = solver::solve(&deck, Draw::One, Budget::default());
    assert!(a.steps.is_none() && a.decided && a.proven, "{a:?}");
    // The A* alone, with room to search everything, finds no line either.
    let exhaustive = Budget {
        shortest: 20_000_000,
        line: 0,
        decide: 0,
    };
    let b = solver::solve(&deck, Draw::One, exhaustive);
    assert!(b.steps.is_none() && b.decided, "{b:?}");
}

#[test]
fn the_rules_that_put_moves_off_until_they_are_used_decide_as_the_full_search_does() {
    // Deals 80, 89 and 99 cannot be won; 2 and 3 can. Without the rules the search tries every
    // move; with them, many times fewer positions on the deals that cannot be won.
    let budget = Budget {
        shortest: 1000,
        line: 0,
        decide: 2_000_000,
    };
    let (mut with, mut without) = (0, 0);
    for seed in [80, 89, 99, 2, 3] {
        let deck = KlondikeDeck::shuffled(seed);
        let a = solver::solve_with(
            &deck,
            Draw::One,
            budget,
            Reductions {
                put_off: true,
                classes: false,
            },
        );
        let b = solver::solve_with(
            &deck,
            Draw::One,
            budget,
            Reductions {
                put_off: false,
                classes: false,
            },
        );
        // The search of classes, with the rules and without.
        let c = solver::solve_with(&deck, Draw::One, budget, Reductions::ALL);
        let d = solver::solve_with(
            &deck,
            Draw::One,
            budget,
            Reductions {
                put_off: false,
                classes: true,
            },
        );
        assert!(
            a.decided && b.decided && c.decided && d.decided,
            "seed {seed}"
        );
        for x in [&b, &c, &d] {
            assert_eq!(a.steps.is_some(), x.steps.is_some(), "seed {seed}");
        }
        assert_eq!(a.steps.is_some(), seed < 10, "seed {seed}");
        if let Some(steps) = &d.steps {
            rules::replay(&deck, Draw::One, &text(steps)).unwrap();
        }
        if let Some(steps) = &a.steps {
            rules::replay(&deck, Draw::One, &text(steps)).unwrap();
        } else {
            with += a.states;
            without += b.states;
        }
    }
    assert!(
        with * 4 < without,
        "{with} positions with the rules, {without} without"
    );
}

#[test]
fn positions_in_classes_decide_as_the_search_of_every_position_does() {
    // Draw 1 deals 80, 89 and 99 and Draw 3 deals 74 and 103 cannot be won; 2 and 3 can. The
    // search of classes decides each as the search of every position does, in fewer positions.
    let budget = Budget {
        shortest: 1000,
        line: 0,
        decide: 2_000_000,
    };
    let every_position = Reductions {
        put_off: true,
        classes: false,
    };
    let (mut with, mut without) = (0, 0);
    for (draw, seed, won) in [
        (Draw::One, 80, false),
        (Draw::One, 89, false),
        (Draw::One, 99, false),
        (Draw::One, 2, true),
        (Draw::Three, 74, false),
        (Draw::Three, 103, false),
        (Draw::Three, 3, true),
    ] {
        let deck = KlondikeDeck::shuffled(seed);
        let a = solver::solve_with(&deck, draw, budget, Reductions::ALL);
        let b = solver::solve_with(&deck, draw, budget, every_position);
        assert!(a.decided && b.decided, "{draw:?} seed {seed}");
        assert_eq!(a.steps.is_some(), won, "{draw:?} seed {seed}");
        assert_eq!(b.steps.is_some(), won, "{draw:?} seed {seed}");
        if let Some(steps) = &a.steps {
            rules::replay(&deck, draw, &text(steps)).unwrap();
        } else {
            with += a.states;
            without += b.states;
        }
    }
    assert!(
        with * 2 < without,
        "{with} positions with classes, {without} without"
    );
}

#[test]
fn the_budget_option_sets_how_far_the_deciding_search_goes() {
    // Seeded deal 47 is unwinnable; its proof takes the deciding search some 40 thousand classes.
    let file = std::env::temp_dir().join(format!("klondike-budget-{}.txt", std::process::id()));
    std::fs::write(&file, KlondikeDeck::shuffled(47).layout()).unwrap();
    let decide = |budget: &str| {
        let line = common::json_line(
            bin()
                .args(["solve", "--game", "klondike", "--json", "--budget", budget])
                .arg(&file),
        );
        assert_eq!(line["solvable"], false);
        line["decided"].as_bool().unwrap()
    };
    assert!(!decide("1000"), "decided within 1,000 classes");
    assert!(decide("200000"), "undecided within 200,000 classes");
    // Spider's other option is refused.
    let out = bin()
        .args(["solve", "--game", "klondike", "--suits", "2"])
        .arg(&file)
        .run();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_file(&file).ok();
}

#[test]
fn the_command_line_prints_the_contract_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("klondike-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = bin()
        .args(["deal", "--game", "klondike", "--seed", "2"])
        .run();
    assert!(out.status.success());
    let layout = String::from_utf8(out.stdout).unwrap();
    assert!(
        layout.contains("# pile 7") && layout.contains("# stock"),
        "{layout}"
    );
    let file = dir.join("deal.txt");
    std::fs::write(&file, &layout).unwrap();
    let line = common::json_line(
        bin()
            .args(["solve", "--game", "klondike", "--json", "--draw", "1"])
            .arg(&file),
    );
    assert_eq!(line["deck"], KlondikeDeck::shuffled(2).to_string());
    assert_eq!(line["solvable"], true);
    let steps: Vec<String> = line["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    assert_eq!(line["length"], steps.len());
    assert_eq!(line["draw"], 1);
    assert!(line["states"].as_u64().unwrap() > 0 && line["millis"].as_f64().is_some());
    assert!(line["bound"].as_u64().unwrap() <= steps.len() as u64);
    rules::replay(&KlondikeDeck::shuffled(2), Draw::One, &steps).unwrap();
    // A deck with a card twice: one message naming it, exit status 2.
    let broken = layout.replacen("# pile 1", "", 1).replacen(
        &KlondikeDeck::shuffled(2).pile(0)[0].to_string(),
        &KlondikeDeck::shuffled(2).pile(1)[0].to_string(),
        1,
    );
    std::fs::write(&file, broken).unwrap();
    let out = bin().args(["solve", "--game", "klondike"]).arg(&file).run();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("duplicated") && err.contains("missing"),
        "{err}"
    );
    let out = bin()
        .args(["solve", "--game", "klondike", "--draw", "2"])
        .arg(&file)
        .run();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .args(["deal", "--game", "pyramid", "--seed", "1", "--draw", "3"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["bench", "--learn"]).run();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--learn is Klondike's"));
    // The panel takes Klondike's draw, and refuses it for another game before opening.
    let out = bin()
        .args(["panel", "--game", "tripeaks", "--draw", "3"])
        .run();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--draw is Klondike's"));
    std::fs::remove_dir_all(&dir).ok();
}

//! The agent's loop for TriPeaks, on the shared `agent::hands` (still pictures, confirmed clicks,
//! the user taking over):
//!
//! 1. Read the deal: the bottom row's ten cards and the waste's face up, the 18 cards above them
//!    face down, the stock there. The reader learns this table from that picture.
//! 2. Learn the stock: draw it out, reading each card as it lands on the waste; Undo board (and
//!    OK), and check the deal is back.
//! 3. Learn the face-down cards: play the shortest line that turns up the most of them (the
//!    solver's `uncover`, with the stock known and unseen cards never played), reading each card
//!    as it shows and planning again; when no line turns up more, Undo board and start again from
//!    the deal with what was learnt, until a pass learns nothing.
//! 4. Undo board, check the deal is back, solve with every card known (or prove that the deal
//!    cannot be cleared: cards that never show cannot be played), and play the solution.
//!
//! After every click the board is read and compared with what the rules say it must show; any
//! difference stops play with what was expected and what was read. Nothing is guessed: a card the
//! reader is unsure of stops play, naming its place.

use super::known::Known;
use super::solver::{solve_known, uncover};
use super::step::Step;
use super::tableau::{covered_by, TABLEAU};
use super::vision::{Board, Proportions, Reader, Seen};
use crate::agent::hands::{Hands, Options, Stop};
use crate::agent::io::World;
use crate::agent::report::{Outcome, Report, Watch};
use crate::cards::Card;
use crate::vision::buttons::Controls;
use crate::vision::buttons::{dialog_ok_button, find_buttons};
use crate::vision::edges::Edges;
use crate::vision::recognize::Matcher;

struct Player<'g, G: World + ?Sized> {
    hands: Hands<'g, G>,
    /// Made from the deal's picture.
    reader: Option<Reader>,
    replans: usize,
    /// Steps played since the deal (Undo board is needed before the next pass or the solution).
    since_deal: usize,
}

/// What the board must show for a known position: gone places empty, face-up cards known (or,
/// not yet seen, any card), the others backs; the waste's top and whether the stock has cards.
/// A place once emptied is never filled again, and what shows through it is the cards of the
/// rows above (which the reader may take for a card): it is not looked at. A card put back (an
/// Undo) would change the waste, which is.
fn difference(board: &Board, known: &Known) -> Option<String> {
    for i in 0..TABLEAU {
        let got = &board.tableau[i];
        let ok = match known.tableau[i] {
            None => true,
            Some(_) if !known.is_face_up(i) => *got == Seen::Back,
            Some(Some(card)) => *got == Seen::Card(card),
            Some(None) => matches!(got, Seen::Card(_) | Seen::Unsure(_)),
        };
        if !ok {
            let want = match known.tableau[i] {
                None => "empty".to_string(),
                Some(_) if !known.is_face_up(i) => "a card face down".to_string(),
                Some(Some(card)) => card.to_string(),
                Some(None) => "a card face up".to_string(),
            };
            return Some(format!("tableau:{i} should be {want}, reads {got}"));
        }
    }
    let waste = known.waste_top.map_or(Seen::Empty, Seen::Card);
    if board.waste != waste {
        return Some(format!(
            "the waste should be {waste}, reads {}",
            board.waste
        ));
    }
    if board.stock == known.stock.is_empty() {
        let want = if known.stock.is_empty() {
            "empty"
        } else {
            "there"
        };
        return Some(format!("the stock should be {want}"));
    }
    None
}

/// Reads the last still picture, showing it with what was read; an unreadable picture is shown
/// bare and its reason returned (not yet reported: see `Hands::unreadable`).
fn read_with<G: World + ?Sized>(reader: &Reader, hands: &mut Hands<G>) -> Result<Board, String> {
    let read = reader.read(&hands.frame);
    let marks = read
        .as_ref()
        .map_or(Vec::new(), |board| board.marks(&reader.located));
    hands.watch.seen(&hands.frame, &marks);
    if read.is_ok() {
        let l = &reader.located;
        hands.learn_table(l.cards_area(), l.card_w, l.card_h);
    }
    read
}

impl<'g, G: World + ?Sized> Player<'g, G> {
    fn read(&mut self) -> Result<Board, Stop> {
        let reader = self.reader.as_ref().expect("a reader");
        read_with(reader, &mut self.hands).map_err(|why| self.hands.unreadable(&why))
    }

    /// Reads the board until `done` accepts it (`Hands::read_until`).
    fn read_until(&mut self, done: impl Fn(&Board) -> bool) -> Result<Board, Stop> {
        let reader = self.reader.as_ref().expect("a reader");
        self.hands
            .read_until(|hands| read_with(reader, hands), done)
    }

    /// Reads the board until it agrees with `known` (`read_until`), or says how it differs.
    fn expect(&mut self, known: &Known) -> Result<Board, Stop> {
        let board = self.read_until(|b| difference(b, known).is_none())?;
        match difference(&board, known) {
            None => Ok(board),
            Some(d) => Err(Stop(d)),
        }
    }

    /// Clicks the stock.
    fn draw(&mut self) -> Result<(), Stop> {
        let stock = self.reader.as_ref().expect("a reader").located.stock;
        self.hands.click_until_change(stock.centre())?;
        self.since_deal += 1;
        Ok(())
    }

    /// Clicks the place that plays `step`: the stock, or the middle of the card's top strip.
    fn step(&mut self, known: &Known, step: Step) -> Result<(), Stop> {
        let reader = self.reader.as_ref().expect("a reader");
        let l = &reader.located;
        // For the dialog watch: the face-up cards stay; the one played leaves, and face-down
        // ones may turn over.
        let (mut staying, mut changing) = (Vec::new(), Vec::new());
        for i in 0..TABLEAU {
            match known.tableau[i] {
                Some(Some(c)) if step != Step::Play(c) => staying.push(l.slots[i]),
                Some(_) => changing.push(l.slots[i]),
                None => {}
            }
        }
        self.hands.expect_cards(staying, changing);
        let point = match step {
            Step::Draw => return self.draw(),
            Step::Play(card) => {
                let i = (0..TABLEAU)
                    .find(|&i| known.tableau[i] == Some(Some(card)))
                    .ok_or_else(|| Stop(format!("{card} is not on the table")))?;
                let s = l.slots[i];
                let strip = reader.proportions.row_step * l.card_w;
                (s.x + s.w / 2, s.y + (strip / 2.0) as i32)
            }
        };
        self.hands.click_until_change(point)?;
        self.since_deal += 1;
        Ok(())
    }

    /// Undo board, OK in its dialog, and a check that the deal is back.
    fn undo_board(&mut self, deal: &Known) -> Result<(), Stop> {
        if self.since_deal == 0 {
            return Ok(());
        }
        self.hands.watch.log("undo board");
        let frame = self.hands.frame.clone();
        let buttons = find_buttons(&frame, &Edges::new(&frame), &Controls::Toolbar);
        let undo_board = buttons
            .undo_board
            .ok_or_else(|| Stop("cannot find the Undo board button".into()))?;
        self.hands.undo_board(undo_board, dialog_ok_button)?;
        self.since_deal = 0;
        self.expect(deal)
            .map_err(|Stop(d)| Stop(format!("after Undo board the deal is not back: {d}")))?;
        Ok(())
    }
}

/// Plays one TriPeaks deal from the fresh table to the end.
pub fn play<G: World + ?Sized>(
    game: &mut G,
    matcher: Matcher,
    options: Options,
    watch: &mut dyn Watch,
) -> Report {
    let start = game.now_ms();
    let mut report = Report::stopped("");
    let hands = match Hands::start(game, options, watch) {
        Ok(h) => h,
        Err(e) => return Report::stopped(&e),
    };
    let mut player = Player {
        hands,
        reader: None,
        replans: 0,
        since_deal: 0,
    };
    let outcome = run(&mut player, matcher, &mut report, start);
    report.finish(outcome, &player.hands, player.replans);
    report
}

fn run<G: World + ?Sized>(
    p: &mut Player<'_, G>,
    matcher: Matcher,
    report: &mut Report,
    start: u64,
) -> Result<(Outcome, String), Stop> {
    p.hands.settle(false)?;
    let reader = Reader::from_deal(&p.hands.frame, matcher, &Proportions::practice())
        .map_err(|e| Stop(format!("start from a fresh TriPeaks deal: {e}")))?;
    p.reader = Some(reader);

    // 1. The deal.
    let board = p.read()?;
    let mut bottom: [Option<Card>; TABLEAU] = [None; TABLEAU];
    for (i, seen) in board.tableau.iter().enumerate() {
        match (seen, covered_by(i)) {
            (Seen::Back, Some(_)) => {}
            (Seen::Card(c), None) => bottom[i] = Some(*c),
            (Seen::Unsure(_), _) => {
                return Err(Stop(format!(
                    "unsure which card this is: tableau:{i} ({seen})"
                )))
            }
            (seen, _) => {
                return Err(Stop(format!(
                    "start from a fresh deal: tableau:{i} is {seen} (press Undo board)"
                )))
            }
        }
    }
    let waste0 = match &board.waste {
        Seen::Card(c) => *c,
        other => {
            return Err(Stop(format!(
                "start from a fresh deal: the waste is {other}"
            )))
        }
    };
    if !board.stock {
        return Err(Stop("start from a fresh deal: the stock is empty".into()));
    }

    // 2. The stock, drawn out and read card by card.
    p.hands.watch.log("learning the stock");
    let mut stock: Vec<Card> = Vec::new();
    let mut top = waste0;
    loop {
        if stock.len() >= 52 - TABLEAU - 1 {
            return Err(Stop(
                "the stock holds more cards than a deck leaves for it".into(),
            ));
        }
        p.draw()?;
        let board = p.read_until(|b| b.waste != Seen::Card(top))?;
        let card = match &board.waste {
            Seen::Card(c) if *c != top => *c,
            other => {
                return Err(Stop(format!(
                    "after draw {} the waste shows {other}",
                    stock.len() + 1
                )))
            }
        };
        stock.push(card);
        top = card;
        if !board.stock {
            break;
        }
    }
    let deal = Known::at_deal(&bottom, &[], &stock, Some(waste0));
    p.undo_board(&deal)?;

    // 3. The face-down cards, turned up pass after pass.
    let mut learnt: Vec<Option<Card>> = vec![None; TABLEAU];
    let mut first_plan = true;
    loop {
        let before = learnt.iter().flatten().count();
        let mut known = Known::at_deal(&bottom, &learnt, &stock, Some(waste0));
        if known.unseen().is_empty() {
            break;
        }
        p.hands.watch.log(&format!(
            "turning up face-down cards ({} of 18 known)",
            before
        ));
        while let Some(line) = uncover(&known) {
            if !first_plan {
                p.replans += 1;
            }
            first_plan = false;
            for step in line {
                p.step(&known, step)?;
                known.apply(step).map_err(Stop)?;
                let board = p.expect(&known)?;
                let shown = known.unseen_face_up();
                for &i in &shown {
                    match &board.tableau[i] {
                        Seen::Card(c) => {
                            known.learn(i, *c);
                            learnt[i] = Some(*c);
                        }
                        other => {
                            return Err(Stop(format!(
                                "unsure which card this is: tableau:{i} ({other})"
                            )))
                        }
                    }
                }
                if !shown.is_empty() {
                    break;
                }
            }
        }
        let now = learnt.iter().flatten().count();
        if now == before || now == 18 {
            break;
        }
        p.undo_board(&deal)?;
    }
    check_whole_deck(&bottom, &learnt, &stock, waste0)?;
    p.undo_board(&deal)?;
    report.reveal_ms = p.hands.game.now_ms() - start;

    // 4. Solve with every card known, and play.
    let solve_start = p.hands.game.now_ms();
    let mut known = Known::at_deal(&bottom, &learnt, &stock, Some(waste0));
    let solution = solve_known(&known);
    report.solve_ms = p.hands.game.now_ms() - solve_start;
    let Some(plan) = solution.steps else {
        let never = known.unseen().len();
        let why = if never > 0 {
            format!("no solution: {never} face-down cards can never be turned up")
        } else {
            "no solution exists".to_string()
        };
        return Ok((Outcome::NoSolution, why));
    };
    p.hands.watch.log(&format!("solved: {} steps", plan.len()));
    let names: Vec<String> = plan.iter().map(|s| s.to_string()).collect();
    p.hands.watch.plan(&names);
    let play_start = p.hands.game.now_ms();
    for (n, &step) in plan.iter().enumerate() {
        p.step(&known, step)?;
        known.apply(step).map_err(Stop)?;
        p.expect(&known)
            .map_err(|Stop(d)| Stop(format!("after step {} ({step}): {d}", n + 1)))?;
        report.steps += 1;
        p.hands.watch.progress(n + 1);
    }
    report.play_ms = p.hands.game.now_ms() - play_start;
    Ok((
        Outcome::Cleared,
        format!("board cleared in {} steps", plan.len()),
    ))
}

/// The cards read make one deck: a card read twice is a misread somewhere.
fn check_whole_deck(
    bottom: &[Option<Card>],
    learnt: &[Option<Card>],
    stock: &[Card],
    waste: Card,
) -> Result<(), Stop> {
    let mut seen = [false; 52];
    let all = bottom
        .iter()
        .chain(learnt)
        .flatten()
        .chain(stock)
        .chain([&waste]);
    for c in all {
        if std::mem::replace(&mut seen[c.index()], true) {
            return Err(Stop(format!("{c} was read in two places")));
        }
    }
    Ok(())
}

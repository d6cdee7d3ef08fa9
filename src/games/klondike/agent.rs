//! The agent's loop for Klondike, on the shared `agent::hands` (still pictures, confirmed clicks,
//! the user taking over):
//!
//! 1. Read the deal: seven piles, each with its top card face up over its face-down cards, the
//!    stock full, the waste and the foundations empty. The reader learns this table from that
//!    picture.
//! 2. See the cards not yet seen: play the lines `learn::next` gives (each ends where a card not
//!    seen before shows: a face-down card turned up, a stock card turned onto the waste), reading
//!    each card as it shows; where no line from here shows one, Undo back to the latest earlier
//!    position from which one does.
//! 3. With every card seen: Undo board, check the deal is back, solve the deal (the fewest steps,
//!    or the shortest line found with the bound below which none wins), and play the solution.
//!    When no line shows the cards still unseen, the agent stops: they may never show.
//!
//! After every click the board is read and compared with what the rules say it must show; any
//! difference stops play with what was expected and what was read. Nothing is guessed: a card the
//! reader is unsure of stops play, naming its place.

use super::known::{Known, Place};
use super::learn::{next, Next};
use super::rules::Table;
use super::solver::{solve, Budget};
use super::table::game::targets_of;
use super::table::scene::foundation_top;
use super::vision::{Board, Reader};
use super::{Draw, Step, PILES};
use crate::agent::hands::{Hands, Options, Stop, Until};
use crate::agent::io::World;
use crate::agent::report::{Outcome, Report, Watch};
use crate::cards::Card;
use crate::vision::buttons::{dialog_ok_button, find_buttons, Controls};
use crate::vision::edges::Edges;
use crate::vision::recognize::{Matcher, Seen};

struct Player<'g, G: World + ?Sized> {
    hands: Hands<'g, G>,
    /// Made from the deal's picture.
    reader: Option<Reader>,
    replans: usize,
}

/// Whether `seen` is the card `want` of the whole deck: that card, once seen; before, any card
/// not seen yet (one seen already is a picture from before the move, or a misread).
fn shows(seen: &Seen, want: Card, known: &Known) -> bool {
    match seen {
        Seen::Card(c, _) if known.is_seen(want) => *c == want,
        Seen::Card(c, _) => !known.is_seen(*c),
        _ => false,
    }
}

/// How `board` differs from what `table` (a position of `known`'s whole deck) must show: each
/// pile's face-down and face-up cards, the stock holding cards or not, the waste's top and how
/// many of its cards show, each foundation's top. A card not yet seen may read as any card not
/// seen yet.
fn difference(board: &Board, table: &Table, known: &Known) -> Option<String> {
    for (i, (got, want)) in board.piles.iter().zip(&table.piles).enumerate() {
        let up = &want.cards[want.down..];
        if got.down != want.down || got.up.len() != up.len() {
            return Some(format!(
                "pile {} should hold {} face down and {} face up, reads {} and {}",
                i + 1,
                want.down,
                up.len(),
                got.down,
                got.up.len()
            ));
        }
        for (k, (seen, &card)) in got.up.iter().zip(up).enumerate() {
            if !shows(seen, card, known) {
                let want = if known.is_seen(card) {
                    card.to_string()
                } else {
                    "a card not seen before".to_string()
                };
                return Some(format!(
                    "pile {} card {} should be {want}, reads {}",
                    i + 1,
                    got.down + k + 1,
                    name(seen)
                ));
            }
        }
    }
    if board.stock == table.stock.is_empty() {
        let want = if table.stock.is_empty() {
            "empty"
        } else {
            "holding cards"
        };
        return Some(format!("the stock should be {want}"));
    }
    let shown = table.waste.len().min(table.draw.count());
    let waste_ok = match table.waste.last() {
        None => board.waste == Seen::Empty,
        Some(&card) => shows(&board.waste, card, known) && board.waste_shown == shown,
    };
    if !waste_ok {
        let want = table.waste.last().map_or("empty".to_string(), |&c| {
            let card = if known.is_seen(c) {
                c.to_string()
            } else {
                "a card not seen before".to_string()
            };
            format!("{card} with {shown} cards showing")
        });
        return Some(format!(
            "the waste should be {want}, reads {} with {} showing",
            name(&board.waste),
            board.waste_shown
        ));
    }
    for (f, got) in board.foundations.iter().enumerate() {
        let want = foundation_top(table, f);
        let ok = match (want, got) {
            (None, Seen::Empty) => true,
            (Some(card), Seen::Card(c, _)) => card == *c,
            _ => false,
        };
        if !ok {
            let want = want.map_or("empty".to_string(), |c| c.to_string());
            return Some(format!(
                "foundation {} should be {want}, reads {}",
                f + 1,
                name(got)
            ));
        }
    }
    None
}

/// A place as read, for a message.
fn name(seen: &Seen) -> String {
    match seen {
        Seen::Empty => "empty".into(),
        Seen::Card(c, _) => c.to_string(),
        Seen::Unknown(_) => "a card the reader is unsure of".into(),
    }
}

/// Reads the last still picture, showing it with what was read; an unreadable picture is shown
/// bare and its reason returned (not yet reported: see `Hands::unreadable`).
fn read_with<G: World + ?Sized>(reader: &Reader, hands: &mut Hands<G>) -> Result<Board, String> {
    let read = reader.read(&hands.frame);
    let marks = read
        .as_ref()
        .map_or(Vec::new(), |board| board.marks(&reader.layout));
    hands.watch.seen(&hands.frame, &marks);
    if read.is_ok() {
        let l = &reader.layout;
        let area = crate::table::rect::Rect::new(
            l.stock.x,
            l.stock.y,
            l.piles[PILES - 1].right() - l.stock.x,
            l.chrome.status.y - l.stock.y,
        );
        hands.learn_table(area, l.card_w as f32, l.card_h as f32);
    }
    read
}

impl<'g, G: World + ?Sized> Player<'g, G> {
    fn reader(&self) -> &Reader {
        self.reader.as_ref().expect("a reader")
    }

    fn read(&mut self) -> Result<Board, Stop> {
        let reader = self.reader.as_ref().expect("a reader");
        read_with(reader, &mut self.hands).map_err(|why| self.hands.unreadable(&why))
    }

    /// Reads the board until it agrees with `table`, or says how it differs.
    fn expect(&mut self, table: &Table, known: &Known) -> Result<Board, Stop> {
        let reader = self.reader.as_ref().expect("a reader");
        let board = self.hands.read_until(
            |hands| read_with(reader, hands),
            |b| difference(b, table, known).is_none(),
        )?;
        match difference(&board, table, known) {
            None => Ok(board),
            Some(d) => Err(Stop(d)),
        }
    }

    /// Plays `step` in `table` by its clicks: a picking-up click confirmed by its first change
    /// (the highlight), the last by the picture staying still (the move has landed).
    fn step(&mut self, table: &Table, step: Step) -> Result<(), Stop> {
        let targets =
            targets_of(table, step).ok_or_else(|| Stop(format!("no way to click {step}")))?;
        for (i, &target) in targets.iter().enumerate() {
            let point = self
                .reader()
                .layout
                .click_point(target, table)
                .ok_or_else(|| Stop(format!("no place to click for {step}")))?;
            let until = if i + 1 < targets.len() {
                Until::Changed
            } else {
                Until::Still
            };
            self.hands.click_until(point, until)?;
        }
        Ok(())
    }

    /// A toolbar button's place, found in the last still picture.
    fn button(&mut self, undo_board: bool) -> Result<(i32, i32), Stop> {
        let frame = self.hands.frame.clone();
        let buttons = find_buttons(&frame, &Edges::new(&frame), &Controls::Toolbar);
        let (point, what) = if undo_board {
            (buttons.undo_board, "Undo board")
        } else {
            (buttons.undo, "Undo")
        };
        point.ok_or_else(|| Stop(format!("cannot find the {what} button")))
    }

    /// Undoes the last steps of `played` until `keep` are left, each checked on the board (Undo
    /// board, and its OK, when none are to be kept).
    fn undo_to(&mut self, known: &Known, played: &mut Vec<Step>, keep: usize) -> Result<(), Stop> {
        if played.len() == keep {
            return Ok(());
        }
        if keep == 0 {
            self.hands.watch.log("undo board");
            let point = self.button(true)?;
            self.hands.undo_board(point, dialog_ok_button)?;
            played.clear();
            let deal = known.position(&[])?;
            self.expect(&deal, known)
                .map_err(|Stop(d)| Stop(format!("after Undo board the deal is not back: {d}")))?;
            return Ok(());
        }
        self.hands
            .watch
            .log(&format!("undo {} steps", played.len() - keep));
        while played.len() > keep {
            let point = self.button(false)?;
            self.hands.click_until_change(point)?;
            let undone = played.pop().expect("a step to undo");
            let table = known.position(played)?;
            self.expect(&table, known)
                .map_err(|Stop(d)| Stop(format!("after undoing {undone}: {d}")))?;
        }
        Ok(())
    }
}

/// Plays one Klondike deal with `draw` from the fresh table to the end.
pub fn play<G: World + ?Sized>(
    game: &mut G,
    matcher: Matcher,
    draw: Draw,
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
    };
    let outcome = run(&mut player, matcher, draw, &mut report, start);
    report.finish(outcome, &player.hands, player.replans);
    report
}

fn run<G: World + ?Sized>(
    p: &mut Player<'_, G>,
    matcher: Matcher,
    draw: Draw,
    report: &mut Report,
    start: u64,
) -> Result<(Outcome, String), Stop> {
    p.hands.settle(false)?;
    let reader = Reader::from_deal(&p.hands.frame, matcher)
        .map_err(|e| Stop(format!("start from a fresh Klondike deal: {e}")))?;
    p.reader = Some(reader);

    // 1. The deal: the seven top cards.
    let board = p.read()?;
    let mut known = Known::new(draw);
    let mut tops = Vec::new();
    for (i, pile) in board.piles.iter().enumerate() {
        match (pile.down, pile.up.as_slice()) {
            (down, [Seen::Card(c, _)]) if down == i => tops.push((Place::Pile(i), *c)),
            (_, [Seen::Unknown(_)]) => {
                return Err(Stop(format!(
                    "unsure which card this is: pile {} card {}",
                    i + 1,
                    i + 1
                )))
            }
            _ => {
                return Err(Stop(format!(
                    "start from a fresh deal: pile {} should hold {i} cards face down under one \
face up (press Undo board)",
                    i + 1
                )))
            }
        }
    }
    known.learn(&known.position(&[])?, &tops)?;
    let deal = known.position(&[])?;
    if let Some(d) = difference(&board, &deal, &known) {
        return Err(Stop(format!(
            "start from a fresh deal (press Undo board): {d}"
        )));
    }

    // 2. The cards not yet seen, line after line.
    p.hands.watch.log("turning up the cards not yet seen");
    let mut played: Vec<Step> = Vec::new();
    loop {
        let (keep, line) = match next(&known, &played)? {
            Next::Seen | Next::Stuck => break,
            Next::Play { keep, line } => (keep, line),
        };
        if keep < played.len() {
            p.replans += 1;
            p.undo_to(&known, &mut played, keep)?;
        }
        let mut table = known.position(&played)?;
        for step in line {
            p.step(&table, step)?;
            table.play(step)?;
            played.push(step);
            let board = p
                .expect(&table, &known)
                .map_err(|Stop(d)| Stop(format!("after {step}: {d}")))?;
            let places = known.unseen_showing(&table);
            if places.is_empty() {
                continue;
            }
            let mut read = Vec::new();
            for place in places {
                let seen = match place {
                    Place::Pile(i) => board.piles[i].up.last().copied(),
                    Place::Waste => Some(board.waste),
                };
                match seen {
                    Some(Seen::Card(c, _)) => read.push((place, c)),
                    _ => {
                        return Err(Stop(format!(
                            "unsure which card this is: {}",
                            place_name(place)
                        )))
                    }
                }
            }
            known.learn(&table, &read)?;
            let seen: Vec<String> = read.iter().map(|(_, c)| c.to_string()).collect();
            p.hands.watch.log(&format!(
                "seen {} ({} of 52 cards)",
                seen.join(" "),
                known.count()
            ));
            break;
        }
    }
    if !known.is_complete() {
        report.reveal_ms = p.hands.game.now_ms() - start;
        return Ok((
            Outcome::NoSolution,
            format!(
                "gave up: {} cards never showed in any line found from the positions played \
(the deal may be lost)",
                52 - known.count()
            ),
        ));
    }
    p.undo_to(&known, &mut played, 0)?;
    report.reveal_ms = p.hands.game.now_ms() - start;

    // 3. Solve with every card known, and play.
    let solve_start = p.hands.game.now_ms();
    let answer = solve(known.deck(), draw, Budget::default());
    report.solve_ms = p.hands.game.now_ms() - solve_start;
    let plan = match answer.steps {
        Some(plan) => plan,
        None if answer.decided => {
            return Ok((Outcome::NoSolution, "no line wins this deal".into()));
        }
        None => {
            return Err(Stop(
                "the solver could not decide this deal within its budget".into(),
            ))
        }
    };
    let how = if answer.proven {
        "the fewest".to_string()
    } else {
        format!(
            "the shortest line found; none wins in fewer than {}",
            answer.bound
        )
    };
    p.hands
        .watch
        .log(&format!("solved: {} steps ({how})", plan.len()));
    let names: Vec<String> = plan.iter().map(|s| s.to_string()).collect();
    p.hands.watch.plan(&names);
    let play_start = p.hands.game.now_ms();
    let mut table = known.position(&[])?;
    for (n, &step) in plan.iter().enumerate() {
        p.step(&table, step)?;
        table.play(step)?;
        p.expect(&table, &known)
            .map_err(|Stop(d)| Stop(format!("after step {} ({step}): {d}", n + 1)))?;
        report.steps += 1;
        p.hands.watch.progress(n + 1);
    }
    report.play_ms = p.hands.game.now_ms() - play_start;
    if !table.is_won() {
        return Err(Stop("the solution ended without winning".into()));
    }
    Ok((
        Outcome::Cleared,
        format!("won in {} steps ({how})", plan.len()),
    ))
}

/// A place, for a message.
fn place_name(place: Place) -> String {
    match place {
        Place::Pile(i) => format!("the top card of pile {}", i + 1),
        Place::Waste => "the waste's top card".into(),
    }
}

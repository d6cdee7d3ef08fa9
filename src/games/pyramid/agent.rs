//! The agent's loop: read the board, learn the stock by drawing through it, Undo board (and OK) and
//! check the deal is back, solve, then for each step click, wait for a picture showing the move
//! landed (`landed`) or a still one, read and compare with the expected position — retrying
//! dropped clicks, re-planning when the game took another legal move, and stopping with a reason
//! when the board is not what it should be.

use crate::agent::hands::{Hands, Options, Stop, Until};
use crate::agent::io::World;
use crate::agent::report::{Cards, Challenge, DealPlayed, Outcome, Report, Watch};
use crate::cards::{Card, Deck};
use crate::games::pyramid::goal::Goal;
use crate::games::pyramid::hidden_suits::{self, Hidden};
use crate::games::pyramid::known::{
    difference, names, show_learnt, show_seen, Learnt, STOCK_PLACE, WASTE_PLACE,
};
use crate::games::pyramid::landed::Landing;
use crate::games::pyramid::position::PYRAMID_SIZE;
use crate::games::pyramid::score::{tally_of, Tally};
use crate::games::pyramid::solver;
use crate::games::pyramid::state::State;
use crate::games::pyramid::step::Step;
use crate::games::pyramid::table::game::clicks_for;
use crate::games::pyramid::table::layout::Target;
use crate::games::pyramid::vision::board::Board;
use crate::games::pyramid::vision::locate::Located;
use crate::games::pyramid::vision::reader::Reader;
use crate::vision::buttons::Buttons;
use crate::vision::calibrate::{calibrate, cut_corners, templates_showing_suits, StockSeen};
use crate::vision::groups::group;
use crate::vision::recognize::{Matcher, Seen};
use crate::vision::templates::Templates;

struct Agent<'g, G: World + ?Sized> {
    hands: Hands<'g, G>,
    reader: Option<Reader>,
    profile: crate::games::pyramid::vision::profile::Profile,
    replans: usize,
    /// Covered cards taken one way round within their rank (see `hidden_suits`).
    hidden: Hidden,
    /// The board last read from a still picture.
    still: Option<Board>,
    /// How far a card's index lies on the waste at rest from where it lay on the stock
    /// (`Board::index_at`), learnt from a draw whose end the hold found still, with the
    /// picture's size.
    stock_to_waste: Option<((u32, u32), (f32, f32))>,
}

impl<'g, G: World + ?Sized> Agent<'g, G> {
    fn read(&mut self) -> Result<Board, Stop> {
        let reader = self.reader.as_mut().expect("a reader");
        let board =
            read_with(reader, &mut self.hands).map_err(|why| self.hands.unreadable(&why))?;
        self.note_still(&board);
        Ok(board)
    }

    /// Reads the board until `wanted` accepts it (`Hands::read_until`).
    fn read_wanted(&mut self, wanted: impl Fn(&Board) -> bool) -> Result<Board, Stop> {
        let reader = self.reader.as_mut().expect("a reader");
        let board = self
            .hands
            .read_until(|hands| read_with(reader, hands), wanted)?;
        self.note_still(&board);
        Ok(board)
    }

    /// Keeps `board`, just read from the last still picture, for telling when the next move
    /// has landed (see `landed`).
    fn note_still(&mut self, board: &Board) {
        let size = self.hands.frame.dimensions();
        if self.stock_to_waste.is_some_and(|(s, _)| s != size) {
            self.stock_to_waste = None;
        }
        // A card that lay on the stock and now lies on the waste: drawn.
        let drawn = self.still.as_ref().and_then(|last| {
            let card = last.stock_top.card()?;
            (board.waste.card() == Some(card)).then_some(())?;
            let (s, w) = (last.index_at[STOCK_PLACE]?, board.index_at[WASTE_PLACE]?);
            Some((w.0 - s.0, w.1 - s.1))
        });
        if let (Some(apart), true) = (drawn, self.hands.still_by_hold) {
            self.stock_to_waste = Some((size, apart));
        }
        self.still = Some(board.clone());
    }

    fn point(&self, target: Target) -> Result<(i32, i32), Stop> {
        let reader = self
            .reader
            .as_ref()
            .ok_or_else(|| Stop("no reader".into()))?;
        let l = reader
            .located()
            .ok_or_else(|| Stop("the table was not located".into()))?;
        click_point(l, self.profile.row_step, target)
    }

    /// Plays one step by its clicks, each confirmed by a change of the picture: a selecting
    /// click by its first change (a highlight does not animate, so the partner is clicked at
    /// once), the last by the move having landed: the picture staying still, or sooner a
    /// picture that shows the move done (see `landed`), where the board read from it is one
    /// `wanted` accepts.
    fn do_step(
        &mut self,
        state: &State,
        step: Step,
        wanted: &dyn Fn(&Board) -> bool,
    ) -> Result<(), Stop> {
        self.expect_pyramid(state, step);
        let targets = clicks_for(state, step);
        for (i, &target) in targets.iter().enumerate() {
            if target == Target::None {
                return Err(Stop(format!("no way to click {step}")));
            }
            let p = self.point(target)?;
            if i + 1 < targets.len() {
                self.hands.click_until(p, Until::Changed)?;
                continue;
            }
            let landing = match (self.reader.as_ref().and_then(|r| r.located()), &self.still) {
                (Some(l), Some(last)) => {
                    let apart = self.stock_to_waste.map(|(_, at)| at);
                    Landing::new(self.hands.frame.clone(), l, state, step, last, apart)
                }
                _ => None,
            };
            let (Some(landing), Some(reader)) = (landing, self.reader.as_mut()) else {
                self.hands.click_until(p, Until::Still)?;
                continue;
            };
            let mut landed = |frame: &image::RgbaImage, prev: &image::RgbaImage| {
                landing.unchanged_elsewhere(frame, prev)
                    && reader
                        .read(frame)
                        .is_ok_and(|b| wanted(&b) && landing.board_landed(&b))
            };
            self.hands.click_until(p, Until::Landed(&mut landed))?;
        }
        Ok(())
    }

    /// Tells the dialog watch which of the pyramid's cards stay through `step` and which it takes
    /// off (pyramid cards never move, they only leave).
    fn expect_pyramid(&mut self, state: &State, step: Step) {
        let Some(l) = self.reader.as_ref().and_then(|r| r.located()) else {
            return;
        };
        let after = state.after(step).unwrap_or_else(|_| state.clone());
        let (mut staying, mut leaving) = (Vec::new(), Vec::new());
        for i in 0..PYRAMID_SIZE {
            match (state.pyramid[i], after.pyramid[i]) {
                (Some(_), Some(_)) => staying.push(l.slots[i]),
                (Some(_), None) => leaving.push(l.slots[i]),
                _ => {}
            }
        }
        self.hands.expect_cards(staying, leaving);
    }

    /// Presses New deal.
    fn new_deal(&mut self) -> Result<(), Stop> {
        let point = self.toolbar_button(|b| b.new_deal, "New deal")?;
        self.hands.click_until_change(point)
    }

    /// Presses Undo board, and OK in its dialog (`Hands::undo_board`).
    fn undo_board(&mut self) -> Result<(), Stop> {
        let point = self.toolbar_button(|b| b.undo_board, "Undo board")?;
        let reader = self.reader.as_ref().expect("reader");
        self.hands
            .undo_board(point, |frame| reader.buttons(frame).ok)
    }

    /// Where the last still picture shows the toolbar button `pick` takes (`name` in words), once
    /// the dialog watch knows the table as it is before the button changes it.
    fn toolbar_button(
        &mut self,
        pick: fn(&Buttons) -> Option<(i32, i32)>,
        name: &str,
    ) -> Result<(i32, i32), Stop> {
        let buttons = self
            .reader
            .as_ref()
            .expect("reader")
            .buttons(&self.hands.frame);
        let point = pick(&buttons).ok_or_else(|| Stop(format!("cannot find the {name} button")))?;
        self.learn_table();
        Ok(point)
    }

    /// Shows the dialog watch the table as it is before a button opens a dialog or deals again,
    /// when no read taught it yet.
    fn learn_table(&mut self) {
        if let Some(l) = self.reader.as_ref().and_then(|r| r.located()) {
            let (area, w, h) = (l.cards_area(), l.card_w, l.card_h);
            self.hands.learn_table(area, w, h);
        }
    }
}

/// Reads the last still picture, showing it with what was read; an unreadable picture is shown
/// bare and its reason returned (not yet reported: see `Hands::unreadable`).
fn read_with<G: World + ?Sized>(
    reader: &mut Reader,
    hands: &mut Hands<G>,
) -> Result<Board, String> {
    let result = reader.read(&hands.frame);
    let located = reader.located().cloned();
    match result {
        Ok(board) => {
            let marks = located.as_ref().map_or(Vec::new(), |l| board.marks(l));
            hands.watch.seen(&hands.frame, &marks);
            if let Some(l) = &located {
                hands.learn_table(l.cards_area(), l.card_w, l.card_h);
            }
            Ok(board)
        }
        Err(e) => {
            hands.watch.seen(&hands.frame, &[]);
            Err(e.to_string())
        }
    }
}

/// Plays one deal from the fresh table to the end.
pub fn play<'a, G: World + ?Sized>(
    game: &'a mut G,
    profile: crate::games::pyramid::vision::profile::Profile,
    cards: Cards,
    options: Options,
    watch: &'a mut dyn Watch,
) -> Report {
    with_agent(game, profile, options, watch, |agent, report, start| {
        run(agent, cards, report, start)
    })
}

/// Plays a Score or Card challenge (`play --goal`, over up to `deals` deals) from the fresh table.
pub fn play_challenge<'a, G: World + ?Sized>(
    game: &'a mut G,
    profile: crate::games::pyramid::vision::profile::Profile,
    cards: Cards,
    options: Options,
    watch: &'a mut dyn Watch,
    goal: Goal,
    deals: u32,
) -> Report {
    with_agent(game, profile, options, watch, |agent, report, start| {
        run_challenge(agent, cards, report, start, goal, deals)
    })
}

/// Sets the agent's hands on the game from its first picture, runs `body`, and ends the report
/// with how it went.
fn with_agent<'a, G: World + ?Sized>(
    game: &'a mut G,
    profile: crate::games::pyramid::vision::profile::Profile,
    options: Options,
    watch: &'a mut dyn Watch,
    body: impl FnOnce(&mut Agent<'a, G>, &mut Report, u64) -> Result<(Outcome, String), Stop>,
) -> Report {
    let start = game.now_ms();
    let mut report = Report::stopped("");
    let hands = match Hands::start(game, options, watch) {
        Ok(h) => h,
        Err(e) => return Report::stopped(&e),
    };
    let mut agent = Agent {
        hands,
        reader: None,
        profile,
        replans: 0,
        hidden: Vec::new(),
        still: None,
        stock_to_waste: None,
    };
    report.profile = Some(agent.profile.name.clone());
    let outcome = body(&mut agent, &mut report, start);
    report.finish(outcome, &agent.hands, agent.replans);
    report
}

fn run<G: World + ?Sized>(
    agent: &mut Agent<G>,
    cards: Cards,
    report: &mut Report,
    start: u64,
) -> Result<(Outcome, String), Stop> {
    let deal = learn_deal(agent, Some(cards))?;
    report.reveal_ms = agent.hands.game.now_ms() - start;
    // 4. Solve.
    let t = std::time::Instant::now();
    let solution = solver::solve(&deal).map_err(|e| Stop(e.to_string()))?;
    report.solve_ms = t.elapsed().as_millis() as u64;
    let Some(plan) = solution.steps else {
        return Ok((Outcome::NoSolution, "this deal has no solution".into()));
    };
    agent
        .hands
        .watch
        .log(&format!("solved: {} steps", plan.len()));
    // 5. Play, checking every step.
    let play_start = agent.hands.game.now_ms();
    let end = play_plan(agent, deal, plan, report, |state| {
        Ok(solver::solve(state).map_err(|e| Stop(e.to_string()))?.steps)
    })?;
    report.play_ms = agent.hands.game.now_ms() - play_start;
    match end {
        Some(state) if state.is_cleared() => Ok((Outcome::Cleared, "board cleared".into())),
        Some(_) => Err(Stop("the plan ended without clearing the board".into())),
        None => Ok((
            Outcome::NoSolution,
            "no solution from the position reached".into(),
        )),
    }
}

/// Learns the deal on the table (steps 1-3): reads the pyramid, draws through the stock to learn
/// it (calibrating first when `cards` says so; `None` reads with the templates already in use),
/// then Undo board and OK, and checks the deal is back exactly.
fn learn_deal<G: World + ?Sized>(
    agent: &mut Agent<G>,
    cards: Option<Cards>,
) -> Result<State, Stop> {
    agent.hands.settle(false)?;
    agent.hidden.clear();
    // 1-2. The deal and the stock.
    let (pyramid, stock) = match cards {
        Some(Cards::Templates(matcher)) => {
            agent.reader = Some(Reader::new(agent.profile.clone(), matcher));
            learn_by_reading(agent)?
        }
        Some(Cards::CalibrateFrom(deck, save)) => {
            learn_by_calibrating(agent, &deck, save.as_deref())?
        }
        Some(Cards::CalibrateGuided(save)) => learn_by_labelling(agent, save.as_deref())?,
        None => learn_by_reading(agent)?,
    };
    let mut all: Vec<Card> = pyramid.to_vec();
    all.extend(&stock);
    let deck = Deck::from_cards(&all, Vec::new())
        .map_err(|e| Stop(format!("the cards read are not one deck: {e}")))?;
    // 3. Undo board, OK, and the deal must be back exactly.
    agent.hands.watch.log("undo board");
    agent.undo_board()?;
    let deal = State::deal(&deck);
    let hidden = agent.hidden.clone();
    let as_read =
        |b: &Board| hidden_suits::exchanged(&deal, &hidden_suits::exchanges(b, &deal, &hidden));
    let board = agent.read_wanted(|b| difference(b, &as_read(b)).is_none())?;
    let deal = as_read(&board);
    agent.hidden = hidden_suits::seen(&board, &deal, &hidden);
    if let Some(diff) = difference(&board, &deal) {
        return Err(Stop(format!(
            "after Undo board the deal is not back: {diff}"
        )));
    }
    Ok(deal)
}

/// Plays `plan` from `state`, each step clicked, waited for and read back. When the board shows
/// another legal position than the one expected (the user played, or a click landed elsewhere),
/// plans again from there with `replan`. The position reached, or `None` when `replan` finds no
/// plan.
fn play_plan<G: World + ?Sized>(
    agent: &mut Agent<G>,
    mut state: State,
    mut plan: Vec<Step>,
    report: &mut Report,
    replan: impl Fn(&State) -> Result<Option<Vec<Step>>, Stop>,
) -> Result<Option<State>, Stop> {
    agent.hands.watch.plan(&step_names(&plan));
    let mut i = 0;
    while i < plan.len() {
        let step = plan[i];
        let mut expected = state.after(step).map_err(|e| Stop(e.to_string()))?;
        let hidden = agent.hidden.clone();
        let as_read = |b: &Board, s: &State| {
            hidden_suits::exchanged(s, &hidden_suits::exchanges(b, s, &hidden))
        };
        let wanted = |b: &Board| difference(b, &as_read(b, &expected)).is_none();
        agent.do_step(&state, step, &wanted)?;
        let board = agent.read_wanted(wanted)?;
        // A covered card taken one way round within its rank, now seen the other way round:
        // the two cards change places in the position and in the plan.
        let exchanges = hidden_suits::exchanges(&board, &expected, &hidden);
        if !exchanges.is_empty() {
            for (held, read) in &exchanges {
                agent.hands.watch.log(&format!(
                    "{read} is seen where {held} was taken to be: the two change places"
                ));
            }
            expected = hidden_suits::exchanged(&expected, &exchanges);
            state = hidden_suits::exchanged(&state, &exchanges);
            for s in plan.iter_mut() {
                *s = hidden_suits::exchanged_step(*s, &exchanges);
            }
        }
        agent.hidden = hidden_suits::seen(&board, &expected, &hidden);
        match difference(&board, &expected) {
            None => {
                state = expected;
                report.steps += 1;
                i += 1;
                agent.hands.watch.progress(i);
            }
            Some(diff) => {
                // Another legal move happened (the user played, or a click landed elsewhere).
                let other = state
                    .legal_steps()
                    .into_iter()
                    .filter_map(|s| state.after(s).ok())
                    .find(|s| difference(&board, s).is_none());
                let Some(now) =
                    other.or_else(|| difference(&board, &state).is_none().then(|| state.clone()))
                else {
                    return Err(Stop(format!(
                        "after {step} the board is not as expected: {diff}"
                    )));
                };
                agent.hands.watch.log(&format!(
                    "unexpected position after {step} ({diff}); re-planning"
                ));
                agent.replans += 1;
                state = now;
                let Some(new_plan) = replan(&state)? else {
                    return Ok(None);
                };
                plan = new_plan;
                agent.hands.watch.plan(&step_names(&plan));
                i = 0;
            }
        }
    }
    Ok(Some(state))
}

/// Plays a challenge over up to `deals` deals (`play --goal`): on each deal, the fewest steps to
/// what is left of the goal; when this deal cannot get there, the best it allows, then the rest of
/// its passes drawn through to end it, and New deal. Stops as soon as the goal is met.
fn run_challenge<G: World + ?Sized>(
    agent: &mut Agent<G>,
    cards: Cards,
    report: &mut Report,
    start: u64,
    goal: Goal,
    deals: u32,
) -> Result<(Outcome, String), Stop> {
    let mut cards = Some(cards);
    let mut earned = Tally::default();
    let mut challenge = Challenge {
        goal: goal.to_string(),
        deals_allowed: deals,
        deals: Vec::new(),
        total: 0,
        met: false,
    };
    let result = (|| {
        for n in 1..=deals {
            if n > 1 {
                agent.hands.watch.log("new deal");
                agent.new_deal()?;
            }
            let deal = learn_deal(agent, cards.take())?;
            if n == 1 {
                report.reveal_ms = agent.hands.game.now_ms() - start;
            }
            let left = goal.less(&earned);
            let t = std::time::Instant::now();
            let s = solver::solve_goal(&deal, left).map_err(|e| Stop(e.to_string()))?;
            report.solve_ms += t.elapsed().as_millis() as u64;
            let (plan, meets) = match (s.steps, s.best) {
                (Some(steps), _) => (steps, goal != Goal::MaxScore),
                (None, best) => (best.unwrap_or_default(), false),
            };
            agent.hands.watch.log(&format!(
                "deal {n}: {} in {} steps{}",
                left,
                plan.len(),
                if meets {
                    ""
                } else {
                    " (the best this deal allows)"
                }
            ));
            let play_start = agent.hands.game.now_ms();
            let end = play_plan(agent, deal.clone(), plan, report, |state| {
                // From the position reached: what is left once this deal's points so far count.
                let so_far = tally_of(state);
                let left = goal.less(&earned).less(&so_far);
                let s = solver::solve_goal(state, left).map_err(|e| Stop(e.to_string()))?;
                Ok(s.steps.or(s.best))
            })?
            .ok_or_else(|| Stop("no plan from the position reached".into()))?;
            let this = tally_of(&end);
            earned.add(&this);
            challenge.deals.push(DealPlayed {
                points: this.points,
                cards: goal_cards(goal, &this),
                steps: report.steps,
            });
            challenge.total = goal.progress(&earned);
            report.play_ms += agent.hands.game.now_ms() - play_start;
            if goal != Goal::MaxScore && goal.met(&end, &earned) {
                challenge.met = true;
                return Ok((
                    Outcome::GoalMet,
                    format!("{goal} met in {n} deal{}", if n == 1 { "" } else { "s" }),
                ));
            }
            if n < deals {
                // This deal can give no more: draw through what is left of its passes.
                let rest = draw_through(&end);
                if !rest.is_empty() {
                    agent
                        .hands
                        .watch
                        .log("ending the deal: drawing through the passes");
                    play_plan(agent, end, rest, report, |_| Ok(None))?;
                }
            }
        }
        if goal == Goal::MaxScore {
            challenge.met = true;
            return Ok((
                Outcome::GoalMet,
                format!("the highest score played on {deals} deal(s)"),
            ));
        }
        Ok((
            Outcome::GoalNotMet,
            format!(
                "{goal} not met in {deals} deal{}: {} of it",
                if deals == 1 { "" } else { "s" },
                goal.progress(&earned)
            ),
        ))
    })();
    report.challenge = Some(challenge);
    result
}

fn goal_cards(goal: Goal, t: &Tally) -> Option<u32> {
    match goal {
        Goal::Clear { rank, .. } => Some(t.of_value(rank.value())),
        _ => None,
    }
}

/// The draws and recycles that use up a deal's passes from `state`.
fn draw_through(state: &State) -> Vec<Step> {
    let mut s = state.clone();
    let mut steps = Vec::new();
    loop {
        let step = if !s.stock.is_empty() {
            Step::Draw
        } else if s.check(Step::Recycle).is_none() {
            Step::Recycle
        } else {
            return steps;
        };
        s.apply(step).expect("checked");
        steps.push(step);
    }
}

/// Reads the fresh table, then draws 24 times reading each new stock card (on the stock, then on
/// the waste). Cards the reader is unsure of, with candidates, are settled by the full deck once
/// every other card is known: of each one's candidates exactly one must be missing from the rest
/// of the deck. Covered cards of one rank that not even the deck tells apart are taken one way
/// round, which Pyramid's rules cannot tell (see `hidden_suits`); anything else unsure, and the
/// agent stops and names it.
fn learn_by_reading<G: World + ?Sized>(
    agent: &mut Agent<G>,
) -> Result<([Card; 28], Vec<Card>), Stop> {
    let board = agent.read()?;
    let mut pyramid: Vec<Learnt> = Vec::with_capacity(28);
    for (i, &seen) in board.pyramid.iter().enumerate() {
        match (seen, Learnt::of(&board, i, seen)) {
            (Seen::Empty, _) => {
                return Err(Stop(format!(
                    "start from a fresh deal: pyramid:{i} is empty"
                )))
            }
            (_, Some(learnt)) => pyramid.push(learnt),
            (_, None) => return Err(Stop(format!("unsure which card this is: pyramid:{i}"))),
        }
    }
    if board.waste != Seen::Empty {
        return Err(Stop(
            "start from a fresh deal: the waste is not empty (press Undo board)".into(),
        ));
    }
    let Some(mut top) = Learnt::of(&board, STOCK_PLACE, board.stock_top) else {
        return Err(Stop(match board.stock_top {
            Seen::Empty => "start from a fresh deal: the stock is empty".into(),
            _ => "unsure which card this is: stock".into(),
        }));
    };
    agent.hands.watch.log("learning the stock");
    // Clicks only need the pyramid's shape and a card that is no king (see `clicks_for`).
    let shape: [Card; 28] = std::array::from_fn(|i| pyramid[i].best());
    let mut partial = learning_state(&shape);
    let mut stock: Vec<Learnt> = Vec::with_capacity(24);
    for k in 0..24 {
        let on_top = top.best();
        partial.stock = vec![on_top];
        let expected = top.clone();
        let wanted = |b: &Board| expected.agrees(b, WASTE_PLACE, b.waste);
        agent.do_step(&partial, Step::Draw, &wanted)?;
        partial.waste = vec![on_top];
        let board = agent.read_wanted(wanted)?;
        if !top.agrees(&board, WASTE_PLACE, board.waste) {
            return Err(Stop(format!(
                "after draw {} the waste should show {}, reads {}",
                k + 1,
                show_learnt(&top),
                show_seen(board.waste)
            )));
        }
        let on_waste = Learnt::of(&board, WASTE_PLACE, board.waste).expect("it agrees");
        stock.push(
            top.clone()
                .with(on_waste)
                .map_err(|e| Stop(format!("stock card {}: {e}", k + 1)))?,
        );
        match (k, board.stock_top) {
            (23, Seen::Empty) => {}
            (23, other) => {
                return Err(Stop(format!(
                    "the stock should be empty after 24 draws, reads {}",
                    show_seen(other)
                )))
            }
            (_, seen) => {
                top = Learnt::of(&board, STOCK_PLACE, seen).ok_or_else(|| {
                    Stop(format!(
                        "after draw {} the stock's top is {}",
                        k + 1,
                        show_seen(seen)
                    ))
                })?;
            }
        }
    }
    // Settle the unsure cards by the full deck: pyramid places 0..28, stock cards 28..52.
    let all: Vec<&Learnt> = pyramid.iter().chain(&stock).collect();
    let known: Vec<Card> = all
        .iter()
        .filter_map(|l| match l {
            Learnt::Sure(c) => Some(*c),
            Learnt::Unsure(_) => None,
        })
        .collect();
    let unsure: Vec<(usize, Vec<Card>)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match l {
            Learnt::Unsure(c) => Some((i, c.clone())),
            Learnt::Sure(_) => None,
        })
        .collect();
    let name = |i: usize| {
        if i < 28 {
            format!("pyramid:{i}")
        } else {
            format!("stock card {}", i - 27)
        }
    };
    // With nothing unsure, a deck that is not whole is reported by the deal's own check.
    let (settled, hidden) = if unsure.is_empty() {
        Some((Vec::new(), Vec::new()))
    } else {
        hidden_suits::settle(&known, &unsure)
    }
    .ok_or_else(|| {
        Stop(format!(
            "unsure which cards these are, even with the full deck: {}",
            unsure
                .iter()
                .map(|(i, c)| format!("{} ({})", name(*i), names(c)))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })?;
    let mut cards: Vec<Card> = all.iter().map(|l| l.best()).collect();
    let reader = agent.reader.as_mut().expect("a reader");
    for (i, card) in settled {
        cards[i] = card;
        // Not told to the reader: such a place is read again until its suit shows.
        if hidden.iter().any(|g| g.contains(&i)) {
            continue;
        }
        agent
            .hands
            .watch
            .log(&format!("{} is {card}: the only card left", name(i)));
        if i < 28 {
            reader.settle(i, card);
        }
    }
    for group in &hidden {
        let places: Vec<String> = group.iter().map(|&p| name(p)).collect();
        let taken: Vec<String> = group.iter().map(|&p| cards[p].to_string()).collect();
        agent.hands.watch.log(&format!(
            "{}: cards of one rank whose suits do not show, taken as {} (Pyramid looks at \
ranks only; they change places if seen the other way round)",
            places.join(", "),
            taken.join(", ")
        ));
    }
    agent.hidden = hidden;
    let pyramid: [Card; 28] = cards[..28].try_into().expect("28 cards");
    Ok((pyramid, cards[28..].to_vec()))
}

/// Steps as the game writes them, for the watcher.
fn step_names(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.to_string()).collect()
}

/// Draws 24 times without reading, keeping the frames, and makes templates from them.
fn learn_by_calibrating<G: World + ?Sized>(
    agent: &mut Agent<G>,
    deck: &Deck,
    save: Option<&std::path::Path>,
) -> Result<([Card; 28], Vec<Card>), Stop> {
    agent
        .hands
        .watch
        .log("calibrating: drawing through the stock");
    let cards = deck.cards();
    let pyramid: [Card; 28] = cards[..28].try_into().expect("28 cards");
    let mut frames = vec![(*agent.hands.frame).clone()];
    let mut partial = learning_state(&pyramid);
    // Locate first so that clicks have places.
    let e = crate::vision::edges::Edges::new(&agent.hands.frame);
    let located =
        crate::games::pyramid::vision::locate::locate(&agent.hands.frame, &e, &agent.profile, None)
            .map_err(|e| Stop(format!("cannot find the table: {e}")))?;
    for k in 0..24 {
        partial.stock = vec![cards[28 + k]];
        let before = agent.hands.frame.clone();
        draw_at(agent, &partial, &located)?;
        // The card drawn must be on the waste in the picture kept; the labels are checked
        // against the pictures after.
        agent
            .hands
            .settle_until_changed_in(&before, located.waste)?;
        partial.waste = vec![cards[28 + k]];
        frames.push((*agent.hands.frame).clone());
        agent.hands.watch.seen(&agent.hands.frame, &[]);
    }
    let templates = calibrate(&frames, deck, &agent.profile, &set_name(save)).map_err(Stop)?;
    use_templates(agent, templates, save)?;
    Ok((pyramid, cards[28..].to_vec()))
}

/// The name of a template set saved in `save` (or of one kept for this game only).
fn set_name(save: Option<&std::path::Path>) -> String {
    save.and_then(|p| p.file_name())
        .map_or("session".to_string(), |n| n.to_string_lossy().into_owned())
}

/// Saves the templates (when asked) and reads with them from now on.
fn use_templates<G: World + ?Sized>(
    agent: &mut Agent<G>,
    templates: Templates,
    save: Option<&std::path::Path>,
) -> Result<(), Stop> {
    if let Some(dir) = save {
        templates.save(dir).map_err(Stop)?;
        agent
            .hands
            .watch
            .log(&format!("saved the card templates in {}", dir.display()));
    }
    agent.reader = Some(Reader::new(agent.profile.clone(), Matcher::new(&templates)));
    // Make the reader locate the table now.
    let _ = agent.read();
    Ok(())
}

/// Guided calibration: clicks the stock 24 times keeping the frames (a king on the stock is
/// removed by the click instead of drawn; Undo board brings it back), groups the 52 corners seen
/// by rank and suit, and has the watcher label the groups.
fn learn_by_labelling<G: World + ?Sized>(
    agent: &mut Agent<G>,
    save: Option<&std::path::Path>,
) -> Result<([Card; 28], Vec<Card>), Stop> {
    agent
        .hands
        .watch
        .log("calibrating: clicking through the stock to see every card");
    let mut frames = vec![(*agent.hands.frame).clone()];
    let e = crate::vision::edges::Edges::new(&agent.hands.frame);
    let located =
        crate::games::pyramid::vision::locate::locate(&agent.hands.frame, &e, &agent.profile, None)
            .map_err(|e| Stop(format!("cannot find the table: {e}")))?;
    let stock = click_point(&located, agent.profile.row_step, Target::Stock)?;
    for _ in 0..24 {
        agent.hands.click_until_change(stock)?;
        frames.push((*agent.hands.frame).clone());
        agent.hands.watch.seen(&agent.hands.frame, &[]);
    }
    let (corners, profile) =
        cut_corners(&frames, &agent.profile, StockSeen::OnStock).map_err(Stop)?;
    let groups = group(&corners);
    agent
        .hands
        .watch
        .log("calibrating: the cards are grouped; waiting for their 13 ranks and 4 suits");
    let cards = agent.hands.watch.label(&corners, groups).map_err(Stop)?;
    let deck = Deck::from_cards(&cards, Vec::new())
        .map_err(|e| Stop(format!("the labels do not make one deck: {e}")))?;
    let templates =
        templates_showing_suits(&frames, &corners, deck.cards(), &profile, &set_name(save))
            .map_err(Stop)?;
    use_templates(agent, templates, save)?;
    Ok((
        deck.cards()[..28].try_into().expect("28 cards"),
        deck.cards()[28..].to_vec(),
    ))
}

/// A position with the pyramid of the deal and only what the agent knows of stock and waste, for
/// choosing the clicks of a draw.
fn learning_state(pyramid: &[Card; 28]) -> State {
    State {
        pyramid: pyramid.map(Some),
        stock: Vec::new(),
        waste: Vec::new(),
        recycles: 0,
    }
}

fn draw_at<G: World + ?Sized>(
    agent: &mut Agent<G>,
    state: &State,
    located: &Located,
) -> Result<(), Stop> {
    for target in clicks_for(state, Step::Draw) {
        let point = click_point(located, agent.profile.row_step, target)?;
        agent.hands.click_until_change(point)?;
    }
    Ok(())
}

/// Where to click `target` on a located table: the middle of a pyramid card's visible strip, the
/// middle of a pile.
fn click_point(l: &Located, row_step: f32, target: Target) -> Result<(i32, i32), Stop> {
    let centre = |r: crate::table::rect::Rect| (r.x + r.w / 2, r.y + r.h / 2);
    Ok(match target {
        Target::Pyramid(p) => {
            let r = l.slots[p.index()];
            (r.x + r.w / 2, r.y + (row_step * l.card_w / 2.0) as i32)
        }
        Target::Stock => centre(l.stock),
        Target::Waste => centre(l.waste),
        other => return Err(Stop(format!("no place to click for {other:?}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn the_full_deck_settles_an_unsure_card_only_when_one_candidate_is_missing() {
        let all: Vec<Card> = (0..52).map(Card::from_index).collect();
        let without = |gone: &[&str]| -> Vec<Card> {
            let gone: Vec<Card> = gone.iter().map(|s| card(s)).collect();
            all.iter().copied().filter(|c| !gone.contains(c)).collect()
        };
        let settle = hidden_suits::settle;
        // Td is known elsewhere: the unsure card is Th.
        let unsure = vec![(5, vec![card("Th"), card("Td")])];
        assert_eq!(
            settle(&without(&["Th"]), &unsure),
            Some((vec![(5, card("Th"))], vec![]))
        );
        // The missing card is not among the candidates: not settled.
        assert_eq!(settle(&without(&["Ts"]), &unsure), None);
        // Two unsure places, two missing cards, each with one option once the other is placed.
        let two = vec![(3, vec![card("Tc"), card("Ts")]), (7, vec![card("Ts")])];
        assert_eq!(
            settle(&without(&["Tc", "Ts"]), &two),
            Some((vec![(7, card("Ts")), (3, card("Tc"))], vec![]))
        );
        // Two covered places that could each be either ten: taken one way round, and said so
        // (Pyramid looks at ranks only).
        let tie = vec![
            (3, vec![card("Tc"), card("Ts")]),
            (7, vec![card("Ts"), card("Tc")]),
        ];
        assert_eq!(
            settle(&without(&["Tc", "Ts"]), &tie),
            Some((vec![(3, card("Tc")), (7, card("Ts"))], vec![vec![3, 7]]))
        );
        // Never where the rank is in doubt, or for a stock card (seen whole, on the waste too).
        let ranks = vec![
            (3, vec![card("6h"), card("8h")]),
            (7, vec![card("8h"), card("6h")]),
        ];
        assert_eq!(settle(&without(&["6h", "8h"]), &ranks), None);
        let stock = vec![
            (3, vec![card("Tc"), card("Ts")]),
            (30, vec![card("Ts"), card("Tc")]),
        ];
        assert_eq!(settle(&without(&["Tc", "Ts"]), &stock), None);
    }
}

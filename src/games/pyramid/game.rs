//! Pyramid in the games' registry: its solver, rules replay and practice table behind `Game`.

use super::goal::Goal;
use super::score::{tally, Tally};
use super::step::parse_steps;
use super::{solver, State, Step};
use crate::agent::hands::Options;
use crate::agent::io::World;
use crate::agent::report::{Cards, Report, Watch};
use crate::cards::Deck;
use crate::games::pyramid::agent::{play, play_challenge};
use crate::games::pyramid::table::game::PyramidView;
use crate::games::pyramid::table::game::Table;
use crate::games::pyramid::table::scene::{status_line, Scene, Selection};
use crate::games::pyramid::vision::profile::Profile;
use crate::games::{parse_each, Answer, BestLine, Deal, Game, GoalReport, Picture};
use crate::table::chrome::DialogShown;
use crate::table::harness::{deal_label, Faults};
use crate::table::render::Renderer;
use crate::table::window::TableView;
use image::RgbaImage;

/// Pyramid in the registry.
pub struct Pyramid;

impl Game for Pyramid {
    fn name(&self) -> &'static str {
        "pyramid"
    }
    fn deck_layout(&self) -> &'static str {
        "the 28 pyramid cards row by row from the apex, then the 24 stock cards from the top"
    }
    fn solve(&self, deck: &Deck) -> Answer {
        self.solve_goal(deck, "board")
    }
    fn replay(&self, deck: &Deck, steps: &[String]) -> Result<(), String> {
        self.replay_goal(deck, steps, "board")
    }
    fn check_goal(&self, goal: &str) -> Result<(), String> {
        goal.parse::<Goal>().map(|_| ())
    }
    fn solve_goal(&self, deck: &Deck, goal: &str) -> Answer {
        let goal: Goal = goal.parse().expect("a goal checked by check_goal");
        let deal = State::deal(deck);
        let s = solver::solve_goal(&deal, goal).expect("a dealt deck is a valid position");
        // What a line earns, counted by the rules (not the solver).
        let earns = |steps: &[Step]| {
            let (_, t) = tally(&deal, steps).expect("the solver's lines are legal");
            let cards = match goal {
                Goal::Clear { rank, .. } => Some(t.of_value(rank.value())),
                _ => None,
            };
            (t.points, cards)
        };
        let (score, cards) = earns(s.steps.as_deref().unwrap_or(&[]));
        let names = |steps: &[Step]| steps.iter().map(Step::to_string).collect::<Vec<_>>();
        let best = s.best.as_deref().map(|line| {
            let (score, cards) = earns(line);
            BestLine {
                score,
                cards,
                length: line.len(),
                steps: names(line),
            }
        });
        Answer {
            goal: Some(GoalReport {
                goal: goal.to_string(),
                score,
                cards,
                best,
            }),
            steps: s.steps.as_deref().map(names),
            states: s.states,
            peak_bytes: s.peak_bytes,
            millis: s.millis,
        }
    }
    fn replay_goal(&self, deck: &Deck, steps: &[String], goal: &str) -> Result<(), String> {
        let goal: Goal = goal.parse()?;
        let steps = parse_each(steps, |s| s.parse::<Step>())?;
        let (end, earned) = tally(&State::deal(deck), &steps)
            .map_err(|(n, e)| format!("step {n} ({}) is illegal: {e}", e.step))?;
        match goal {
            Goal::Board if !end.is_cleared() => Err("the steps do not clear the pyramid".into()),
            Goal::MaxScore => Ok(()),
            _ if !goal.met(&end, &earned) => Err(format!(
                "the steps do not meet {goal}: they earn {} points, {}",
                earned.points,
                removed_text(&earned)
            )),
            _ => Ok(()),
        }
    }
    fn window_title(&self) -> &'static str {
        crate::games::pyramid::table::TITLE
    }
    fn choose_profile(&self, frame: &RgbaImage) -> Result<Profile, String> {
        Profile::choose(frame, &Profile::candidates())
    }
    fn looks(&self) -> &'static [crate::table::look::Look] {
        &crate::table::look::Look::ALL
    }
    fn table(
        &self,
        deal: Deal,
        renderer: Renderer,
        scale: f32,
        animation_ms: u64,
        faults: Faults,
    ) -> Box<dyn TableView> {
        let table = Table::new(deal.source, deal.deck, animation_ms, faults);
        Box::new(PyramidView::new(table, renderer, scale))
    }
    fn render(&self, renderer: &mut Renderer, picture: &Picture) -> Result<RgbaImage, String> {
        let state = position_after(&picture.deal.deck, picture.after)?;
        let taken = parse_steps(picture.after)?.len();
        let selected = match picture.select {
            Some(text) => {
                let sel = Selection::parse(text)?;
                let present = match sel {
                    Selection::Pyramid(p) => state.pyramid[p.index()].is_some(),
                    Selection::Waste => state.waste_top().is_some(),
                };
                if !present {
                    return Err(format!("--select {text}: there is no card there"));
                }
                Some(sel)
            }
            None => None,
        };
        let label = deal_label(&picture.deal.source);
        let mut scene = Scene::still(&state, selected, status_line(&label, &state, taken));
        if picture.dialog {
            scene.dialog = DialogShown::Open;
        }
        scene.interruption = picture.interruption;
        let layout = renderer.layout(picture.size.0, picture.size.1, picture.scale);
        Ok(renderer.render(&scene, &layout))
    }
    fn play(
        &self,
        world: &mut dyn World,
        cards: Cards,
        profile: Profile,
        watch: &mut dyn Watch,
    ) -> Report {
        play(world, profile, cards, Options::default(), watch)
    }
    fn play_challenge(
        &self,
        world: &mut dyn World,
        cards: Cards,
        profile: Profile,
        watch: &mut dyn Watch,
        goal: &str,
        deals: u32,
    ) -> Report {
        match goal.parse::<Goal>() {
            Ok(Goal::Board) if deals == 1 => self.play(world, cards, profile, watch),
            Ok(goal) => play_challenge(
                world,
                profile,
                cards,
                Options::default(),
                watch,
                goal,
                deals,
            ),
            Err(e) => Report::stopped(&e),
        }
    }
}

/// The position after `steps` (comma separated) from the deal, or the first illegal step.
pub fn position_after(deck: &Deck, steps: &str) -> Result<State, String> {
    let mut state = State::deal(deck);
    for (i, step) in parse_steps(steps)?.into_iter().enumerate() {
        state
            .apply(step)
            .map_err(|e| format!("--after: step {} ({step}) is illegal: {}", i + 1, e.why))?;
    }
    Ok(state)
}

/// The cards a tally removed, by rank, as text: `2 A, 1 K`.
fn removed_text(t: &Tally) -> String {
    let parts: Vec<String> = crate::cards::Rank::all()
        .filter(|r| t.of_value(r.value()) > 0)
        .map(|r| format!("{} {}", t.of_value(r.value()), r.char()))
        .collect();
    if parts.is_empty() {
        "no cards removed".into()
    } else {
        format!("removed {}", parts.join(", "))
    }
}

//! Pyramid in the games' registry: its solver, rules replay and practice table behind `Game`.

use super::step::parse_steps;
use super::{solver, State, Step};
use crate::agent::hands::Options;
use crate::agent::io::World;
use crate::agent::report::{Cards, Report, Watch};
use crate::cards::Deck;
use crate::games::pyramid::agent::play;
use crate::games::pyramid::table::game::PyramidView;
use crate::games::pyramid::table::game::Table;
use crate::games::pyramid::table::scene::{status_line, Scene, Selection};
use crate::games::pyramid::vision::profile::Profile;
use crate::games::{parse_each, Answer, Deal, Game, Picture};
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
        let s = solver::solve(&State::deal(deck)).expect("a dealt deck is a valid position");
        Answer {
            steps: s.steps.map(|v| v.iter().map(Step::to_string).collect()),
            states: s.states,
            peak_bytes: s.peak_bytes,
            millis: s.millis,
        }
    }
    fn replay(&self, deck: &Deck, steps: &[String]) -> Result<(), String> {
        let steps = parse_each(steps, |s| s.parse::<Step>())?;
        let mut state = State::deal(deck);
        for (n, &step) in steps.iter().enumerate() {
            state
                .apply(step)
                .map_err(|e| format!("step {} ({step}) is illegal: {e}", n + 1))?;
        }
        if state.is_cleared() {
            Ok(())
        } else {
            Err("the steps do not clear the pyramid".into())
        }
    }
    fn window_title(&self) -> &'static str {
        crate::games::pyramid::table::TITLE
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
        scene.dialog = picture.dialog;
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

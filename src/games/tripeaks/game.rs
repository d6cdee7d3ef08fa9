//! TriPeaks in the games' registry: its solver, rules replay and practice table behind `Game`.

use super::agent;
use super::step::parse_steps;
use super::table::scene::{status_line, Scene};
use super::table::{self, game::Table, game::View, layout::Layout, scene::render};
use super::{solver, State, Step};
use crate::agent::hands::Options;
use crate::agent::io::World;
use crate::agent::report::{Cards, Report, Watch};
use crate::cards::Deck;
use crate::games::pyramid::vision::profile::Profile;
use crate::games::{parse_each, Answer, Deal, Game, Picture};
use crate::table::chrome::DialogShown;
use crate::table::harness::{deal_label, Faults};
use crate::table::render::Renderer;
use crate::table::window::TableView;
use image::RgbaImage;

/// TriPeaks in the registry.
pub struct TriPeaks;

impl Game for TriPeaks {
    fn name(&self) -> &'static str {
        "tripeaks"
    }
    fn deck_layout(&self) -> &'static str {
        "the 28 tableau cards row by row from the peak tops (3, 6, 9, 10), the waste's first card, \
then the 23 stock cards from the top"
    }
    fn solve(&self, deck: &Deck) -> Answer {
        let s = solver::solve(&State::deal(deck));
        Answer {
            goal: None,
            steps: s.steps.map(|v| v.iter().map(Step::to_string).collect()),
            states: s.states,
            peak_bytes: s.peak_bytes,
            millis: s.millis,
        }
    }
    fn replay(&self, deck: &Deck, steps: &[String]) -> Result<(), String> {
        let steps = parse_each(steps, |s| s.parse::<Step>())?;
        let mut state = State::deal(deck);
        state.replay(&steps)?;
        if state.is_cleared() {
            Ok(())
        } else {
            let left = state.tableau().iter().flatten().count();
            Err(format!("the steps end with {left} tableau cards left"))
        }
    }
    fn window_title(&self) -> &'static str {
        table::TITLE
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
        Box::new(View::new(table, renderer, scale))
    }
    fn render(&self, renderer: &mut Renderer, picture: &Picture) -> Result<RgbaImage, String> {
        if let Some(text) = picture.select {
            return Err(format!(
                "--select {text}: TriPeaks has no selection (a click plays a card at once)"
            ));
        }
        let steps = parse_steps(picture.after)?;
        let mut state = State::deal(&picture.deal.deck);
        state.replay(&steps).map_err(|e| format!("--after: {e}"))?;
        let label = deal_label(&picture.deal.source);
        let mut scene = Scene::still(&state, status_line(&label, &state, steps.len()));
        if picture.dialog {
            scene.dialog = DialogShown::Open;
        }
        scene.interruption = picture.interruption;
        let aspect = renderer.theme().aspect();
        let layout = Layout::new(picture.size.0, picture.size.1, picture.scale, aspect);
        Ok(render(renderer, &scene, &layout))
    }
    fn calibrates(&self) -> bool {
        false
    }
    fn play(
        &self,
        world: &mut dyn World,
        cards: Cards,
        _profile: Profile,
        watch: &mut dyn Watch,
    ) -> Report {
        match cards {
            Cards::Templates(matcher) => agent::play(world, matcher, Options::default(), watch),
            // Calibration reads Pyramid's table; TriPeaks' cards are the same pictures.
            Cards::CalibrateFrom(..) | Cards::CalibrateGuided(..) => Report::stopped(
                "TriPeaks plays with a template set made on Pyramid's table (the same card art): \
calibrate there, then give --templates NAME",
            ),
        }
    }
}

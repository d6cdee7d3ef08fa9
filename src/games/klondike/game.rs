//! Klondike in the games' registry, for its practice table (`table --game klondike`, `render
//! --game klondike`): its solver, rules replay and table behind `Game`. `solve`, `deal` and
//! `bench` have their own commands (`cli::klondike`), with Klondike's draw and budgets. `play`
//! runs the agent (`agent.rs`) with a template set; the panel offers both draws as variants.

use super::rules::Table as Position;
use super::solver::{self, Budget};
use super::table::scene::{status_line, Scene, Selection};
use super::table::{self, game::Table, game::View, layout::Layout, scene::render};
use super::{rules, Draw, KlondikeDeck, Step};
use crate::agent::hands::Options;
use crate::agent::io::World;
use crate::agent::report::{Cards, Report, Watch};
use crate::cards::{Card, Deck};
use crate::games::pyramid::vision::profile::Profile;
use crate::games::{parse_step_list, Answer, Deal, Game, Picture};
use crate::table::chrome::DialogShown;
use crate::table::harness::{deal_label, Faults};
use crate::table::render::Renderer;
use crate::table::window::TableView;
use image::RgbaImage;

/// Klondike with one draw.
pub struct Klondike {
    pub draw: Draw,
}

/// Klondike, Draw 1 (the table's default).
pub static DRAW_ONE: Klondike = Klondike { draw: Draw::One };
/// Klondike, Draw 3.
pub static DRAW_THREE: Klondike = Klondike { draw: Draw::Three };
/// Both draws, as the panel offers them.
static DRAWS: [&dyn Game; 2] = [&DRAW_ONE, &DRAW_THREE];

impl Klondike {
    pub fn with_draw(draw: Draw) -> &'static Klondike {
        match draw {
            Draw::One => &DRAW_ONE,
            Draw::Three => &DRAW_THREE,
        }
    }
}

impl Game for Klondike {
    fn name(&self) -> &'static str {
        "klondike"
    }
    fn deck_layout(&self) -> &'static str {
        "the 28 pile cards, pile 1 to 7 each from its bottom card up, then the 24 stock cards from \
the top"
    }
    fn solve(&self, deck: &Deck) -> Answer {
        let a = solver::solve(&KlondikeDeck(deck.clone()), self.draw, Budget::default());
        Answer {
            goal: None,
            steps: a.steps.map(|v| v.iter().map(Step::to_string).collect()),
            states: a.states,
            peak_bytes: a.peak_bytes,
            millis: a.millis,
        }
    }
    fn replay(&self, deck: &Deck, steps: &[String]) -> Result<(), String> {
        rules::replay(&KlondikeDeck(deck.clone()), self.draw, steps)
    }
    fn window_title(&self) -> &'static str {
        table::TITLE
    }
    fn variants(&self) -> &'static [&'static dyn Game] {
        &DRAWS
    }
    fn variant(&self) -> &'static str {
        match self.draw {
            Draw::One => "Draw 1",
            Draw::Three => "Draw 3",
        }
    }
    fn table_args(&self) -> &'static [&'static str] {
        match self.draw {
            Draw::One => &["--draw", "1"],
            Draw::Three => &["--draw", "3"],
        }
    }
    fn calibrates(&self) -> bool {
        false
    }
    fn table(
        &self,
        deal: Deal,
        renderer: Renderer,
        scale: f32,
        animation_ms: u64,
        faults: Faults,
    ) -> Box<dyn TableView> {
        let table = Table::new(deal.source, deal.deck, self.draw, animation_ms, faults);
        Box::new(View::new(table, renderer, scale))
    }
    fn render(&self, renderer: &mut Renderer, picture: &Picture) -> Result<RgbaImage, String> {
        let steps = parse_step_list::<Step>(picture.after)?;
        let mut position = Position::deal(&KlondikeDeck(picture.deal.deck.clone()), self.draw);
        for (i, step) in steps.iter().enumerate() {
            position
                .play(*step)
                .map_err(|e| format!("--after: step {} ({step}): {e}", i + 1))?;
        }
        let label = deal_label(&picture.deal.source);
        let mut scene = Scene::still(&position, status_line(&label, &position, steps.len()));
        if let Some(text) = picture.select {
            scene.selection = Some(selection_of(&position, text)?);
        }
        if picture.dialog {
            scene.dialog = DialogShown::Open;
        }
        scene.interruption = picture.interruption;
        let aspect = renderer.theme().aspect();
        let layout = Layout::new(picture.size.0, picture.size.1, picture.scale, aspect);
        Ok(render(renderer, &scene, &layout))
    }
    fn play(
        &self,
        world: &mut dyn World,
        cards: Cards,
        _profile: Profile,
        watch: &mut dyn Watch,
    ) -> Report {
        match cards {
            Cards::Templates(matcher) => {
                super::agent::play(world, matcher, self.draw, Options::default(), watch)
            }
            // Calibration reads Pyramid's table; Klondike's cards are the same pictures.
            Cards::CalibrateFrom(..) | Cards::CalibrateGuided(..) => Report::stopped(
                "Klondike plays with a template set made on Pyramid's table (the same card art): \
calibrate there, then give --templates NAME",
            ),
        }
    }
}

/// `--select CARD`: the face-up card picked up, with the cards on it (a card on the waste's or a
/// foundation's top, or face up in a pile).
fn selection_of(position: &Position, text: &str) -> Result<Selection, String> {
    let card: Card = text
        .parse()
        .map_err(|_| format!("--select {text}: not a card (write it like 7h)"))?;
    if position.waste.last() == Some(&card) {
        return Ok(Selection::Waste);
    }
    if super::table::scene::foundation_top(position, card.suit.index()) == Some(card) {
        return Ok(Selection::Foundation(card.suit.index() as u8));
    }
    for (i, pile) in position.piles.iter().enumerate() {
        if let Some(k) = pile.cards.iter().position(|&c| c == card) {
            if k >= pile.down {
                return Ok(Selection::Pile {
                    pile: i as u8,
                    from: k as u8,
                });
            }
        }
    }
    Err(format!(
        "--select {text}: {card} is not face up on the waste's top, a foundation's top or a pile"
    ))
}

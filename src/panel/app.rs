//! The control panel (eframe): pick the game window (or open the practice table beside the panel),
//! choose how the cards are learned (guided calibration shows the grouped cards to label),
//! Play / Pause / Stop, and watch the live capture with what was
//! read on each card, the plan and its progress, the timings and the log. The agent runs on its own
//! thread; the panel only draws `Shared` and flips `Switches`.

use crate::agent::desktop::DesktopGame;
use crate::agent::journal::play_logged;
use crate::agent::report::{Cards, Report, Watch};
use crate::cards::{Deck, Rank, Suit};
use crate::data::sets::{self, SetInfo};
use crate::data::settings::Settings;
use crate::games::pyramid::vision::accuracy::calibrate_rendered_at;
use crate::games::pyramid::vision::profile::Profile;
use crate::games::{self, profile_for, Game, GAMES};
use crate::panel::shared::{PanelWatch, Shared, Switches};
use crate::platform::window;
use crate::table::look::Look;
use crate::table::theme::Theme;
use crate::vision::recognize::Matcher;
use crate::vision::templates::{Templates, TEMPLATE_H, TEMPLATE_W};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// How the agent learns the card pictures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Learn {
    /// Guided: the agent draws through the stock, groups the cards, and the user labels 13 ranks
    /// and 4 suits.
    Guided,
    /// The practice table the panel opened: its deal is known.
    OpenedTable,
    /// A deck file with the cards of the deal on screen.
    DeckFile,
    /// A template set made earlier.
    TemplateSet,
}

impl Learn {
    /// The name kept in the settings (the table opened is not remembered: it is gone next time).
    fn name(self) -> &'static str {
        match self {
            Learn::Guided | Learn::OpenedTable => "guided",
            Learn::DeckFile => "deck-file",
            Learn::TemplateSet => "template-set",
        }
    }

    fn of_name(name: &str) -> Learn {
        match name {
            "deck-file" => Learn::DeckFile,
            "template-set" => Learn::TemplateSet,
            _ => Learn::Guided,
        }
    }
}

pub struct PanelApp {
    /// The game played (the practice table opened is this game's).
    game: &'static dyn Game,
    titles: Vec<String>,
    title: String,
    table_seed: u64,
    opened_seed: Option<u64>,
    learn: Learn,
    deck_file: String,
    template_set: String,
    /// The template sets found by name (saved, then shipped).
    sets: Vec<SetInfo>,
    /// The settings as last saved, and since when (seconds of the panel's clock) they differ
    /// from the choices shown.
    saved: Settings,
    changed_at: Option<f64>,
    /// Whether a game was being played at the last frame (the sets are listed again after one).
    was_running: bool,
    /// When calibrating: save the new set under this name in the data folder (none when empty).
    save_as: String,
    profile: String,
    /// The challenge: its goal as `play --goal` takes it, and the deals it may take.
    goal: String,
    deals: u32,
    shared: Arc<Mutex<Shared>>,
    switches: Arc<Switches>,
    texture: Option<(u64, egui::TextureHandle)>,
    /// Guided calibration: one texture per corner, while labelling.
    corner_textures: Option<Vec<egui::TextureHandle>>,
    message: String,
    /// Open the practice table at the next frame (`panel --open-table`).
    open_table_pending: bool,
}

impl PanelApp {
    /// The panel with the choices remembered from the last run.
    pub fn new() -> PanelApp {
        let (saved, problem) = match crate::data::settings_file() {
            Ok(file) => Settings::load(&file),
            Err(e) => (Settings::default(), Some(e)),
        };
        let game = GAMES
            .iter()
            .copied()
            .find(|g| g.name() == saved.game)
            .unwrap_or(GAMES[0]);
        let game = game
            .variants()
            .iter()
            .copied()
            .find(|v| v.variant() == saved.variant)
            .unwrap_or(game);
        let mut app = PanelApp {
            game,
            titles: Vec::new(),
            title: String::new(),
            table_seed: saved.table_seed.max(1),
            opened_seed: None,
            learn: Learn::of_name(&saved.learn),
            deck_file: saved.deck_file.clone(),
            template_set: saved.template_set.clone(),
            sets: sets::list(),
            save_as: saved.save_as.clone(),
            profile: saved.profile.clone(),
            goal: saved.goal.clone(),
            deals: saved.deals.max(1),
            saved,
            changed_at: None,
            was_running: false,
            shared: Arc::new(Mutex::new(Shared::default())),
            switches: Arc::new(Switches::default()),
            texture: None,
            corner_textures: None,
            message: problem.unwrap_or_default(),
            open_table_pending: false,
        };
        app.refresh_titles();
        let last = app.saved.window.clone();
        if app.title != last && app.titles.contains(&last) {
            app.choose_window(&last);
        }
        app
    }

    /// The choices as the settings keep them.
    fn settings(&self) -> Settings {
        Settings {
            game: self.game.name().to_string(),
            variant: self.game.variant().to_string(),
            window: self.title.clone(),
            learn: self.learn.name().to_string(),
            deck_file: self.deck_file.clone(),
            template_set: self.template_set.clone(),
            save_as: self.save_as.clone(),
            profile: self.profile.clone(),
            goal: self.goal.clone(),
            deals: self.deals,
            table_seed: self.table_seed,
        }
    }

    /// Saves the choices once they have stayed changed for a moment (not at every key typed).
    fn remember(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        let current = self.settings();
        if current == self.saved {
            self.changed_at = None;
            return;
        }
        let since = *self.changed_at.get_or_insert(now);
        if now - since < 1.0 {
            ctx.request_repaint_after(std::time::Duration::from_millis(1100));
            return;
        }
        let saved = crate::data::settings_file().and_then(|file| current.save(&file));
        if let Err(e) = saved {
            self.message = format!("the panel's choices are not remembered: {e}");
        }
        self.saved = current;
        self.changed_at = None;
    }

    fn refresh_titles(&mut self) {
        match window::titles() {
            Ok(mut t) => {
                t.retain(|s| !s.is_empty() && s != super::TITLE);
                t.sort();
                t.dedup();
                if let Some(game) = games::window_titles().find(|g| t.iter().any(|s| s == g)) {
                    if self.title.is_empty() {
                        self.choose_window(game);
                    }
                }
                self.titles = t;
            }
            Err(e) => self.message = e,
        }
    }

    /// The game to play (and whose practice table to open).
    pub fn choose_game(&mut self, game: &'static dyn Game) {
        self.game = game;
    }

    /// Plays in the window titled `title`: a practice table says its game and layout; any other
    /// window is taken for MSC.
    fn choose_window(&mut self, title: &str) {
        self.title = title.to_string();
        // The variant chosen stays: a table's title does not say it (Klondike's draw).
        if self.game.window_title() != title {
            if let Some(game) = GAMES.iter().find(|g| g.window_title() == title) {
                self.game = *game;
            }
        }
        // A practice table may be in either look: the profile is found from its picture.
        self.profile = "auto".into();
    }

    /// Whether a known game window is open.
    pub fn has_game_window(&self) -> bool {
        games::window_titles().any(|g| self.titles.iter().any(|t| t == g))
    }

    /// Opens the practice table when the panel shows its first frame.
    pub fn open_table_soon(&mut self) {
        self.open_table_pending = true;
    }

    /// Opens the practice table with the chosen deal beside the panel (the panel moves to make
    /// room when the screen's size is known); its cards are then known for calibration.
    pub fn open_table(&mut self, ctx: &egui::Context) {
        let exe = std::env::current_exe().unwrap_or_else(|_| "solitaire-agent".into());
        let mut command = std::process::Command::new(exe);
        command.args(["table", "--game", self.game.name()]);
        command.args(self.game.table_args());
        command.args(["--seed", &self.table_seed.to_string()]);
        if let Some(screen) = ctx.input(|i| i.viewport().monitor_size) {
            let (table, panel) = super::arrange::side_by_side(screen.x, screen.y);
            command.args([
                "--size",
                &format!("{}x{}", table.w as u32, table.h as u32),
                "--position",
                &format!("{},{}", table.x as i32, table.y as i32),
            ]);
            ctx.send_viewport_cmd(egui::ViewportCommand::OuterPosition(egui::pos2(
                panel.x, panel.y,
            )));
            ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(egui::vec2(
                panel.w, panel.h,
            )));
        }
        match command.spawn() {
            Ok(_) => {
                self.opened_seed = Some(self.table_seed);
                let title = self.game.window_title();
                if !self.titles.iter().any(|t| t == title) {
                    self.titles.push(title.into());
                }
                self.learn = Learn::OpenedTable;
                self.choose_window(title);
                self.message = format!("opened the practice table with deal {}", self.table_seed);
            }
            Err(e) => self.message = format!("cannot open the practice table: {e}"),
        }
    }

    /// The cards as the agent learns them; `None`: from the card art of the practice table the
    /// panel opened, made on the agent's thread (a game that plays with a template set only).
    fn cards(&self) -> Result<Option<Cards>, String> {
        let save =
            (!self.save_as.trim().is_empty()).then(|| Templates::save_path(self.save_as.trim()));
        let calibrates = self.game.calibrates();
        match self.learn {
            Learn::TemplateSet => {
                let t = Templates::load(&self.template_set)?;
                Ok(Some(Cards::Templates(Matcher::new(&t))))
            }
            Learn::OpenedTable if !calibrates => {
                self.opened_seed.ok_or("open the practice table first")?;
                Ok(None)
            }
            _ if !calibrates => Err(format!(
                "{} plays with a template set: calibrate on the Pyramid table (the same card art) \
and save the set, then choose it here; or open the practice table from here",
                self.game.name()
            )),
            Learn::Guided => Ok(Some(Cards::CalibrateGuided(save))),
            Learn::OpenedTable => {
                let seed = self.opened_seed.ok_or("open the practice table first")?;
                Ok(Some(Cards::CalibrateFrom(Deck::shuffled(seed), save)))
            }
            Learn::DeckFile => {
                let text = std::fs::read_to_string(&self.deck_file)
                    .map_err(|e| format!("{}: {e}", self.deck_file))?;
                let deck = Deck::parse(&text).map_err(|e| format!("{}: {e}", self.deck_file))?;
                Ok(Some(Cards::CalibrateFrom(deck, save)))
            }
        }
    }

    fn start(&mut self, ctx: &egui::Context) {
        let cards = match self.cards() {
            Ok(c) => c,
            Err(e) => return self.message = e,
        };
        let profile = self.profile.clone();
        if profile != "auto" {
            if let Err(e) = Profile::load(&profile) {
                return self.message = e;
            }
        }
        if let Err(e) = self.game.check_goal(&self.goal) {
            return self.message = e;
        }
        let (goal, deals) = (self.goal.trim().to_string(), self.deals.max(1));
        let title = self.title.clone();
        let game = self.game;
        self.switches.stop.store(false, Ordering::Relaxed);
        self.switches.pause.store(false, Ordering::Relaxed);
        {
            let mut s = self.shared.lock().expect("shared");
            *s = Shared::default();
            s.running = true;
        }
        let shared = self.shared.clone();
        let switches = self.switches.clone();
        let wake_ctx = ctx.clone();
        let done_ctx = ctx.clone();
        std::thread::spawn(move || {
            // However the agent's thread ends (even by a bug), the panel learns it at once.
            let _finished = Finished {
                shared: shared.clone(),
                ctx: done_ctx,
            };
            let mut watch = PanelWatch {
                shared: shared.clone(),
                switches,
                wake: Box::new(move || wake_ctx.request_repaint()),
            };
            let (report, log) = match DesktopGame::open(&title) {
                Ok(mut world) => {
                    let heading = format!(
                        "{} from the panel in the window \"{title}\"; goal {goal}, {deals} deals",
                        game.name()
                    );
                    play_logged(&heading, &mut watch, |watch| {
                        let cards = match cards.map_or_else(|| table_art(game, watch), Ok) {
                            Ok(cards) => cards,
                            Err(e) => return Report::stopped(&e),
                        };
                        match profile_for(game, &profile, &mut world) {
                            Ok(profile) => {
                                watch.log(&format!("layout profile: {}", profile.name));
                                game.play_challenge(&mut world, cards, profile, watch, &goal, deals)
                            }
                            Err(e) => Report::stopped(&e),
                        }
                    })
                }
                Err(e) => {
                    if let Ok(mut s) = shared.lock() {
                        s.log.push(e);
                    }
                    return;
                }
            };
            if let Ok(mut s) = shared.lock() {
                s.log
                    .push(format!("{:?}: {}", report.result, report.reason));
                s.report = Some(report);
                s.game_log = log;
            }
        });
    }

    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.heading("solitaire-agent");
        ui.label("Plays Board, Score and Card challenges by itself.");
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Game");
            for game in GAMES {
                let chosen = self.game.name() == game.name();
                if ui.selectable_label(chosen, game.name()).clicked() && !chosen {
                    self.game = game;
                }
            }
            for &variant in self.game.variants() {
                let chosen = self.game.variant() == variant.variant();
                if ui.selectable_label(chosen, variant.variant()).clicked() {
                    self.game = variant;
                }
            }
        });
        ui.label("Game window");
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("window")
                .selected_text(if self.title.is_empty() {
                    "(none)"
                } else {
                    &self.title
                })
                .show_ui(ui, |ui| {
                    for t in self.titles.clone() {
                        ui.selectable_value(&mut self.title, t.clone(), t);
                    }
                });
            if ui.button("Refresh").clicked() {
                self.refresh_titles();
            }
        });
        if !self.has_game_window() {
            ui.label("No Solitaire window found.");
        }
        ui.horizontal(|ui| {
            if ui.button("Open the practice table").clicked() {
                let ctx = ui.ctx().clone();
                self.open_table(&ctx);
            }
            ui.label("deal");
            ui.add(egui::DragValue::new(&mut self.table_seed).range(1..=u64::MAX / 2));
        });
        ui.horizontal(|ui| {
            ui.label("Layout");
            ui.selectable_value(&mut self.profile, "auto".to_string(), "auto");
            ui.selectable_value(
                &mut self.profile,
                "practice-table".to_string(),
                "practice table",
            );
            ui.selectable_value(&mut self.profile, "msc".to_string(), "MSC");
        });
        ui.separator();
        ui.label("Cards");
        if self.game.calibrates() {
            ui.radio_value(
                &mut self.learn,
                Learn::Guided,
                "calibrate from this deal: I label the cards (13 ranks, 4 suits)",
            );
            if self.opened_seed.is_some() {
                ui.radio_value(
                    &mut self.learn,
                    Learn::OpenedTable,
                    "calibrate from the table I opened",
                );
            }
            ui.radio_value(
                &mut self.learn,
                Learn::DeckFile,
                "calibrate from this deal, cards in a deck file:",
            );
            ui.text_edit_singleline(&mut self.deck_file);
            if self.learn != Learn::TemplateSet {
                ui.horizontal(|ui| {
                    ui.label("save the new set as");
                    ui.text_edit_singleline(&mut self.save_as);
                });
            }
        } else {
            ui.label(format!(
                "{} plays with a template set made on the Pyramid table (the same card art)",
                self.game.name()
            ));
            if self.opened_seed.is_some() {
                ui.radio_value(
                    &mut self.learn,
                    Learn::OpenedTable,
                    "the cards of the table I opened (the built-in card art)",
                );
            }
        }
        ui.radio_value(&mut self.learn, Learn::TemplateSet, "use a template set:");
        self.set_picker(ui);
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Goal").on_hover_text(
                "board (clear the deal), score:N, max-score or clear:R:N (e.g. clear:A:4)",
            );
            ui.add(egui::TextEdit::singleline(&mut self.goal).desired_width(90.0));
            ui.label("in at most");
            ui.add(egui::DragValue::new(&mut self.deals).range(1..=20));
            ui.label("deals");
        });
        let running = self.shared.lock().map(|s| s.running).unwrap_or(false);
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    !running && !self.title.is_empty(),
                    egui::Button::new("Play"),
                )
                .clicked()
            {
                let ctx = ui.ctx().clone();
                self.start(&ctx);
            }
            let paused = self.switches.pause.load(Ordering::Relaxed);
            if ui
                .add_enabled(
                    running,
                    egui::Button::new(if paused { "Resume" } else { "Pause" }),
                )
                .clicked()
            {
                self.switches.pause.store(!paused, Ordering::Relaxed);
            }
            if ui.add_enabled(running, egui::Button::new("Stop")).clicked() {
                self.switches.stop.store(true, Ordering::Relaxed);
            }
        });
        ui.label("Pressing Esc, or moving the mouse, also stops play at once.");
        if !self.message.is_empty() {
            ui.colored_label(egui::Color32::from_rgb(200, 120, 0), &self.message);
        }
        ui.separator();
        let s = self.shared.lock().expect("shared");
        let total = s.plan.len().max(1);
        ui.add(
            egui::ProgressBar::new(s.done as f32 / total as f32).text(format!(
                "{} / {} steps",
                s.done,
                s.plan.len()
            )),
        );
        if let Some(r) = &s.report {
            ui.label(r.summary());
            if let Some(c) = &r.challenge {
                let deals: Vec<String> = c.deals.iter().map(|d| d.points.to_string()).collect();
                ui.label(format!(
                    "{}: points by deal {}; in all {} — {}",
                    c.goal,
                    deals.join(", "),
                    c.total,
                    if c.met { "met" } else { "not met" }
                ));
            }
        }
        if let Some(log) = s.game_log.clone() {
            ui.horizontal(|ui| {
                ui.label("Game log:");
                if ui
                    .link(log.display().to_string())
                    .on_hover_text("open the log of this game")
                    .clicked()
                {
                    if let Err(e) = crate::platform::open::open(&log) {
                        self.message = e;
                    }
                }
            });
        }
        ui.label("Plan");
        egui::ScrollArea::vertical()
            .id_salt("plan")
            .max_height(140.0)
            .show(ui, |ui| {
                for (i, step) in s.plan.iter().enumerate() {
                    let text = format!("{:>3}. {step}", i + 1);
                    if i == s.done {
                        ui.colored_label(egui::Color32::YELLOW, text);
                    } else {
                        ui.label(text);
                    }
                }
            });
        ui.label("Log");
        egui::ScrollArea::vertical()
            .id_salt("log")
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for line in &s.log {
                    ui.label(line);
                }
            });
    }

    /// The saved (and shipped) template sets by name, with their card size and when they were
    /// made; a folder can be typed in instead.
    fn set_picker(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let chosen = if self.template_set.is_empty() {
                "(choose a set)".to_string()
            } else {
                self.template_set.clone()
            };
            egui::ComboBox::from_id_salt("sets")
                .selected_text(chosen)
                .show_ui(ui, |ui| {
                    if self.sets.is_empty() {
                        ui.label("no sets yet: calibrate once to make one");
                    }
                    for set in &self.sets {
                        let about = format!(
                            "{}{}, cards {}, made {}",
                            if set.shipped { "shipped" } else { "saved" },
                            set.problem
                                .as_ref()
                                .map_or(String::new(), |p| format!(" (unusable: {p})")),
                            set.card.map_or("?".into(), |(w, h)| format!("{w}x{h}")),
                            set.made.as_deref().unwrap_or("?")
                        );
                        ui.selectable_value(&mut self.template_set, set.name.clone(), &set.name)
                            .on_hover_text(about);
                    }
                });
            if ui.button("Refresh").clicked() {
                self.sets = sets::list();
            }
        });
        ui.horizontal(|ui| {
            ui.label("or a folder:");
            ui.text_edit_singleline(&mut self.template_set);
        });
    }

    /// Guided calibration: the grouped cards, a rank picker per row and a suit picker per column,
    /// click two cards to swap them; Done hands the labels to the agent. False when there is
    /// nothing to label.
    fn labelling_view(&mut self, ui: &mut egui::Ui) -> bool {
        let mut s = self.shared.lock().expect("shared");
        let Some(l) = s.labelling.as_mut() else {
            self.corner_textures = None;
            return false;
        };
        let textures = self.corner_textures.get_or_insert_with(|| {
            l.corners
                .crops
                .iter()
                .enumerate()
                .map(|(i, crop)| {
                    let (w, h) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
                    let rgb: Vec<u8> = crop
                        .iter()
                        .map(|v| v.round().clamp(0.0, 255.0) as u8)
                        .collect();
                    ui.ctx().load_texture(
                        format!("corner{i}"),
                        egui::ColorImage::from_rgb([w, h], &rgb),
                        egui::TextureOptions::NEAREST,
                    )
                })
                .collect()
        });
        ui.heading("Label the cards");
        ui.label(
            "Each row holds the four cards of one rank, each column the 13 cards of one suit. \
             Give every row its rank and every column its suit. A card in the wrong place: click it, \
             then the card to swap it with.",
        );
        if l.proposed.is_some() {
            ui.colored_label(
                PROPOSED,
                "The labels in orange are proposed from the card faces this program knows: \
                 check each one against the cards, mend what is wrong, then press Done.",
            );
        }
        let size = egui::vec2(TEMPLATE_W as f32 * 1.3, TEMPLATE_H as f32 * 1.3);
        let checked = l.cards();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(checked.is_ok(), egui::Button::new("Done"))
                .clicked()
            {
                l.answer = Some(checked.clone());
            }
            if ui.button("Give up").clicked() {
                l.answer = Some(Err("calibration given up; nothing was saved".into()));
            }
            if let Err(e) = &checked {
                ui.label(e);
            }
        });
        egui::ScrollArea::vertical()
            .id_salt("labels")
            .show(ui, |ui| {
                egui::Grid::new("label-grid")
                    .spacing([6.0, 4.0])
                    .show(ui, |ui| {
                        ui.label("");
                        for c in 0..4 {
                            let shown = l.suits[c].map_or("suit?".to_string(), suit_name);
                            let shown = marked(shown, l.suit_proposed(c));
                            egui::ComboBox::from_id_salt(("suit", c))
                                .width(62.0)
                                .selected_text(shown)
                                .show_ui(ui, |ui| {
                                    for suit in Suit::ALL {
                                        ui.selectable_value(
                                            &mut l.suits[c],
                                            Some(suit),
                                            suit_name(suit),
                                        );
                                    }
                                });
                        }
                        ui.end_row();
                        for r in 0..l.groups.ranks.len() {
                            let shown = l.ranks[r].map_or("rank?".to_string(), rank_name);
                            let shown = marked(shown, l.rank_proposed(r));
                            egui::ComboBox::from_id_salt(("rank", r))
                                .width(56.0)
                                .selected_text(shown)
                                .show_ui(ui, |ui| {
                                    for rank in Rank::all() {
                                        ui.selectable_value(
                                            &mut l.ranks[r],
                                            Some(rank),
                                            rank_name(rank),
                                        );
                                    }
                                });
                            for c in 0..4 {
                                let corner = l.groups.ranks[r][c];
                                let image =
                                    egui::Image::new(&textures[corner]).fit_to_exact_size(size);
                                let button =
                                    egui::Button::image(image).selected(l.picked == Some((r, c)));
                                if ui.add(button).clicked() {
                                    l.click((r, c));
                                }
                            }
                            ui.end_row();
                        }
                    });
            });
        true
    }

    fn capture_view(&mut self, ui: &mut egui::Ui) {
        let s = self.shared.lock().expect("shared");
        let Some(frame) = &s.frame else {
            ui.centered_and_justified(|ui| ui.label("The capture shows here once play starts."));
            return;
        };
        if self
            .texture
            .as_ref()
            .is_none_or(|(v, _)| *v != s.frame_version)
        {
            let image = egui::ColorImage::from_rgba_unmultiplied(
                [frame.width() as usize, frame.height() as usize],
                frame.as_raw(),
            );
            let handle = ui
                .ctx()
                .load_texture("capture", image, egui::TextureOptions::LINEAR);
            self.texture = Some((s.frame_version, handle));
        }
        let (_, texture) = self.texture.as_ref().expect("texture");
        let avail = ui.available_size();
        let scale = (avail.x / frame.width() as f32).min(avail.y / frame.height() as f32);
        let size = egui::vec2(frame.width() as f32 * scale, frame.height() as f32 * scale);
        let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
        let painter = ui.painter_at(rect);
        painter.image(
            texture.id(),
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            egui::Color32::WHITE,
        );
        for m in &s.marks {
            let r = egui::Rect::from_min_size(
                rect.min + egui::vec2(m.rect.x as f32 * scale, m.rect.y as f32 * scale),
                egui::vec2(
                    m.rect.w as f32 * scale,
                    14.0f32.max(m.rect.h as f32 * scale * 0.25),
                ),
            );
            let colour = if m.text == "?" {
                egui::Color32::RED
            } else if m.confidence >= 0.8 {
                egui::Color32::from_rgb(40, 200, 60)
            } else {
                egui::Color32::from_rgb(230, 150, 0)
            };
            painter.rect_stroke(
                r,
                2.0,
                egui::Stroke::new(2.0, colour),
                egui::StrokeKind::Inside,
            );
            painter.text(
                r.left_top() + egui::vec2(2.0, 1.0),
                egui::Align2::LEFT_TOP,
                format!("{} {:.2}", m.text, m.confidence),
                egui::FontId::proportional(12.0),
                colour,
            );
        }
    }
}

/// The colour of a label still as proposed.
const PROPOSED: egui::Color32 = egui::Color32::from_rgb(240, 150, 30);

/// A label's text, in `PROPOSED`'s colour while it is the proposal.
/// Templates of the card art the practice table opened by the panel draws (the built-in cards),
/// calibrated from rendered frames of a known deal: for a game that plays with a template set.
pub fn table_art(game: &'static dyn Game, watch: &mut dyn Watch) -> Result<Cards, String> {
    watch.log("learning the practice table's card art (the built-in cards)");
    let mut renderer = game.renderer(Theme::built_in(), Look::Practice)?;
    let set = calibrate_rendered_at(&mut renderer, &Deck::shuffled(0x5eed), (1440, 900), 1.0)?;
    Ok(Cards::Templates(Matcher::new(&set)))
}

fn marked(text: String, proposed: bool) -> egui::RichText {
    let text = egui::RichText::new(text);
    if proposed {
        text.color(PROPOSED)
    } else {
        text
    }
}

fn suit_name(s: Suit) -> String {
    match s {
        Suit::Clubs => "clubs",
        Suit::Diamonds => "diamonds",
        Suit::Hearts => "hearts",
        Suit::Spades => "spades",
    }
    .to_string()
}

fn rank_name(r: Rank) -> String {
    match r.char() {
        'T' => "10".to_string(),
        c => c.to_string(),
    }
}

/// Marks play as over when the agent's thread ends, and repaints the panel to show it.
struct Finished {
    shared: Arc<Mutex<Shared>>,
    ctx: egui::Context,
}

impl Drop for Finished {
    fn drop(&mut self) {
        let mut s = match self.shared.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        if s.report.is_none() && std::thread::panicking() {
            s.log
                .push("the agent failed unexpectedly (a bug); play stopped".into());
        }
        s.running = false;
        drop(s);
        self.ctx.request_repaint();
    }
}

impl Default for PanelApp {
    fn default() -> PanelApp {
        PanelApp::new()
    }
}

impl eframe::App for PanelApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if std::mem::take(&mut self.open_table_pending) {
            let ctx = ui.ctx().clone();
            self.open_table(&ctx);
        }
        let ctx = ui.ctx().clone();
        self.remember(&ctx);
        let running = self.shared.lock().map(|s| s.running).unwrap_or(false);
        if self.was_running && !running {
            // A calibration may have saved a new set.
            self.sets = sets::list();
        }
        self.was_running = running;
        // While the cards are labelled, the grid takes the whole panel (beside the practice table
        // the panel is narrow); Give up there stops play.
        let labelling = self.shared.lock().is_ok_and(|s| s.labelling.is_some());
        if !labelling {
            egui::Panel::left("controls")
                .default_size(330.0)
                .show(ui, |ui| self.controls(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| {
            if !self.labelling_view(ui) {
                self.capture_view(ui)
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The panel opens with the choices it saved last time, from the data folder: Klondike's
    /// draw among them.
    #[test]
    fn the_panel_opens_with_the_choices_remembered() {
        let dir = std::env::temp_dir().join(format!("sa-panel-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::env::set_var(crate::platform::data_dir::OVERRIDE, &dir);
        let remembered = Settings {
            game: "klondike".into(),
            variant: "Draw 3".into(),
            learn: "template-set".into(),
            template_set: "mine".into(),
            save_as: "next".into(),
            profile: "msc".into(),
            goal: "score:500".into(),
            deals: 3,
            table_seed: 42,
            ..Settings::default()
        };
        remembered
            .save(&crate::data::settings_file().unwrap())
            .unwrap();
        let app = PanelApp::new();
        std::env::remove_var(crate::platform::data_dir::OVERRIDE);
        assert_eq!(app.settings(), remembered);
        assert_eq!(app.learn, Learn::TemplateSet);
        assert_eq!(app.game.table_args(), ["--draw", "3"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

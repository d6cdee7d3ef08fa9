//! solitaire-agent: plays Pyramid Solitaire in Microsoft Solitaire Collection by itself.
//!
//! The data path: capture → locate → recognize → board → solve → plan clicks → act → verify.
//! This crate holds the pure parts (cards, the game's rules, the solver) and the command line.

pub mod agent;
pub mod cards;
pub mod cli;
pub mod games;
pub mod panel;
pub mod platform;
pub mod table;
pub mod vision;

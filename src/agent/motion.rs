//! How long the game's moves keep the picture changing, learnt from the moves the agent watched
//! to the end. A game under load can pause between repaints in the middle of a move, so a still
//! picture is only trusted after a hold longer than those pauses; once the agent knows how long a
//! move's changes last, a picture that stops changing after that time is the move's end, and one
//! more unchanged capture is enough to say so.

/// Moves watched to the end before their length is trusted.
const LEARNT_AFTER: usize = 3;

/// The moves' lengths remembered (the longest of them is the one used).
const REMEMBERED: usize = 16;

/// The lengths of the last moves watched to the end: from the first changed picture to the last.
#[derive(Clone, Debug, Default)]
pub struct Motion {
    lengths: Vec<u64>,
}

impl Motion {
    /// A move watched until the full hold said it was still: its changes lasted `length_ms`.
    pub fn watched(&mut self, length_ms: u64) {
        if self.lengths.len() == REMEMBERED {
            self.lengths.remove(0);
        }
        self.lengths.push(length_ms);
    }

    /// How long a move's changes last, once enough moves were watched: the longest remembered.
    pub fn length_ms(&self) -> Option<u64> {
        (self.lengths.len() >= LEARNT_AFTER).then(|| self.lengths.iter().copied().max())?
    }

    /// Whether a move whose picture first changed at `first_ms` and last at `last_ms` has ended
    /// at `now_ms`: it has lasted as long as the moves before it, and its last change came no
    /// later than that (a move still changing past that length is longer than those learnt,
    /// and is watched to the end with the full hold).
    pub fn ended(&self, first_ms: u64, last_ms: u64, now_ms: u64) -> bool {
        self.length_ms()
            .is_some_and(|len| last_ms <= first_ms + len && now_ms >= first_ms + len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_known_before_three_moves_were_watched() {
        let mut m = Motion::default();
        m.watched(300);
        m.watched(310);
        assert_eq!(m.length_ms(), None);
        assert!(!m.ended(0, 0, 10_000));
        m.watched(290);
        assert_eq!(m.length_ms(), Some(310));
    }

    #[test]
    fn a_move_ends_after_the_longest_length_unless_it_changed_later() {
        let mut m = Motion::default();
        for len in [300, 320, 310] {
            m.watched(len);
        }
        // First change at 40: not over before 360.
        assert!(!m.ended(40, 330, 350));
        assert!(m.ended(40, 330, 360));
        // A change after 360: this move is longer, not ended by its learnt length.
        assert!(!m.ended(40, 365, 400));
    }

    #[test]
    fn only_the_last_moves_are_remembered() {
        let mut m = Motion::default();
        m.watched(5000);
        for _ in 0..REMEMBERED {
            m.watched(300);
        }
        assert_eq!(m.length_ms(), Some(300));
    }
}

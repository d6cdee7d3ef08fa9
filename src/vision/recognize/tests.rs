//! Tests of the recogniser's parts.
use super::*;
use crate::vision::dots::{lane_sums, lane_sums_portable, test_vector};
use std::sync::{Arc, Mutex, OnceLock};

/// `view_at` undoes `lattice`, and every lattice point names one view.
#[test]
fn views_and_lattice_points_go_both_ways() {
    for spread in [SPREAD, REACH] {
        let side = 2 * spread + 1;
        let look = Look {
            patches: Vec::new(),
            views: (0..4 * side * side).map(|_| OnceLock::new()).collect(),
            anchor: (REACH, REACH),
            spread,
            best: Vec::new(),
            moved: (0.0, 0.0),
            duels: Mutex::new(Vec::new()),
        };
        let mut seen = vec![false; 4 * side * side];
        for i in 0..4 * side * side {
            let (x, y) = look.lattice(i);
            assert!(x < 2 * side && y < 2 * side);
            assert_eq!(look.view_at(x, y), i);
            assert!(!std::mem::replace(&mut seen[y * 2 * side + x], true));
        }
    }
}

/// Scoring up to eight views at once gives, bit for bit, what scoring each alone gives.
#[test]
fn views_scored_together_score_as_alone() {
    let m = made_up_matcher();
    let side = 2 * SPREAD + 1;
    let look = Look {
        patches: (1..=4).map(corner).collect(),
        views: (0..4 * side * side).map(|_| OnceLock::new()).collect(),
        anchor: (REACH, REACH),
        spread: SPREAD,
        best: Vec::new(),
        moved: (0.0, 0.0),
        duels: Mutex::new(Vec::new()),
    };
    let views: Vec<usize> = [0, 7, 30, 60, 88, 100, 123, 150, 171, 190]
        .into_iter()
        .filter(|&i| look.view(i).is_some())
        .collect();
    assert!(views.len() >= VIEWS_AT_ONCE, "views that are not flat");
    for template in m.templates.iter().take(5) {
        for n in 1..=VIEWS_AT_ONCE {
            let together = scores(&look, &views[..n], template);
            for (j, &i) in views[..n].iter().enumerate() {
                let alone = look.view(i).unwrap().score(&look.patches, template);
                assert_eq!(together[j].to_bits(), alone.to_bits());
            }
        }
    }
}

/// A matcher of 52 made-up templates.
fn made_up_matcher() -> Matcher {
    let n = (TEMPLATE_W * TEMPLATE_H * 3) as usize;
    let raw = (0..52).map(|k| {
        test_vector(n, k)
            .iter()
            .map(|v| 128.0 + 100.0 * v)
            .collect()
    });
    Matcher::from_raw(raw.collect(), [0.05, 0.04, 0.15, 0.25], 1.4, 100.0)
}

/// A matcher under a highlight is made once for a band, colour, width and shift, and kept:
/// asked again, the same one; its templates are those made afresh; other bands get others.
#[test]
fn matchers_under_a_highlight_are_kept() {
    let m = made_up_matcher();
    let first = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
    let again = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
    assert!(Arc::ptr_eq(&first, &again));
    let fresh = m.make_under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
    for (kept, fresh) in first.templates.iter().zip(&fresh.templates) {
        assert_eq!(kept.values, fresh.values);
    }
    let shifted = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (1.0, 0.0));
    assert!(!Arc::ptr_eq(&first, &shifted));
    assert_ne!(first.templates[0].values, shifted.templates[0].values);
    // Only the last few are kept.
    for i in 0..KEPT_BANDED {
        m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (i as f32 + 2.0, 0.0));
    }
    let after = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
    assert!(!Arc::ptr_eq(&first, &after));
    assert_eq!(m.banded.lock().unwrap().len(), KEPT_BANDED);
}

/// In a set that reads the suit beside the rank, the corners say nothing of which suit of one
/// colour a card is, at any size and under a highlight alike; suits of two colours they tell
/// apart as ever, and a set that reads the suit in the corner is left as it was.
#[test]
fn a_suit_read_beside_the_rank_is_not_read_in_the_corner() {
    let mut m = made_up_matcher();
    let (clubs, diamonds, hearts, spades) = (0, 1, 2, 3);
    let apart = m.suits_shown_apart(clubs, spades);
    assert!(apart > 0.0);
    m.suit_beside = true;
    let banded = m.under_band((0.1, 0.08), [200, 180, 40], 90.0, (0.5, 0.0));
    let mut smaller = m.clone();
    smaller.prepare(60.0);
    for m in [&m, &*banded, &smaller] {
        assert_eq!(m.suits_shown_apart(clubs, spades), 0.0);
        assert_eq!(m.suits_shown_apart(hearts, diamonds), 0.0);
        assert!(m.suits_shown_apart(clubs, hearts) > 0.0);
        assert!(m.duel_pair(13 * clubs + 4, 13 * spades + 4).is_none());
    }
    m.suit_beside = false;
    assert_eq!(m.suits_shown_apart(clubs, spades), apart);
}

/// A corner as `look` samples it, softened, with values that vary smoothly and at random.
fn corner(seed: u32) -> Corner {
    let (w, h) = (
        TEMPLATE_W as usize + 2 * REACH,
        TEMPLATE_H as usize + 2 * REACH,
    );
    let raw: Vec<f32> = test_vector(w * h * 3, seed)
        .iter()
        .enumerate()
        .map(|(i, v)| 128.0 + 60.0 * ((i / 3 % w) as f32 / 5.0).sin() + 40.0 * v)
        .collect();
    Corner::new(raw, w, h)
}

/// Windows read where they lie in the corner, against templates' padded rows, give what the
/// windows copied out give; the AVX and portable lanes agree bit for bit.
#[test]
fn row_dots_read_windows_where_they_lie() {
    let corner = corner(7);
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let templates: Vec<Template> = (0..2)
        .map(|s| Template::new(&test_vector(tw * th * 3, 20 + s)))
        .collect();
    let at = [(0, 0), (3, 5), (2 * REACH, 2 * REACH), (2 * REACH, 0)];
    let starts = at.map(|(ox, oy)| &corner.soft[(oy * corner.w + ox) * 3..]);
    let padded = [0, 1].map(|k| templates[k].padded.as_slice());
    let got = row_dots(starts, padded, corner.rows());
    assert_eq!(
        lane_sums(starts, padded, corner.rows()),
        lane_sums_portable(starts, padded, corner.rows())
    );
    for (i, &(ox, oy)) in at.iter().enumerate() {
        let window = window_of(&corner.soft, corner.w, (ox, oy), (tw, th));
        for (k, template) in templates.iter().enumerate() {
            let plain: f64 = window
                .iter()
                .zip(&template.values)
                .map(|(x, y)| (x * y) as f64)
                .sum();
            assert!(
                (got[i][k] as f64 - plain).abs() < 1e-2 * plain.abs().max(1.0),
                "window at ({ox}, {oy}), template {k}: {} against {plain}",
                got[i][k]
            );
        }
    }
}

/// The rough correlation, without the border correction, is close to the exact one at every
/// offset, and the offset fitting best exactly is among the few best rough ones.
#[test]
fn the_rough_correlation_is_close_to_the_exact_one() {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    for seed in 0..4 {
        let patches = vec![corner(seed)];
        // A template cut from the corner itself, so that one offset fits far best.
        let cut = window_of(&patches[0].raw, patches[0].w, (4, 7), (tw, th));
        let template = Template::new(&normalised(&soften(&cut, tw, th)).expect("not flat"));
        let span = 2 * REACH + 1;
        let mut scores: Vec<(f32, f32, usize)> = (0..span * span)
            .filter_map(|i| {
                let view = View::at(&patches, 0, i % span, i / span)?;
                let exact = view.score(&patches, &template);
                let [rough] = patches[0].rough_correlations([(i % span, i / span)], &template);
                assert!((exact - rough).abs() < 0.05, "{exact} against {rough}");
                Some((rough, exact, i))
            })
            .collect();
        let best = scores
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("views")
            .2;
        assert_eq!(best, 7 * span + 4, "the template's own place fits best");
        scores.sort_by(|a, b| b.0.total_cmp(&a.0));
        assert!(scores[..ANCHOR_CANDIDATES].iter().any(|s| s.2 == best));
    }
}

/// Where two ranks differ is where they differ in every suit: a mark one template picked up from
/// what lay beside its card (another card's or the felt's colour past its rounded corner) is no
/// part of it, however strong, while the glyphs' difference is.
#[test]
fn ranks_differ_where_every_suit_shows_it() {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let (a, b) = (3, 7);
    let raw: Vec<Vec<f32>> = (0..52)
        .map(|k| {
            let (suit, rank) = (k / 13, k % 13);
            let mut v = vec![220.0f32; tw * th * 3];
            let mut paint = |x0: usize, y0: usize, size: usize, value: f32| {
                for y in y0..y0 + size {
                    for x in x0..x0 + size {
                        for c in 0..3 {
                            v[(y * tw + x) * 3 + c] = value;
                        }
                    }
                }
            };
            // Each rank's glyph: a block of its own place along a row.
            paint(2 + 2 * rank, 12, 3, 30.0);
            // Rank a in three suits: what lay past its corner, darker than the glyph.
            if suit < 3 && rank == a {
                paint(0, 0, 4, 10.0);
            }
            v
        })
        .collect();
    let m = Matcher::from_raw(raw, [0.05, 0.04, 0.15, 0.25], 1.4, 100.0);
    let at = |x: usize, y: usize| (y * tw + x) * 3 + 1;
    let differ = m.ranks_differ(a, b);
    let glyph = differ[at(2 + 2 * a + 1, 13)];
    assert!(glyph > 0.0, "rank a's glyph");
    assert!(
        differ[at(1, 1)] < 0.01 * glyph,
        "the felt past one card's corner: {}",
        differ[at(1, 1)]
    );
    assert!(differ[at(2 + 2 * b + 1, 13)] > 0.0, "rank b's glyph");
    let pair = m.duel_pair(a, b).expect("the two ranks differ");
    let weighed = |i: usize| pair.region.iter().any(|r| r.contains(&i));
    assert!(!weighed(at(0, 0)) && !weighed(at(1, 1)));
    assert!(weighed(at(2 + 2 * a + 1, 13)) && weighed(at(2 + 2 * b + 1, 13)));
}

/// The outline of a card over a covered card, along the last rows of a template cut from a
/// covered card and not along those of one cut from a card seen whole, is left out of their duel
/// when the reader says where that card begins, and only on cards small enough for it to reach
/// into the index box: the glyphs decide. Two templates cut alike keep every row.
#[test]
fn duels_leave_out_the_rows_a_covering_cards_outline_reaches() {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let at = |x: usize, y: usize| (y * tw + x) * 3;
    let raw: Vec<Vec<f32>> = (0..52)
        .map(|k| {
            let mut v = vec![200.0f32; tw * th * 3];
            let mut paint = |x0: usize, y0: usize, w: usize, h: usize, value: f32| {
                for y in y0..y0 + h {
                    for x in x0..x0 + w {
                        for c in 0..3 {
                            v[at(x, y) + c] = value;
                        }
                    }
                }
            };
            // What every corner shares (the rank), each card's glyph (a small block of its own
            // place under it), and card 0's outline of the card over it: a grey line.
            paint(8, 8, 12, 20, 60.0);
            paint(1 + 3 * (k % 11), 32, 3, 3, 60.0);
            if k == 0 {
                paint(0, th - 2, tw, 2, 80.0);
            }
            v
        })
        .collect();
    // MSC's box and row step, on cards 77 pixels wide (800x600).
    let mut m = Matcher::from_raw(raw, [0.02, 0.02, 0.2, 0.27], 1.4, 77.0);
    m.pairwise = true;
    // Card 0 cut from a covered card, card 2 too; the others seen whole.
    m.cut_covered = 0b101;
    let weighs_the_line = |m: &Matcher| {
        let pair = m.duel_pair(0, 1).expect("the two differ");
        pair.region.iter().any(|r| r.end > at(0, th - 2))
    };
    assert!(weighs_the_line(&m), "not told where the next row begins");
    m.cover_at(0.307);
    assert_eq!(m.outline_rows(0, 1), th - 2);
    assert_eq!(m.outline_rows(1, 0), th - 2);
    assert_eq!(m.outline_rows(0, 2), th, "cut alike");
    assert_eq!(m.outline_rows(1, 3), th, "cut alike");
    assert!(!weighs_the_line(&m), "the outline's rows are left out");
    let pair = m.duel_pair(0, 1).expect("the glyphs differ");
    assert!(pair.region.iter().any(|r| r.contains(&at(2, 33))));
    // Calibrated on cards 140 pixels wide the box ends 2.4 pixels above the next row: no row is
    // left out, whatever the width read.
    let mut large = Matcher::from_raw(m.raw.clone(), [0.02, 0.02, 0.2, 0.27], 1.4, 140.0);
    (large.pairwise, large.cut_covered) = (true, 0b101);
    large.cover_at(0.307);
    assert_eq!(large.outline_rows(0, 1), th);
    assert!(weighs_the_line(&large));
}

/// Two cards of one rank are weighed where their suits differ most, unless, on templates blurred
/// for smaller cards, they are alike there: then where their own templates differ as the suits
/// do. Clubs and spades differ most in a big
/// pip at the corner's bottom right, on the ranks that print one there (fours up), and less in
/// the small glyph under every rank; the aces' duel weighs their glyphs, not the pip's place,
/// blank on both, and the fives' the pip. Two cards alike wherever the suits differ (the twos,
/// whose glyphs are one) have no duel.
#[test]
fn cards_of_one_rank_are_weighed_where_their_own_suits_differ() {
    let (tw, th) = (TEMPLATE_W as usize, TEMPLATE_H as usize);
    let at = |x: usize, y: usize| (y * tw + x) * 3 + 1;
    let (clubs, spades) = (0, 3);
    let raw: Vec<Vec<f32>> = (0..52)
        .map(|k| {
            let (suit, rank) = (k / 13, k % 13);
            let mut v = vec![220.0f32; tw * th * 3];
            let mut paint = |x0: usize, y0: usize, w: usize, h: usize, value: f32| {
                for y in y0..y0 + h {
                    for x in x0..x0 + w {
                        for c in 0..3 {
                            v[(y * tw + x) * 3 + c] = value;
                        }
                    }
                }
            };
            // The rank, a block of its own place; the glyph under it, faint, at its suit's own
            // place (the twos' at one place); the big pip of fours up, at its suit's own place.
            paint(2 + 2 * rank, 6, 3, 12, 30.0);
            let glyph_at = if rank == 1 { 6 } else { [4, 12, 16, 8][suit] };
            paint(glyph_at, 28, 4, 6, 170.0);
            if rank >= 3 {
                paint([26, 29, 29, 31][suit], 34, 5, 11, 0.0);
            }
            v
        })
        .collect();
    let mut m = Matcher::from_raw(raw, [0.02, 0.02, 0.2, 0.27], 1.4, 100.0);
    let (glyph, pip) = (at(5, 31), at(28, 40));
    // As calibrated (as calibration reads the deal back), the aces are weighed where the suits
    // differ most, where they are one: no duel.
    assert!(m.duel_pair(0, 39).is_none());
    // Blurred for cards two thirds as wide.
    m.prepare(67.0);
    let suits = m.suits_differ(clubs, spades);
    assert!(
        suits[pip] > 3.0 * suits[glyph],
        "the pip's place differs most: {} against {}",
        suits[pip],
        suits[glyph]
    );
    let pair = m
        .duel_pair(clubs * 13, spades * 13)
        .expect("the aces' glyphs differ");
    let weighed = |i: usize| pair.region.iter().any(|r| r.contains(&i));
    assert!(weighed(glyph), "the glyph");
    assert!(!weighed(pip), "the pip's place, blank on aces");
    let five = m
        .duel_pair(clubs * 13 + 4, spades * 13 + 4)
        .expect("the fives differ");
    assert!(five.region.iter().any(|r| r.contains(&pip)));
    assert!(!five.region.iter().any(|r| r.contains(&glyph)));
    assert!(
        m.duel_pair(clubs * 13 + 1, spades * 13 + 1).is_none(),
        "the twos are alike"
    );
}

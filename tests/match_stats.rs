//! The match statistics against values computed independently (score intervals by bisection on the Wilson
//! condition with the draw-corrected variance, Elo by hand from the formulas, LOS from the normal distribution, and the SPRT's log-likelihood ratios by maximising each hypothesis'
//! likelihood over the draw rate with a golden-section search, a different method from the engine's).

use oust::matches::stats::{Sprt, SprtDecision, Wdl, elo_from_score, score_from_elo};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[track_caller]
fn assert_close(got: f64, want: f64, tol: f64) {
    assert!(close(got, want, tol), "got {got}, want {want} (+/- {tol})");
}

#[test]
fn score_and_elo_with_their_intervals() {
    // (wins, draws, losses), score, score interval, Elo, Elo interval
    let cases = [
        (
            (60, 20, 20),
            0.7,
            (0.615_311_582_6, 0.769_891_018_1),
            147.190_714_117_8,
            (81.594_392_005_7, 209.798_272_829_6),
        ),
        (
            (55, 0, 45),
            0.55,
            (0.452_446_030_0, 0.643_854_620_2),
            34.860_070_287_6,
            (-33.144_060_134_9, 102.864_200_710_0),
        ),
        (
            (30, 40, 30),
            0.5,
            (0.425_508_223_7, 0.574_491_776_3),
            0.0,
            (-52.150_343_272_7, 52.150_343_272_7),
        ),
        (
            (10, 5, 3),
            0.694_444_444_4,
            (0.498_147_680_6, 0.822_343_732_5),
            142.618_929_405_5,
            (-1.287_129_259_6, 266.189_141_270_5),
        ),
    ];
    for ((w, d, l), score, (slo, shi), elo, (elo_lo, elo_hi)) in cases {
        let wdl = Wdl::new(w, d, l);
        assert_eq!(wdl.games(), w + d + l);
        assert_close(wdl.score().unwrap(), score, 1e-9);
        let (lo, hi) = wdl.score_interval().unwrap();
        assert_close(lo, slo, 1e-9);
        assert_close(hi, shi, 1e-9);
        assert_close(wdl.elo().unwrap(), elo, 1e-6);
        let (lo, hi) = wdl.elo_interval().unwrap();
        assert_close(lo, elo_lo, 1e-6);
        assert_close(hi, elo_hi, 1e-6);
        // Seen from the opponent, everything is mirrored.
        let other = wdl.flipped();
        assert_close(other.elo().unwrap(), -elo, 1e-6);
    }
    assert_eq!(Wdl::default().score(), None);
    assert_eq!(Wdl::new(3, 0, 0).elo(), Some(f64::INFINITY));
    assert_eq!(Wdl::new(0, 0, 3).elo(), Some(f64::NEG_INFINITY));
    assert_close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
}

#[test]
fn a_clean_sweep_still_has_a_finite_lower_bound() {
    // 200 wins out of 200: the score could still be as low as 0.9812 (Elo +686.6) at 95%.
    let (lo, hi) = Wdl::new(200, 0, 0).score_interval().unwrap();
    assert_close(lo, 0.981_154_673_6, 1e-9);
    assert_eq!(hi, 1.0);
    let (elo_lo, elo_hi) = Wdl::new(200, 0, 0).elo_interval().unwrap();
    assert_close(elo_lo, 686.613_525_449_5, 1e-6);
    assert!(elo_hi.is_infinite());
    // Only draws: no uncertainty about the score at all.
    assert_eq!(Wdl::new(0, 50, 0).score_interval(), Some((0.5, 0.5)));
    // Every length of sweep, both ways: the bound at the swept end is exact (a real match of 100 wins once
    // printed an upper Elo bound of +5879.7 from a score bound of 0.9999999999999999). The other bound is
    // 1 / (1 + k) with k = z^2 / n, that is Elo 400 log10(n / z^2).
    for n in [1, 2, 7, 10, 50, 99, 100, 101, 200, 333, 1000, 10_000] {
        let k = 1.959_963_984_540_054_f64.powi(2) / n as f64;
        let sweep = Wdl::new(n, 0, 0);
        let (lo, hi) = sweep.score_interval().unwrap();
        assert_eq!(hi, 1.0, "{n} wins");
        assert_close(lo, 1.0 / (1.0 + k), 1e-12);
        let (elo_lo, elo_hi) = sweep.elo_interval().unwrap();
        assert_eq!(elo_hi, f64::INFINITY, "{n} wins");
        assert_close(elo_lo, -400.0 * k.log10(), 1e-6);
        let (lo, hi) = sweep.flipped().score_interval().unwrap();
        assert_eq!(lo, 0.0, "{n} losses");
        assert_close(hi, k / (1.0 + k), 1e-12);
        let (elo_lo, elo_hi) = sweep.flipped().elo_interval().unwrap();
        assert_eq!(elo_lo, f64::NEG_INFINITY, "{n} losses");
        assert_close(elo_hi, 400.0 * k.log10(), 1e-6);
    }
}

#[test]
fn likelihood_of_superiority() {
    assert_close(Wdl::new(55, 0, 45).los(), 0.841_344_746_1, 1e-6);
    assert_close(Wdl::new(10, 5, 3).los(), 0.973_898_182_3, 1e-6);
    assert_close(Wdl::new(60, 20, 20).los(), 0.999_996_127_9, 1e-6);
    assert_close(Wdl::new(45, 10, 55).los(), 1.0 - 0.841_344_746_1, 1e-6);
    assert_eq!(Wdl::new(30, 40, 30).los(), 0.5);
    assert_eq!(Wdl::new(0, 7, 0).los(), 0.5);
}

#[test]
fn sprt_log_likelihood_ratios_and_decisions() {
    let test = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let (lower, upper) = test.bounds();
    assert_close(lower, -2.944_438_979_2, 1e-9);
    assert_close(upper, 2.944_438_979_2, 1e-9);
    let cases = [
        ((380, 250, 370), -0.168_449_54, SprtDecision::Continue),
        ((1300, 2000, 1200), 1.826_472_13, SprtDecision::Continue),
        ((1000, 1000, 1000), -1.863_498_50, SprtDecision::Continue),
        ((120, 40, 80), 1.262_968_71, SprtDecision::Continue),
        ((2000, 2000, 2000), -3.726_997_01, SprtDecision::H0),
        ((2600, 4000, 2400), 3.652_944_27, SprtDecision::H1),
    ];
    for ((w, d, l), llr, decision) in cases {
        let wdl = Wdl::new(w, d, l);
        assert_close(test.llr(wdl), llr, 1e-5);
        assert_eq!(test.decide(wdl), decision, "{w}-{d}-{l}");
    }
    let wide = Sprt::new(-10.0, 30.0, 0.05, 0.05).unwrap();
    assert_close(wide.llr(Wdl::new(120, 40, 80)), 4.576_771_21, 1e-5);
    assert_eq!(wide.decide(Wdl::new(120, 40, 80)), SprtDecision::H1);
    assert_close(wide.llr(Wdl::new(60, 30, 50)), 0.875_692_46, 1e-5);
    // No games, no evidence; the first games already give a finite ratio.
    assert_eq!(test.llr(Wdl::default()), 0.0);
    assert!(test.llr(Wdl::new(1, 0, 0)).is_finite());
    assert!(test.llr(Wdl::new(1, 0, 0)) > 0.0);
    // Bad parameters are refused.
    assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
    assert!(Sprt::new(0.0, 10.0, 0.6, 0.5).is_err());
    assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05).is_err());
}

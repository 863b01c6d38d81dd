"""Twenty-third reading, lesson 05 (t23_0506): a change the model expects to gain nothing that came out slower
beyond noise is no gain, as the bound allows, but a loss the model does not predict, never "as the model
expects" (#6); each other outcome reads as ``claims.no_gain_claim`` gives it."""
from utils.claims import no_gain_claim


def test_a_slowdown_beyond_noise_is_a_loss_the_model_does_not_predict():
    row = no_gain_claim("DDP", 0.95, 0.03, "slower than 1 a rank", bound=1.38)   # 0.92-0.98x: excludes 1x
    assert row.verdict == ("slower than 1 a rank beyond noise: no gain, as the bound allows, but a loss the model "
                           "(1x) does not predict")
    assert "as the model expects" not in row.verdict and row.against == "bound 1.38x; model 1.00x"
    unbounded = no_gain_claim("x", 0.90, 0.02, "slower than fewer")
    assert unbounded.verdict == "slower than fewer beyond noise: no gain, but a loss the model (1x) does not predict"


def test_every_other_outcome_reads_as_before():
    # lesson 05's wrapper now lives in claims.no_gain_claim (t25): the other outcomes keep their words
    said = {(value, bound): no_gain_claim("x", value, spread, "slower than 1 a rank", bound=bound).verdict
            for value, spread, bound in ((0.99, 0.03, 1.38), (1.10, 0.02, 1.29), (1.40, 0.02, 1.29),
                                         (1.28, 0.02, 1.29), (1.10, 0.02, None))}
    assert said[(0.99, 1.38)] == "within noise: no effect shown"
    assert said[(1.10, 1.29)] == "faster, under the bound: 34% of its gain; the model expected 1x"
    assert said[(1.40, 1.29)].startswith("above the bound: a finding to explain")
    assert said[(1.28, 1.29)].startswith("at the bound (within noise)")
    assert said[(1.10, None)] == "faster than the baseline: the model expected 1x, a finding to explain"


def test_the_measured_load_is_set_beside_the_setting_in_every_outcome():
    # #8: section 1's L is measured (waits); section 6's 1.54 s is the setting. Fabricated figures (s)
    from utils.lessons.data_prefetch.epoch import load_setting
    over = load_setting(1.5632, 512, 3, 32)
    assert over.startswith("the setting: 1.54 s (512 reads of 3 ms); measured 0.02 s over, 0.6 ms a batch")
    assert "Section 6's CPU-bound reads use the setting" in over
    assert load_setting(1.537, 512, 3, 32) == "the setting: 1.54 s (512 reads of 3 ms), as measured"
    under = load_setting(1.50, 512, 3, 32)
    assert under.endswith("measured 0.04 s under it: a wait cannot end early, a finding to explain")

"""Twenty-third reading, lesson 05 (t23_0506): a change the model expects to gain nothing that came out slower
beyond noise is no gain, as the bound allows, but a loss the model does not predict, never "as the model
expects" (#6); each other outcome reads as ``claims.no_gain_claim`` gives it."""
from utils import claims
from utils.lessons.data_prefetch.report import no_gain_claim


def test_a_slowdown_beyond_noise_is_a_loss_the_model_does_not_predict():
    row = no_gain_claim("DDP", 0.95, 0.03, "slower than 1 a rank", bound=1.38)   # 0.92-0.98x: excludes 1x
    assert row.verdict == ("slower than 1 a rank beyond noise: no gain, as the bound allows, but a loss the model "
                           "(1x) does not predict")
    assert "as the model expects" not in row.verdict and row.against == "bound 1.38x; model 1.00x"
    unbounded = no_gain_claim("x", 0.90, 0.02, "slower than fewer")
    assert unbounded.verdict == "slower than fewer beyond noise: no gain, but a loss the model (1x) does not predict"


def test_every_other_outcome_is_the_shared_rule_unchanged():
    for value, spread, bound in ((0.99, 0.03, 1.38), (1.10, 0.02, 1.29), (1.40, 0.02, 1.29), (1.28, 0.02, 1.29),
                                 (1.10, 0.02, None)):
        mine = no_gain_claim("x", value, spread, "slower than 1 a rank", bound=bound)
        shared = claims.no_gain_claim("x", value, spread, "slower than 1 a rank", bound=bound)
        assert mine == shared

"""Fixes from the t42 reading of lessons 05 and 06 (fixer s81)."""

from test_fix_s54b_030405 import cell_source

from utils.lessons.memory import offload, summary


def test_prediction_miss_share_redoes_from_the_printed_ms_half_up():
    # 97.2 ms against a 100.6-101.2 ms prediction, plain step 80.0 ms: -3.4 / 80.0 = -4.25%, read -4.3%
    said = summary.prediction_miss(97.2e-3, (100.6e-3, 101.2e-3), 80.0e-3, 0.04 * 80e-3, "noise", True)
    assert said.startswith("-3.4 ms from its low end (-4.3% of the plain step)")


def test_offload_state_redoes_from_the_shard_printed_beside_it():
    # the 7 B-class GPT's half: 3.357 B parameters at 16 bytes, 53.72 GB unrounded; the page prints 3.36 B
    shard = 6_714_695_680 / 2
    bytes_each, shard_b, state_gb = offload.printed_state(16 * shard, shard)
    assert (bytes_each, shard_b) == (16.0, 3.36)
    assert state_gb == 53.8   # 16 x 3.36 = 53.76, as a reader redoes it (53.7 from the unrounded shard)


def test_cell_18_verdict_is_one_sentence_and_the_first_batch_wait_collapsed():
    cell = cell_source("05_data_prefetch.ipynb", 18)
    assert "({startup * 1e3:.0f} ms in the 2-worker row) is " in cell   # no parenthesis inside the verdict
    assert 'how_measured("the first batch\'s wait beyond one read"' in cell
    verdict = cell[cell.index('say(f"2 workers reached'):cell.index("{share}{S.label}.\")")]
    assert "paid again every epoch" not in verdict


def test_cell_38_gain_sentence_leaves_the_rounds_and_noise_rule_to_the_details():
    cell = cell_source("05_data_prefetch.ipynb", 38)
    gain = cell[cell.index("say(f\"The Prefetcher's own gain"):cell.index("{why}{S.label}.\")")]
    assert "cancel what drifts" not in gain and "rounds faster with it" not in gain
    assert 'how_measured("the Prefetcher\'s paired rounds"' in cell
    assert "Paired rounds cancel what drifts between epochs" in cell

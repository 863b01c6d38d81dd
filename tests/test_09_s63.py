"""Lesson 09, the twenty-fifth reading (t25_09): rows read on fabricated figures, every branch of each new
sentence."""

from __future__ import annotations

from test_articles_checked import _figures, _recorded, _split

from utils.lessons.articles_checked import capstone, checks, claims, figures, timed_rows, verdicts

STEPS = "the small GPT's tokens/s (precision 1.47x, optimizer 1.06x, two devices {}x (not kept))"


def _capstone(step: float, **extra):
    return _recorded(1.5, 11.8, what=STEPS.format(f"{step:.2f}"), **extra)


# --- t25_09 #1: lesson 08's two-device step read with its noise, as lesson 08 reads it ---------------------------


def test_a_two_device_step_tied_with_one_device_is_noise_not_a_disagreement():
    row = verdicts.judge(claims.BY_ID["A3"], _figures(ddp=_recorded(1.75), capstone=_capstone(1.00)), {})
    assert row.check == verdicts.NOISY
    said = " ".join(p.text for p in row.parts)
    assert "1.00x ± 0.02 (the 2% floor for a figure kept without rounds) against a bound of 2x: within noise" in said


def test_a_two_device_step_beyond_the_floor_still_reads_either_way():
    faster = verdicts.judge(claims.BY_ID["A3"], _figures(ddp=_recorded(1.75), capstone=_capstone(1.34)), {})
    slower = verdicts.judge(claims.BY_ID["A3"], _figures(ddp=_recorded(1.75), capstone=_capstone(0.90)), {})
    assert (faster.check, slower.check) == (verdicts.AGREES, verdicts.DISAGREES)
    assert "faster, under the bound" in capstone.two_devices_text(_capstone(1.34).record)
    assert "slower than one device: no speed-up" in capstone.two_devices_text(_capstone(0.90).record)


def test_a_two_device_step_with_its_own_spread_is_read_with_it():
    record = dict(_capstone(1.05).record, steps={"two devices": {"x_previous": 1.05, "spread": 0.10}})
    assert capstone.two_devices_spread(record) == (0.10, True)
    assert capstone.within_noise_of_one(record)
    assert "± 0.10 (its rounds' spread)" in capstone.two_devices_text(record)
    record["steps"]["two devices"]["spread"] = 0.02
    assert not capstone.within_noise_of_one(record)


def test_a_step_past_two_devices_bound_stays_a_finding():
    try:
        checks.capstone_within_bound(_figures(capstone=_capstone(2.40)))
    except checks.AboveBound:
        return
    raise AssertionError("2.40x past a 2x bound must be a finding to explain")


# --- t25_09 #4: B2 reads what the decode's loss is from lesson 07 §5's timing, not from the prices ---------------

# make bench's decode (1.13 ms one device, 6.84 ms tensor parallel) and its own fit of the link
DECODE = {"decode_seconds_per_token": {"one device": 1.13e-3, "tensor parallel": 6.84e-3},
          "alpha_s": 208.5e-6, "beta_bytes_per_s": 2.1e9}


def _b2_decode(allreduce_ms=None, loss_ms=None) -> str:
    m = _figures(decode=_recorded(1.0, **DECODE))
    if allreduce_ms is not None:
        m["results"]["decode_allreduce"] = _recorded(allreduce_ms / loss_ms, None, allreduce_ms=allreduce_ms,
                                                     loss_ms=loss_ms, lesson="07", unit="share")
    return timed_rows.decode_priced(m, m["results"]["decode"].record).text


def test_b2_quotes_lesson_07s_timed_share_and_reads_the_loss_from_it():
    said = _b2_decode(4.921, 5.304)
    assert ("lesson 07 §5 timed 93% of its decode loss inside the all-reduces (4.92 of 5.30 ms a token, in its own "
            "run): most of the loss was spent inside the all-reduces (the exchange, waiting for the other rank or a late "
            "return: lesson 07 times the calls and does not tell these apart); more than the highest price here "
            "(1.68 ms): the calls took longer inside the loop than back to back") in said, said


def test_b2_says_when_the_timed_calls_are_no_dearer_than_the_price():
    said = _b2_decode(1.50, 2.00)  # 75%, under the 1.68 ms price
    assert "75% of its decode loss" in said and "most of the loss was spent inside the all-reduces" in said
    assert "took longer inside the loop" not in said


def test_b2_says_when_most_of_the_loss_is_elsewhere():
    for inside in (1.00, 2.65):  # 19%; 50% exactly is not "most"
        said = _b2_decode(inside, 5.30)
        assert "at most half of the loss was spent inside the all-reduces, the rest elsewhere" in said, said
        assert "transfers' delay" not in said


def test_b2_on_an_older_ledger_asks_for_lesson_07_to_be_re_run():
    said = _b2_decode()
    assert "the ledger has no such figure yet: re-run lesson 07 to record it" in said
    assert "% of its decode loss" not in said


# --- t25_09 #2: lesson 02's pipeline figures carry lesson 02's own warning, and are not ranked on a busy machine --

BUSY = dict(cpu_busy=[0.76, 0.88], load=2.5, cores=2)


def test_a_pipeline_figure_lesson_02_timed_on_a_busy_machine_carries_its_warning_and_is_inconclusive():
    m = _figures(naive_split=_split(0.92, 1.0), pipeline=_recorded(1.21, 1.6, **BUSY), ddp=_recorded(1.76))
    row = verdicts.judge(claims.BY_ID["A10"], m, {})
    said = " ".join(p.text for p in row.parts)
    assert row.check == verdicts.BUSY, row.check
    assert ("lesson 02 marked it measured on a loaded machine, so not evidence either way (CPU/busy 76% / 88%, "
            "host load average 2.5 on 2 cores: below 80%, a stage waited for a core)") in said, said


def test_a19_does_not_rank_a_busy_machines_pipeline():
    m = _figures(pipeline=_recorded(1.21, 1.6, **BUSY), ddp=_recorded(1.76))
    ranked = verdicts.judge(claims.BY_ID["A19"], m, {}).parts
    shares = [p.text for p in ranked if "each GPU's share here" in p.text][0]
    assert "pipeline" not in shares.split("each GPU's share here")[1], shares
    quiet = _figures(pipeline=_recorded(1.21, 1.6, cpu_busy=[0.96, 0.99]), ddp=_recorded(1.76))
    shares = [p.text for p in verdicts.judge(claims.BY_ID["A19"], quiet, {}).parts if "each GPU's share" in p.text][0]
    assert "pipeline 61%" in shares, shares


def test_lesson_02s_warning_reads_every_branch():
    assert figures.contended({"cpu_busy": [0.96, 0.80]}) == ""  # 80% as printed: at the line, a core each
    assert figures.contended({}) == ""  # an older ledger keeps no CPU/busy
    assert figures.contended({"cpu_busy": [0.795, 0.9]}) == ""  # 80% as printed (half up)
    assert figures.contended({"cpu_busy": [0.70, 0.9]}) == "CPU/busy 70% / 90%: below 80%, a stage waited for a core"

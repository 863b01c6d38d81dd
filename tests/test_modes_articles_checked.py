"""Lesson 09's decisions on every fake machine (``pytest -m modes``): where the article's split runs, which
link the transfer claims use, which claims this machine can test, and how each figure says where it ran."""

import pytest

from utils import article, devices
from utils import machine as profile
from utils.lessons.articles_checked import claims, sources, verdicts
from utils.lessons.why_slow.algorithms import Comparison


def _pair(slow: float, fast: float, ceiling: float | None = None) -> Comparison:
    """Lesson 01 §5's pair as rows B4 and B14 read it: two times (s), five rounds a little apart, the same result."""
    return Comparison("pair", "slow", "fast", slow, fast, 1e-7, round_ratios=(1.9, 1.95, 2.0, 2.05, 2.1),
                      ceiling=ceiling, no_ceiling="" if ceiling else "no bytes bound it")

pytestmark = pytest.mark.modes


def test_the_split_runs_on_two_devices_or_on_meta_where_the_plan_shares_one(machine):
    plan = devices.plan(2)
    second = article.second_device(plan.devices)
    assert (second == "meta") == (plan.devices[0] == plan.devices[1])


def test_the_transfer_claims_use_the_workers_own_link(machine):
    name = profile.link_route(devices.plan(2))[0]
    expected = {"cpu": "gloo loopback, 2 processes",  # 1gpu: two ranks on one GPU talk through gloo, via the host
                "1gpu": "gloo, 2 processes sharing GPU 0 (through host memory)"}.get(machine.mode, "GPU 0 to GPU 1")
    assert name == expected


def _agreeing_gpu_measurements(hw) -> dict:
    """What a GPU run of lesson 09 would measure, shaped as ``verdicts.measure`` keeps it, made to agree."""
    sizes, peer = [4, 2**20, 2**24], bool(hw.link and hw.link.peer_access)
    direct = [2e-6, 2e-5, 2e-4] if peer else [2e-5, 4e-4, 6e-3]
    paths = {"direct": profile.link_fit("GPU 0 to GPU 1, direct", sizes, direct),
             "via host": profile.link_fit("GPU 0 to GPU 1, via host", sizes, [1e-5, 4e-4, 6e-3]),
             "one PCIe hop": profile.link_fit("host to GPU 1", sizes, [8e-6, 8e-5, 1.2e-3])}
    stages = [("start", 0, 0), ("16 blocks of 64 MB", 1024, 1024), ("every other block freed", 512, 1024),
              ("one block of 128 MB", 640, 1152)]
    return {"paths": paths, "fragmentation": stages, "allocation": {"new": 4e-4, "cached": 2e-5, "mb": 128}}


# Row B7's host-memory figures, made to agree: 6 MiB asked for with 8 MiB in holes, the process grew 6 MiB
HOST = {"full": 32e6, "freed": 32e6, "after": 38.3e6, "new_s": 2.6e-3, "reused_s": 5.5e-4, "holes": 8 * 2**20,
        "asked": 6 * 2**20, "runs": 5, "grew": 6.3e6}


def test_a_claim_that_needs_hardware_is_judged_wherever_the_machine_has_it(machine):
    plan, hw = devices.plan(2), machine.hw
    can = verdicts.capabilities(plan, hw)
    pair = machine.mode in ("2gpu", "ngpu")
    assert can == {"gpu": machine.mode != "cpu", "gpu pair": pair,
                   "nvlink pair": pair and hw.link is not None and hw.link.kind == "NVLink"}
    gpu = _agreeing_gpu_measurements(hw)
    if not can["gpu"]:  # measure() takes no GPU figures where there is no GPU
        gpu = {key: value for key, value in gpu.items() if key not in ("fragmentation", "allocation")}
    m = {"plan": plan, "hw": hw, "can": can, "results": {}, "host_memory": HOST, "others": {}, "cores": 2} | gpu
    claim = claims.BY_ID["A9"]
    row = verdicts.judge(claim, m, {})
    if can[claim.needs]:  # measured here: the course's reading, checked
        assert (row.verdict, row.check) == (claim.verdict, verdicts.AGREES), row.evidence
    else:
        assert row.verdict == claims.NOT_TESTABLE and claims.NEEDS[claim.needs] in row.why
    # session 49: B7 reads 内存 as host memory, and measures the host's allocator in every mode; a GPU's too
    row = verdicts.judge(claims.BY_ID["B7"], m, {})
    assert (row.verdict, row.check) == (claims.CONDITIONS, verdicts.AGREES), row.evidence
    assert "its C allocator" in row.evidence and ("GPU memory:" in row.evidence) == can["gpu"]
    if can["nvlink pair"]:  # NVLink against one PCIe hop, not against the two-crossing host path
        slow = m["paths"] | {"direct": profile.link_fit("direct", [4, 2**20, 2**24], [9e-6, 4e-5, 4e-4])}
        row = verdicts.judge(claims.BY_ID["A9"], m | {"paths": slow}, {})
        assert row.check == verdicts.DISAGREES and "one PCIe hop" in row.evidence
    if can["gpu"]:  # the time half of B7: a new reservation no slower than the cache contradicts it
        row = verdicts.judge(claims.BY_ID["B7"], m | {"allocation": {"new": 1e-5, "cached": 2e-5, "mb": 128}}, {})
        assert row.check == verdicts.DISAGREES and "from the cache" in row.evidence
    if pair:  # the peer-to-peer row is measured on every pair of GPUs, with or without peer access
        row = verdicts.judge(claims.BY_ID["A18"], m | {"sheet": {}}, {})
        assert row.check == verdicts.AGREES and "peer access" in row.evidence


def test_every_two_device_figure_says_where_it_ran(machine):
    where = sources.two_devices(devices.plan(2), machine.hw)
    expected = {"cpu": "simulated on CPU", "1gpu": "2 ranks sharing one "}.get(machine.mode, "on 2 x ")
    assert where.startswith(expected)


def test_lesson_08_gives_each_worker_fewer_sequences_than_lesson_03_on_every_machine(machine):
    batches = verdicts.ddp_batches(devices.plan(2), machine.hw)  # row A3's reason for lesson 08's lower figure
    assert 0 < batches["08"] < batches["03"]


def test_the_link_rows_add_what_the_driver_reports_where_there_are_two_gpus(machine):
    from utils.lessons.articles_checked import evidence

    plan, hw = devices.plan(2), machine.hw
    m = {"plan": plan, "hw": hw, "can": verdicts.capabilities(plan, hw), "results": {},
         "sheet": evidence.datasheet_ratios()}
    for claim_id in ("A5", "A7"):
        row = verdicts.judge(claims.BY_ID[claim_id], m, {})
        assert row.check is None and ("the driver's report" in row.judged_by) == (len(hw.gpus) >= 2), row.judged_by


def _stub_measurements(monkeypatch, hw):
    """Every measurement of ``verdicts.measure`` replaced by a plausible figure, so that the whole lesson's
    judging runs on a fake machine in a second (what the real run measures is tested in test_articles_checked)."""
    from utils.lessons.articles_checked import evidence as ev
    from utils.lessons.articles_checked import case_study, snippets

    sizes = ev.LINK_SIZES
    fit = profile.link_fit("link", sizes, [2e-5 + n / 5e9 for n in sizes])
    peaks = profile.MachineProfile("cpu", [profile.Ceiling("matmul peak", d, 2, "1024³", b, b, 0.1, "FLOP/s")
                                           for d, b in (("fp32", 3e11), ("bf16", 1e12), ("int8", 2e12))])
    stubs = {"conv_pool_fold": {"diff": 1e-7, "flops_ratio": 0.44, "two_s": 2e-3, "one_s": 2e-4},
             "conv_maxpool_is_not_linear": 2.0, "merges": {"linear_diff": 1e-7, "linear_macs": 0.4, "bn_diff": 1e-7},
             "case_study_cnn": {"parameters": 431_080, "step_s": 0.02, "gradient_bytes": 1_724_320},
             "link": fit,
             "compressed_sends": {"plain": [8e-4] * 6, "packed": [1.6e-3] * 6, "bytes": [2e-4] * 6,
                                  "packing": [1.4e-3] * 6},
             "case_study_ddp": {"one": [0.02] * 5, "two": [0.012] * 5},
             "two_device_passes": {"bound": 2.0, "article split": 0.9, "tensor parallel": 1.3,
                                   "tensor parallel rounds": [1.25, 1.28, 1.3, 1.3, 1.31, 1.33]},
             "gpu_pair_paths": _agreeing_gpu_measurements(hw)["paths"],
             "gpu_fragmentation": _agreeing_gpu_measurements(hw)["fragmentation"],
             "gpu_allocation_times": _agreeing_gpu_measurements(hw)["allocation"],
             "published_sizes": {"BERT-base": 108_888_576, "BERT-large": 334_088_192, "GPT-3": 174_604_234_752}}
    for name, value in stubs.items():
        monkeypatch.setattr(ev, name, lambda *args, value=value, **kwargs: value)
    from utils.lessons.articles_checked import host_memory

    monkeypatch.setattr(host_memory, "measure", lambda *args: HOST)
    timed = {"prune": {"dense": 1e-3, "zeroed": 1e-3, "removed": 5e-4}, "csr": 0.2,
             "algorithms": {"attention": _pair(2e-3, 1e-3), "gelu": _pair(2e-3, 1e-3, ceiling=11.0)}, "peaks": peaks,
             "width": {"flops_ratio": 3.8, "time_ratio": 3.0, "counted_over_formula": 1.0,
                       "forward_over_formula": 1.0, "train_over_forward": 3.0},
             "threads": {"train": 1.5, "forward": 1.5, "step_s": 0.02, "gradient_bytes": 1_000_000}}
    for name, value in timed.items():
        monkeypatch.setitem(verdicts.TIMED, name, lambda *args, value=value: value)
    monkeypatch.setattr(snippets, "split_steps", lambda _: ["as written: RuntimeError: no", "fixed: runs, output (100, 32)"])
    monkeypatch.setattr(snippets, "conv_steps", lambda _: ["as written, .cuda(0): runs, output (10, 16, 224, 224)"])
    walk = [("import os", "NameError: name 'os' is not defined"), ("launcher", "KeyError: 'RANK'"),
            ("ran", "runs: last loss per rank 2.0, 2.0, each rank its own batches")]
    monkeypatch.setattr(case_study, "walk", lambda: walk)
    monkeypatch.setattr(snippets, "ddp_walk", lambda: [("launcher", "ValueError: no"), ("ran", "runs: losses")])


def test_the_whole_lesson_is_judged_on_every_machine_and_its_tables_stay_narrow(machine, monkeypatch):
    from utils.lessons.articles_checked import report

    _stub_measurements(monkeypatch, machine.hw)
    m = verdicts.measure(devices.plan(2))
    rows = {r.id: r for r in verdicts.rows(m)}
    can = m["can"]
    assert (rows["A9"].verdict == claims.NOT_TESTABLE) != can["nvlink pair"]
    assert rows["B7"].verdict == claims.CONDITIONS and ("GPU memory:" in rows["B7"].evidence) == can["gpu"]
    assert all(r.check != verdicts.DISAGREES for r in rows.values()), [r.id for r in rows.values()
                                                                       if r.check == verdicts.DISAGREES]
    where = sources.two_devices(m["plan"], m["hw"])
    assert where in rows["A11"].evidence and where in rows["A21"].evidence
    assert all(len(line) <= 110 for title, ids in report.GROUPS
               for line in report.group_table(title, ids, list(rows.values())).to_text().splitlines())

"""Each claim judged: its evidence from this run and the results files, a check that can disagree with the
course's reading, and the verdict the row shows.

Introduced in lesson 09. ``measure(plan)`` runs every quick measurement (seconds on 2 CPU cores) and reads
the recorded figures; ``rows(m)`` gives one ``Row`` per claim of ``claims.CLAIMS``. A row's check (``CHECKS``)
asks what its evidence must show for the verdict to stand; it answers "agrees", "disagrees", "waits for a
figure" where a lesson has not recorded one yet, or "inconclusive" where other programs took the cores a
timing needed. A row whose evidence is only datasheets, published figures or arithmetic has no check, and its
verdict says what it was judged by.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices
from utils.lessons.articles_checked import claims, sections, snippets
from utils.lessons.articles_checked.figures import (Missing, TIMED, WHERE_TO_RECORD, _attempt, _sends,
                                                    _stopped, _units_note, _walk, capabilities,
                                                    capstone_two_devices, ddp_batches, measure, quote,
                                                    read_results, recorded, recorded_int8_units, value,
                                                    watched)
from utils.lessons.articles_checked.sources import (ARITHMETIC, CHECKABLE, DATASHEET, ERRORS, LEDGER, MEASURED,
                                                    NONE, PUBLISHED, READ, ROWS, THIS_CPU, Part, from_bench,
                                                    from_ledger, isa, results_figure, two_devices)

AGREES, DISAGREES, WAITING, BUSY = "agrees", "disagrees", "waits for a figure", "inconclusive: a busy machine"
MARGIN = 0.2  # of the cores: what other programs may take beyond the cores a timing leaves them
ARTICLE_2_ONLY = ("device_ids", "no_move_after_wrap")  # mistakes of article 2's code, not article 1's


class Busy(Exception):
    """Other programs held cores a timing needed (a second thread's, a second worker's, or the one a single
    thread runs on): the timing cannot test the claim either way."""


def too_busy(m, name: str, cores_needed: int | None) -> bool:
    """Whether other programs took some of the cores timing ``name`` needed (None: every core), beyond a margin."""
    cores = m["cores"]
    return m["others"].get(name, 0.0) > 1 - min(cores_needed or cores, cores) / cores + MARGIN


def needs_quiet_cores(m, name: str, cores_needed: int | None) -> None:
    """Raise ``Busy`` where the timing ``name`` could not have its cores: its check cannot say either way."""
    if too_busy(m, name, cores_needed):
        raise Busy(name)


def _busy_note(m, name: str, cores_needed: int | None) -> str:
    if not too_busy(m, name, cores_needed):
        return ""
    return (f"; other programs kept {m['others'][name]:.0%} of the cores busy meanwhile: rerun on a quiet "
            "machine")


# --- Each claim's evidence: a list of Parts --------------------------------------------------------------------


def a1(m):
    return [Part("6 FLOPs per parameter per token: GPT-3 6 x 175e9 = 1.05e12, BERT-large 6 x 3.4e8 = 2.0e9; "
                 "GPT-3 over BERT: 175e9 / 3.4e8 = 515x, 175e9 / 1.1e8 = 1,591x", ARITHMETIC),
            Part("GPT-3 175e9 parameters; BERT-base 1.1e8, BERT-large 3.4e8", PUBLISHED,
                 "Brown et al. 2020; Devlin et al. 2019"),
            Part(f"the course's FLOPs formula against torch's counter on a GPT step: "
                 f"{m['width']['counted_over_formula']:.3f}x", MEASURED, THIS_CPU)]


def a2(m):
    flops = 6 * 175e9 * 300e9  # 6 N per token, 300e9 training tokens
    peak, memory = m["sheet"]["h100_bf16"], m["sheet"]["h100_memory"]
    years = flops / peak / 3.15e7
    return [Part(f"GPT-3's training, 6 x 175e9 x 300e9 = {flops:.1e} FLOPs, at one H100's bf16 peak: {years:.0f} "
                 f"years (on two: {years / 2:.0f}); its weights and AdamW state, 16 bytes a parameter: "
                 f"{175e9 * 16 / 1e12:.1f} TB against {memory / 1e9:.0f} GB", ARITHMETIC),
            Part(f"H100 SXM: {peak / 1e12:.0f} TFLOP/s bf16 dense, {memory / 1e9:.0f} GB", DATASHEET, "NVIDIA"),
            Part("GPT-3: 175e9 parameters, 300e9 training tokens", PUBLISHED, "Brown et al. 2020")]


def a3(m):
    b = m["batches"]
    ddp = quote(m, "ddp", lambda r: f"two DDP workers: {r['value']:.2f}x against a bound of {r['bound']:.2f}x, "
                                    f"{b['03']} sequences a worker")
    lesson_08 = quote(m, "capstone", lambda r: f"lesson 08's two-device step: {capstone_two_devices(r):.2f}x, "
                                               f"{b['08']} sequences a worker (its one-device step split in two); "
                                               f"what differs: each worker computes {b['08']} sequences, not "
                                               f"{b['03']}, while the all-reduce stays the same size: "
                                               f"{b['03'] / b['08']:g}x the communication a sequence")
    return [ddp, lesson_08]


def a21(m):
    p, where = m["passes"], two_devices(m["plan"], m["hw"])
    tp, split = p["tensor parallel"], p["article split"]
    outcome = "cut here" if tp > 1.05 else "not cut here"
    parts = [Part(f"{outcome}: a batch's forward pass, tensor parallel, {tp:.2f}x one device (bound "
                  f"{p['bound']:g}x); the article's split {split:.2f}x{_busy_note(m, 'passes', 2)}", MEASURED,
                  where)]
    if m["results"]["decode"]:
        parts.append(quote(m, "decode", lambda r: "decoding one token at a time (KV cache, batch 1): tensor "
                                                  f"parallel {1 / decode_slowdown(r):.2f}x one device"))
    return parts


def decode_slowdown(record: dict) -> float:
    """Lesson 07's decoding benchmark: a token's time on two tensor-parallel workers over one device's."""
    per_token = record["decode_seconds_per_token"]
    return per_token["tensor parallel"] / per_token["one device"]


def a4(m):
    return [quote(m, "ddp", lambda r: f"lesson 03's {r['value']:.2f}x: 2 / {r['value']:.2f} = "
                                      f"{2 / r['value']:.2f}x the GPU-hours of one GPU"),
            quote(m, "capstone", lambda r: f"lesson 08's {capstone_two_devices(r):.2f}x: 2 / "
                                           f"{capstone_two_devices(r):.2f} = {2 / capstone_two_devices(r):.2f}x")]


def a5(m):
    hw, sheet = m["hw"], m["sheet"]
    parts = [Part(f"two T4s (Kaggle) join over {sheet['t4_link']}; two A100 SXM over NVLink 3", DATASHEET,
                  "NVIDIA T4, A100")]
    if hw.link and len(hw.gpus) >= 2:
        parts.append(Part(f"this machine: GPU 0 - GPU 1 over {hw.link.describe()}", READ, "NVML"))
    return parts


def a6(m):
    b = m["bytes"]
    return [Part(f"a step of the small GPT: 16 x 64 token ids x 8 bytes x 2 (inputs, targets) = {b['in'] / 1024:.0f} "
                 f"KiB in, a {b['out']}-byte loss out; {b['stay'] / 2**20:.1f} MiB of weights, gradients and AdamW "
                 "state stay", ARITHMETIC)]


def a18(m):
    hw = m["hw"]
    parts = [Part("peer access lets one GPU copy into another's memory over PCIe or NVLink; NCCL uses it, and "
                  "goes through host memory only where it is off (NCCL_P2P_DISABLE=1)", PUBLISHED,
                  "CUDA programming guide, NCCL documentation")]
    if hw.link and len(hw.gpus) >= 2:
        peer = {True: "yes", False: "no", None: "unknown"}[hw.link.peer_access]
        parts.append(Part(f"this machine's GPU 0 and GPU 1: peer access {peer}", READ, "NVML"))
    if "paths" in m:
        parts.append(_paths_part(m, lambda fit: f"{fit.beta / 1e9:.1f} GB/s", "beta"))
    return parts


def _paths_part(m, say, what: str) -> Part:
    """GPU 0 to GPU 1 directly against through host memory (2gpu mode), ``what`` said by ``say(fit)``."""
    where = two_devices(m["plan"], m["hw"])
    if isinstance(m["paths"], Exception):
        return Part(f"could not measure: {snippets.first_line(m['paths'])}", MEASURED, where)
    direct, host = m["paths"]["direct"].fit, m["paths"]["via host"].fit
    return Part(f"GPU 0 to GPU 1, {what}: directly {say(direct)}, through host memory {say(host)}", MEASURED, where)


def a7(m):
    parts = [Part(f"two T4s: {m['sheet']['t4_link']}, no NVLink", DATASHEET, "NVIDIA T4"),
             Part("AMD Instinct GPUs join over Infinity Fabric links", PUBLISHED, "AMD Instinct documentation")]
    if m["hw"].link and len(m["hw"].gpus) >= 2:
        parts.append(Part(f"this machine: {m['hw'].link.describe()}", READ, "NVML"))
    return parts


def a8(m):
    a100, h100 = m["sheet"]["a100"], m["sheet"]["h100"]
    return [Part(f"A100: NVLink 3 {a100[0] / 1e9:.0f} against PCIe 4 {a100[1] / 1e9:.1f} GB/s; H100: NVLink 4 "
                 f"{h100[0] / 1e9:.0f} against PCIe 5 {h100[1] / 1e9:.0f} GB/s, per direction", DATASHEET, "NVIDIA")]


def a9(m):
    return [_paths_part(m, lambda fit: f"{fit.alpha * 1e6:.1f} µs", "alpha (a few bytes)")]


def a10(m):
    return [quote(m, "naive_split", lambda r: f"split alone: {r['value']:.2f}x against a bound of {r['bound']:.2f}x"),
            quote(m, "pipeline", lambda r: f"with micro-batches: {r['value']:.2f}x against a bound of "
                                           f"{r['bound']:.2f}x")]


def a11(m):
    p = m["passes"]
    return [Part(f"attention on one worker, FFN on the other, forward passes: {p['article split']:.2f}x one device "
                 "(bound 1x: the halves take turns)", MEASURED, two_devices(m["plan"], m["hw"]))]


def a12(m):
    return [Part("; ".join(f"{k + 1}. {s}" for k, s in enumerate(m["split"])) + " (meta: a device with no storage "
                 "standing in for a second GPU)", ERRORS, "this run")]


def a22(m):
    c = m["copies"]
    return [Part(f"model1 and model2: {c['parameters'][0]:,} parameters each, the same layers ({c['in_features']} -> "
                 f"64 -> {c['out_features']}); chained, model2 reads model1's {c['out_features']} outputs where it "
                 f"expects {c['in_features']} features (row A12's shape error)", MEASURED, THIS_CPU)]


def a20(m):
    g = m["merges"]
    return [Part(f"article 1's model (no activation between its layers) as one 128 -> 32 layer: equal within "
                 f"{g['linear_diff']:.0e}, {g['linear_macs']:.2f} of the multiply-adds; batch norm folded into the "
                 f"CNN's convolutions: equal within {g['bn_diff']:.0e}", MEASURED, THIS_CPU)]


def a13(m):
    f = m["fold"]
    return [Part(f"avg pool folded into a 4x4 stride-2 conv: equal within {f['diff']:.0e}, {f['flops_ratio']:.2f} of "
                 f"the FLOPs; conv + max pool is not linear: f(x+y) - f(x) - f(y) up to {m['maxpool']:.1f}",
                 MEASURED, THIS_CPU)]


def a14(m):
    s = m["simplified"]
    return [Part("; ".join(m["conv"]), ERRORS, "this run"),
            Part(f"the model: {s['layers']} layer ({s['kinds']}), {s['parameters']} parameters: nothing to merge",
                 MEASURED, THIS_CPU)]


def a15(m):
    return [quote(m, "fsdp", lambda r: f"DDP: the whole model on every rank; FSDP2: {r['value']:.2f}x DDP's bytes "
                                       "per rank")]


def a16(m):
    return [Part(_walk(m["ddp"], ARTICLE_2_ONLY), ERRORS, "this run")]


def a17(m):
    return [Part("rows " + ", ".join(SUMMED["A17"]), ROWS)]


def a19(m):
    return [quote(m, "mfu", lambda r: f"MFU {r['value']:.0%}: {r.get('what') or 'the small GPT, fp32'}"),
            quote(m, "ddp", lambda r: f"two DDP workers: {r['value'] / 2:.0%} of 2x")]


def b1(m):
    t = m["threads"]
    return [Part(f"the small GPT on 2 cores against 1: training step {t['train']:.2f}x, forward pass (inference) "
                 f"{t['forward']:.2f}x faster (bound 2x){_busy_note(m, 'threads', 2)}", MEASURED, THIS_CPU)]


def b2(m):
    link, t = m["link"], m["threads"]
    grads, share = t["gradient_bytes"], link.fit.alpha / link.fit.time(4096)
    parts = [Part(f"{link.name}: alpha {link.fit.alpha * 1e6:.0f} µs a message, {share:.0%} "
                  f"of a 4 KiB message's time; the small GPT's gradients ({grads / 2**20:.1f} MiB) once: "
                  f"{link.fit.time(grads) * 1e3:.1f} ms, against its {t['step_s'] * 1e3:.0f} ms step on one core",
                  MEASURED, two_devices(m["plan"], m["hw"]))]
    if m["results"]["decode"]:
        parts.append(quote(m, "decode", lambda r: f"inference: a token decoded on two workers took "
                                                  f"{decode_slowdown(r):.1f}x one device's time (two all-reduces "
                                                  "a block)"))
    return parts


def b3(m):
    w = m["width"]
    return [Part(f"width x2: FLOPs x{w['flops_ratio']:.1f}, step time x{w['time_ratio']:.1f}"
                 f"{_busy_note(m, 'width', 1)}", MEASURED, THIS_CPU)]


def b4(m):
    return [Part(f"fused attention {m['algorithms']['attention']:.1f}x faster than the naive one, same result"
                 f"{_busy_note(m, 'algorithms', 1)}", MEASURED, THIS_CPU)]


def b5(m):
    return a10(m) + [quote(m, "ddp", lambda r: f"data parallel (the case study's code): {r['value']:.2f}x")]


def b6(m):
    s = m["sheet"]
    return [Part(f"H100 SXM bf16 {s['h100_bf16'] / 1e12:.0f} TFLOP/s against T4 fp16 {s['t4_fp16'] / 1e12:.0f}: "
                 f"{s['h100_bf16'] / s['t4_fp16']:.0f}x", DATASHEET, "NVIDIA")]


def b7(m):
    where = f"on one {m['hw'].gpus[0].name}" if m["hw"].gpus else "on a GPU"
    if isinstance(m["fragmentation"], Exception):
        return [Part(f"could not measure: {snippets.first_line(m['fragmentation'])}", MEASURED, where)]
    (_, _, _), (blocks, _, reserved), (freed, allocated, _), (big, _, after) = m["fragmentation"][:4]
    return [Part(f"{blocks}, {freed}: {reserved - allocated:.0f} MB free in holes, yet {big} made the allocator "
                 f"reserve {after - reserved:.0f} MB more", MEASURED, where)]


def b8(m):
    sec, pack = _sends(m), m["pack"]
    packed = sec[2**18] + pack
    outcome = ("packing pays on this link" if packed < sec[2**20] else
               "packing costs more than it saves on this link: not shown here (it pays on a slower link)")
    return [Part(f"{m['link'].name}: 1 MiB of fp32 in {sec[2**20] * 1e6:.0f} µs; as uint8 (256 KiB) "
                 f"{sec[2**18] * 1e6:.0f} µs + {pack * 1e6:.0f} µs to pack = {packed * 1e6:.0f} µs: {outcome}; a "
                 f"4-byte message still {sec[4] * 1e6:.0f} µs", MEASURED, two_devices(m["plan"], m["hw"]))]


def b9(m):
    def say(r):
        configs = r.get("configs")
        if not configs:
            return f"lesson 05's best: {r['value']:.2f} s an epoch against its bound {r['bound']:.2f} s"
        none, thread = configs["no workers"], configs["Prefetcher thread"]
        return (f"an epoch: no prefetch {none['seconds']:.2f} s (load + compute {none['bound']:.2f} s); one "
                f"Prefetcher thread {thread['seconds']:.2f} s (max(load, compute) {thread['bound']:.2f} s); 2 loader "
                f"workers and the Prefetcher {r['value']:.2f} s (max(load / 2, compute) {r['bound']:.2f} s)")
    return [quote(m, "prefetch", say)]


def b10(m):
    link, grads = m["link"], m["threads"]["gradient_bytes"]
    fast = link.fit.alpha + grads / (10 * link.fit.beta)
    return [Part(f"{link.describe()}", MEASURED, two_devices(m["plan"], m["hw"])),
            Part(f"the small GPT's {grads / 2**20:.1f} MiB of gradients: {link.fit.time(grads) * 1e3:.2f} ms; on a 10x "
                 f"faster link {fast * 1e3:.2f} ms; a 4-byte message {link.fit.time(4) * 1e6:.0f} µs on either",
                 ARITHMETIC)]


def b11(m):
    parts = [quote(m, "quantize", lambda r: f"int8 MLP {r['value']:.1f}x against its reference {r['bound']:.1f}x"
                                            f"{_units_note(recorded_int8_units(r), 'int8')}")]
    if m["results"]["prune"]:
        parts.append(quote(m, "prune", lambda r: f"pruned to {r.get('sparsity', 0.5):.0%}: accuracy {r['value']:.1%} "
                                                 "lower; time: row B12"))
    return parts


def b12(m):
    p = m["prune"]
    return [Part(f"half the weights zeroed: {p['zeroed'] / p['dense']:.2f}x the dense time; half the neurons removed "
                 f"(0.5 of the FLOPs): {p['removed'] / p['dense']:.2f}x; CSR at 95% zeros: {m['csr']:.2f}x"
                 f"{_busy_note(m, 'prune', 1)}", MEASURED, THIS_CPU)]


def _peak_ratio(m, dtype: str) -> float:
    return m["peaks"].peak(dtype).best / m["peaks"].peak("fp32").best


def _peak_part(m, dtype: str, has_units: bool) -> Part:
    other, fp32 = m["peaks"].peak(dtype), m["peaks"].peak("fp32")
    noisy = " (wide spread)" if max(other.spread, fp32.spread) > 0.5 else ""
    return Part(f"{other.name}: {_peak_ratio(m, dtype):.1f}x the fp32 peak{noisy}{_units_note(has_units, dtype)}"
                f"{_busy_note(m, 'peaks', None)}", MEASURED, f"{THIS_CPU}, {devices.cpu_isa()}")


def b13(m):
    return [_peak_part(m, "int8", m["units"].int8_dot)]


def b14(m):
    return [Part(f"GELU fused into one kernel: {m['algorithms']['gelu']:.1f}x the op-by-op speed"
                 f"{_busy_note(m, 'algorithms', 1)}", MEASURED, THIS_CPU)]


def b15(m):
    return [_peak_part(m, "bf16", m["units"].bf16_units)]


def b16(m):
    return [quote(m, "ddp", lambda r: f"two DDP workers: {r['value']:.2f}x against a bound of {r['bound']:.2f}x")]


def b17(m):
    return [Part(f"1. {m['os']}; " + _walk(m["ddp"], start=2) + " (lesson 03's rebuild trains article 1's MLP; "
                 "article 2 names its loader dataloader)", ERRORS, "this run")]


def b19(m):
    c = m["cnn"]
    return [Part(f"{c['parameters']:,} parameters, {175e9 / c['parameters']:,.0f} times fewer than GPT-3; a training "
                 f"step on 64 digits: {c['step_s'] * 1e3:.1f} ms on one core", MEASURED, THIS_CPU)]


def b18(m):
    return [Part("rows " + ", ".join(SUMMED["B18"]), ROWS)]


EVIDENCE = {"A1": a1, "A2": a2, "A3": a3, "A21": a21, "A4": a4, "A5": a5, "A6": a6, "A18": a18, "A7": a7, "A8": a8,
            "A9": a9, "A10": a10, "A11": a11, "A12": a12, "A22": a22, "A20": a20, "A13": a13, "A14": a14,
            "A15": a15, "A16": a16, "A17": a17, "A19": a19, "B1": b1, "B2": b2, "B3": b3, "B4": b4, "B5": b5,
            "B6": b6, "B7": b7, "B8": b8, "B9": b9, "B10": b10, "B11": b11, "B12": b12, "B13": b13, "B14": b14,
            "B15": b15, "B16": b16, "B17": b17, "B19": b19, "B18": b18}
# A summary claim stands when the rows it sums up stand.
SUMMED = {"A17": ["A10", "A20", "A13", "A15", "A3"], "B18": [f"B{k}" for k in range(5, 17)]}  # B5-B16: the cures


# --- The checks: what the evidence must show for the verdict to stand ------------------------------------------


def _paths(m) -> dict:
    if isinstance(m.get("paths"), Exception):
        raise Missing("paths")
    return m["paths"]


def _fragmentation_shown(m) -> bool:
    if isinstance(m["fragmentation"], Exception):
        raise Missing("fragmentation")
    stages = m["fragmentation"]
    return stages[3][2] > stages[1][2]  # the larger block needed more reserved memory, with holes free


def _peer_path_faster(m) -> bool:
    """Where the GPUs have peer access, the direct copy's bandwidth beats the host path's; where they have
    none, CUDA stages the "direct" copy through the host too, and it cannot."""
    if "paths" not in m:
        return True  # nothing measured: the row has no MEASURED part and is not checked
    p = _paths(m)
    faster = p["direct"].fit.beta > 1.2 * p["via host"].fit.beta
    return faster == bool(m["hw"].link and m["hw"].link.peer_access)


def _gain_where_units(ratio: float, has_units: bool) -> bool:
    """A speed-up over fp32 where the CPU has the units for the narrower type; none to speak of where not."""
    return ratio > 1.0 if has_units else ratio < 1.2


def quiet(m, name: str, cores_needed: int | None) -> bool:
    """True, or ``Busy`` raised: a check's first step where its timing needs cores to itself."""
    needs_quiet_cores(m, name, cores_needed)
    return True


def _tensor_parallel_beats_taking_turns(m) -> bool:
    needs_quiet_cores(m, "passes", 2)  # each worker needs a core of its own for either to gain
    return m["passes"]["tensor parallel"] > m["passes"]["article split"]


def _second_core_helps(m) -> bool:
    needs_quiet_cores(m, "threads", 2)  # a second thread adds compute only where the second core is free
    return min(m["threads"]["train"], m["threads"]["forward"]) > 1.05


def _prefetch_holds(m) -> bool:
    r = recorded(m, "prefetch").record
    configs = r.get("configs")
    beats_no_prefetch = not configs or configs["Prefetcher thread"]["seconds"] < configs["no workers"]["seconds"]
    return beats_no_prefetch and r["value"] >= 0.95 * r["bound"]  # an epoch never beats max(load/k, compute)


CHECKS = {
    "A1": lambda m: 0.9 < m["width"]["counted_over_formula"] < 1.1,
    "A3": lambda m: 1.0 < value(m, "ddp") <= 1.05 * recorded(m, "ddp").record["bound"]
    and capstone_two_devices(recorded(m, "capstone").record) <= value(m, "ddp") * 1.1,
    "A21": lambda m: _tensor_parallel_beats_taking_turns(m),
    "A4": lambda m: value(m, "ddp") <= 2.05,  # GPU-hours fall below one GPU's only beyond 2x (superlinear)
    "A18": _peer_path_faster,
    "A9": lambda m: _paths(m)["direct"].fit.alpha < _paths(m)["via host"].fit.alpha,
    "A10": lambda m: value(m, "naive_split") <= 1.1 and value(m, "pipeline") > value(m, "naive_split"),
    "A11": lambda m: m["passes"]["article split"] <= 1.1,
    "A12": lambda m: any(_stopped(s) for s in m["split"][:-1]) and not _stopped(m["split"][-1]),
    "A22": lambda m: m["copies"]["same_layers"] and len(set(m["copies"]["parameters"])) == 1,
    "A20": lambda m: m["merges"]["linear_diff"] < 1e-4 and m["merges"]["bn_diff"] < 1e-3,
    "A13": lambda m: m["fold"]["diff"] < 1e-4 and m["maxpool"] > 1e-3,
    "A14": lambda m: not _stopped(m["conv"][-1]) and m["simplified"]["layers"] == 1,
    "A15": lambda m: value(m, "fsdp") <= 0.6,
    "A16": lambda m: m["ddp"][-1][0] == "ran" and any(_stopped(t) for _, t in m["ddp"]),
    "A19": lambda m: value(m, "mfu") < 0.9 and value(m, "ddp") < 1.9,
    "B1": lambda m: _second_core_helps(m),
    "B2": lambda m: m["link"].fit.alpha / m["link"].fit.time(4096) > 0.5,
    "B3": lambda m: quiet(m, "width", 1) and m["width"]["time_ratio"] > 1.5,
    "B4": lambda m: quiet(m, "algorithms", 1) and m["algorithms"]["attention"] > 1.0,
    "B5": lambda m: CHECKS["A10"](m) and value(m, "ddp") > 1.0,
    "B7": _fragmentation_shown,
    "B8": lambda m: _sends(m)[2**18] < _sends(m)[2**20],  # fewer bytes, less time on the wire
    "B9": _prefetch_holds,
    "B10": lambda m: 2**22 / m["link"].fit.beta > m["link"].fit.alpha,  # 4 MiB: the bytes' part, a faster link's
    "B11": lambda m: _gain_where_units(value(m, "quantize"), recorded_int8_units(recorded(m, "quantize").record)),
    "B12": lambda m: quiet(m, "prune", 1) and m["prune"]["removed"] < 0.8 * m["prune"]["dense"] < m["prune"]["zeroed"],
    "B13": lambda m: quiet(m, "peaks", None) and _gain_where_units(_peak_ratio(m, "int8"), m["units"].int8_dot),
    "B14": lambda m: quiet(m, "algorithms", 1) and m["algorithms"]["gelu"] > 1.0,
    "B15": lambda m: quiet(m, "peaks", None) and _gain_where_units(_peak_ratio(m, "bf16"), m["units"].bf16_units),
    "B16": lambda m: 1.0 < value(m, "ddp") <= 2.1,
    "B17": lambda m: _stopped(m["os"]) and m["ddp"][-1][0] == "ran",
    "B19": lambda m: m["cnn"]["parameters"] < 1e8,  # below BERT-base's 1.1e8: no large model
}


# --- Rows ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    id: str
    says: str
    verdict: str  # one of claims.VERDICTS
    why: str
    where: str  # the sections that measure it, cited from the lessons' headings
    parts: tuple[Part, ...]
    check: str | None  # AGREES, DISAGREES, WAITING or BUSY; None where nothing in the evidence can disagree

    @property
    def judged_by(self) -> str:
        """"" for a checked row; else the kinds it rests on: "datasheet", "arithmetic and published figures"."""
        if self.check is not None or self.verdict == claims.NOT_TESTABLE:
            return ""
        names = {DATASHEET: "datasheet", PUBLISHED: "published figures", ARITHMETIC: "arithmetic",
                 READ: "the driver's report"}
        kinds = list(dict.fromkeys(names[p.kind] for p in self.parts if p.kind in names))
        return " and ".join([", ".join(kinds[:-1]), kinds[-1]] if len(kinds) > 1 else kinds)

    @property
    def evidence(self) -> str:
        return "; ".join(p.render() for p in self.parts)


def judge(claim: claims.Claim, m: dict, earlier: dict[str, Row]) -> Row:
    """One claim's row: "not testable here" where this machine lacks what it needs; else its evidence and,
    where any of it could disagree, the check's answer."""
    where = sections.cite_all(claim.refs)
    if claim.needs and not m["can"][claim.needs]:
        return Row(claim.id, claim.says, claims.NOT_TESTABLE, f"needs {claims.NEEDS[claim.needs]}; there it "
                   f"measures {claim.test}", where, (Part(f"the course's reading: {claim.verdict}: {claim.why}",
                                                          NONE),), None)
    parts = tuple(EVIDENCE[claim.id](m))
    check = None
    if any(p.kind in CHECKABLE for p in parts):
        try:
            if claim.id in SUMMED:
                agrees = _summed_rows_agree(claim.id, earlier)
            else:
                agrees = CHECKS[claim.id](m)
            check = AGREES if agrees else DISAGREES
        except Missing:
            check = WAITING
        except Busy:
            check = BUSY
    return Row(claim.id, claim.says, claim.verdict, claim.why, where, parts, check)


def _summed_rows_agree(claim_id: str, earlier: dict[str, Row]) -> bool:
    checks = [earlier[i].check for i in SUMMED[claim_id] if earlier[i].check is not None]
    if DISAGREES in checks:
        return False
    if WAITING in checks:
        raise Missing(claim_id)
    if BUSY in checks:
        raise Busy(claim_id)
    return True


def rows(m: dict) -> list[Row]:
    """Every claim's row, in the articles' order."""
    done: dict[str, Row] = {}
    for claim in claims.CLAIMS:
        done[claim.id] = judge(claim, m, done)
    return list(done.values())

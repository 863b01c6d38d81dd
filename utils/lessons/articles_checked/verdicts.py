"""Each claim's evidence line, from this run's measurements (``measure``) and the results files, and the
checks that flag evidence disagreeing with its verdict.

Introduced in lesson 09. ``measure(plan)`` runs everything quick (about 20 s on 2 CPU cores); ``rows(m)``
gives one (id, what it says, verdict, evidence, source) row per claim of ``claims.CLAIMS``.
"""

from __future__ import annotations

from utils import devices
from utils.lessons.articles_checked import claims, evidence as ev, snippets

MEASURED, DATASHEET, CALCULATED = "measured here", "datasheet", "calculated"
ARTICLE_2_ONLY = ("device_ids", "no_move_after_wrap")  # mistakes of article 2's code, not article 1's


def measure(plan) -> dict:
    """Every quick measurement of the lesson, by name."""
    return {"fold": ev.conv_pool_fold(), "maxpool": ev.conv_maxpool_is_not_linear(), "prune": ev.pruning_costs(),
            "csr": ev.sparse_at(0.05), "algorithms": ev.attention_and_gelu(), "width": ev.width_scaling(),
            "threads": ev.threads_speedup(), "blocks": ev.attention_ffn_times(), "peaks": ev.peaks(),
            "link": ev.link(plan), "pack": ev.pack_cost(), "sheet": ev.datasheet_ratios(),
            "bytes": ev.step_bytes(), "hw": devices.hardware(), "split": snippets.split_steps(plan.devices),
            "conv": snippets.conv_steps(plan.devices), "os": snippets.os_not_imported(),
            "ddp": snippets.ddp_walk()}


def _from_results(ledger_name: str, bench_name: str, lesson: str, say) -> ev.Evidence:
    record, where = ev.results_figure(ledger_name, bench_name, lesson)
    return ev.Evidence(say(record) if record else "no figure yet", where)


def _ratio(r) -> str:
    return f"{r['value']:.2f}{r['unit']} against a bound of {r['bound']:.2f}{r['unit']}"


def _walk(walk, skip=(), start: int = 1) -> str:
    """The DDP walk as numbered steps, in the order Python met them; the last is the fixed run."""
    steps = [text for fix, text in walk if fix not in skip]
    return "; ".join(f"{k}. {text}" for k, text in enumerate(steps, start))


def _link_text(m) -> str:
    hw = m["hw"]
    if hw.link and len(hw.gpus) >= 2:
        peer = {True: "yes", False: "no", None: "unknown"}[hw.link.peer_access]
        return f"this machine: GPU 0 - GPU 1 over {hw.link.describe()}, peer access {peer}"
    return f"two T4s (Kaggle) join over {m['sheet']['t4_link']}; two A100 SXM over NVLink 3"


def _peak(m, dtype: str) -> str:
    try:
        other, fp32 = m["peaks"].peak(dtype), m["peaks"].peak("fp32")
    except KeyError:
        return f"no {dtype} matmul measured in this mode"
    noisy = " (wide spread: a busy machine)" if max(other.spread, fp32.spread) > 0.5 else ""
    return f"{other.name}: {other.best / fp32.best:.1f}x the fp32 peak{noisy} ({devices.cpu_isa()})"


def _sends(m) -> str:
    sec = dict(zip(m["link"].fit.sizes, m["link"].seconds))
    return (f"{m['link'].name}: 1 MiB of fp32 sent in {sec[2**20] * 1e6:.0f} µs; as uint8 (256 KiB) "
            f"{sec[2**18] * 1e6:.0f} µs, plus {m['pack'] * 1e6:.0f} µs to pack and unpack; a 4-byte message "
            f"still {sec[4] * 1e6:.0f} µs")


def _gpt3(m) -> str:
    flops = 6 * 175e9 * 300e9  # 6N per token, about 300e9 training tokens
    years = flops / m["sheet"]["h100_bf16"] / 3.15e7
    return (f"GPT-3: {flops:.1e} FLOPs of training, {years:.0f} years of one H100 at its bf16 peak; its "
            f"weights and AdamW state ({175e9 * 16 / 1e12:.1f} TB) against {m['sheet']['h100_memory'] / 1e9:.0f} GB")


EVIDENCE = {
    "A1": lambda m: ev.Evidence(f"6N FLOPs per token: GPT-3 {6 * 175e9:.2e}, BERT-large {6 * 3.4e8:.1e}; the "
                                f"formula against torch's counter on a GPT step: "
                                f"{m['width']['counted_over_formula']:.3f}x", MEASURED + ", " + CALCULATED),
    "A2": lambda m: ev.Evidence(_gpt3(m), CALCULATED + ", " + DATASHEET),
    "A3": lambda m: _from_results("ddp_speedup", "ddp", "03", lambda r: "two DDP workers: " + _ratio(r)),
    "A4": lambda m: _from_results("ddp_speedup", "ddp", "03", lambda r: f"at {r['value']:.2f}x, two GPUs cost "
                                  f"{2 / r['value']:.2f}x the GPU-hours of one"),
    "A5": lambda m: ev.Evidence(_link_text(m), "NVML" if m["hw"].link else DATASHEET),
    "A6": lambda m: ev.Evidence(f"a step of the small GPT: {m['bytes']['in'] / 1024:.0f} KiB of tokens in, "
                                f"{m['bytes']['out']} bytes of loss out; {m['bytes']['stay'] / 2**20:.1f} MiB of "
                                "weights, gradients and AdamW state stay", CALCULATED),
    "A7": lambda m: ev.Evidence(f"two T4s: {m['sheet']['t4_link']}, no NVLink; AMD Instinct: Infinity Fabric "
                                "(AMD's documentation)", DATASHEET),
    "A8": lambda m: ev.Evidence("A100: NVLink 3 {:.0f} against PCIe 4 {:.1f} GB/s; H100: NVLink 4 {:.0f} against "
                                "PCIe 5 {:.0f} GB/s".format(*(x / 1e9 for x in m["sheet"]["a100"] + m["sheet"]["h100"])),
                                DATASHEET),
    "A9": lambda m: ev.Evidence("two NVLinked GPUs: lesson 03's all-reduce of a few bytes, NVLink against PCIe "
                                "(NCCL_P2P_DISABLE=1)", "needs two NVLinked GPUs"),
    "A10": lambda m: ev.Evidence(" / ".join(_from_results(n, b, "02", s).text for n, b, s in (
        ("naive_split_speedup", "naive_split", lambda r: "split alone: " + _ratio(r)),
        ("pipeline_speedup", "pipeline", lambda r: "with micro-batches: " + _ratio(r)))),
        ev.results_figure("pipeline_speedup", "pipeline", "02")[1]),
    "A11": lambda m: ev.Evidence(_attention_ffn(m["blocks"]), MEASURED),
    "A12": lambda m: ev.Evidence("; ".join(f"{k + 1}. {s}" for k, s in enumerate(m["split"])) + " (meta: a "
                                 "device with no storage standing in for a second GPU)", MEASURED),
    "A13": lambda m: ev.Evidence(f"avg pool folded into a 4x4 stride-2 conv: equal within {m['fold']['diff']:.0e}, "
                                 f"{m['fold']['flops_ratio']:.2f} of the FLOPs; conv + max pool is not linear: "
                                 f"f(x+y) - f(x) - f(y) up to {m['maxpool']:.1f}", MEASURED),
    "A14": lambda m: ev.Evidence("; ".join(m["conv"]) + "; one layer, 448 parameters, nothing merged", MEASURED),
    "A15": lambda m: _from_results("fsdp_bytes", "fsdp", "06", lambda r: f"DDP: the whole model on each rank; "
                                   f"FSDP2: {r['value']:.2f}x of DDP's bytes per rank"),
    "A16": lambda m: ev.Evidence(_walk(m["ddp"], ARTICLE_2_ONLY), MEASURED),
    "A17": lambda m: ev.Evidence("rows A10, A13 and A15", "the rows above"),
    "B1": lambda m: ev.Evidence(f"the same training step on 2 cores: {m['threads']:.2f}x faster than on 1 "
                                "(bound 2x)", MEASURED),
    "B2": lambda m: ev.Evidence(f"{m['link'].name}: alpha {m['link'].fit.alpha * 1e6:.0f} µs a message, "
                                f"{m['link'].fit.alpha / m['link'].fit.time(4096):.0%} of a 4 KiB message's time",
                                MEASURED),
    "B3": lambda m: ev.Evidence(f"width x2: FLOPs x{m['width']['flops_ratio']:.1f}, step time "
                                f"x{m['width']['time_ratio']:.1f}", MEASURED),
    "B4": lambda m: ev.Evidence(f"fused attention {m['algorithms']['attention']:.1f}x faster than the naive one, "
                                "same result", MEASURED),
    "B5": lambda m: EVIDENCE["A10"](m),
    "B6": lambda m: ev.Evidence(f"H100 bf16 against T4 fp16: {m['sheet']['h100_bf16_over_t4_fp16']:.0f}x the peak",
                                DATASHEET),
    "B7": lambda m: ev.Evidence("lesson 06 on a GPU: reserved against allocated memory, and "
                                "expandable_segments", "needs a GPU run of lesson 06"),
    "B8": lambda m: ev.Evidence(_sends(m), MEASURED),
    "B9": lambda m: _from_results("prefetch_epoch", "prefetch", "05", _prefetch),
    "B10": lambda m: ev.Evidence("two machines under torchrun (lesson 03's route) would test it", "needs two nodes"),
    "B11": lambda m: _from_results("quantize_speedup", "quantize", "04",
                                   lambda r: f"int8 MLP {r['value']:.1f}x against its reference {r['bound']:.1f}x; "
                                             "pruning: row B12"),
    "B12": lambda m: ev.Evidence(f"half the weights zeroed: {m['prune']['zeroed'] / m['prune']['dense']:.2f}x the "
                                 f"dense time; half the neurons removed (0.5 of the FLOPs): "
                                 f"{m['prune']['removed'] / m['prune']['dense']:.2f}x; CSR at 95% zeros: "
                                 f"{m['csr']:.2f}x", MEASURED),
    "B13": lambda m: ev.Evidence(_peak(m, "int8"), MEASURED),
    "B14": lambda m: ev.Evidence(f"GELU fused into one kernel: {m['algorithms']['gelu']:.1f}x the op-by-op speed",
                                 MEASURED),
    "B15": lambda m: ev.Evidence(_peak(m, "bf16"), MEASURED),
    "B16": lambda m: _from_results("ddp_speedup", "ddp", "03", lambda r: "two DDP workers: " + _ratio(r)),
    "B17": lambda m: ev.Evidence(f"1. {m['os']}; " + _walk(m["ddp"], start=2) + " (lesson 03's rebuild trains "
                                 "article 1's MLP; article 2 names its loader dataloader)", MEASURED),
    "B18": lambda m: ev.Evidence("rows B1-B17", "the rows above"),
}


def _attention_ffn(b: dict) -> str:
    a, f = b["attention"], b["ffn"]
    return (f"attention {a * 1e3:.1f} ms, FFN {f * 1e3:.1f} ms a block: as written one device at a time (1x); "
            f"with micro-batches at most {(a + f) / max(a, f):.2f}x, less 2 crossings a block")


def _prefetch(r: dict) -> str:
    configs = r.get("configs", {})
    slow = configs.get("no workers", {}).get("seconds")
    head = f"no workers {slow:.2f} s; " if slow else ""
    return f"{head}best {r['value']:.2f} s against max(load, compute) {r['bound']:.2f} s"


def evidence(claim_id: str, m: dict) -> ev.Evidence:
    """The evidence line of one claim (every id of ``claims.IDS`` has one), flagged where it disagrees."""
    found = EVIDENCE[claim_id](m)
    check = CHECKS.get(claim_id)
    if check is not None and not check(m):
        return ev.Evidence(found.text + " -- this run disagrees with the verdict", found.source)
    return found


def _stopped(step: str) -> bool:
    return "Error" in step


CHECKS = {  # what the evidence must show for the verdict to stand; a failed check is printed on the row
    "A8": lambda m: all(nv > pcie for nv, pcie in (m["sheet"]["a100"], m["sheet"]["h100"])),
    "A12": lambda m: _stopped(m["split"][0]) and not _stopped(m["split"][-1]),
    "A13": lambda m: m["fold"]["diff"] < 1e-4 and m["maxpool"] > 1e-3,
    "A16": lambda m: m["ddp"][-1][0] == "ran" and any(_stopped(t) for _, t in m["ddp"]),
    "B1": lambda m: m["threads"] > 1.1,
    "B3": lambda m: m["width"]["time_ratio"] > 1.5,
    "B4": lambda m: m["algorithms"]["attention"] > 1.0,
    "B12": lambda m: m["prune"]["removed"] < 0.8 * m["prune"]["dense"] < m["prune"]["zeroed"],
    "B13": lambda m: "no int8" in _peak(m, "int8") or m["peaks"].peak("int8").best > m["peaks"].peak("fp32").best,
    "B14": lambda m: m["algorithms"]["gelu"] > 1.0,
    "B15": lambda m: "no bf16" in _peak(m, "bf16") or m["peaks"].peak("bf16").best > m["peaks"].peak("fp32").best,
    "B17": lambda m: _stopped(m["os"]) and m["ddp"][-1][0] == "ran",
}


def rows(m: dict) -> list[tuple[str, str, str, str, str]]:
    """(id, says, verdict, evidence, source) for every claim, in the articles' order."""
    out = []
    for c in claims.CLAIMS:
        e = evidence(c.id, m)
        out.append((c.id, c.says, c.verdict, e.text, e.source))
    return out

"""Each claim's evidence line, from this run's measurements (``measure``) and the results files.

Introduced in lesson 09. ``measure(plan)`` runs everything quick (about 15 s on 2 CPU cores); ``rows(m)``
gives one (id, what it says, verdict, evidence) row per claim of ``claims.CLAIMS``.
"""

from __future__ import annotations

from utils import devices
from utils.lessons.articles_checked import claims, evidence as ev, snippets

MEASURED, DATASHEET = "measured here", "datasheet"


def measure(plan) -> dict:
    """Every quick measurement of the lesson, by name."""
    return {"fold": ev.conv_pool_fold(), "prune": ev.pruning_costs(), "algorithms": ev.attention_and_gelu(),
            "width": ev.width_scaling(), "blocks": ev.attention_ffn_times(), "peaks": ev.peaks(),
            "link": ev.link(plan), "sheet": ev.datasheet_ratios(), "split": snippets.split_steps(plan.devices),
            "conv": snippets.conv_steps(plan.devices), "os": snippets.os_not_imported(),
            "ddp": snippets.ddp_walk()}


def _from_results(ledger_name: str, bench_name: str, lesson: str, say) -> ev.Evidence:
    record, where = ev.results_figure(ledger_name, bench_name, lesson)
    return ev.Evidence(say(record) if record else "no figure yet", where)


def _ratio(r) -> str:
    return f"{r['value']:.2f}{r['unit']} against a bound of {r['bound']:.2f}{r['unit']}"


def _errors(walk, skip=(), start: int = 1) -> str:
    """The walk's errors, numbered in the order Python met them (``skip``: fixes this article needs not)."""
    errors = [text for fix, text in walk if fix not in skip and fix != "ran"]
    return "; ".join(f"{k}. {text}" for k, text in enumerate(errors, start))


def evidence(claim_id: str, m: dict) -> ev.Evidence:
    """The evidence line of one claim (every id of ``claims.IDS`` has one)."""
    return EVIDENCE[claim_id](m)


EVIDENCE = {
    "A1": lambda m: ev.Evidence(f"a training step counts {m['width']['counted_over_formula']:.3f}x the 6N-per-token "
                                f"formula (FlopCounterMode); GPT-3's 175e9 parameters: {6 * 175e9:.2g} FLOPs a token",
                                MEASURED),
    "A2": lambda m: ev.Evidence(f"a 7e9-parameter model's mixed-precision AdamW state, 16 bytes a parameter: "
                                f"{7e9 * 16 / 1e9:.0f} GB, over one H100's {m['sheet']['h100_memory'] / 1e9:.0f} GB",
                                "calculated (lesson 06's rule), datasheet"),
    "A3": lambda m: _from_results("ddp_speedup", "ddp", "03", lambda r: "two DDP workers: " + _ratio(r)),
    "A4": lambda m: ev.Evidence("no two GPUs here: lesson 00 in 2gpu mode times GPU 0 to GPU 1 directly",
                                "needs two GPUs"),
    "A5": lambda m: ev.Evidence(f"two T4s (Kaggle) talk over {m['sheet']['t4_link']}: no NVLink", DATASHEET),
    "A6": lambda m: ev.Evidence(f"NVLink 4 (18 links) {m['sheet']['nvlink'] / 1e9:.0f} GB/s against PCIe 4.0 x16 "
                                f"{m['sheet']['pcie'] / 1e9:.1f} GB/s: {m['sheet']['nvlink_over_pcie']:.0f}x",
                                DATASHEET),
    "A7": lambda m: _from_results("naive_split_speedup", "naive_split", "02",
                                  lambda r: "naive split on two workers: " + _ratio(r)),
    "A8": lambda m: ev.Evidence(f"attention {m['blocks']['attention'] * 1e3:.1f} ms, then FFN "
                                f"{m['blocks']['ffn'] * 1e3:.1f} ms: split, each device idles while the other "
                                f"works: at best 1x", MEASURED),
    "A9": lambda m: ev.Evidence("; ".join(f"{k + 1}. {s}" for k, s in enumerate(m["split"])), MEASURED),
    "A10": lambda m: ev.Evidence(f"avg pool folded into a 4x4 stride-2 conv: equal within "
                                 f"{m['fold']['diff']:.0e}, {m['fold']['flops_ratio']:.2f} of the FLOPs; max pool "
                                 f"differs from avg by up to {m['fold']['max_gap']:.1f}: no fold", MEASURED),
    "A11": lambda m: ev.Evidence("; ".join(m["conv"]), MEASURED),
    "A12": lambda m: _from_results("ddp_speedup", "ddp", "03", lambda r: "two DDP workers: " + _ratio(r)),
    "A13": lambda m: ev.Evidence(_errors(m["ddp"], snippets.ARTICLE_1_ONLY_SKIPS) + "; fixed: " + m["ddp"][-1][1],
                                 MEASURED),
    "A14": lambda m: ev.Evidence("rows A7, A10 and A12", "the rows above"),
    "B1": lambda m: _from_results("mfu", "mfu", "01", lambda r: f"the step's MFU {r['value']:.0%} of a measured peak"),
    "B2": lambda m: ev.Evidence(f"{m['link'].name}: alpha {m['link'].fit.alpha * 1e6:.0f} µs a message, "
                                f"{m['link'].fit.alpha / m['link'].fit.time(4096):.0%} of a 4 KiB message's time",
                                MEASURED),
    "B3": lambda m: ev.Evidence(f"width x2: FLOPs x{m['width']['flops_ratio']:.1f}, step time "
                                f"x{m['width']['time_ratio']:.1f}", MEASURED),
    "B4": lambda m: ev.Evidence(f"fused attention {m['algorithms']['attention']:.1f}x faster than the naive one, "
                                "same result", MEASURED),
    "B5": lambda m: _from_results("pipeline_speedup", "pipeline", "02",
                                  lambda r: f"a pipeline with micro-batches: {_ratio(r)} (2m/(m+1))"),
    "B6": lambda m: ev.Evidence(f"H100 bf16 against T4 fp16: {m['sheet']['h100_bf16_over_t4_fp16']:.0f}x the peak",
                                DATASHEET),
    "B7": lambda m: ev.Evidence("a GPU run of lesson 06 (the caching allocator's reserved against allocated "
                                "memory) would measure it", "needs a GPU"),
    "B8": lambda m: ev.Evidence(f"on {m['link'].name}, 1 MiB fp32 as uint8: {m['link'].fit.time(2**20) * 1e6:.0f} "
                                f"-> {m['link'].fit.time(2**18) * 1e6:.0f} µs; alpha "
                                f"{m['link'].fit.alpha * 1e6:.0f} µs stays", MEASURED + " (alpha + n/beta fit)"),
    "B9": lambda m: _from_results("prefetch_epoch", "prefetch", "05",
                                  lambda r: f"epoch {r['value']:.2f} s against max(load, compute) "
                                            f"{r['bound']:.2f} s"),
    "B10": lambda m: ev.Evidence("two machines under torchrun (lesson 03's route) would test it", "needs two nodes"),
    "B11": lambda m: _from_results("quantize_speedup", "quantize", "04",
                                   lambda r: f"int8 quantized MLP: {r['value']:.1f}x against its reference "
                                             f"{r['bound']:.1f}x"),
    "B12": lambda m: ev.Evidence(f"half the weights zeroed: {m['prune']['zeroed'] / m['prune']['dense']:.2f}x the "
                                 f"dense time; half the neurons removed: "
                                 f"{m['prune']['removed'] / m['prune']['dense']:.2f}x", MEASURED),
    "B13": lambda m: ev.Evidence(_peak_ratio(m["peaks"], "int8"), MEASURED),
    "B14": lambda m: ev.Evidence(f"GELU fused into one kernel: {m['algorithms']['gelu']:.1f}x the op-by-op speed",
                                 MEASURED),
    "B15": lambda m: ev.Evidence(_peak_ratio(m["peaks"], "bf16"), MEASURED),
    "B16": lambda m: _from_results("ddp_speedup", "ddp", "03", lambda r: "two DDP workers: " + _ratio(r)),
    "B17": lambda m: ev.Evidence(f"1. {m['os']}; " + _errors(m["ddp"], start=2) + "; fixed: " + m["ddp"][-1][1],
                                 MEASURED),
}


def _peak_ratio(profile, dtype: str) -> str:
    try:
        other, fp32 = profile.peak(dtype), profile.peak("fp32")
    except KeyError:
        return f"no {dtype} matmul measured in this mode"
    return f"{other.name}: {other.best / fp32.best:.1f}x the fp32 peak ({devices.cpu_isa()})"


def rows(m: dict) -> list[tuple[str, str, str, str, str]]:
    """(id, says, verdict, evidence, source) for every claim, in the articles' order."""
    out = []
    for c in claims.CLAIMS:
        e = evidence(c.id, m)
        out.append((c.id, c.says, c.verdict, e.text, e.source))
    return out

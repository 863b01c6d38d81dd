"""Lesson 01 §5's two fused pairs, written to the ledger: naive against fused attention
(``fused_attention_speedup``) and GELU op by op against ``F.gelu`` (``fused_gelu_speedup``). Lesson 09's rows B4
and B14 time the same pairs again on this page's sizes; with lesson 01's own figures kept, they can set the two
runs side by side and say whether they agree.

Each record holds the speed-up as lesson 01 prints it, the median of the rounds' own ratios (``value``) ± their
spread (``spread``); the two fastest times and their ratio (``slow_ms``, ``fast_ms``, ``fastest``), which
lesson 01's details print labelled as the fastest times' ratio, with no ± (so a reader finds each figure on
lesson 01's page); every round's ratio; and the sizes and device the pair was timed on (lesson 09 compares its
own run with a record only where both match).
"""

from __future__ import annotations

from utils import ledger
from utils.lessons.why_slow.algorithms import printed_ms

NAMES = {"fused_attention": "fused_attention_speedup", "gelu_fused": "fused_gelu_speedup"}  # by the fast version


def record_fused_pairs(comparisons, attention: dict, gelu_x) -> None:
    """Record section 5's attention pair and its op-by-op GELU against the fused kernel (not the compiled
    one). ``attention``: the lesson's sizes (batch, heads, tokens, head_dim); ``gelu_x``: the tensor GELU
    ran over (its size and device). Returns nothing: a cell ending with it prints nothing."""
    device = gelu_x.device.type  # "cpu" or "cuda": lesson 09 compares a CPU run only with a CPU run
    sizes = {"fused_attention": [attention[k] for k in ("batch", "heads", "tokens", "head_dim")],
             "gelu_fused": [gelu_x.numel()]}
    whats = {"fused_attention": "naive against fused causal attention, batch {}, {} heads, {} tokens, head size {}, "
                                "fp32".format(*sizes["fused_attention"]),
             "gelu_fused": f"GELU op by op against F.gelu, {gelu_x.numel():,} fp32 values"}
    for c in comparisons:
        if c.fast in NAMES:
            record_pair(NAMES[c.fast], c, f"{whats[c.fast]}, on {device}", sizes[c.fast], device)


def record_pair(name: str, c, what: str, sizes: list[int], device: str) -> None:
    """One ``algorithms.Comparison`` as lesson 01 prints it: the speed-up, its rounds' median, and their spread
    with two decimals (``Comparison.median``, ``Comparison.spread``: the ± beside the figure it was measured
    around, reader t28_09 #5); the fastest times' ratio apart, as ``fastest``; the times in ms to three figures
    (``printed_ms``); the pair's bytes ceiling, where it has one, as its bound."""
    ledger.record(name, c.median, "x", bound=c.ceiling, lesson="01", what=what,
                  rounds=list(c.round_ratios), spread=c.spread, fastest=float(f"{c.fastest_ratio:.2f}"),
                  slow_ms=printed_ms(c.slow_seconds), fast_ms=printed_ms(c.fast_seconds), sizes=sizes,
                  device=device)

"""The figures lesson 09 reads from the lessons' ledger and make bench's file, by short name (``read_results``),
and which lesson or benchmark records each (``WHERE_TO_RECORD``). Split out of ``figures`` (which re-exports
them) to keep each module under the course's 600 lines. Introduced in lesson 09.
"""

from __future__ import annotations

from utils.lessons.articles_checked.sources import from_bench, from_ledger, results_figure


def read_results() -> dict:
    """Every recorded figure the rows quote, by short name (None where nothing is recorded yet)."""
    return {"ddp": results_figure("ddp_speedup", "ddp", gpu_figure=True),
            "naive_split": results_figure("naive_split_speedup", "naive_split", gpu_figure=True),
            "pipeline": results_figure("pipeline_speedup", "pipeline", gpu_figure=True),
            "capstone": results_figure("capstone_speedup", "capstone", gpu_figure=True),
            "quantize": results_figure("quantize_speedup", "quantize", gpu_figure=False),
            "quantize_small": from_ledger("quantize_small_batch_speedup", gpu_figure=False),  # §4's batch 1
            "pruned_zeros": from_ledger("pruned_zeros_speedup", gpu_figure=False),  # §3's 50% zeros (row B12)
            "mfu": results_figure("mfu", "mfu", gpu_figure=False),
            # this run's lesson 05 (the ledger keeps its best epoch) first; make bench's run, which keeps every
            # configuration (before and after) and may come from another machine, beside it (row B9)
            "prefetch": (from_ledger("prefetch_epoch", gpu_figure=True)
                         or from_bench("prefetch", gpu_figure=True)),
            "prefetch_configs": from_bench("prefetch", gpu_figure=True),
            "fsdp": from_bench("fsdp", gpu_figure=True), "prune": from_bench("prune", gpu_figure=False),
            "decode": from_bench("tensor_parallel", gpu_figure=True),
            # every pipeline configuration make bench tried for lesson 02 (the ledger keeps only the best)
            "pipeline_configs": from_bench("pipeline", gpu_figure=True),
            # the machine profile's link (lesson 00): the one alpha and beta the rows price messages at
            "link_alpha": from_ledger("link_alpha", gpu_figure=True),
            "link_beta": from_ledger("link_beta", gpu_figure=True),
            # lesson 00's own message times (row B2 sets a 4-byte message slower than a 4 KiB one beside them)
            "link_00": from_ledger("link_this_run_00", gpu_figure=True),
            "link_residual": from_ledger("link_fit_worst_residual", gpu_figure=True),  # the profile's own ±
            "allreduce_fit": from_ledger("allreduce_fit_beta", gpu_figure=True),  # lesson 07's (row B2 prices)
            # make bench's DDP and capstone runs, set beside lessons 03 and 08 (the note under §1's counts)
            "ddp_bench": from_bench("ddp", True), "capstone_bench": from_bench("capstone", True),
            "quantize_bench": from_bench("quantize", False),  # make bench's int8 MLP, beside lesson 04's
            "naive_split_bench": from_bench("naive_split", True),  # make bench's split alone, beside lesson 02's
            # lesson 07 §1's tensor-parallel pass (row A21 sets it beside this page's own rounds)
            "tensor_parallel": from_ledger("tensor_parallel_speedup", gpu_figure=True),
            # lesson 07's split MLP step (row A21 sets it beside make bench's MLP block)
            "tensor_parallel_mlp": from_ledger("tensor_parallel_mlp_step_speedup", gpu_figure=True),
            # lesson 07 §5's decode: the share of its loss timed inside the all-reduces (row B2)
            "decode_allreduce": from_ledger("tensor_parallel_decode_allreduce_share", gpu_figure=True),
            # lesson 07 §1's article split (rows A11 and A19 set it beside this page's own rounds)
            "article_split": from_ledger("article_split_speedup", gpu_figure=True),
            # lesson 01 §5's fused pairs (rows B4 and B14 set them beside this page's own rounds on the CPU)
            "fused_attention": from_ledger("fused_attention_speedup", gpu_figure=False),
            "fused_gelu": from_ledger("fused_gelu_speedup", gpu_figure=False),
            # lesson 02 §9's schedules with two stages per device (row A19 reads them)
            **{name: from_ledger(f"pipeline_{name}_speedup", gpu_figure=True) for name in TWO_STAGES}}


# Lesson 02 §9's schedules with two stages per device, by short name (its ledger name: pipeline_<name>_speedup)
TWO_STAGES = {"interleaved_1f1b": "interleaved 1F1B", "zb": "interleaved ZB", "zbv": "ZBV"}


WHERE_TO_RECORD = {"ddp": "lesson 03", "naive_split": "lesson 02", "pipeline": "lesson 02",
                   "capstone": "lesson 08", "quantize": "lesson 04", "quantize_small": "lesson 04",
                   "pruned_zeros": "lesson 04",
                   "mfu": "lesson 01", "prefetch": "lesson 05",
                   "prefetch_configs": "make bench prefetch",
                   "fsdp": "make bench fsdp", "prune": "make bench prune", "decode": "make bench tensor_parallel",
                   "pipeline_configs": "make bench pipeline",
                   "link_alpha": "lesson 00", "link_beta": "lesson 00", "link_00": "lesson 00",
                   "tensor_parallel": "lesson 07", "tensor_parallel_mlp": "lesson 07",
                   "decode_allreduce": "lesson 07",
                   "article_split": "lesson 07", "fused_attention": "lesson 01", "fused_gelu": "lesson 01",
                   **{name: "lesson 02" for name in TWO_STAGES}}

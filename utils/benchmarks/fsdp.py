"""Benchmark ``fsdp`` (lesson 06): per-rank bytes of parameters + gradients + AdamW state under FSDP2 on two
workers, divided by the same under DDP; bound 0.5 (each rank holds half). ``python -m utils.benchmarks fsdp``.
"""

from __future__ import annotations

from utils import bench
from utils.launch import launch
from utils.lessons.memory.plan import current_settings
from utils.lessons.memory.sharding import train_sharded

BOUND = 0.5  # 1/N on two ranks


@bench.register("fsdp")
def bench_fsdp() -> bench.Result:
    """Lesson 06: FSDP2 / DDP bytes of state per rank (the larger rank), and the largest loss gap between them."""
    s = current_settings()
    runs = {name: launch(train_sharded, s, name, nprocs=2, timeout=300) for name in ("ddp", "fsdp")}
    ddp, fsdp = (max(r["state_bytes"] for r in runs[k]) for k in ("ddp", "fsdp"))
    gap = max(abs(a - b) for r1, r2 in zip(runs["ddp"], runs["fsdp"])
              for a, b in zip(r1["losses"], r2["losses"]))
    return bench.Result("fsdp", measured=fsdp / ddp, bound=BOUND, unit="x DDP's bytes",
                        ratio_to_bound=(fsdp / ddp) / BOUND,
                        note=f"params + grads + AdamW state per rank, FSDP2 {fsdp / 1e6:.2f} MB, DDP "
                             f"{ddp / 1e6:.2f} MB; largest loss gap {gap:.1e}{s.shard_label}",
                        extra={"fsdp_bytes": fsdp, "ddp_bytes": ddp, "loss_gap": gap,
                               "sent_per_step": {k: runs[k][0]["sent_per_step"] for k in runs},
                               "calls_per_step": {k: runs[k][0]["calls_per_step"] for k in runs},
                               "collective_seconds_per_step": {k: runs[k][0]["collective_seconds_per_step"]
                                                               for k in runs},
                               "mean_step_seconds": {k: runs[k][0]["mean_step_seconds"] for k in runs}})

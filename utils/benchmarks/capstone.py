"""Benchmark ``capstone``: lesson 08's ladder, the kept steps' tokens/s over the baseline's, against the last
kept step at 100 % MFU (its precision's matmul peak on each of its workers).

The same steps, run the same way as the lesson's (``ladder.Climb``: each step against the steps kept before
it in alternating paired launches, kept when it paid beyond the noise of its rounds (``ladder.paid``); compile last, its first launch into an empty inductor
cache: what a first run on a new machine pays); the note lists each step's gain and bound, and the CPU's ISA
or the GPU.
"""

import math

from utils import bench, devices
from utils.lessons.putting_it_together import guide, ladder, plan, profile, report


def hardware_note(p: devices.Plan, hw: devices.Hardware) -> str:
    if p.simulated or not hw.gpus:
        return f"CPU ISA {devices.cpu_isa()}"
    return f"{hw.gpus[0].name} x{p.world_size}"


def climb_ladder(S: plan.LessonSettings, p: devices.Plan, hw: devices.Hardware) -> list[dict]:
    """Profile, ask the guide, climb every step: the rows of the lesson's ledger (peak memory left out)."""
    B = S.training
    found = profile.look_first(B, S.probe_n, p.simulated, S.probe_iterations)
    load, compute, peaks = found["load"], found["compute"], found["peaks"]
    base = ladder.Rung("baseline", B, 1, None, "the starting point")
    runs = [ladder.run_rung(base)]
    found_profile = profile.guide_profile(found, S.shape)
    steps = {s.step: s for s in guide.guide(S.shape, B.batch_per_worker, p, hw, found_profile,
                                            run_steps=S.run_steps)}
    climb = ladder.Climb(base, steps, peaks, (load + compute) / max(load, compute), ladder.vocab_of(B),
                         S.max_growth, S.rounds, found_profile.share("matmul"), S.run_steps,
                         optimizer_s=found["optimizer"], base_runs=runs,
                         matmul_speedup=found_profile.matmul_speedup)
    for name in ladder.ORDER:
        climb.step(name)
    return report.step_rows(climb.base_runs, climb.compared, climb.keep, {}, S.loss_tolerance, climb.held_out,
                            climb.mfu, climb.why)


@bench.register("capstone")
def capstone_benchmark() -> bench.Result:
    """The small GPT's ladder at the lesson's sizes for this machine."""
    p, hw = devices.plan(2), devices.hardware()
    S = plan.lesson_settings(p, hw)
    rows = climb_ladder(S, p, hw)
    last = report.final(rows)
    steps = "; ".join(f"{r['step']} {r['x_prev']:.2f}x (bound {r['bound']:.2f}x)" if r["bound"] else
                      f"{r['step']} {r['x_prev']:.2f}x" for r in report.ran(rows)[1:])
    kept = [r["step"] for r in report.ran(rows)[1:] if r["kept"]]
    cannot = "; ".join(f"{r['step']} cannot pay: {r['skipped']}" for r in rows if "skipped" in r)
    not_kept = "; ".join(f"{r['step']} not kept: {r['why']}" for r in report.ran(rows)[1:] if not r["kept"])
    note = (f"small GPT {S.width_why}; {S.training.batch_per_worker} sequences a step{S.label}; "
            f"{steps}; kept: {', '.join(kept) or 'none'}" + "".join(f"; {x}" for x in (not_kept, cannot) if x)
            + f"; {hardware_note(p, hw)}")
    per_step = {r["step"]: {"x_previous": round(r["x_prev"], 3), "kept": r["kept"], "bound": r["bound"],
                            "within_bound": r["within"], "rounds": [round(x, 3) for x in r["ratios"]],
                            "mfu": round(r["mfu"], 4), "held_out_loss": round(r["loss"], 4), "why": r["why"]}
                for r in report.ran(rows)[1:]}
    bound = report.total_bound(rows) or math.inf
    return bench.Result("capstone", measured=last["x_base"], bound=bound, unit="x",
                        note=note, extra={"steps": per_step})

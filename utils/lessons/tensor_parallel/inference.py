"""Inference on two devices (lesson 07, section 5): greedy generation with the small GPT on one device,
two-way tensor parallel (every block split: ``TensorParallelBlock``, lab 07's reference) and a two-stage
pipeline (first half of the blocks on rank 0, second half and the head on rank 1, the batch cut into
micro-batches);
per-token latency at batch 1 and tokens per second at larger batches.

No KV cache: each new token runs the whole sequence again, as ``utils.models.GPT.generate`` does. All three
produce the same tokens (greedy: the largest logit). One launch: for each batch size, rounds of the three
methods alternate (rank 1 waits while rank 0 runs alone), and the fastest round of each counts.
"""

from __future__ import annotations

import dataclasses
import time

import torch
import torch.distributed as dist
from torch import nn

from utils import claims, models
from utils.launch import current_backend, process_group
from utils.lessons.tensor_parallel.attention_reference import TensorParallelBlock


@dataclasses.dataclass(frozen=True)
class Generation:
    """The GPT's size, the prompt, how many tokens each run generates, and the batch sizes compared."""

    width: int = 256
    depth: int = 4
    heads: int = 4
    vocab: int = 65
    prompt: int = 24
    new_tokens: int = 8
    batches: tuple[int, ...] = (1, 4, 16)
    micro_batches: int = 4  # of the pipeline, at most the batch size
    rounds: int = 4
    threads: int | None = None
    seed: int = 0

    def gpt(self) -> models.GPT:
        return models.small_gpt(self.vocab, seed=self.seed, context=self.prompt + self.new_tokens,
                                width=self.width, depth=self.depth, heads=self.heads)

    def prompts(self, batch: int) -> torch.Tensor:
        g = torch.Generator().manual_seed(self.seed)
        return torch.randint(0, self.vocab, (batch, self.prompt), generator=g)


def greedy(model: nn.Module, idx: torch.Tensor, new_tokens: int) -> torch.Tensor:
    """Append ``new_tokens`` tokens, each the largest logit of the last position (one device, or TP)."""
    for _ in range(new_tokens):
        idx = torch.cat([idx, model(idx)[:, -1].argmax(-1, keepdim=True)], dim=1)
    return idx


def _isend(t: torch.Tensor, peer: int, keep: list):
    t = t.cpu() if current_backend() == "gloo" else t  # gloo sends CPU tensors only
    keep.append(t)
    return dist.isend(t, peer)


def _recv(shape, dtype, device, peer: int) -> torch.Tensor:
    buf = torch.empty(shape, dtype=dtype, device="cpu" if current_backend() == "gloo" else device)
    dist.recv(buf, peer)
    return buf.to(device)


def pipeline_greedy(stage: nn.Module, idx: torch.Tensor, new_tokens: int, micro: int, rank: int,
                    width: int) -> torch.Tensor:
    """Greedy generation through two stages: rank 0 sends each micro-batch's activations on as soon as it has
    them and starts the next, rank 1 finishes it and sends the new token back."""
    parts = list(idx.chunk(micro))
    for _ in range(new_tokens):
        keep, sends = [], []
        for k, part in enumerate(parts):
            if rank == 0:
                sends.append(_isend(stage(part), 1, keep))  # (b, T, C) on to stage 1
            else:
                h = _recv((part.shape[0], part.shape[1], width), torch.float32, part.device, 0)
                token = stage(h)[:, -1].argmax(-1, keepdim=True)
                sends.append(_isend(token, 0, keep))
                parts[k] = torch.cat([part, token], dim=1)
        if rank == 0:
            for k, part in enumerate(parts):
                parts[k] = torch.cat([part, _recv((part.shape[0], 1), torch.long, part.device, 1)], dim=1)
        for s in sends:
            s.wait()
    return torch.cat(parts)


def _timed(fn, device) -> tuple[float, torch.Tensor]:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    out = fn()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - start, out


def _methods(g: Generation, device, rank: int, world: int) -> dict:
    """The three ways to run the GPT, each a function of the prompt that returns the generated tokens."""
    one = g.gpt().to(device).eval()
    tp = g.gpt().to(device).eval()
    tp.blocks = nn.ModuleList(TensorParallelBlock(b, rank, world) for b in tp.blocks)
    stages = g.gpt().as_sequential()
    half = 1 + g.depth // 2  # embedding + first half of the blocks | second half + head
    stage = (stages[:half] if rank == 0 else stages[half:]).to(device).eval()
    return {"one device": lambda idx: greedy(one, idx, g.new_tokens) if rank == 0 else idx,
            "tensor parallel": lambda idx: greedy(tp, idx, g.new_tokens),
            "pipeline": lambda idx: pipeline_greedy(stage, idx, g.new_tokens, min(g.micro_batches, len(idx)),
                                                    rank, g.width)}


def inference_worker(g: Generation) -> dict | None:
    """On each worker: every batch size, the three methods in alternating rounds; rank 0 returns seconds per
    run (fastest round) and whether the three generated the same tokens."""
    if g.threads:
        torch.set_num_threads(g.threads)
    with process_group() as device, torch.inference_mode():
        rank, world = dist.get_rank(), dist.get_world_size()
        methods = _methods(g, device, rank, world)
        rows = []
        for batch in g.batches:
            idx = g.prompts(batch).to(device)
            times = {name: [] for name in methods}
            outputs = {}
            for r in range(g.rounds + 1):  # round 0: warm-up
                for name, run in methods.items():
                    dist.barrier()
                    seconds, outputs[name] = _timed(lambda: run(idx), device)
                    if r:
                        times[name].append(seconds)
            same = all(torch.equal(outputs["one device"], o.to(outputs["one device"].device))
                       for o in outputs.values())
            rows.append({"batch": batch, "same_tokens": same, **{k: min(v) for k, v in times.items()},
                         "spread": {k: (max(v) - min(v)) / min(v) for k, v in times.items()}})
        return {"rows": rows, "new_tokens": g.new_tokens} if rank == 0 else None


def step_ms(row: dict, method: str, new_tokens: int) -> float:
    """Milliseconds a generation step of ``method`` in one ``inference_worker`` row (seconds for ``new_tokens``
    steps), as the tables print it: 2 decimals. Every figure worked from a step's time starts from this."""
    return claims.as_printed(row[method] / new_tokens, 2, 1e-3)


def over_one_device(row: dict, method: str, new_tokens: int) -> float:
    """``method``'s speed over one device's as printed (2 decimals), the ratio of their ms a step as printed
    (``step_ms``), so a reader who divides the table's two ms finds the printed x."""
    return claims.as_printed(claims.printed_ratio(row["one device"] / new_tokens, row[method] / new_tokens, 2,
                                                  1e-3), 2)


def tokens_per_s(row: dict, method: str, new_tokens: int) -> float:
    """Tokens a second: the batch's sequences each gain a token a step, over the ms a step as printed."""
    return row["batch"] / (max(step_ms(row, method, new_tokens), 0.01) * 1e-3)   # 0.00 ms counts as 0.01


def tokens_text(row: dict, method: str, new_tokens: int) -> str:
    """``tokens_per_s`` as the tables print it, a whole number rounded half up as a reader rounds (4 / 12.80
    ms = 312.5 -> "313"; Python's format rounds an exact half to even, "312", t35_0708 #2)."""
    return f"{claims.half_up(tokens_per_s(row, method, new_tokens), 0):,.0f}"


def winner(row: dict, new_tokens: int, methods: tuple[str, ...]) -> str:
    """The fastest of ``methods`` in one row, named only when its margin over the next passes the rounds'
    spread (both as printed: the margin from the two ms a step, the spread a whole per cent). A margin that
    prints 0% is said as under 1%, with the two tok/s it comes from (t36_0708 other #3: "leads by 0%")."""
    ranked = sorted(methods, key=lambda m: row[m])
    fast, next_ms = (step_ms(row, m, new_tokens) for m in ranked[:2])
    margin = claims.as_printed(next_ms / max(fast, 0.01) - 1, 2)
    noise = claims.as_printed(max(row["spread"][m] for m in ranked[:2]), 2)
    if margin > noise:
        return f"{ranked[0]} ({margin:.0%} ahead of {ranked[1]}, beyond the rounds' spread of {noise:.0%})"
    if fast == next_ms:   # the same ms a step as printed: neither leads
        return (f"no clear winner: {ranked[0]} and {ranked[1]} tie at {fast:.2f} ms a step, within the rounds' "
                f"spread of {noise:.0%}")
    by = (f"{margin:.0%}" if margin >= 0.01 else   # the two tok/s show what "under 1%" rounds away
          f"under 1% ({tokens_text(row, ranked[0], new_tokens)} against {tokens_text(row, ranked[1], new_tokens)}"
          " tok/s)")
    return f"no clear winner: {ranked[0]} leads {ranked[1]} by {by}, within the rounds' spread of {noise:.0%}"


def printed_noise(x: float, spread: float) -> float:
    """The ± of a speed-up: the speed-up as printed (2 decimals) times the rounds' spread as printed (a whole
    per cent), rounded half up (``claims.half_up``), so that 0.17x with a spread of 56% reads ± 0.10, the
    reader's own product. Not ``claims.printed_spread`` (half the paired ratios' middle half): here the
    rounds' spread is a share of each method's time, so the ± is a product of two printed figures."""
    return claims.half_up(claims.as_printed(x, 2) * claims.as_printed(spread, 2), 2)


def batch_trend(rows: list[dict], new_tokens: int,
                methods: tuple[str, ...] = ("tensor parallel", "pipeline")) -> str:
    """Whether each two-device method kept more of one device's speed as the batch grew, read from the run's
    rows (seconds for ``new_tokens`` steps per method, the rounds' spread per method): its speed-up batch by
    batch (``over_one_device``, as printed), called a rise beyond the rounds' spread only where every
    step up's ± ranges do not touch (``rose_apart``). Lesson 07."""
    said = []
    for method in methods:
        xs = [(r["batch"], over_one_device(r, method, new_tokens),
               claims.as_printed(max(r["spread"]["one device"], r["spread"][method]), 2)) for r in rows]
        steps = list(zip(xs, xs[1:]))   # each batch beside the next larger one
        # each with the ± its verdict reads (``rose_apart``), so a reader can check the ranges touch or not
        figures = ", ".join(f"{x:.2f}x ± {printed_noise(x, n):.2f} at batch {b}" for b, x, n in xs)
        if all(rose_apart(x1, n1, x2, n2) for (_, x1, n1), (_, x2, n2) in steps):
            verdict = ("rose with every larger batch, beyond the rounds' spread: it lost less as the batch "
                       "grew")
        elif all(x2 > x1 for (_, x1, _), (_, x2, _) in steps):
            verdict = _rise_in_part(xs, steps)
        else:
            verdict = _no_rise(steps)
        said.append(f"{method} {figures}: {verdict}")
    return f"Larger batches, expected to lose less to communication ({PLUS_MINUS}): " + "; ".join(said)


# The ± is defined where it is first printed: a reader who met sections 1 and 4's paired ± (half the paired
# ratios' middle-half range) would otherwise read that one here (t38_0708).
PLUS_MINUS = ("each ± is the speed-up times the rounds' spread, the larger (slowest - fastest) / fastest of "
              "one device's and the method's rounds")


def rose_apart(x1: float, n1: float, x2: float, n2: float) -> bool:
    """The larger batch's speed-up ``x2`` rose beyond the rounds' spread from ``x1``: its range's foot
    (x2 less its ± as the claims table prints it, ``printed_noise``) above the smaller batch's top, the
    lesson's rule for any two figures with a ± ("they differ beyond their noise" only where the ranges do
    not touch). ``n1``, ``n2``: each batch's rounds' spread (a share)."""
    return claims.half_up(x2 - printed_noise(x2, n2), 2) > claims.half_up(x1 + printed_noise(x1, n1), 2)


def _no_rise(steps: list[tuple]) -> str:
    """Some step up did not rise: where one fell beyond the rounds' spread (the larger batch's top below the
    smaller's foot, ``rose_apart`` read the other way), every step is named in order, the drop, a rise beyond
    the spread and a step within it, not the drop alone (t32_0708: 0.77x ± 0.10 at batch 1 to 0.53x ± 0.05 at
    batch 4; t33_0708 other #2: 0.83x, 0.56x, 0.67x told only its fall)."""
    if not any(rose_apart(x2, n2, x1, n1) for (_, x1, n1), (_, x2, n2) in steps):
        return "did not rise with every larger batch: the expected trend did not show in this run"
    said = []
    for (b1, x1, n1), (b2, x2, n2) in steps:
        spread = "it" if said else "the rounds' spread"   # named once, then "it"
        verb = ("fell beyond" if rose_apart(x2, n2, x1, n1) else
                "rose beyond" if rose_apart(x1, n1, x2, n2) else "stayed within")
        said.append(f"{verb} {spread} from batch {b1} to {b2} ({x1:.2f}x to {x2:.2f}x)")
    return ", then ".join(said) + ": against the expected trend; this run does not time apart why"


def _rise_in_part(xs: list[tuple], steps: list[tuple]) -> str:
    """Every step up rose, not every one beyond the rounds' spread: the smallest batch against the largest,
    by the same rule, says whether the method lost less over the whole range. ``xs``: (batch, speed-up,
    spread) per batch; ``steps``: each beside the next larger."""
    (b0, x0, n0), (bn, xn, nn) = xs[0], xs[-1]
    quiet = [f"from batch {b1} to {b2}" for (b1, x1, n1), (b2, x2, n2) in steps
             if not rose_apart(x1, n1, x2, n2)]  # the steps within their spread
    # one step "lies", two or more "lie": the verb follows how many the run found
    which = (f"the step {quiet[0]} lies" if len(quiet) == 1 else
             "the steps " + ", ".join(quiet[:-1]) + f" and {quiet[-1]} lie")
    if rose_apart(x0, n0, xn, nn):
        return (f"rose from batch {b0} to batch {bn} beyond the rounds' spread ({x0:.2f}x to {xn:.2f}x): it "
                f"lost less as the batch grew, though {which} within that spread")
    # "not every" only where some step did pass the spread; where none did, say none
    some = "no rise" if len(quiet) == len(steps) else "not every rise"
    return (f"rose with every larger batch, {some} beyond the rounds' spread, nor the smallest batch "
            "against the largest: within noise, no trend shown")

"""Lab 00's measurements: the link two workers share, and a model split across them, every message counted.

Introduced in ``labs/00_fix_the_article.ipynb``. Two launched workers stand for the article's two GPUs (two
CPU processes on gloo in ``cpu`` mode, as in lesson 00). Both functions run on the same pair of helpers,
``send`` and ``recv``, so that the link the learner predicts with is the very path the split's messages take:

    link = measure_link()                  # lesson 00's ping-pong, fitted t(n) = alpha + n / beta
    runs = measure_split(cases)            # each case trained for a few steps, every message timed

A case is a model cut in two: layers ``[:cut]`` on rank 0, ``[cut:]`` on rank 1, the loss on rank 1 (which
reads the labels itself, as a loader would hand them to the second device). Each round trains one step and
then sends messages of the step's sizes back and forth (lesson 00's ping-pong): a busy spell that lasts the
round can slow both, a shorter jump only one of the two (the rule counts each round's side of 1, not its size).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

import torch
import torch.distributed as dist
from torch import nn

from utils import devices, launch, machine, models

LINK_SIZES = (4, 2**10, 2**14, 2**16, 2**18, 2**20, 2**22)  # bytes: the range the lab's splits send
LINK_REPEATS = 15  # round trips per size (after LINK_WARMUP untimed), the median kept, as lessons 00 and 01 do
LINK_WARMUP = 3
ROUND_PINGS = 3  # round trips per size in each round of a split, after one untimed (ROUND_WARMUP): rounds are
ROUND_WARMUP = 1  # many, and each follows a training step
TIMEOUT_S = 240


# --- The cases: a model, where it is cut, a batch ----------------------------------------------------------


MODELS = {  # the lab's models, by name: what a Case builds
    "cnn": lambda: models.ArticleCNN(seed=0),
    "cnn half": lambda: models.ArticleCNN(seed=0, scale=0.5),
    "mlp": lambda: models.MLP([256, 512, 128, 10]),
    "mlp 784-1024-64-1024-256-10": lambda: models.MLP([784, 1024, 64, 1024, 256, 10]),
    "mlp 256-512-512-32-10": lambda: models.MLP([256, 512, 512, 32, 10]),
    "mlp 64-128-1024-1024-10": lambda: models.MLP([64, 128, 1024, 1024, 10]),  # its wide layers last
}

INPUTS = {"cnn": (1, 28, 28), "cnn half": (1, 28, 28), "mlp": (256,), "mlp 784-1024-64-1024-256-10": (784,),
          "mlp 256-512-512-32-10": (256,), "mlp 64-128-1024-1024-10": (64,)}  # the shape of one input row of each model


@dataclass(frozen=True)
class Case:
    """A model split in two: layers ``[:cut]`` on the first device, ``[cut:]`` on the second.

    ``model`` is a name in ``MODELS``: "cnn" (article 2's CNN, ``utils.models.ArticleCNN``), "cnn half" (the
    same at half its widths), or an MLP (``utils.models.MLP``) of the widths its name gives; ``frozen`` names
    layers whose parameters do not learn (``requires_grad`` off), as when a pretrained part is fine-tuned
    around."""

    name: str
    model: str
    cut: int
    batch: int
    dtype: torch.dtype = torch.float32
    frozen: tuple[str, ...] = ()

    def build(self) -> nn.Sequential:
        """The case's model, seeded, in its dtype, its frozen layers frozen."""
        with torch.random.fork_rng():  # seeded without touching the notebook's own random state
            torch.manual_seed(0)
            net = MODELS[self.model]().to(self.dtype)
        for name in self.frozen:
            getattr(net, name).requires_grad_(False)
        return net

    def batch_of(self, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
        """An input batch (images for the CNNs, rows as wide as the first layer for an MLP) and its labels (10
        classes)."""
        g = torch.Generator().manual_seed(seed)
        shape = (self.batch, *INPUTS[self.model])
        return torch.randn(shape, generator=g).to(self.dtype), torch.randint(0, 10, (self.batch,), generator=g)


# --- Sending and receiving: the one path both measurements use -------------------------------------------


def send(t: torch.Tensor, peer: int) -> None:
    """gloo sends host memory: a GPU tensor crosses to the host first (1gpu mode); NCCL sends it as it is."""
    if t.is_cuda and dist.get_backend() == "gloo":
        t = t.cpu()
    dist.send(t.contiguous(), dst=peer)


def recv(buf: torch.Tensor, peer: int) -> torch.Tensor:
    """Receive into ``buf``; returns when its bytes are there (a GPU's queue waited for)."""
    if buf.is_cuda and dist.get_backend() == "gloo":
        host = torch.empty(buf.shape, dtype=buf.dtype)
        dist.recv(host, src=peer)
        buf.copy_(host)
    else:
        dist.recv(buf, src=peer)
    if buf.is_cuda:
        torch.cuda.synchronize(buf.device)
    return buf


def _ready(device: torch.device) -> float:
    """The clock, once the device has finished what it was asked (a message's start)."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter()  # CLOCK_MONOTONIC: one clock for every process of this machine


def ping_pong(size: int, repeats: int, device: torch.device, warmup: int = 0) -> list[float]:
    """Lesson 00's measure: ``repeats`` round trips of ``size`` bytes, each halved (one-way seconds)."""
    rank, peer = dist.get_rank(), 1 - dist.get_rank()
    buf = torch.zeros(size, dtype=torch.uint8, device=device)
    times = []
    for k in range(warmup + repeats):
        dist.barrier()
        start = _ready(device)
        for step in ((send, recv) if rank == 0 else (recv, send)):
            step(buf, peer)
        if k >= warmup:
            times.append((time.perf_counter() - start) / 2)
    return times


def link_name(plan: devices.Plan) -> str:
    """The path the lab's two workers use, in lesson 00's words."""
    if plan.backend == "nccl":
        return f"NCCL send/recv, {plan.devices[0]} to {plan.devices[1]}"
    return machine.link_route(plan)[0] if not plan.simulated else machine.GLOO_LINK


def _link_worker(sizes: tuple[int, ...], repeats: int) -> list[float]:
    with launch.process_group() as device:
        return [statistics.median(ping_pong(size, repeats, device, warmup=LINK_WARMUP)) for size in sizes]


def measure_link(sizes: tuple[int, ...] = LINK_SIZES, repeats: int = LINK_REPEATS) -> machine.LinkFit:
    """Lesson 00's alpha + n / beta, fitted now on the path the split's workers use (``machine.link_fit``)."""
    seconds = launch.launch(_link_worker, tuple(sizes), repeats, nprocs=2, timeout=TIMEOUT_S)[0]
    return machine.link_fit(link_name(devices.plan(2)), sizes, seconds)


def kept_link(link_fit: machine.LinkFit, path=None) -> machine.LinkFit | None:
    """Lesson 00's fit of the same path, kept in the machine profile (``machine.saved_link``, the one public
    reader of it), to set beside this lab's: None where the profile keeps none, or one of another path. Read
    only: nothing is measured or written."""
    kept = machine.saved_link("cpu", path or machine.PROFILE_PATH)
    return kept if kept and kept.name == link_fit.name else None


# --- The split, trained for a few steps, every message counted and timed ----------------------------------


@dataclass
class Message:
    """One tensor sent between the two workers: its bytes, and its one-way time (start on the sender's clock,
    arrival on the receiver's: both read the machine's one monotonic clock)."""

    nbytes: int
    sender: int
    seconds: float = 0.0


@dataclass
class SplitRun:
    """What the workers of one case did: each step's messages, and in the same rounds lesson 00's ping-pong
    at each message's size."""

    case: Case
    steps: list[list[Message]] = field(default_factory=list)
    ping_pong: list[list[float]] = field(default_factory=list)  # per round, one-way seconds per message
    held: tuple[int, int] = (0, 0)  # bytes each worker held after a step's backward: parameters and gradients

    @property
    def messages(self) -> list[Message]:
        """The messages of one step (every step sends the same)."""
        return self.steps[0]

    @property
    def bytes_per_step(self) -> int:
        return sum(m.nbytes for m in self.messages)

    def link_seconds(self) -> list[float]:
        """Each round's time on the link: its step's messages, one after the other."""
        return [sum(m.seconds for m in step) for step in self.steps]

    def ping_pong_seconds(self) -> list[float]:
        """Each round's ping-pong of the same sizes, added up the same way."""
        return [sum(r) for r in self.ping_pong]


def _output_shape(module: nn.Module, x: torch.Tensor) -> torch.Size:
    """The shape of ``module(x)``, worked out on the ``meta`` device (no data, no arithmetic)."""
    import copy

    with torch.no_grad():
        return copy.deepcopy(module).to("meta")(x.to("meta")).shape


def _train_step(first, second, x, y, learns: bool, shape, device) -> list[tuple[int, int, float, str]]:
    """One training step of the naive split on this rank: (bytes, sender, clock, "sent" or "arrived") events.

    Rank 0 runs ``first`` and sends its output on; rank 1 receives it, runs ``second`` and the loss, and sends
    the gradient of what it received back, when anything on rank 0 learns from it."""
    rank, events = dist.get_rank(), []
    if rank == 0:
        h = first(x)
        events.append((h.numel() * h.element_size(), 0, _ready(device), "sent"))
        send(h.detach(), 1)
        if learns:
            grad = recv(torch.empty_like(h), 1)
            events.append((grad.numel() * grad.element_size(), 1, time.perf_counter(), "arrived"))
            h.backward(grad)
        return events
    h = recv(torch.empty(shape, dtype=x.dtype, device=device), 0)  # rank 1 knows the shape it will get
    events.append((h.numel() * h.element_size(), 0, time.perf_counter(), "arrived"))
    h.requires_grad_(learns)
    loss = nn.functional.cross_entropy(second(h).float(), y)
    loss.backward()
    if learns:
        events.append((h.grad.numel() * h.grad.element_size(), 1, _ready(device), "sent"))
        send(h.grad, 0)
    return events


def _held_bytes(module: nn.Module) -> int:
    """What ``module`` holds on its worker now: its parameters, and every gradient the backward pass left."""
    tensors = [p for p in module.parameters()] + [p.grad for p in module.parameters() if p.grad is not None]
    return sum(t.numel() * t.element_size() for t in tensors)


def _case_worker_rounds(case: Case, rounds: int, device, pings: bool = True) -> dict:
    """On this rank: ``rounds`` (after one untimed) of one training step, each followed by lesson 00's
    ping-pong at the sizes of the step's messages (``pings``; without it, the steps alone)."""
    model = case.build().to(device)
    first, second = model[:case.cut], model[case.cut:]
    mine = first if dist.get_rank() == 0 else second
    learning = [p for p in mine.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(learning, lr=0.01) if learning else None
    learns = any(p.requires_grad for p in first.parameters())  # does anything before the cut learn?
    x, y = (t.to(device) for t in case.batch_of())
    shape = _output_shape(first, x)
    out = {"steps": [], "ping_pong": [], "held": 0}
    for r in range(1 + rounds):
        dist.barrier()
        if optimizer:
            optimizer.zero_grad()
        events = _train_step(first, second, x, y, learns, shape, device)
        out["held"] = max(out["held"], _held_bytes(mine))  # counted at its peak: after the backward pass
        if optimizer:
            optimizer.step()
        if not r:  # the first round warms up (allocations, first calls)
            continue
        out["steps"].append(events)
        if pings:
            sizes = [n for n, *_ in events]
            out["ping_pong"].append([statistics.median(ping_pong(n, ROUND_PINGS, device, warmup=ROUND_WARMUP))
                                     for n in sizes])
    return out


def _split_worker(cases: tuple[Case, ...], rounds: int, pings: bool) -> list[dict]:
    with launch.process_group() as device:
        return [_case_worker_rounds(case, rounds, device, pings) for case in cases]


def _paired(rank0: dict, rank1: dict, case: Case) -> SplitRun:
    """One case's messages, the sender's start matched with the receiver's arrival, round by round."""
    run = SplitRun(case, held=(rank0["held"], rank1["held"]))
    for r, events0 in enumerate(rank0["steps"]):
        events = sorted(events0 + rank1["steps"][r], key=lambda e: e[2])
        sent = [e for e in events if e[3] == "sent"]
        arrived = [e for e in events if e[3] == "arrived"]  # message k arrives after message k was sent
        run.steps.append([Message(s[0], s[1], a[2] - s[2]) for s, a in zip(sent, arrived)])
        run.ping_pong.extend(rank0["ping_pong"][r:r + 1])
    return run


def measure_split(cases, rounds: int = 5, pings: bool = True) -> dict[str, SplitRun]:
    """Every case trained on two workers for ``rounds`` steps (after one untimed), by case name; ``pings``:
    each step followed by lesson 00's ping-pong of its sizes (left out where only bytes are judged)."""
    cases = tuple(cases)
    rank0, rank1 = launch.launch(_split_worker, cases, rounds, pings, nprocs=2, timeout=TIMEOUT_S)
    return {case.name: _paired(a, b, case) for case, a, b in zip(cases, rank0, rank1)}


# --- Article 1's split, fixed (the lab's starting point) ---------------------------------------------------


def split_fixed(dev0: str, dev1: str, batch: int = 100) -> str:
    """Article 1's model split as it was meant: ONE model, its first layer on ``dev0``, its second on
    ``dev1``, the activation moved between them. Returns where its output is (a ``meta`` tensor holds no data
    to send back)."""
    from utils import article

    layer1 = nn.Linear(article.IN_FEATURES, article.HIDDEN).to(dev0)
    layer2 = nn.Linear(article.HIDDEN, article.OUT_FEATURES).to(dev1)
    data = torch.randn(batch, article.IN_FEATURES, device=dev0)
    out = layer2(layer1(data).to(dev1))  # the activation moves to the second layer's device
    return f"output {tuple(out.shape)} on {out.device}"

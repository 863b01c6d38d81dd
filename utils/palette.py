"""One colour per kind of work, the same in every timeline of the course.

Introduced in lesson 02 (model split) with the pipeline's measured schedule; lessons 03 (DDP), 05 (data
prefetch) and 07 (tensor parallel) draw their timelines (``utils.timeline.plot_gantt``) in the same colours,
so that blue is a forward pass and green is communication wherever a learner meets them.

    kind_of("ffn")         # "forward": lesson 07's sub-layers are forward compute
    color_of("all-reduce") # the communication colour, "#009E73"
    KIND_COLORS["idle"]    # the light grey of time when a row does nothing

The colours are Okabe and Ito's palette for colour-blind readers (blue, vermillion, reddish purple, bluish
green, sky blue, orange, yellow), and idle is a light grey. A span name the course does not know yet gets
a stable colour of its own from ``SPARE_COLORS``, never one of the main kinds'.
"""

from __future__ import annotations

import zlib

FORWARD, BACKWARD, WEIGHT = "forward", "backward", "weight gradient"
COMMUNICATION, IDLE = "communication", "idle"
LOAD, COMPUTE, STEP = "load", "compute", "optimizer step"
MAIN_KINDS = (FORWARD, BACKWARD, WEIGHT, COMMUNICATION, IDLE)  # what every pipeline, DDP and TP chart shows

# Kind -> colour; the order is the legend's order.
KIND_COLORS = {
    FORWARD: "#0072B2",  # blue
    BACKWARD: "#D55E00",  # vermillion
    WEIGHT: "#CC79A7",  # reddish purple: the weight-gradient half of a split backward (zero-bubble schedules)
    COMMUNICATION: "#009E73",  # bluish green: all-reduce, send, recv ...
    LOAD: "#56B4E9",  # sky blue: reading and preparing a batch (lesson 05)
    COMPUTE: "#E69F00",  # orange: a whole training step, forward and backward together (lessons 02 and 05)
    STEP: "#F0E442",  # yellow: the optimizer's update
    IDLE: "#EEEEEE",  # light grey: nothing runs (also what a drawn wait is)
}

# Colours for span names no lesson uses yet (Paul Tol's muted set): stable per name, never a kind's.
SPARE_COLORS = ("#332288", "#882255", "#44AA99", "#999933", "#AA4499", "#117733", "#661100", "#6699CC")

# Every span name the course records, and the kind of work it is.
NAME_KINDS = {
    "forward": FORWARD, "attention": FORWARD, "ffn": FORWARD,  # lesson 07's sub-layers are forward compute
    "backward": BACKWARD,
    "weight": WEIGHT,  # zero-bubble schedules' weight-gradient pass (lesson 02, W on the chart)
    "all-reduce": COMMUNICATION, "all-gather": COMMUNICATION, "reduce-scatter": COMMUNICATION,
    "broadcast": COMMUNICATION, "send": COMMUNICATION, "recv": COMMUNICATION,
    "load": LOAD,
    "compute": COMPUTE,
    "step": STEP, "optimizer": STEP,
    "wait": IDLE,  # lesson 05's training process waiting for a batch: idle time
}

# What a bar's label starts with: one letter for the passes ("F3", "B3", "W3"), a short word for the others.
SHORT_NAMES = {"forward": "F", "backward": "B", "weight": "W", "load": "L", "compute": "C", "step": "S",
               "attention": "attn", "ffn": "ffn", "all-reduce": "AR", "all-gather": "AG",
               "reduce-scatter": "RS"}


def kind_of(name: str) -> str:
    """The kind of work a span named ``name`` is ("ffn" -> "forward"); an unknown name is its own kind."""
    return NAME_KINDS.get(name, name)


def is_known(name: str) -> bool:
    """Whether ``name`` is a span name of the course, with a kind and its colour."""
    return name in NAME_KINDS


def color_of(name: str) -> str:
    """The colour of a span named ``name`` (or of a kind): its kind's, or a spare one chosen by the name
    alone (crc32, not ``hash``, which changes from one Python process to the next)."""
    kind = kind_of(name)
    if kind in KIND_COLORS:
        return KIND_COLORS[kind]
    return SPARE_COLORS[zlib.crc32(name.encode()) % len(SPARE_COLORS)]


def short_name(name: str) -> str:
    """The start of a bar's label: "F" for forward, "attn" for attention; an unknown name as it is."""
    return SHORT_NAMES.get(name, name)


def text_color(background: str) -> str:
    """Black or white, whichever reads better on ``background`` (its relative luminance, WCAG's formula)."""
    from matplotlib.colors import to_rgb

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in to_rgb(background))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if luminance > 0.179 else "white"  # the luminance where both contrasts are equal

"""The Gantt chart's busy label rounds half up, as every share the course prints (claims.percent)."""
from utils import timeline
from utils.timeline import Span


def test_a_busy_share_of_0_385_prints_39_percent_not_38():
    spans = [Span("stage 0", "forward", 0, 0.0, 0.385), Span("stage 1", "forward", 0, 0.0, 1.0)]
    assert timeline._busy_text(spans, "stage 0", 0.385) == "busy 39%"

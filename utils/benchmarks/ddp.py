"""Benchmark ``ddp``: lesson 03's recipe, 2-worker samples/s over 1-worker samples/s, against the ideal 2x."""

from utils import bench, devices
from utils.lessons.ddp.scaling import scaling
from utils.lessons.ddp.settings import Settings

SETTINGS = Settings(steps=14, warmup_steps=4, threads=1)  # the lesson's CPU model and batch size


@bench.register("ddp")
def ddp_benchmark() -> bench.Result:
    """The small GPT at batch 16 per worker; one thread per worker on CPU (the launcher's choice on GPUs)."""
    s = SETTINGS if devices.mode() == "cpu" else SETTINGS.scaled(threads=None)
    r = scaling(s, repeats=2)
    note = (f"small GPT, batch {s.batch_per_worker}/worker, {s.threads or 'default'} thread(s)/worker; "
            "2-worker samples/s over 1-worker samples/s")
    return bench.Result("ddp", measured=r["ratio"], bound=r["bound"], unit="x", note=note,
                        extra={"samples_per_s_1": r["one"], "samples_per_s_2": r["two"]})

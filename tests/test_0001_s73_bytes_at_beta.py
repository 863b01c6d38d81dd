"""Reader t34_0001 #2 (lesson 01, section 3): "Its bytes take 2.1 µs at β" beside β printed as 3.81 GB/s, where
8,192 B / 3.81 GB/s = 2.150 µs reads 2.2. The bytes are timed at β as printed, so the µs comes out of the
printed figures."""

from types import SimpleNamespace as NS

from utils.lessons.why_slow import link_report


def _link(beta: float):
    """A fabricated link whose fit predicts, with only the figure ``_bytes_rate`` reads."""
    return NS(fit=NS(beta=beta), accuracy=0.0)


def test_bytes_at_beta_are_timed_at_beta_as_printed():
    rate, at = link_report._bytes_rate(_link(3.8149e9))  # printed "3.81 GB/s"
    assert at == "β" and rate == 3.81e9
    moving, _ = link_report._bytes_share(NS(n_bytes=8192, measured=10e-6), rate)
    assert f"{moving * 1e6:,.1f}" == "2.2"  # 8,192 / 3.81 GB/s = 2.150 µs; the unrounded β gave 2.1


def test_the_fastest_measured_rate_branch_is_unchanged():
    link = NS(fit=NS(beta=3.8149e9, sizes=[1024, 2**20]), seconds=[1e-6, 229.7e-6], accuracy=1.0)
    rate, at = link_report._bytes_rate(link)
    assert at.startswith("the fastest rate this run measured (") and rate == 4.56e9

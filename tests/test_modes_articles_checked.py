"""Lesson 09's decisions on every fake machine (``pytest -m modes``): where the article's split runs, which
link the transfer claims use, which peaks it measures."""

import pytest

from utils import article, devices
from utils import machine as profile

pytestmark = pytest.mark.modes


def test_the_split_runs_on_two_devices_or_on_meta_where_the_plan_shares_one(machine):
    plan = devices.plan(2)
    second = article.second_device(plan.devices)
    assert (second == "meta") == (plan.devices[0] == plan.devices[1])


def test_the_transfer_claims_use_the_workers_own_link(machine):
    name = profile.link_route(devices.plan(2))[0]
    expected = {"cpu": "gloo loopback, 2 processes",  # 1gpu: two ranks on one GPU talk through gloo, via the host
                "1gpu": "gloo, 2 processes sharing GPU 0 (through host memory)"}.get(machine.mode, "GPU 0 to GPU 1")
    assert name == expected

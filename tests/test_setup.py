"""Set-up: the pins agree everywhere, a second set-up installs nothing, and `make lab` serves the course."""

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import psutil
import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def pins_from(lines):
    pins = {}
    for line in lines:
        line = line.split("#", 1)[0].strip().lstrip("- ").strip()
        if "==" in line:
            req = Requirement(line)
            pins[req.name.lower()] = str(req.specifier)
    return pins


def test_environment_yml_and_requirements_pin_the_same_versions():
    pip_pins = pins_from((ROOT / "requirements.txt").read_text().splitlines())
    conda_pins = pins_from((ROOT / "environment.yml").read_text().splitlines())
    assert pip_pins and pip_pins == conda_pins
    assert pip_pins["torch"] == "==2.13.0"


def test_package_ranges_admit_the_pins():
    import tomllib

    ranges = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = pins_from((ROOT / "requirements.txt").read_text().splitlines())
    for spec in ranges:
        req = Requirement(spec)
        assert req.name.lower() in pins, f"{req.name} has a range but no pin in requirements.txt"
        assert req.specifier.contains(pins[req.name.lower()].lstrip("=")), f"{req} excludes the pin"
    torch_range = next(Requirement(s) for s in ranges if s.startswith("torch"))
    assert torch_range.specifier.contains("2.4.0"), "utils must still install beside Colab's/Kaggle's torch"


def test_a_second_setup_installs_nothing():
    out = subprocess.run(["make", "--no-print-directory", "setup"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "pip" not in out.stdout and "Nothing to be done" in out.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, token):
    req = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=5) as resp:
        return resp.status, resp.read()


@pytest.mark.timeout(180)
def test_make_lab_serves_the_course():
    port, token = free_port(), os.urandom(12).hex()
    env = dict(os.environ, JUPYTER_TOKEN=token)
    server = subprocess.Popen(["make", "--no-print-directory", "lab", f"PORT={port}"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, _ = get(f"{base}/api/status", token)
                break
            except OSError:
                assert server.poll() is None, f"make lab exited: {server.stdout.read()}"
                assert time.monotonic() < deadline, "JupyterLab did not answer /api/status within 120 s"
                time.sleep(0.5)
        assert status == 200
        status, body = get(f"{base}/api/contents/notebooks/00_start_here.ipynb", token)
        assert status == 200 and b'"type": "notebook"' in body.replace(b'":"', b'": "')
        status, page = get(f"{base}/lab/tree/notebooks/00_start_here.ipynb", token)
        assert status == 200 and b"JupyterLab" in page
    finally:
        group = os.getpgid(server.pid)
        os.killpg(group, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(group, signal.SIGKILL)
            server.wait()
    time.sleep(0.5)
    left = [p for p in psutil.process_iter(["cmdline"]) if f"--port={port}" in " ".join(p.info["cmdline"] or [])]
    assert not left, f"JupyterLab left running: {left}"


def test_makefile_names_the_two_commands_first_in_readme():
    readme = (ROOT / "README.md").read_text()
    first = readme[: readme.index("##", readme.index("##") + 2)] if readme.count("##") > 1 else readme
    assert "make lab" in first and "make test" in first
    assert re.search(r"00_start_here", readme)


def test_a_built_package_carries_every_lesson_lab_benchmark_and_tool(tmp_path):
    """`pip install .` (Colab, Kaggle) must ship utils' sub-packages, not only its top level."""
    import shutil
    import sys
    import zipfile

    source = tmp_path / "src"  # a copy, so that the build's own files (build/, *.egg-info) land there
    shutil.copytree(ROOT / "utils", source / "utils", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path), str(source)], check=True, timeout=300, capture_output=True)
    (wheel,) = tmp_path.glob("twogpu_lab-*.whl")
    shipped = {n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".py")}
    expected = {str(p.relative_to(ROOT)) for p in (ROOT / "utils").rglob("*.py") if "__pycache__" not in p.parts}
    assert expected <= shipped, f"missing from the wheel: {sorted(expected - shipped)[:5]}"

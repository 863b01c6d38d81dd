"""The course's website (`make site`, site/build.py): it builds with no network in under 3 minutes, and a real
browser (Debian's Chromium through Playwright, as in tests/test_browser.py) reads every page as a learner
would: nothing it asks for is missing or outside the site, every "How this was measured" block opens and
closes, no lab page gives a solution away, and every page's title is its notebook's.

The site is built once for the module, into build/site/ (git-ignored). The browser reads it from a small HTTP
server on 127.0.0.1 that runs in a thread of this process and is shut down with the module.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import subprocess
import threading
import time
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlparse

import nbformat
import pytest

from utils.tools import nbtools

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "site"
BUILD_LIMIT_S = 180  # the limit: a fresh clone, no network, 2 cores
SETTINGS = tomllib.loads((ROOT / "site" / "site.toml").read_text())
LESSONS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LABS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "labs").glob("[0-9][0-9]_*.ipynb"))
# The pages that are not notebooks, and the file each page's first heading comes from.
REFERENCE = {"index": "site/pages/index.md", "glossary": "site/pages/glossary.md",
             "your_two_gpus": "site/pages/your_two_gpus.md", "claims": "site/pages/claims.md",
             **{f"results/{p.stem}": f"results/{p.name}" for p in (ROOT / "results").glob("bench-*.md")}}
PAGES = {str(Path(p).with_suffix("")): p for p in LESSONS + LABS} | REFERENCE

pytestmark = pytest.mark.slow


def without_network() -> list[str]:
    """A command prefix that cuts the network off (a new, empty network namespace), where this machine allows
    it (root, or unprivileged namespaces); empty elsewhere, and the build then only runs."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n"]
    return []


@pytest.fixture(scope="module")
def built():
    """`make site`, timed, with the network cut off; returns (seconds, whether it was cut, the output)."""
    subprocess.run(["make", "--no-print-directory", "setup"], cwd=ROOT, check=True, capture_output=True,
                   timeout=600)  # may install (network); the build after it must not need any
    prefix = without_network()
    start = time.monotonic()
    out = subprocess.run(prefix + ["make", "--no-print-directory", "site"], cwd=ROOT, capture_output=True,
                         text=True, timeout=BUILD_LIMIT_S * 2)
    seconds = time.monotonic() - start
    assert out.returncode == 0, f"make site failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return seconds, bool(prefix), out.stdout + out.stderr


def test_make_site_builds_in_time_with_every_page(built):
    seconds, _, output = built
    assert seconds < BUILD_LIMIT_S, f"make site took {seconds:.0f} s (limit {BUILD_LIMIT_S} s)"
    assert "WARNING" not in output, f"Sphinx warned:\n{output[-3000:]}"
    for page in PAGES:
        assert (OUT / f"{page}.html").is_file(), f"no page {page}.html"


def test_the_build_needed_no_network(built):
    """The build above ran in a network namespace of its own, with no interface up: nothing to reach."""
    if not built[1]:
        pytest.skip("this machine does not allow `unshare -n` (needs root or user namespaces): the build ran "
                    "with the network; test_the_site_asks_nothing_from_the_network still checks the pages")


def test_the_site_asks_nothing_from_the_network(built):
    """Every script, style sheet and image is the site's own (MathJax too): a reader offline sees it all."""
    remote = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""", re.I)
    for html_file in OUT.rglob("*.html"):
        found = remote.search(html_file.read_text())
        assert not found, f"{html_file.relative_to(OUT)} loads {found.group(0)!r}"
    assert (OUT / "_static" / "mathjax" / "tex-chtml-full.js").is_file()


def first_heading(path: str) -> str:
    """The first ``# `` heading of a notebook's or a page's markdown, as a reader sees it (no markup)."""
    if path.endswith(".ipynb"):
        nb = nbformat.read(ROOT / path, as_version=4)
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    else:
        text = (ROOT / path).read_text()
    heading = re.search(r"^# (.+)$", text, flags=re.M).group(1)
    return re.sub(r"`|\*\*?", "", heading).strip()


def details_in_outputs(path: str) -> int:
    """How many collapsed blocks (HTML ``<details>``) a lesson's committed outputs hold, and its markdown
    cells too (lesson 02 folds its verdict rules into one): every one must reach the page."""
    nb = nbformat.read(ROOT / path, as_version=4)
    outputs = sum("".join(out.get("data", {}).get("text/html", "")).count("<details")
                  for cell in nb.cells for out in cell.get("outputs", []))
    return outputs + sum(cell.source.count("<details") for cell in nb.cells if cell.cell_type == "markdown")


def solution_lines(lab: str) -> list[str]:
    """The code lines of a lab's solutions that its student copy does not also have elsewhere."""
    nb = nbformat.read(ROOT / lab, as_version=4)
    student = "\n".join(c.source for c in nbtools.student_copy(nb, Path(lab).name).cells)
    lines, inside = [], False
    for cell in nb.cells:
        for line in cell.source.splitlines():
            stripped = line.strip()
            if stripped.startswith(nbtools.BEGIN) or stripped.startswith(nbtools.END):
                inside = stripped.startswith(nbtools.BEGIN)
            elif inside and len(stripped) >= 10 and not stripped.startswith("#") and stripped not in student:
                lines.append(stripped)
    return lines


# --- The browser -------------------------------------------------------------------------------------------


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test's output is its assertions, not a request log
        pass


@pytest.fixture(scope="module")
def server(built):
    """The built site over HTTP on 127.0.0.1 (a free port), from a thread of this process."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(OUT)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


@pytest.fixture
def page(chromium, server):
    """A page that may load only what the site serves: any other request is refused and recorded."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.outside, page.missing = [], []

    def route(request_route):
        if request_route.request.url.startswith(server):
            request_route.continue_()
        else:
            page.outside.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    page.on("response", lambda r: r.status >= 400 and page.missing.append(f"{r.status} {r.url}"))
    yield page
    context.close()


LINKS = """() => [...document.querySelectorAll('a[href]')].map(a => a.href)"""
BROKEN_IMAGES = """() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0)
                                            .map(i => i.src.slice(0, 120))"""
TITLE = """() => { const h = document.querySelector('main h1, article h1, h1').cloneNode(true);
                   h.querySelectorAll('.headerlink').forEach(a => a.remove());
                   return h.textContent.trim(); }"""


def broken_links(links: list[str], server: str, page) -> list[str]:
    """Links inside the site whose file is not there, or whose #anchor names no element of its page."""
    broken = []
    for link in links:
        if not link.startswith(server):
            continue  # the repository, Colab, Kaggle, the lessons' references: not this site's to check
        url = urlparse(link)
        target = OUT / unquote(url.path).lstrip("/")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(link)
        elif url.fragment and link.split("#")[0] == page.url.split("#")[0]:
            if not page.evaluate("id => !!document.getElementById(id)", unquote(url.fragment)):
                broken.append(link)
    return broken


def toggle_every_details_block(page) -> int:
    """Each "How this was measured" block is closed, opens with a click on its title and closes again."""
    blocks = page.locator("details")
    for k in range(blocks.count()):
        block = blocks.nth(k)
        assert block.evaluate("el => el.open") is False, f"details block {k} is open before a click"
        summary = block.locator("summary").first
        summary.scroll_into_view_if_needed()
        summary.click()
        assert block.evaluate("el => el.open") is True, f"details block {k} did not open on a click"
        inside = block.locator(":scope > :not(summary)").first
        assert inside.is_visible(), f"details block {k} opened but shows nothing"
        summary.click()
        assert block.evaluate("el => el.open") is False, f"details block {k} did not close on a second click"
    return blocks.count()


@pytest.mark.browser
@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_reads_as_a_learner_sees_it(name, page, server):
    page.goto(f"{server}/{name}.html")
    assert page.evaluate(TITLE) == first_heading(PAGES[name]), "the page's title is not its source's"
    assert page.evaluate(BROKEN_IMAGES) == [], "images that did not load"
    assert broken_links(page.evaluate(LINKS), server, page) == [], "links to nothing"
    toggled = toggle_every_details_block(page)
    if PAGES[name] in LESSONS:
        assert toggled == details_in_outputs(PAGES[name]), "not every collapsed block of the outputs is here"
    text = page.locator("body").inner_text()
    assert "application/vnd.jupyter.widget" not in page.content(), "a widget left dead on a static page"
    if PAGES[name].endswith(".ipynb"):
        about = page.locator(".twogpu-about")
        assert about.count() == 1, "no box saying where the outputs come from and how to run the notebook"
        hrefs = about.evaluate("el => [...el.querySelectorAll('a')].map(a => a.href)")
        assert any(h.startswith("https://colab.research.google.com/") for h in hrefs), hrefs
        assert any(SETTINGS["repository"] in h and "kaggle" in h for h in hrefs), hrefs
        assert "make lab" in about.inner_text()
    if PAGES[name] in LABS:
        assert nbtools.BEGIN not in text and nbtools.END not in text
        given_away = [line for line in solution_lines(PAGES[name]) if line in text]
        assert given_away == [], f"solution lines on the student copy's page: {given_away[:3]}"
    assert page.missing == [], f"requests that failed: {page.missing[:5]}"
    assert page.outside == [], f"requests outside the site (refused): {page.outside[:5]}"


@pytest.mark.browser
@pytest.mark.timeout(60)
def test_the_monitor_is_its_last_panel_not_a_dead_widget(page, server):
    """Lesson 00's set-up shows the monitor as the run left it: its table of processes, not a widget box."""
    page.goto(f"{server}/notebooks/00_start_here.html")
    snapshot = page.locator(".twogpu-static", has_text="live monitor").first
    assert snapshot.is_visible()
    assert "host CPU" in snapshot.inner_text()
    shots = ROOT / "results" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    snapshot.scroll_into_view_if_needed()
    page.wait_for_timeout(800)  # the theme folds its table of contents away from wide cells in 0.4 s
    page.screenshot(path=str(shots / "site_lesson_00.png"))  # for a person to look at (git-ignored)

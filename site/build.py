"""`make site`: the course as a static website, built offline from the committed notebooks.

    python site/build.py      # writes build/site/index.html; well under a minute on 2 cores

Two steps, each easy to check on its own:
1. prepare: write Sphinx's sources into build/site-src/, laid out like the repository, from what is
   committed: README's sections (the home page with the course map, the claims table, the hardware
   checklist), the glossary (utils/glossary.py), every lesson as committed and every lab as its *student*
   copy (solutions stubbed out, no outputs), each page with a box that says where its outputs were measured
   and how to run it. Widgets become what a reader without a kernel can see.
2. render: Sphinx with MyST-NB (site/conf.py), which never executes a notebook.

Nothing here or in Sphinx's run reaches the network: the theme and MathJax are local files, images are the
notebooks' own, and nothing is fetched from another documentation site.
"""

from __future__ import annotations

import html
import posixpath
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
SOURCE = ROOT / "build" / "site-src"  # what Sphinx reads (generated, git-ignored)
OUT = ROOT / "build" / "site"         # the website: open build/site/index.html
SETTINGS = tomllib.loads((SITE / "site.toml").read_text())

sys.path.insert(0, str(ROOT))  # the course's own `utils`, also without `pip install -e .`
from utils.tools import nbtools, runtimes  # noqa: E402

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
MONITOR_CLASS = "twogpu-monitor"  # the class utils/monitor.py gives the live panel's HTML body
WIDGET_REPR = re.compile(r"^\w+\(children=")  # a text form that says nothing: "VBox(children=(..."
LINK = re.compile(r"(\]\()([^)\s]+)(\))")  # a markdown link's target: [text](target)
# Characters of code or printed text that fit the text column (site.css sets code at 0.75rem); a cell with a
# longer line, a plot or a table is widened over the page's right margin (sphinx-book-theme's full-width).
COLUMN_CHARS = 88
STUDENT_NOTE = ("On this site each lab is its **student copy**, as learners open it "
                "(`labs/student/NN_name.ipynb`, built by `make lab` or `make student`): its exercises are "
                "stubs, and no solution is in it.")


# --- Where the repository is published (site/site.toml) ----------------------------------------------------


def repository_url(path: str) -> str:
    """A file of the repository on its host, e.g. utils/monitor.py."""
    return f"{SETTINGS['repository'].rstrip('/')}/blob/{SETTINGS['branch']}/{path}"


def run_links(path: str) -> str:
    """Markdown links that open ``path`` (a notebook of the repository) in Colab and in Kaggle."""
    github = re.match(r"https://github\.com/([^/]+/[^/]+?)/?$", SETTINGS["repository"])
    links = []
    if github:  # Colab opens notebooks from GitHub only
        links.append(f"[Open in Colab](https://colab.research.google.com/github/{github.group(1)}/blob/"
                     f"{SETTINGS['branch']}/{path})")
    links.append(f"[Open in Kaggle](https://www.kaggle.com/kernels/welcome?src={repository_url(path)})")
    return " · ".join(links)


# --- Links: a page of the site stays a page, any other file of the repository links to its host ------------


def rewrite_links(markdown: str, folder: str, in_site: set[str]) -> str:
    """Relative links of a page in ``folder`` (a repository folder, "" for the top): a link to a notebook or
    file the site carries stays as it is (the site is laid out like the repository); a link to any other
    file of the repository (code, results) goes to the repository's host."""

    def target(match: re.Match) -> str:
        link = match.group(2)
        if re.match(r"^[a-z]+:|^#|^/", link):  # a web address, an anchor on the page, an absolute path
            return match.group(0)
        path, _, anchor = link.partition("#")
        resolved = posixpath.normpath(posixpath.join(folder, path))  # "notebooks/../labs/x" -> "labs/x"
        if resolved in in_site:
            return match.group(0)
        return f"{match.group(1)}{repository_url(resolved)}{'#' + anchor if anchor else ''}{match.group(3)}"

    return LINK.sub(target, markdown)


# --- README's sections -------------------------------------------------------------------------------------


def readme_sections() -> dict[str, str]:
    """README split at its ``## `` headings: {"intro": what comes before the first, title: body}. A body keeps
    its ``###`` subsections; ``first_part`` cuts them off."""
    text = (ROOT / "README.md").read_text()
    pieces = re.split(r"^## (.+)$", text, flags=re.M)
    intro = re.sub(r"^# .*\n", "", pieces[0], count=1)  # the title is the page's own
    sections = {"intro": intro.strip()}
    for title, body in zip(pieces[1::2], pieces[2::2]):
        sections[title.strip()] = body.strip()
    return sections


def first_part(body: str) -> str:
    """A README section without its ``###`` subsections (the course map without the code map)."""
    return re.split(r"^### ", body, flags=re.M)[0].strip()


def for_the_site(markdown: str, in_site: set[str]) -> str:
    """README's words where the site differs from the repository: a link written as a page's path
    ([`labs/00_x.ipynb`](labs/00_x.ipynb)) shows the page's title instead (MyST fills in an empty link's
    text), and README's note that the linked lab sources hold the solutions is left out: on the site the labs
    are their student copies (STUDENT_NOTE says so in its place)."""
    def title(match: re.Match) -> str:
        return f"[]({match.group(2)})" if match.group(1) == match.group(2) and match.group(2) in in_site \
            else match.group(0)

    markdown = re.sub(r"\[`([^`]+)`\]\(([^)]+)\)", title, markdown)
    paragraphs = [STUDENT_NOTE if "hold the solutions" in " ".join(p.split()) else p
                  for p in re.split(r"\n\s*\n", markdown)]
    return "\n\n".join(paragraphs)


def glossary_markdown() -> str:
    from utils.glossary import TERMS

    rows = "\n".join(f"| **{term}** | {meaning} |" for term, meaning in TERMS.items())
    return "| term | meaning |\n| --- | --- |\n" + rows


def fill_page(template: str, sections: dict[str, str]) -> str:
    """Replace a page template's markers by what they name:
    ``<!-- README: Title -->`` (that section of README), ``<!-- README part: Title -->`` (without its
    subsections) and ``<!-- glossary -->``."""
    def section(match: re.Match) -> str:
        name = match.group(2).strip()
        if name not in sections:
            raise KeyError(f"README has no section '## {name}' (site/pages names it): sections are "
                           f"{', '.join(sections)}")
        return first_part(sections[name]) if match.group(1) else sections[name]

    page = re.sub(r"<!-- README( part)?: (.+?) -->", section, template)
    return page.replace("<!-- glossary -->", glossary_markdown())


# --- Notebooks: widgets made static, a box about where the outputs come from -------------------------------


def widget_children(model_id: str, state: dict):
    """The model and every model below it in a saved widget tree (children refer as IPY_MODEL_<id>)."""
    model = state.get(model_id)
    if model is None:
        return
    yield model
    for child in model["state"].get("children", []):
        yield from widget_children(child.removeprefix("IPY_MODEL_"), state)


def static_widget(data: dict, state: dict) -> dict:
    """What a reader without a kernel sees instead of a widget. The live monitor: its panel as the run left
    it (the HTML body saved with the notebook's widget state). Another widget (a quiz): its text form, with a
    line that says it is interactive in JupyterLab; only a line where the text form says nothing."""
    text = "".join(data.get("text/plain", ""))
    models = list(widget_children(data[WIDGET_VIEW]["model_id"], state))
    panel = next((m["state"]["value"] for m in models
                  if MONITOR_CLASS in m["state"].get("_dom_classes", [])), None)
    if panel is not None:
        note = "The live monitor, as the run left it (in JupyterLab it updates every second)."
        body = panel
    elif not text or WIDGET_REPR.match(text):
        note, body = "An interactive widget: it works when you run the notebook.", ""
    else:
        note = "Interactive when you run the notebook; its text form:"
        body = f"<pre>{html.escape(text)}</pre>"
    return {"text/html": f"<div class='twogpu-static'><p class='twogpu-static-note'>{note}</p>{body}</div>",
            "text/plain": text}


def is_wide(cell) -> bool:
    """A code cell that needs more than the text column: a plot, a table, or a line over COLUMN_CHARS."""
    texts = [cell.source]
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if "image/png" in data or "<table" in "".join(data.get("text/html", "")):
            return True
        texts.append(output.get("text", "") or "".join(data.get("text/plain", "")))
    return any(len(line) > COLUMN_CHARS for text in texts for line in "".join(text).splitlines())


def about_box(path: str, student: bool, times: dict) -> str:
    """The box under a page's title: where its outputs were measured, and how to run it."""
    run = times["notebooks"].get(path)
    if run is None:
        measured = "No run of this notebook is recorded in `results/run-times.json`."
        title = "Outputs as committed"
    else:
        m = run["machine"]
        where = f"{m['cpu']}, {m['cores']} cores, `{m['mode']}` mode, {run['date']}"
        simulated = " (two CPU processes stand in for the two GPUs)" if m["mode"] == "cpu" else ""
        if student:
            title = "No outputs here: this is the lab's student copy"
            measured = (f"Its exercises are stubs for you to fill in. Solved, it ran in "
                        f"{runtimes.stated(run['seconds'])} s on {where}{simulated}.")
        else:
            title = f"Outputs measured on {where}"
            seconds = runtimes.stated(run["seconds"])
            measured = (f"Run top to bottom by `{run['measured_by']}` in {seconds} s, "
                        f"torch {m['torch']}{simulated}. On your hardware the figures will differ: run it.")
    opened = f"`labs/student/{Path(path).name}`" if student else f"`{path}`"
    hosted = run_links(path)
    if student:
        hosted += (" (these open the lab's source, which holds the solutions: for the exercise, run "
                   "`python -m utils.tools.nbtools student labs` there and open the student copy)")
    return (f":::{{admonition}} {title}\n:class: twogpu-about\n{measured}\n\n"
            f"**Run it yourself.** In a clone of the repository, `make lab` sets up and opens JupyterLab; "
            f"open {opened}. Or {hosted}: there, clone the repository and `pip install -e .` first "
            f"(the course's `utils`).\n:::")


def page_notebook(path: str, student: bool, in_site: set[str], times: dict) -> None:
    """Write the site's copy of notebook ``path`` (a lab: its student copy) into SOURCE."""
    import nbformat

    nb = nbformat.read(ROOT / path, as_version=4)
    if student:
        nb = nbtools.student_copy(nb, Path(path).name)
    state = nb.metadata.pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})  # no widget JS on the site
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = rewrite_links(cell.source, str(Path(path).parent), in_site)
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}):
                output["data"] = static_widget(output["data"], state)
        if cell.cell_type == "code" and is_wide(cell):
            cell.metadata.setdefault("tags", []).append("full-width")
    # The box goes right under the title (the first cell's first line), before the lesson's introduction.
    title, _, rest = nb.cells[0].source.partition("\n")
    nb.cells[0].source = title
    cells = [nbformat.v4.new_markdown_cell(about_box(path, student, times))]
    if rest.strip():
        cells.append(nbformat.v4.new_markdown_cell(rest.strip()))
    nb.cells[1:1] = cells
    target = SOURCE / path
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)


# --- The two steps -----------------------------------------------------------------------------------------


def prepare() -> list[str]:
    """Write every source page into SOURCE; returns the notebooks' paths (lessons first, then labs)."""
    shutil.rmtree(SOURCE, ignore_errors=True)
    SOURCE.mkdir(parents=True)
    lessons = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    labs = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "labs").glob("[0-9][0-9]_*.ipynb"))
    results = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "results").glob("bench-*.md"))
    (SOURCE / "results").mkdir()
    shutil.copy(ROOT / "results" / "run-times.json", SOURCE / "results")  # README's course map links it
    for path in results:  # a benchmark page: its wide table over the page's right margin too
        title, _, body = (ROOT / path).read_text().partition("\n")
        (SOURCE / path).write_text(f"{title}\n\n:::{{container}} full-width\n{body.strip()}\n:::\n")
    templates = sorted((SITE / "pages").glob("*.md"))
    in_site = set(lessons + labs + results + ["results/run-times.json"] + [t.name for t in templates])
    times = runtimes.load()
    for path in lessons:
        page_notebook(path, False, in_site, times)
    for path in labs:
        page_notebook(path, True, in_site, times)
    sections = readme_sections()
    for template in templates:
        page = rewrite_links(for_the_site(fill_page(template.read_text(), sections), in_site), "", in_site)
        if template.name == "index.md":
            page += "\n" + toctrees(lessons, labs, results)
        (SOURCE / template.name).write_text(page)
    return lessons + labs


def toctrees(lessons: list[str], labs: list[str], results: list[str]) -> str:
    """The site's navigation (the sidebar): lessons, labs, then the reference pages."""
    def tree(caption: str, entries: list[str]) -> str:
        lines = "\n".join(str(Path(e).with_suffix("")) for e in entries)
        return f"```{{toctree}}\n:caption: {caption}\n:hidden:\n\n{lines}\n```\n"

    reference = ["glossary", "your_two_gpus", "claims"] + results
    return tree("Lessons", lessons) + "\n" + tree("Labs", labs) + "\n" + tree("Reference", reference)


def render() -> None:
    """Sphinx over SOURCE with site/conf.py; the notebooks are rendered as they are, never executed."""
    shutil.rmtree(OUT, ignore_errors=True)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-c", str(SITE), "-q", "-j", "auto",
               str(SOURCE), str(OUT)]
    subprocess.run(command, check=True, cwd=ROOT)


def main() -> int:
    start = time.monotonic()
    pages = prepare()
    render()
    print(f"site: {len(pages)} notebooks and the reference pages in {OUT.relative_to(ROOT)}/ "
          f"({time.monotonic() - start:.0f} s); open {OUT.relative_to(ROOT)}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Sphinx's settings for `make site`. site/build.py writes the sources (build/site-src/) and runs Sphinx with
this file; see its docstring for what goes on which page.

Offline by design, at build time and in the reader's browser: notebooks are rendered as committed (never
executed), no other documentation site is asked for anything (no intersphinx), widgets are made static by
build.py (no widget JavaScript from a CDN), and MathJax is served from the site itself.
"""

import tomllib
from pathlib import Path

import mathjax  # the django-static-mathjax package: MathJax's own files, used here as plain static files

HERE = Path(__file__).resolve().parent
SETTINGS = tomllib.loads((HERE / "site.toml").read_text())  # the repository's address: the one place

project = "Two-GPU Lab"
html_title = "Two-GPU Lab"
extensions = ["myst_nb"]  # MyST markdown and notebooks (it loads myst_parser itself)
exclude_patterns = ["**.ipynb_checkpoints"]
smartquotes = False  # quotes as the notebooks write them (and as JupyterLab shows them)

# Notebooks: their committed outputs, as they are.
nb_execution_mode = "off"
nb_ipywidgets_js = {}  # no widget manager from a CDN: build.py has replaced every widget by a static form
nb_merge_streams = True  # a cell's printed lines in one block, as JupyterLab shows them
myst_enable_extensions = ["dollarmath", "colon_fence"]  # $...$ formulas; ::: boxes (build.py's "about" box)
myst_heading_anchors = 3
# A lesson's headings may skip a level (a "### Exercise" under its "# title"): not an error on a page.
suppress_warnings = ["myst.header"]

# The theme, from PyPI: everything it shows (fonts, icons, scripts) ships with it.
html_theme = "sphinx_book_theme"
html_theme_options = {
    "repository_url": SETTINGS["repository"],
    "repository_branch": SETTINGS["branch"],
    "use_repository_button": True,
    "use_download_button": False,
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "navbar_persistent": [],  # one search field (the sidebar's), not a second one in an empty top bar
    "footer_content_items": ["extra-footer.html"],
    "extra_footer": "Built by <code>make site</code> from the committed notebooks, never re-run. "
                    "Run them yourself: <code>make lab</code>.",
}
html_static_path = ["static"]
html_css_files = ["site.css"]
html_copy_source = False  # the notebooks are in the repository; the site is for reading
html_show_sourcelink = False

# MathJax 3 from the site's own _static/mathjax/ (copied below), not from a CDN.
MATHJAX = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
mathjax_path = "mathjax/tex-chtml-full.js"  # every TeX extension in one file: nothing loaded on demand


def copy_mathjax(app, exception):
    """MathJax's script and its fonts into the built site (only the pieces tex-chtml-full.js reads)."""
    import shutil

    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(MATHJAX / "tex-chtml-full.js", target)
    for folder in ("output/chtml/fonts/woff-v2", "ui"):  # the fonts, and MathJax's right-click menu
        shutil.copytree(MATHJAX / folder, target / folder, dirs_exist_ok=True)


def setup(app):
    app.connect("build-finished", copy_mathjax)

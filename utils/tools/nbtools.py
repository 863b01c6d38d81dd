"""Notebook upkeep for the course's maintainers: execute in place, clean metadata, check hygiene.

Used by ``make execute`` and by the hygiene tests (``tests/test_hygiene.py``); learners never need it.

    python -m utils.tools.nbtools execute notebooks/*.ipynb   # run top to bottom, clean, write back
    python -m utils.tools.nbtools check notebooks/*.ipynb     # list hygiene problems, exit 1 if any
    python -m utils.tools.nbtools student labs                # student copies into labs/student/
    python -m utils.tools.nbtools grade submissions/*.ipynb   # run learners' labs, one summary line each

The rules (see the design's notebook conventions): valid nbformat 4, the course kernel, executed top to
bottom (execution counts 1..n), no error output, no machine path, no memory address, no stray metadata,
under 1 MB.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

from utils.tools import runtimes

KERNEL_NAME = "twogpu-lab"
KERNELSPEC = {"name": KERNEL_NAME, "display_name": "Two-GPU Lab (Python 3)", "language": "python"}
# widgets: the state of each widget at the end of the run, so that a static viewer (GitHub, nbviewer) shows
# the quiz and the monitor as they were; the kernel is gone, so nothing in it is live.
NOTEBOOK_METADATA_KEYS = {"kernelspec", "language_info", "widgets"}
CELL_METADATA_KEYS = {"tags"}  # tags carry nbval/raises-exception markers; nothing else is kept
MAX_BYTES = 1_000_000
MACHINE_PATH = re.compile(r"(/tmp/|/root/|/home/\w)")
MEMORY_ADDRESS = re.compile(r"0x[0-9a-fA-F]{8,}")


def clean(nb) -> None:
    """Strip what a run or an editor adds that does not belong in the repository (in place)."""
    nb.metadata = {k: v for k, v in nb.metadata.items() if k in NOTEBOOK_METADATA_KEYS}
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    for cell in nb.cells:
        cell.metadata = {k: v for k, v in cell.metadata.items() if k in CELL_METADATA_KEYS}
        for output in cell.get("outputs", []):
            if "metadata" in output:
                output.metadata = {k: v for k, v in output.metadata.items() if k != "execution"}


def output_text(output) -> str:
    """All text an output shows: streams, text/plain, HTML, tracebacks."""
    parts = []
    if "text" in output:
        parts.append(output["text"] if isinstance(output["text"], str) else "".join(output["text"]))
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/") or mime.endswith("json"):
            parts.append(value if isinstance(value, str) else str(value))
    parts += output.get("traceback", [])
    return "\n".join(parts)


def problems(path: Path) -> list[str]:
    """Every hygiene rule ``path`` breaks, one readable line each (empty: clean)."""
    import nbformat

    path = Path(path)
    found = []
    if path.stat().st_size > MAX_BYTES:
        found.append(f"is {path.stat().st_size / 1e6:.1f} MB, over the 1 MB limit (shrink plots or outputs)")
    try:
        nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        nbformat.validate(nb)
    except Exception as exc:
        return found + [f"is not valid nbformat 4: {type(exc).__name__}: {str(exc).splitlines()[0]}"]
    if nb.nbformat != 4:
        found.append(f"is nbformat {nb.nbformat}, not 4")
    if nb.metadata.get("kernelspec", {}).get("name") != KERNEL_NAME:
        found.append(f"does not use the course kernel {KERNEL_NAME!r} (run `make execute`)")
    stray = set(nb.metadata) - NOTEBOOK_METADATA_KEYS
    if stray:
        found.append(f"has stray notebook metadata {sorted(stray)} (run `make execute`)")
    found += _cell_problems(nb)
    return found


def _cell_problems(nb) -> list[str]:
    found = []
    counts = []
    for i, cell in enumerate(nb.cells):
        stray = set(cell.metadata) - CELL_METADATA_KEYS
        if stray:
            found.append(f"cell {i} has stray metadata {sorted(stray)}")
        if cell.cell_type != "code":
            continue
        counts.append(cell.execution_count)
        for output in cell.outputs:
            if output.output_type == "error":
                found.append(f"cell {i} holds an error output ({output.get('ename')})")
            text = output_text(output)
            if m := MACHINE_PATH.search(text):
                found.append(f"cell {i} output shows a machine path {m.group(0)!r}")
            if m := MEMORY_ADDRESS.search(text):
                found.append(f"cell {i} output shows a memory address {m.group(0)!r}")
    if counts != list(range(1, len(counts) + 1)):
        shown = ", ".join(str(c) for c in counts[:10])
        found.append(f"was not executed top to bottom: execution counts [{shown}...] should be 1..{len(counts)}"
                     " (run `make execute`)")
    return found


def execute(path: Path, timeout: int = 900, out: Path | None = None) -> float:
    """Run ``path`` top to bottom in the course kernel, clean it, write it back (or to ``out``); returns the
    seconds taken. The kernel runs in the notebook's own folder. ``TWOGPU_KERNEL`` names another kernel
    (the GPU check uses ipykernel's ``python3`` where the course's kernel is not registered)."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name=os.environ.get("TWOGPU_KERNEL", KERNEL_NAME), timeout=timeout,
                            record_timing=False, store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    try:
        client.execute()
    finally:  # a failed run is written too: its error output says where it stopped
        seconds = time.perf_counter() - start
        clean(nb)
        nbformat.write(nb, out or path)
    return seconds


# --- Student copies of the labs ---------------------------------------------------------------------------

BEGIN, END, HINT, PART = "### BEGIN SOLUTION", "### END SOLUTION", "# HINT:", "# PART:"
STUDENT_DIR = "student"
STUDENT_NOTE = ("> **Student copy**, generated from `labs/{name}` by `make student`. Edit this copy freely; "
                "`make student` rebuilds it from the source (your edits are kept only if you save the notebook "
                "under another name).")
# The lab source's first markdown cell after the title says it holds the solutions; the student copy puts
# STUDENT_NOTE in its place.
SOURCE_NOTE_MARK = "> **Solutions inside.**"
SOURCE_NOTE = (SOURCE_NOTE_MARK + " This notebook is the lab's source: it holds the solutions. Work in "
               "the student copy, `labs/student/{name}` (`make student` builds it), where each solution is a "
               "stub that raises with a hint.")


def lab_bank(name: str) -> str:
    """``03_ddp_from_scratch.ipynb`` -> ``labs/ddp_from_scratch`` (where its hints and quiz live)."""
    stem = Path(name).stem
    return "labs/" + (stem.split("_", 1)[1] if stem[:2].isdigit() and "_" in stem else stem)


def _stub_message(block: dict, bank: str | None) -> str:
    """A ``# PART: X`` block raises that exercise's first hint (``utils.checks.stub_message``); a ``# HINT:``
    block its own text; a block with neither a default."""
    if block["part"]:
        if bank is None:
            raise ValueError(f"'# PART: {block['part']}' needs the lab's bank: strip_solutions(source, bank)")
        from utils.checks import stub_message

        return stub_message(bank, block["part"])
    return block["hint"] or "write your solution here"


def _stub_lines(indent: str, message: str, width: int = 110) -> list[str]:
    """``raise NotImplementedError(message)``, the message split over lines that fit ``width`` columns."""
    import textwrap

    line = f"{indent}raise NotImplementedError({message!r})"
    if len(line) <= width:
        return [line]
    pieces = textwrap.wrap(message, width - len(indent) - 8, drop_whitespace=False)
    return ([f"{indent}raise NotImplementedError("] + [f"{indent}    {piece!r}" for piece in pieces[:-1]]
            + [f"{indent}    {pieces[-1]!r})"])


def strip_solutions(source: str, bank: str | None = None) -> str:
    """Replace each ``### BEGIN SOLUTION`` ... ``### END SOLUTION`` block by a stub that raises.

    The stub keeps the block's indentation, so a solution inside a function body becomes that function's
    ``raise NotImplementedError(...)``. Its message: with a ``# PART: A`` line in the block, exercise A's
    first hint from ``utils/<bank>/hints.toml`` (see ``utils.checks``); else a ``# HINT: ...`` line's text.
    """
    out, block = [], None
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if block is not None:
                raise ValueError("nested ### BEGIN SOLUTION")
            block = {"indent": line[: len(line) - len(line.lstrip())], "hint": None, "part": None}
        elif stripped.startswith(END):
            if block is None:
                raise ValueError("### END SOLUTION without ### BEGIN SOLUTION")
            out += _stub_lines(block["indent"], _stub_message(block, bank))
            block = None
        elif block is not None:
            if stripped.startswith(HINT):
                block["hint"] = stripped[len(HINT):].strip()
            elif stripped.startswith(PART):
                block["part"] = stripped[len(PART):].strip()
        else:
            out.append(line)
    if block is not None:
        raise ValueError("### BEGIN SOLUTION without ### END SOLUTION")
    return "\n".join(out)


def student_copy(nb, name: str):
    """A copy of lab notebook ``nb`` (file ``name``) with solutions stubbed out and no outputs."""
    import copy

    from nbformat.v4 import new_markdown_cell

    student = copy.deepcopy(nb)
    bank = lab_bank(name)
    for cell in student.cells:
        if cell.cell_type == "code":
            cell.source = strip_solutions(cell.source, bank)
            cell.outputs, cell.execution_count = [], None
    note = new_markdown_cell(STUDENT_NOTE.format(name=name))
    marked = [k for k, c in enumerate(student.cells) if c.cell_type == "markdown"
              and c.source.startswith(SOURCE_NOTE_MARK)]
    if marked:
        student.cells[marked[0]] = note
    else:
        student.cells.insert(1, note)
    clean(student)
    return student


def build_students(lab_dir: Path, out_dir: Path | None = None) -> list[Path]:
    """Write the student copy of every lab in ``lab_dir`` to ``lab_dir/student`` (or ``out_dir``)."""
    import nbformat

    out_dir = out_dir or lab_dir / STUDENT_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(lab_dir.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        target = out_dir / path.name
        nbformat.write(student_copy(nb, path.name), target)
        written.append(target)
    return written


def grade(path: Path, timeout: int = 600) -> tuple[str, list[str]]:
    """Run a learner's lab notebook (a copy, never in place) and return its summary line and verdicts.

    For instructors: ``python -m utils.tools.nbtools grade submissions/*.ipynb`` prints one line per notebook.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name=KERNEL_NAME, timeout=timeout, allow_errors=True,
                            resources={"metadata": {"path": str(Path(path).parent)}})
    client.execute()
    verdicts, summary_line = [], "no summary (did the notebook reach its last cell?)"
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = output_text(output)
            if "checks passed" in text:
                summary_line = text.strip().splitlines()[-1]
            verdicts += [line for line in text.splitlines() if line[:1] in ("✅", "❌", "⏳")]
    return summary_line, verdicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m utils.tools.nbtools")
    parser.add_argument("command", choices=["execute", "execute-copy", "check", "clean", "student", "grade"])
    parser.add_argument("paths", nargs="+", type=Path, help="notebooks; for execute-copy: SOURCE DESTINATION")
    args = parser.parse_args(argv)
    status = 0
    if args.command == "execute-copy":  # the GPU check: run a notebook, keep the executed copy elsewhere
        source, destination = args.paths
        print(f"{source}: executed in {execute(source, out=destination):.1f} s -> {destination}", flush=True)
        return 0
    if args.command == "student":
        for lab_dir in args.paths:
            for path in build_students(lab_dir):
                print(f"wrote {path}")
        return 0
    if args.command == "grade":
        for path in args.paths:
            summary_line, verdicts = grade(path)
            print(f"{path}: {summary_line}")
            for line in verdicts:
                print(f"    {line}")
        return 0
    for path in args.paths:
        if args.command == "execute":
            seconds = execute(path)
            print(f"{path}: executed in {seconds:.1f} s", flush=True)
            runtimes.record(path, seconds)
        elif args.command == "clean":
            import nbformat

            nb = nbformat.read(path, as_version=4)
            clean(nb)
            nbformat.write(nb, path)
        for problem in problems(path):
            print(f"{path}: {problem}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())

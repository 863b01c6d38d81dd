"""Lesson 09, the twenty-first reading (t21_09): (1) a short evidence cell keeps the clause its row's check turns
on (the check's own words and the figure it compares): A11 and A19 no longer show only "within noise" beside
"above its bound", B2 and B10 keep the out-of-order message, B7 and B9 the figures their "agrees" rests on; (2)
the verdict cells and cell 5's note stay short, their reasoning one click away in the collapsed block."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from utils.lessons.articles_checked import short_evidence
from utils.lessons.articles_checked.checks import ABOVE, AGREES, BUSY, NOISY
from utils.lessons.articles_checked.sources import ARITHMETIC, BENCH, KINDS, MEASURED, Part

TAIL = "; check: {}"
# the reader's run (2026-12-06), as its rows printed them
A11 = ("as stated, which the verdict and its check read: attention on one worker, FFN on the other, lesson 07's "
       "blocks, width 512, depth 2, forward passes, batch 4 x 64 tokens, no micro-batches: 0.91x ± 0.09 (median of "
       "6 paired rounds, range 0.77-1.14x) one device's speed, bound 1x: no faster than one device beyond the "
       "rounds' spread (within noise: no effect shown): as halves that take turns would be; 2 of 6 rounds above "
       "the bound (up to 1.14x): beyond the rounds' spread of the median (± 0.09): a finding to explain")
A11_NOTE = ("with m micro-batches (a pipeline, which the article never names, and which no run here checks): at "
            "most 2m/(m+1); and a token costs attention's projections 4d² multiply-adds, the FFN 8d² (4x width): "
            "the FFN's device holds 2/3 of the work, so at most 1 / (2/3) = 1.5x for any m, less 2 x depth - 1 "
            "crossings a pass; no lesson measures it")
A19 = ("the article's split (attention, FFN), lesson 07's blocks, width 512, depth 2, forward passes, batch 4 x 64 "
       "tokens: 0.91x one device (the median of 6 paired rounds), 46% of one device's rate each, against its bound "
       "of 1x (halves that take turns): within noise: no effect shown; 2 of 6 rounds above the bound (up to "
       "1.14x): beyond the rounds' spread of the median (± 0.09): a finding to explain")
B10 = ("gloo loopback, 2 processes, each time the median of 5 one-way times (half a round trip each), this run: 4 bytes 156 µs, 4 KiB 177 µs, 1 MiB 402 µs, 4 MiB "
       "2302 µs; no few-byte time read from them (out of order, below; the machine profile's alpha (lesson 00): "
       "106 µs; this run's alpha-beta fit, 152.1 µs and 3.20 GB/s, misses some size by up to 36%); INCONCLUSIVE: "
       "this run's message times are out of order, which no bytes explain: the 4 KiB message (177 µs) took longer "
       "than the 64 KiB (174 µs) one; so neither the fixed cost's share (row B2) nor the bytes' share (row B10) is "
       "read from them")
B10_NOTE = ("the bytes' share of the 4 MiB message is not worked out: it would be read from this run's message "
            "times, out of order (above); a link with 10x the bandwidth cuts only the bytes' part, and a message "
            "of a few bytes costs the link's own fixed cost there too (less only on NVLink, RDMA)")
B7 = ("256 blocks of 64 KiB, every other one freed (8 MiB free in holes), then 64 requests of 96 KiB (6 MiB): the "
      "process's resident memory grew 6.0 MiB: no hole fits a larger request, so the holes stayed free and the "
      "heap grew; those requests took 3.42 ms with fresh pages, 0.0900 ms again from memory the process held "
      "(38.0x): the growth cost time (medians of 5 fresh processes)")
B9 = ("an epoch: load 1.56 s, compute 1.28 s (as printed; each bound from these two); no prefetch 2.85 s (load + "
      "compute 2.84 s); one Prefetcher thread 1.60 s (max(load, compute) 1.56 s); 2 loader workers and the "
      "Prefetcher 1.34 s (max(load / 2, compute) 1.28 s)")
B9_WHERE = ("prefetch; simulated on CPU (reads that wait like storage, a CPU step held to a GPU's pace), another "
            "machine: CPU Intel(R) Xeon(R) Processor, 2 cores, no GPU")


def _cell(parts: tuple[Part, ...], check: str) -> str:
    tail = TAIL.format(check)
    full = "; ".join(p.render() for p in parts) + tail
    return short_evidence.visible_cell(parts, check, full, tail)


def _fits(cell: str) -> None:
    assert len(cell) <= short_evidence.VISIBLE + 5, (len(cell), cell)


def test_a_row_above_its_bound_shows_the_rounds_that_passed_it_beside_its_median():
    cell = _cell((Part(A11, MEASURED, "simulated on CPU"), Part(A11_NOTE, ARITHMETIC)), ABOVE)
    _fits(cell)
    assert ("2 of 6 rounds above the bound (up to 1.14x): beyond the rounds' spread of the median (± 0.09): a "
            "finding to explain [measured in this run: simulated on CPU]") in cell, cell
    assert "0.91x ± 0.09" in cell  # the median it sets them beside, cut short before its clause ends
    cell = _cell((Part(A19, MEASURED, "simulated on CPU"),), ABOVE)
    _fits(cell)
    assert "0.91x one device" in cell and "2 of 6 rounds above the bound (up to 1.14x)" in cell, cell
    assert "a finding to explain [measured" in cell


def test_a_noise_bound_row_keeps_the_out_of_order_messages_it_rests_on():
    cell = _cell((Part(B10, MEASURED, "simulated on CPU"), Part(B10_NOTE, ARITHMETIC)), NOISY)
    _fits(cell)
    assert ("INCONCLUSIVE: this run's message times are out of order, which no bytes explain: the 4 KiB message "
            "(177 µs) took longer than the 64 KiB (174 µs) one") in cell, cell
    assert cell.startswith("gloo loopback") and cell.endswith("; check: inconclusive: noise-bound")


def test_an_agreeing_row_keeps_the_figures_its_check_compares():
    cell = _cell((Part(B7, MEASURED, "this CPU: its C allocator (malloc), in fresh worker processes"),), AGREES)
    _fits(cell)
    assert "grew 6.0 MiB" in cell and "3.42 ms with fresh pages, 0.0900 ms again" in cell and "(38.0x)" in cell, cell
    cell = _cell((Part(B9, BENCH, B9_WHERE),), AGREES)
    _fits(cell)
    for figure in ("load 1.56 s, compute 1.28 s", "no prefetch 2.85 s", "one Prefetcher thread 1.60 s",
                   "the Prefetcher 1.34 s", "another machine"):
        assert figure in cell, (figure, cell)


def test_the_deciding_clause_is_the_first_with_the_checks_own_words():
    clauses = ["0.9x: within noise", "2 rounds above: a finding to explain", "INCONCLUSIVE: out of order"]
    assert short_evidence.deciding_clause(clauses, ABOVE) == 1
    assert short_evidence.deciding_clause(clauses, NOISY) == 2
    assert short_evidence.deciding_clause(clauses, AGREES) == 0  # no words of its own: the first verdict
    assert short_evidence.without_asides("3.42 ms (38.0x) and (a long set-up aside)") == "3.42 ms (38.0x) and"


# --- every row of the committed notebook's run: its whole evidence, from the blocks under the tables -----------

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "09_articles_checked.ipynb"
PART = re.compile(r" \[(" + "|".join(re.escape(k) for k in KINDS) + r")(?:: ([^\]]*))?\]")
CHECK = re.compile(r"; check(?: \(of the rows it sums up[^)]*\))?: ([^;]*)$")


def _notebook_rows() -> dict[str, tuple[tuple[Part, ...], str, str]]:
    """Each row's parts, check and whole evidence cell, read back from the blocks "each row's evidence in full"."""
    rows = {}
    for cell in json.loads(NOTEBOOK.read_text())["cells"]:
        for out in cell.get("outputs", []):
            page = html.unescape("".join(out.get("data", {}).get("text/html", "")))
            # "each row's evidence and verdict in full"; since the t42 run the section's one collapsed block, "each
            # row's verdict, its reason and its evidence", holds the whole evidence without a block of its own
            if "each row's evidence" not in page and "and its evidence" not in page:
                continue
            for text in re.findall(r"<pre[^>]*>(.*?)</pre>", page, re.S):
                row_id, full = text.split(": ", 1)
                if short_evidence.WHOLE_VERDICT in row_id:  # a long verdict's reason, not a row's evidence
                    continue
                full = " ".join(full.split())
                found = CHECK.search(full)
                if found:
                    rows[row_id] = (_parts(full[:found.start()]), found.group(1), full)
    return rows


def _parts(evidence: str) -> tuple[Part, ...]:
    parts, start = [], 0
    for tag in PART.finditer(evidence):
        parts.append(Part(evidence[start:tag.start()].removeprefix("; "), tag.group(1), tag.group(2) or ""))
        start = tag.end()
    return tuple(parts)


def test_every_checked_row_of_the_committed_run_shows_what_its_check_turns_on():
    rows = _notebook_rows()
    assert {"A11", "A19", "B2", "B7", "B9", "B10"} <= set(rows) and len(rows) >= 30, sorted(rows)
    for row_id, (parts, check, full) in rows.items():
        assert "; ".join(p.render() for p in parts) + full[len(full.rsplit("; check", 1)[0]):] == full, row_id
        cell = short_evidence.visible_cell(parts, check, full, full[len(full.rsplit("; check", 1)[0]):])
        assert len(cell) <= short_evidence.VISIBLE + 20, (row_id, len(cell))
        part = short_evidence.deciding_part(parts, check)
        clauses = short_evidence.top_clauses(part.text)
        index = short_evidence.deciding_clause(clauses, check)
        # the deciding clause whole, with its asides; the first clause without its set-up's asides
        deciding = clauses[index]
        bare = short_evidence.without_asides(deciding)
        # its asides go only where the whole clause would push the cell past its size (t38 run: A10)
        whole_too_long = len(cell.replace(bare, deciding, 1)) > short_evidence.VISIBLE
        assert deciding in cell or (not index or whole_too_long) and bare in cell, (row_id, cell)
        own = [w for w in short_evidence.CHECK_WORDS.get(check, ()) if w in part.text][:1]
        assert all(w in cell for w in own), (row_id, own, cell)
    # the reader's rows, on whatever run is committed (its figures change with each execution): where the
    # full evidence counts rounds above a bound, the visible cell shows that count
    for row_id in ("A11", "A19"):
        if rows[row_id][1] == BUSY:  # a busy machine's check: the cell shows which timing it took (t36 run's A19)
            assert any(w in _visible(rows, row_id) for w in short_evidence.CHECK_WORDS[BUSY]), row_id
            continue
        # a count of rounds, whatever follows its largest round ("(up to 2.002x, 1 of them past 2x)" too): the
        # one above the bound, or, where the cell leads with the real finding, the one past 2 devices' 2x
        counts = re.findall(r"\d+ of \d+ rounds above (?:the bound \(up to \d+\.\d+x|2 devices' 2x \(\d+\.\d+x)",
                            rows[row_id][2])
        # or, where the count's clause is left for the block, the round that is the finding, by its figure, with
        # its verdict (t37 run's A19: "… the other round (1.95x): beyond the rounds' spread …: a finding to explain")
        seen = _visible(rows, row_id)
        found = re.search(r"the other round \((\d+\.\d+)x\): [^;]*a finding to explain", seen)
        named = found is not None and any(c.endswith(f"(up to {found.group(1)}x") for c in counts)
        # or, where the cell's deciding clause is a median's own "above the bound" (t39 run's A19: interleaved
        # 1F1B's 1.90x against 1.78x), the median is the finding shown and its rounds' count stays in the block
        median_above = short_evidence.says(seen.split(" [", 1)[0], "above the bound")
        assert not counts or named or median_above or any(c in seen for c in counts), (row_id, seen)


def _visible(rows, row_id: str) -> str:
    parts, check, full = rows[row_id]
    return short_evidence.visible_cell(parts, check, full, full[len(full.rsplit("; check", 1)[0]):])


# --- (2) a long verdict shows its first sentence; the whole reason is in the block ------------------------------

A19_WHY = ("as stated, true of data parallel only. Read the way most favourable to the claim that a run can test "
           "(the reading policy of rows B11 and B13 too): 充分发挥 as keeping both GPUs working, neither idle by "
           "turns; unlike row B20's 'key factor', it names methods a run can test. " + "Of the three methods, " * 40)
A21_WHY = ("where a step's work outweighs its messages (a batch's forward pass, each layer's weights split over the "
           "two: tensor parallel); not token-by-token decoding over a slow link, and not the article's split (row "
           "A11); in this run tensor parallel inference, 0.96x ± 0.13, is within its spread of one device's speed: "
           "this run cannot tell whether the condition holds (more paired rounds would narrow the spread); " * 3)


def test_a_long_verdict_shows_its_first_sentence_and_the_block_holds_it_whole():
    head = "true under conditions -- INCONCLUSIVE, noise-bound: see its evidence"
    for why, shown in ((A19_WHY, "as stated, true of data parallel only …"),
                       (A21_WHY, "where a step's work outweighs its messages (a batch's forward pass, each layer's "
                                 "weights split over the two: tensor parallel) …")):
        cell = f"{head}: {why} (lesson 03 §3)"
        visible = short_evidence.visible_verdict(cell, why)
        assert visible == f"{head}: {shown} (lesson 03 §3){short_evidence.MORE}", visible
        block = short_evidence.verdict_block("A19", why)
        assert " ".join(block.split()) == " ".join(f"A19, verdict, whole: {why}".split())  # never lost
        assert all(len(line) <= 110 for line in block.splitlines())
    # a short reason stays whole, with no block of its own
    assert short_evidence.visible_verdict("true: why (here)", "why") == "true: why (here)"
    assert short_evidence.verdict_block("A1", "why") == ""

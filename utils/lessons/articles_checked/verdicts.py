"""Each claim judged: its evidence from this run and the results files, a check that can disagree with the
course's reading, and the verdict the row shows.

Introduced in lesson 09. ``measure(plan)`` runs every quick measurement (seconds on 2 CPU cores) and reads
the recorded figures; ``rows(m)`` gives one ``Row`` per claim of ``claims.CLAIMS``. A row's check
(``checks.CHECKS``) asks what its evidence must show for the verdict to stand; it answers "agrees",
"disagrees", "waits for a figure" where a lesson has not recorded one yet, "inconclusive" where other programs
took the cores a timing needed or a spread covers the comparison, or "above its bound" where a figure passed
its ceiling (a finding to explain). A row whose evidence is only datasheets, published figures or arithmetic
has no check, and its verdict says what it was judged by.
"""

from __future__ import annotations

from dataclasses import dataclass

from utils import devices
from utils.claims import as_printed, half_up, printed_ratio
from utils.lessons.articles_checked import case_study, claims, host_memory, sections, snippets, zeroed
# Re-exported (noqa: F401) for the notebook and the tests, which import lesson 09's judging from here.
from utils.lessons.articles_checked.checks import (  # noqa: F401
    ABOVE, AGREES, BUSY, CHECKS, DISAGREES, EXPLAINED_MARGIN, NOISY, PIPELINE_EXPLAINED, READ_AS_LESSON_02, SUMMED,
    WAITING, WIDE_SPREAD, Busy, article_split_speedup, article_split_words, busy_note, compression_reading,
    needs_quiet_cores, past_bound, peak_ratio, read_by_rounds, rounds_above_words, run_check, speedup_words,
    launches, launches_text, split_reference, spread_of, too_busy, too_wide, turns_words)
from utils.lessons.articles_checked.figures import (  # noqa: F401
    LEDGER_NOISE, TIMED, TWO_STAGES, WHERE_TO_RECORD, _sends, fixed_cost, _units_note, _walk, capabilities,
    capstone_two_devices, ddp_batches, disturbed, kept_before_two_devices, measure, median_text, quote, read_results,
    recorded_int8_units, removed_reading, setups, share_text, walk_told, zeroed_side)
from utils.lessons.articles_checked.sources import (ARITHMETIC, CHECKABLE, DATASHEET, ERRORS, LINTED, MEASURED,
                                                    NONE, PUBLISHED, READ, ROWS, THIS_CPU, Part,
                                                    two_devices)
from utils.lessons.articles_checked.evidence import (ATTENTION_SHAPE, FOLD_SETUP, GELU_SIZE, PASS_ROUNDS, PRUNE_SHAPE,
                                                     small_gpt_words)
from utils.lessons.articles_checked.capstone import two_devices_text
from utils.lessons.articles_checked.zeros_row import zeros_04_part  # row B12's lesson 04 part
from utils.lessons.articles_checked.lesson_07_split import lesson_07_split_words
from utils.lessons.articles_checked.split_alone import (PER_PROCESS_IS, paired_launch_name,  # lesson 02 §3's words
                                                       split_rounds_words)
from utils.lessons.articles_checked.prefetch_row import b9
from utils.lessons.articles_checked.quantize_reading import b11_reference_why, b13_ratio_note, small_batch_part
from utils.lessons.articles_checked.shares import printed_share
from utils.lessons.articles_checked.summary_rows import a4, b18, data_parallel_reason
from utils.lessons.articles_checked.timed_rows import (RUN_NOTES, a21, article_split_figure, b2, b8, b10, b22,
                                                      one_worker_beside, split_rounds_note)
from utils.lessons.articles_checked.wording import (TWO_STAGES_SECTION, _peak_part, int8_mlp_words,  # noqa: F401
                                                    fused_words, int8_against_reference, int8_reference_words,
                                                    kept_most_words, per_worker_words, share_of_rate,
                                                    ranked_figures, ranking_words, two_stage_parts,
                                                    two_stages_read_words)

ARTICLE_2_ONLY = ("device_ids", "no_move_after_wrap")  # mistakes of article 2's code, not article 1's
ABOVE_NOTE = "see the note under §1's counts"  # where lesson 09 says, once, what a figure past its bound means


# --- Each claim's evidence: a list of Parts --------------------------------------------------------------------


def a1(m):
    n = m["sizes"]
    return [Part("GPT-3 1.75e11 parameters; BERT-base 1.1e8, BERT-large 3.4e8", PUBLISHED,
                 "Brown et al. 2020; Devlin et al. 2019"),
            Part(f"counted from their published layer shapes (embeddings and transformer layers): BERT-base "
                 f"{_e(n['BERT-base'])}, BERT-large {_e(n['BERT-large'])}, GPT-3 {_e(n['GPT-3'], 3)}", MEASURED,
                 f"{THIS_CPU}, on the meta device: shapes, no data"),
            Part(f"'several billion' is a few 1e9, 'over ten billion' above 1e10: counted GPT-3 / 1e10 = "
                 f"{float(_e(n['GPT-3'], 3)) / 1e10:.1f}, over ten billion, as the phrase says; counted BERT-large "
                 f"/ 1e9 = {float(_e(n['BERT-large'])) / 1e9:.2f}, under one billion, not several; GPT-3 over BERT, "
                 "as published: 1.75e11 / 3.4e8 = 515x, 1.75e11 / 1.1e8 = 1,591x", ARITHMETIC)]  # printed operands


def _e(x: float, digits: int = 2) -> str:
    """1.09e8, as the rows write large counts (Python would write 1.09e+08)."""
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def a23(m):
    w = m["width"]
    return [Part("per token, N parameters: training 6N (forward 2N, backward 4N), inference 2N; GPT-3: 6 x 1.75e11 "
                 "= 1.05e12 and 2 x 1.75e11 = 3.5e11 FLOPs a token; BERT-large: 2.0e9 and 6.8e8", ARITHMETIC),
            Part(f"torch's FLOP counter over the formula, {small_gpt_words(256)}: training step "
                 f"{w['counted_over_formula']:.3f}x,"
                 f" forward pass {w['forward_over_formula']:.3f}x; the step over the forward pass "
                 f"{w['train_over_forward']:.2f}x (6N / 2N = 3)", MEASURED, THIS_CPU)]


def a24(m):
    def say(r):
        return (f"two workers, {m['setups']['03']}: {median_text(r)} the throughput against a bound of "
                f"{r['bound']:.2f}x ({speedup_words(m, 'ddp')}); {per_worker_words(r['value'])}")
    return [quote(m, "ddp", say),
            quote(m, "capstone", lambda r: f"{m['setups']['08']}: {two_devices_text(r)} (as row A3 reads it); "
                                           f"{per_worker_words(capstone_two_devices(r))}")]


def a2(m):
    flops = 6 * 175e9 * 300e9  # 6 N per token, 300e9 training tokens
    peak, memory = m["sheet"]["h100_bf16"], m["sheet"]["h100_memory"]
    years = as_printed(flops / peak / 3.15e7, 0)  # whole years, as printed: "on two" halves that figure
    return [Part(f"GPT-3's training, 6 x 1.75e11 x 3e11 = {_e(flops, 1)} FLOPs, at one H100's bf16 peak: "
                 f"{years:.0f} years (on two: {years / 2:.0f}); its weights and AdamW state, 16 bytes a parameter: "
                 f"{175e9 * 16 / 1e12:.1f} TB against {memory / 1e9:.0f} GB", ARITHMETIC),
            Part(f"H100 SXM: {peak / 1e12:.0f} TFLOP/s bf16 dense, {memory / 1e9:.0f} GB", DATASHEET, "NVIDIA"),
            Part("GPT-3: 1.75e11 parameters, 3e11 training tokens", PUBLISHED, "Brown et al. 2020")]


def a3(m):
    def lesson_08(r):
        kept = kept_before_two_devices(r)
        return (f"lesson 08's two-device step: {two_devices_text(r)}; "
                f"{m['setups']['08']} (its one-device batch split in two)"
                + (f", after the steps it kept before it ({kept})" if kept else "")
                + ": another model, batch and recipe than lesson 03's, so the gap between the two figures has "
                "more than one cause")
    ddp = quote(m, "ddp", lambda r: f"two DDP workers, {m['setups']['03']}: {median_text(r)} against a bound of "
                                    f"{r['bound']:.2f}x ({speedup_words(m, 'ddp')})")
    return [ddp, quote(m, "capstone", lesson_08)]


def a5(m):
    hw, sheet = m["hw"], m["sheet"]
    parts = [Part(f"two T4s (Kaggle) join over {sheet['t4_link']}; two A100 SXM over NVLink 3", DATASHEET,
                  "NVIDIA T4, A100")]
    if hw.link and len(hw.gpus) >= 2:
        parts.append(Part(f"this machine: GPU 0 - GPU 1 over {hw.link.describe()}", READ, "NVML"))
    return parts


def a6(m):
    b = m["bytes"]
    return [Part("a training step of lesson 01's small GPT on CPU (width 128, depth 4): 16 x 64 token ids x 8 "
                 f"bytes x 2 (inputs, targets) = {b['in'] / 1024:.0f} "
                 f"KiB in, a {b['out']}-byte loss out; {b['stay'] / 2**20:.1f} MiB of weights, gradients and AdamW "
                 "state stay", ARITHMETIC)]


def a18(m):
    hw = m["hw"]
    parts = [Part("peer access lets one GPU copy into another's memory over PCIe or NVLink; NCCL uses it, and "
                  "goes through host memory only where it is off (NCCL_P2P_DISABLE=1)", PUBLISHED,
                  "CUDA programming guide, NCCL documentation")]
    if hw.link and len(hw.gpus) >= 2:
        peer = {True: "yes", False: "no", None: "unknown"}[hw.link.peer_access]
        parts.append(Part(f"this machine's GPU 0 and GPU 1: peer access {peer}", READ, "NVML"))
    if "paths" in m:
        parts.append(_paths_part(m, lambda fit: f"{fit.beta / 1e9:.1f} GB/s", "beta"))
    return parts


def _paths_part(m, say, what: str) -> Part:
    """GPU 0 to GPU 1 directly against through host memory (2gpu mode), ``what`` said by ``say(fit)``."""
    where = two_devices(m["plan"], m["hw"])
    if isinstance(m["paths"], Exception):
        return Part(f"could not measure: {snippets.first_line(m['paths'])}", MEASURED, where)
    direct, host = m["paths"]["direct"].fit, m["paths"]["via host"].fit
    return Part(f"GPU 0 to GPU 1, {what}: directly {say(direct)}, through host memory {say(host)}", MEASURED, where)


def a7(m):
    parts = [Part(f"two T4s: {m['sheet']['t4_link']}, no NVLink", DATASHEET, "NVIDIA T4"),
             Part("AMD Instinct GPUs join over Infinity Fabric links", PUBLISHED, "AMD Instinct documentation")]
    if m["hw"].link and len(m["hw"].gpus) >= 2:
        parts.append(Part(f"this machine: {m['hw'].link.describe()}", READ, "NVML"))
    return parts


def a8(m):
    a100, h100 = m["sheet"]["a100"], m["sheet"]["h100"]
    return [Part(f"A100: NVLink 3 {a100[0] / 1e9:.0f} against PCIe 4 {a100[1] / 1e9:.1f} GB/s; H100: NVLink 4 "
                 f"{h100[0] / 1e9:.0f} against PCIe 5 {h100[1] / 1e9:.0f} GB/s, per direction", DATASHEET, "NVIDIA")]


def a9(m):
    where = two_devices(m["plan"], m["hw"])
    if isinstance(m["paths"], Exception):
        return [Part(f"could not measure: {snippets.first_line(m['paths'])}", MEASURED, where)]
    direct, hop = m["paths"]["direct"].fit, m["paths"]["one PCIe hop"].fit
    return [Part(f"alpha (a few bytes): GPU 0 to GPU 1 directly, over NVLink, {direct.alpha * 1e6:.1f} µs; pinned "
                 f"host to GPU 1, one PCIe hop, {hop.alpha * 1e6:.1f} µs (another kind of copy, standing in for a "
                 "peer copy between two GPUs joined only by PCIe, which this machine lacks)", MEASURED, where)]


def noted_words(m, name: str) -> str:
    """``speedup_words`` of a recorded figure, pointing to lesson 09's one note where it passed its bound; lesson
    02 §5's own verdict on its best pipeline where its ledger entry keeps one (``verdict``), so both read alike."""
    found = m["results"].get(name) if name == "pipeline" else None
    text = (found.record.get("verdict") if found is not None else None) or speedup_words(m, name)
    return f"{text}; {ABOVE_NOTE}" if past_bound(text) else text


SPLIT_SECTION = ("02", "Does a naive split")  # lesson 02 §3: the split alone, its rounds and per-process reference


def _split_alone(m) -> Part:
    def say(r):
        reference = split_reference(r)
        # its single rounds read by lesson 02's own functions (t30_09 #1): a round its own round's per-process
        # reference reaches is no finding, as §3 prints it; an older entry without rounds says where they are read
        rounds = (split_rounds_words(r) or rounds_above_words(read_by_rounds("naive_split", r),
                                                              sections.cite(SPLIT_SECTION)))
        if launches(r):  # every launch lesson 02 ran, read together; the rounds kept are one launch's
            rounds = (f"{paired_launch_name(r)} (the launch lesson 02 §3 pairs with its per-process reference), "
                      f"{median_text(r)}: {rounds}")
        return (f"lesson 02's split alone: {launches_text(r)} against a 1x bound, "
                f"{speedup_words(m, 'naive_split')}; {rounds}"
                + (f"; per-process reference {reference:.2f}x ({PER_PROCESS_IS})" if reference else ""))
    return quote(m, "naive_split", say)


def a10(m):
    return [_split_alone(m),
            quote(m, "pipeline", lambda r: f"with micro-batches ({pipeline_setup(m)}): {median_text(r)} against a "
                                           f"bound of {r['bound']:.2f}x ({noted_words(m, 'pipeline')}; "
                                           f"{rounds_above_words(r)})")]


def a11(m):
    said = article_split_words(m)  # the median of its paired rounds, as row A19 quotes it
    if past_bound(said):
        reading = ("faster than one device beyond the noise without micro-batches: this contradicts the verdict "
                   "(halves that take turns are not)")
    elif said.startswith("within noise"):
        reading = (f"no faster than one device beyond the rounds' spread ({said}): as halves that take turns "
                   "would be")
    else:
        reading = f"no faster than one device ({said}): the halves took turns, as the verdict says"
    # "as stated" (no micro-batches) is what the verdict and its check read; the second part (a pipeline) is not.
    # Kept short: a visible cell keeps this first clause whole (short_evidence), within its 400 characters
    return [Part(f"as stated: attention on one worker, FFN on the other, "
                 f"{m['setups']['07']}, no micro-batches: {article_split_figure(m)}, bound 1x: {reading}"
                 f"{split_rounds_note(m)}{lesson_07_split_words(m)}"
                 f"{busy_note(m, 'passes', 2)}", MEASURED, two_devices(m["plan"], m["hw"])),
            Part("with m micro-batches (a pipeline, which the article never names, and which no run here "
                 "checks): at most 2m/(m+1); and a token costs attention's projections 4d² multiply-adds, the FFN "
                 "8d² (4x width): the FFN's device holds 2/3 of the work, so at most 1 / (2/3) = 1.5x for any m, "
                 "less 2 x depth - 1 crossings a pass; no lesson measures it", ARITHMETIC)]


def in_a_worker(m) -> str:
    """Where an article's code block ran: a worker process of this run, on the plan's first device."""
    hw = m["hw"]
    device = "this CPU" if m["plan"].simulated or not hw.gpus else hw.gpus[0].name
    return f"this run, a worker process on {device}"


def in_ddp_workers(m) -> str:
    return f"lesson 03's rebuild of the code, run here on 2 workers, {two_devices(m['plan'], m['hw'])}"


def _missing(m, claim_id: str) -> str:
    found = m["missing"][claim_id]
    optimizer = "" if found["optimizer"] else "; no optimizer created"
    return f"used, never defined: {', '.join(found['undefined'])}{optimizer}"


def a12(m):
    return [Part("(meta: a device with no storage, standing in below for a second GPU) " + "; ".join(
        f"{k + 1}. {s}" for k, s in enumerate(m["split"])), ERRORS, in_a_worker(m))]


def a22(m):
    c = m["copies"]
    return [Part(f"model1 and model2: {c['parameters'][0]:,} parameters each, the same layers ({c['in_features']} -> "
                 f"64 -> {c['out_features']}); chained, model2 reads model1's {c['out_features']} outputs where it "
                 f"expects {c['in_features']} features (row A12's shape error)", MEASURED, THIS_CPU)]


def a20(m):
    g = m["merges"]
    return [Part(f"article 1's model (no activation between its layers) as one 128 -> 32 layer: equal within "
                 f"{g['linear_diff']:.0e}, {g['linear_macs']:.2f} of the multiply-adds; batch norm folded into the "
                 f"convolutions of lesson 04's variant of article 2's CNN (batch norm added: the article's has "
                 f"none): equal within {g['bn_diff']:.0e}", MEASURED, THIS_CPU)]


def a13(m):
    f = m["fold"]
    return [Part(f"{FOLD_SETUP}, folded into one 4x4 stride-2 convolution: equal within {f['diff']:.0e}, "
                 f"{f['flops_ratio']:.2f} of the FLOPs; conv + max pool is not linear: f(x+y) - f(x) - f(y) up to "
                 f"{m['maxpool']:.1f}",
                 MEASURED, THIS_CPU)]


def a14(m):
    s = m["simplified"]
    return [Part("; ".join(m["conv"]), ERRORS, in_a_worker(m)),
            Part(f"the model: {s['layers']} layer ({s['kinds']}), {s['parameters']} parameters: nothing to merge",
                 MEASURED, THIS_CPU)]


def a15(m):
    def say(r):
        sizes = (f" (FSDP2 {r['fsdp_bytes'] / 1e6:.2f} MB, DDP {r['ddp_bytes'] / 1e6:.2f} MB)"
                 if "fsdp_bytes" in r and "ddp_bytes" in r else "")
        return (f"lesson 06's model on two ranks: DDP keeps the whole model on every rank; FSDP2 "
                f"{r['value']:.2f}x DDP's bytes of parameters, gradients and AdamW state on the larger rank{sizes}")
    return [quote(m, "fsdp", say)]


def a16(m):
    return [Part(_missing(m, "A16"), LINTED, "this run"),
            Part(walk_told(m["ddp"], ARTICLE_2_ONLY), ERRORS, in_ddp_workers(m))]


def a17(m):
    # What the rows it sums up measure: a check of them cannot contradict a speed-up none of them times.
    return [Part("rows " + ", ".join(SUMMED["A17"]) + ": A10 and A3 time speed-ups (a pipeline, data parallel); "
                 "A20 and A13 measure a merge's outputs and FLOPs, A15 FSDP's bytes: no row times a merge's or "
                 "FSDP's speed-up, so this check cannot contradict those", ROWS)]


def a19(m):
    # Each figure with its own set-up; none multiplied by another's: their models and sizes differ.
    # One statistic for every share: the median of paired rounds (the fastest pass only where no rounds were kept).
    split, is_median = article_split_speedup(m)
    how = (f"the median of {PASS_ROUNDS} paired rounds" if is_median else
           f"fastest pass against one device's fastest, over {PASS_ROUNDS} paired rounds: no rounds kept")
    kept = {"the article's split": printed_share(split)}  # from the speed-up as printed: 0.95x / 2 = 48%
    parts = [Part(f"the article's split (attention, FFN), {m['setups']['07']}: {split:.2f}x one device ({how}), "
                  f"{share_text(split)}% of one device's rate each, against its bound of 1x (halves that take "
                  f"turns): {article_split_words(m)}{split_rounds_note(m)}{lesson_07_split_words(m)}"
                  f"{busy_note(m, 'passes', 2)}", MEASURED,
                  two_devices(m["plan"], m["hw"]))]
    pipeline = f"{sections.cite(PIPELINE_SECTION)}'s pipeline"  # its §5 figure: the sweep's best
    for name, label, setup in (("pipeline", pipeline, f"its best GPipe/1F1B configuration, {pipeline_config(m)}"),
                               ("ddp", "data parallel", m["setups"]["03"])):
        if m["results"][name] is not None and not disturbed(m, name):  # a busy machine's figure: not ranked
            kept[label] = printed_share(m["results"][name].record["value"])
        parts.append(quote(m, name, lambda r, label=label, setup=setup, name=name:
                           f"{label}, {setup}: {r['value']:.2f}x one, {share_text(r['value'])}% each "
                           f"(speed-up / 2{_median(r)}){_bound_note(m, name, r)}"))
    two_stages, two_stages_kept = two_stage_parts(m, noted_words)  # lesson 02 §9's, where recorded
    parts += two_stages
    found = ranked_figures(m, kept | two_stages_kept)
    ranked = ranking_words(found)  # spreads beside the order (t27_09 #7)
    spreads = {label: spread for label, (_, spread) in found.items()}  # "about all of it" within noise (t34_09 #1)
    parts.append(Part(kept_most_words(kept | two_stages_kept, spreads=spreads) + (
        "" if is_median else " (the split's share from its fastest pass, the others' as their lessons recorded "
        "them)") + (f"; {ranked}" if ranked else "") + f"; {two_stages_read_words(m)}", ARITHMETIC))
    return parts + [p for p in (data_parallel_reason(m),) if p]  # the verdict's reason, from lesson 03's figure


def _bound_note(m, name: str, record: dict) -> str:
    """Beside a recorded speed-up a row quotes for another purpose: its bound and the course's words for it
    (past it, a finding to explain, with its lesson's explanation where it has one), and for lesson 02's
    pipelines their single rounds above it, read by lesson 02's rule (the row's check reads them too)."""
    verdict, *rest = noted_words(m, name).split("; ", 1)
    if name in READ_AS_LESSON_02:  # the count in the verdict's clause, before the explanation: a short cell keeps it
        verdict += f", {rounds_above_words(record)}"
    return f"; against a bound of {record['bound']:.2f}x: " + "; ".join([verdict, *rest])


def _median(record: dict) -> str:
    """How a quoted speed-up was worked out; with its paired rounds kept, their count and spread (its verdict's)."""
    if record.get("rounds"):
        return f"; the median of {len(record['rounds'])} paired rounds, ± {spread_of(record):.2f}"
    return "; the median of paired rounds" if "median" in record.get("what", "") else ""


# Lesson 02's §5 figure: its sweep's best GPipe/1F1B configuration. Lesson 02 records its §9 schedules (two
# stages per device) apart, which row A19 reads: every sentence that quotes the §5 figure names the section it
# comes from, so that none reads as lesson 02's best of all schedules.
PIPELINE_SECTION = ("02", "How close do GPipe")


def pipeline_label() -> str:
    """"lesson 02 §5's best GPipe/1F1B configuration", cited from lesson 02's headings."""
    return f"{sections.cite(PIPELINE_SECTION)}'s best GPipe/1F1B configuration"


def pipeline_config(m) -> str:
    """The configuration as its record names it, on lesson 02's GPT: "lesson 02's GPT, 1F1B m=8, batch 128"."""
    found = m["results"].get("pipeline")
    what = found.record.get("what", "") if found is not None else ""
    named = what.split(", against")[0].replace("1f1b", "1F1B").replace("gpipe", "GPipe")
    named = named.removeprefix("the sweep's best of the plain schedules, ")  # the label says "its best" already
    return "lesson 02's GPT" + (f", {named}" if named else "")


def pipeline_setup(m) -> str:
    """"lesson 02 §5's best GPipe/1F1B configuration, lesson 02's GPT, 1F1B m=8, batch 128"."""
    return f"{pipeline_label()}, {pipeline_config(m)}"


def b20(m):
    return [Part("a framing, not a measurement: what it introduces, large models' slowness and its four reasons, "
                 "rows B1 to B4 measure", NONE)]


def b1(m):
    t = m["threads"]
    return [Part(f"{small_gpt_words(128)} on 2 cores against 1: training step {t['train']:.2f}x, forward pass "
                 "(inference) "
                 f"{t['forward']:.2f}x one core's speed (bound 2x){busy_note(m, 'threads', 2)}", MEASURED, THIS_CPU)]


def b3(m):
    w = m["width"]
    return [Part(f"{small_gpt_words(None)}, width 128 -> 256 (x2): FLOPs x{w['flops_ratio']:.1f}, step time "
                 f"x{w['time_ratio']:.1f}"
                 f"{busy_note(m, 'width', 1)}", MEASURED, THIS_CPU)]


def b4(m):
    return [Part(fused_words(m["algorithms"]["attention"], ("naive attention", "fused"),
                             f"{ATTENTION_SHAPE}, fp32, one thread", not m["plan"].simulated,
                             m["results"].get("fused_attention"))
                 + busy_note(m, 'algorithms', 1), MEASURED, THIS_CPU)]


def b5(m):
    return a10(m) + [quote(m, "ddp", lambda r: f"data parallel, as the case study's code is, measured on "
                                               f"{m['setups']['03']}: {median_text(r)} against a bound of "
                                               f"{r['bound']:.2f}x ({speedup_words(m, 'ddp')})")]


def b6(m):
    s = m["sheet"]
    return [Part(f"H100 SXM bf16 {s['h100_bf16'] / 1e12:.0f} TFLOP/s against T4 fp16 {s['t4_fp16'] / 1e12:.0f}: "
                 f"{printed_ratio(s['h100_bf16'], s['t4_fp16'], 0, 1e12):.0f}x", DATASHEET, "NVIDIA")]  # as printed


def b7(m):
    parts = [Part(host_memory.words(m["host_memory"]) + busy_note(m, "host_memory", 1), MEASURED,
                  f"{THIS_CPU}: its C allocator (malloc), in fresh worker processes")]
    if "fragmentation" not in m:
        return parts  # no GPU: the host's allocator only
    where = f"on one {m['hw'].gpus[0].name}" if m["hw"].gpus else "on a GPU"
    if isinstance(m["fragmentation"], Exception):
        return parts + [Part(f"could not measure: {snippets.first_line(m['fragmentation'])}", MEASURED, where)]
    (_, _, _), (blocks, _, reserved), (freed, allocated, _), (big, _, after) = m["fragmentation"][:4]
    parts.append(Part(f"GPU memory: {blocks}, {freed}: {reserved - allocated:.0f} MB free in holes, yet {big} made "
                      f"the caching allocator reserve {after - reserved:.0f} MB more", MEASURED, where))
    times = m.get("allocation")
    if isinstance(times, dict):
        parts.append(Part(f"GPU time: that request, a new reservation, {times['new'] * 1e6:.0f} µs; the same "
                          f"{times['mb']} MB from the cache {times['cached'] * 1e6:.0f} µs, once; a training step "
                          "that reuses its blocks pays neither again", MEASURED, where))
    return parts


def b11(m):
    parts = [quote(m, "quantize", lambda r: f"{int8_mlp_words(r)}, {int8_against_reference(r, b11_reference_why(r))}"
                                            f"{_units_note(recorded_int8_units(r), 'int8')}"), small_batch_part(m)]
    p = m["prune"]
    times = lambda k: half_up(printed_ratio(p[k], p["dense"], 2, 1e-3))  # noqa: E731  (from B12's printed ms)
    parts.append(Part(f"one thread, {PRUNE_SHAPE}: half the neurons removed (half the operations) "
                      f"{times('removed'):.2f}x the dense time; half the weights zeroed (the same operations) "
                      f"{zeroed.figure_words(p, LEDGER_NOISE)} (row B12){busy_note(m, 'prune', 1)}",
                      MEASURED, THIS_CPU))
    if m["results"]["prune"]:
        parts.append(quote(m, "prune", prune_accuracy_words))
    return parts


def prune_accuracy_words(record: dict) -> str:
    """make bench's pruned CNN: its accuracy drop, and why it is not lesson 04's figure (the ledger keeps none)."""
    return (f"make bench's own run of lesson 04's procedure (the CNN trained afresh, pruned to "
            f"{record.get('sparsity', 0.5):.0%} zeros, fine-tuned): accuracy {record['value']:.1%} lower, one run, no "
            f"spread recorded; {sections.cite(('04', 'Pruning'))} prints its own run's drop with its paired standard "
            "error, and the two need not match: another training run, and on a test set this small one image "
            "moves the accuracy by a fraction of a point")


def b12(m):
    p = m["prune"]
    dense, zeroed_ms, removed = (as_printed(p[k], 2, 1e-3) for k in ("dense", "zeroed", "removed"))  # ms
    times = lambda k: half_up(printed_ratio(p[k], p["dense"], 2, 1e-3))  # noqa: E731  (of the dense ms printed)
    return [Part(f"one thread, {PRUNE_SHAPE}: dense {dense:.2f} ms; half the weights zeroed {zeroed_ms:.2f} ms, "
                 f"{zeroed.figure_words(p, LEDGER_NOISE, ' the dense time')}; half the neurons "
                 f"removed (0.5 of the FLOPs) {removed:.2f} ms, {times('removed'):.2f}x"
                 f"{removed_reading(times('removed'))}; CSR at 95% zeros: {m['csr']:.2f}x"
                 f"{busy_note(m, 'prune', 1)}", MEASURED, THIS_CPU), zeros_04_part(m["results"])]


def b13(m):
    size = m["peaks"].peak("int8").size  # "1024³": the shape fp32's peak is timed on too
    parts = [Part(f"an int8 matmul of {size} does as many multiply-adds as the fp32 one of {size}: quantization "
                  "changes each operation's cost, not their count", ARITHMETIC),
             _peak_part(m, "int8", m["units"].int8_dot, note=b13_ratio_note(
                 m["results"]["quantize"] and m["results"]["quantize"].record))]
    if m["results"]["quantize"]:
        parts.append(quote(m, "quantize", lambda r: f"{int8_mlp_words(r)}, {int8_against_reference(r)} (row B11)"
                                                    f"{_units_note(recorded_int8_units(r), 'int8')}"))
    return parts


def b14(m):
    return [Part(fused_words(m["algorithms"]["gelu"], ("GELU op by op", "fused into one kernel"),
                             f"{GELU_SIZE:,} fp32 values, one thread", not m["plan"].simulated,
                             m["results"].get("fused_gelu"))
                 + busy_note(m, 'algorithms', 1), MEASURED, THIS_CPU)]


def b15(m):
    found = m["results"].get("capstone")   # lesson 08's record keeps the size its peaks were probed at
    size = found.record.get("probe_size") if found is not None else None
    matrices = f"{size}³ matrices" if size else "matrices of its own size (not in the ledger: re-run lesson 08)"
    return [_peak_part(m, "bf16", m["units"].bf16_units,
                       note="; a ratio of peaks holds only for the threads and size it names (a matrix unit and "
                            "fp32's vector units do not gain alike from a second thread or a larger matrix): "
                            f"lesson 08 times bf16 against fp32 on 1 thread and {matrices}, so its ratio need not "
                            "equal this one")]


def b16(m):
    return [quote(m, "ddp", lambda r: f"two DDP workers: {median_text(r)} against a bound of {r['bound']:.2f}x "
                                      f"({speedup_words(m, 'ddp')})")]


def b21(m):
    return [quote(m, "ddp", lambda r: f"two DDP workers, {m['setups']['03']}: {median_text(r)} the throughput "
                                      f"against a bound of {r['bound']:.2f}x ({speedup_words(m, 'ddp')}); "
                                      f"{per_worker_words(r['value'])}")]


def b17(m):
    return [Part(_missing(m, "B17") + "; os, never imported", LINTED, "this run"),
            Part(walk_told(m["case_study"]), ERRORS, f"article 2's code rebuilt (its CNN, {case_study.IMAGES} digits, "
                 f"{case_study.EPOCHS} epochs), run here on 2 workers, {two_devices(m['plan'], m['hw'])}")]


def b19(m):
    c = m["cnn"]
    fewer = claims.GPT3_PARAMETERS / c["parameters"]  # the ratio row B19's verdict prints too (claims.py)
    return [Part(f"{c['parameters']:,} parameters, {fewer:,.0f} times fewer than GPT-3; a training "
                 f"step on 64 digits: {c['step_s'] * 1e3:.1f} ms on one core{one_worker_beside(m)}", MEASURED,
                 THIS_CPU)]


EVIDENCE = {"A1": a1, "A23": a23, "A2": a2, "A24": a24, "A3": a3, "A21": a21, "A4": a4, "A5": a5, "A6": a6,
            "A18": a18, "A7": a7, "A8": a8, "A9": a9, "A10": a10, "A11": a11, "A12": a12, "A22": a22,
            "A20": a20, "A13": a13, "A14": a14, "A15": a15, "A16": a16, "A17": a17, "A19": a19, "B20": b20,
            "B1": b1, "B2": b2, "B3": b3, "B4": b4, "B5": b5, "B6": b6, "B7": b7, "B8": b8, "B9": b9,
            "B10": b10, "B11": b11, "B12": b12, "B13": b13, "B14": b14, "B15": b15, "B16": b16, "B21": b21, "B17": b17,
            "B19": b19, "B22": b22, "B18": b18}


# --- Rows ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    id: str
    says: str
    verdict: str  # one of claims.VERDICTS
    why: str
    where: str  # the sections that measure it, cited from the lessons' headings
    parts: tuple[Part, ...]
    check: str | None  # one of checks.STATES; None where nothing in the evidence can disagree

    @property
    def judged_by(self) -> str:
        """"" for a checked row; else the kinds it rests on: "datasheet", "arithmetic and published figures"."""
        if self.check is not None or self.verdict in (claims.NOT_TESTABLE, claims.FRAMING):
            return ""
        names = {DATASHEET: "datasheet", PUBLISHED: "published figures", ARITHMETIC: "arithmetic",
                 READ: "the driver's report"}
        kinds = list(dict.fromkeys(names[p.kind] for p in self.parts if p.kind in names))
        return " and ".join([", ".join(kinds[:-1]), kinds[-1]] if len(kinds) > 1 else kinds)

    @property
    def evidence(self) -> str:
        return "; ".join(p.render() for p in self.parts)


def summed_rows_named(claim_id: str, check: str | None, earlier: dict[str, Row]) -> tuple[Part, ...]:
    """A summary row whose check is not "agrees" names the rows it sums up that make it so (B18's check is
    inconclusive through B10, say): its evidence must name the row its check follows."""
    found = [i for i in SUMMED.get(claim_id, []) if i in earlier and earlier[i].check not in (None, AGREES)]
    if check in (None, AGREES) or not found:
        return ()
    return (Part(f"its check follows row{'s' if len(found) > 1 else ''} " + ", ".join(
        f"{i} ({earlier[i].check})" for i in found), ROWS, follows=", ".join(found)),)


def judge(claim: claims.Claim, m: dict, earlier: dict[str, Row]) -> Row:
    """One claim's row: "not testable here" where this machine lacks what it needs; else its evidence and,
    where any of it could disagree, the check's answer."""
    where = sections.cite_all(claim.refs)
    if claim.needs and not m["can"][claim.needs]:
        return Row(claim.id, claim.says, claims.NOT_TESTABLE, f"needs {claims.NEEDS[claim.needs]}; there it "
                   f"measures {claim.test}", where, (Part(f"expected, not measured on this machine: {claim.verdict}: "
                                                          f"{claim.why}", NONE),), None)
    parts = tuple(EVIDENCE[claim.id](m))
    check = run_check(claim.id, m, earlier) if any(p.kind in CHECKABLE for p in parts) else None
    parts += summed_rows_named(claim.id, check, earlier)
    why = claim.why + (RUN_NOTES[claim.id](m) if claim.id in RUN_NOTES and check != WAITING else "")
    return Row(claim.id, claim.says, claim.verdict, why, where, parts, check)


def rows(m: dict) -> list[Row]:
    """Every claim's row, in the articles' order."""
    done: dict[str, Row] = {}
    for claim in claims.CLAIMS:
        done[claim.id] = judge(claim, m, done)
    return list(done.values())

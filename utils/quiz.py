"""Short quizzes at the end of each lesson: multiple choice and numeric, with immediate feedback.

Introduced at the end of ``notebooks/00_start_here.ipynb``. A lesson's questions live in its question bank,
``utils/lessons/<folder>/quiz.toml`` (a lab's: ``utils/labs/<folder>/quiz.toml``), not in the notebook, so
that the notebook's source and its committed outputs never show an answer. The quiz cell is one line:

    quiz.ask("lessons/start_here")

In JupyterLab each question is an ipywidgets form (pick or type an answer, press *Check*, read the
explanation). Where widgets cannot render (a plain console, nbval, an exported notebook) the quiz shows as
text, and ``q = quiz.ask(...); q[k].answer(...)`` checks an answer by hand. A bank holds ``[[question]]`` tables:

    [[question]]
    kind = "choice"                      # or "number", with value, tolerance and an optional unit
    prompt = "Which link do Kaggle's two T4s use?"
    options = ["NVLink", "PCIe"]
    correct = 1                          # index into options
    explain = "T4s have no NVLink connector; their bytes cross PCIe."
"""

from __future__ import annotations

import html
from dataclasses import dataclass


@dataclass
class Feedback:
    correct: bool
    text: str

    def __str__(self) -> str:
        return ("✅ Correct. " if self.correct else "❌ Not quite. ") + self.text


class Question:
    """Base: a prompt, a way to judge an answer, an explanation shown after any attempt."""

    def __init__(self, prompt: str, explain: str):
        self.prompt, self.explain = prompt, explain
        self._widget = None

    def judge(self, answer) -> Feedback:
        raise NotImplementedError

    def answer(self, value) -> Feedback:
        """Check an answer without widgets; prints and returns the feedback."""
        feedback = self.judge(value)
        print(feedback)
        return feedback

    def text(self) -> str:
        return f"Quiz: {self.prompt}"

    # -- display: a widget where it renders, the text everywhere else --
    def widget(self):
        if self._widget is None:
            self._widget = self._build_widget()
        return self._widget

    def _build_widget(self):
        import ipywidgets as w

        field = self._input_widget()
        button = w.Button(description="Check", button_style="primary", layout=w.Layout(width="90px"))
        result = w.HTML()

        def on_click(_):
            feedback = self.judge(field.value)
            colour = "#1a7f37" if feedback.correct else "#cf222e"
            result.value = f"<span style='color:{colour}'>{html.escape(str(feedback))}</span>"

        button.on_click(on_click)
        title = w.HTML(f"<b>Quiz.</b> {html.escape(self.prompt)}")
        return w.VBox([title, field, button, result])

    def _input_widget(self):
        raise NotImplementedError

    def _repr_mimebundle_(self, include=None, exclude=None):
        return _widget_bundle(self.widget, self.text(), include, exclude)


class Choice(Question):
    def __init__(self, prompt: str, options: list[str], correct: int, explain: str):
        super().__init__(prompt, explain)
        if not 0 <= correct < len(options):
            raise ValueError(f"correct={correct} is not an index into {len(options)} options")
        self.options, self.correct = list(options), correct

    def judge(self, answer) -> Feedback:
        index = self.options.index(answer) if isinstance(answer, str) and answer in self.options else answer
        if index is None:
            return Feedback(False, "Pick an option first.")
        return Feedback(index == self.correct, self.explain)

    def text(self) -> str:
        options = "\n".join(f"  {k}) {o}" for k, o in enumerate(self.options))
        return f"Quiz: {self.prompt}\n{options}\n(answer with .answer(k) where widgets do not render)"

    def _input_widget(self):
        import ipywidgets as w

        return w.RadioButtons(options=self.options, value=None, layout=w.Layout(width="max-content"))


class Number(Question):
    def __init__(self, prompt: str, value: float, tolerance: float, explain: str, unit: str = ""):
        super().__init__(prompt, explain)
        self.value, self.tolerance, self.unit = value, tolerance, unit

    def judge(self, answer) -> Feedback:
        try:
            guess = float(answer)
        except (TypeError, ValueError):
            return Feedback(False, f"Type a number{f' in {self.unit}' if self.unit else ''}.")
        if abs(guess - self.value) <= self.tolerance:
            return Feedback(True, self.explain)
        direction = "high" if guess > self.value else "low"
        return Feedback(False, f"{guess:g} is too {direction}. {self.explain}")

    def text(self) -> str:
        unit = f" (in {self.unit})" if self.unit else ""
        return f"Quiz: {self.prompt}{unit}\n(answer with .answer(x) where widgets do not render)"

    def _input_widget(self):
        import ipywidgets as w

        return w.Text(placeholder=f"a number{f' in {self.unit}' if self.unit else ''}")


def choice(prompt: str, options: list[str], correct: int, explain: str) -> Choice:
    """A multiple-choice question; ``correct`` is the index of the right option."""
    return Choice(prompt, options, correct, explain)


def number(prompt: str, value: float, tolerance: float, explain: str, unit: str = "") -> Number:
    """A numeric question, right within ``tolerance`` of ``value``."""
    return Number(prompt, value, tolerance, explain, unit)


# -- question banks: the questions live beside the lesson, not in the notebook's source --
class Quiz:
    """A lesson's questions, shown together: widgets where they render, the prompts as text elsewhere.
    The text never holds an answer, so an exported or committed notebook does not give them away."""

    def __init__(self, title: str, questions: list[Question]):
        self.title, self.questions = title, list(questions)

    def __len__(self) -> int:
        return len(self.questions)

    def __getitem__(self, k: int) -> Question:
        return self.questions[k]

    def text(self) -> str:
        body = "\n\n".join(f"{k + 1}. {q.text().removeprefix('Quiz: ')}" for k, q in enumerate(self.questions))
        return (f"{self.title}\n\n{body}\n\n(without widgets: q = quiz.ask(...), then q[0].answer(x) for "
                f"question 1, q[1] for 2, ...)")

    def _repr_mimebundle_(self, include=None, exclude=None):
        def box():
            import ipywidgets as w

            return w.VBox([q.widget() for q in self.questions])

        return _widget_bundle(box, self.text(), include, exclude)


def _widget_bundle(make_widget, text: str, include=None, exclude=None) -> dict:
    """What Jupyter shows for a quiz: the widget where widgets render, ``text`` everywhere (nbval, plain
    consoles, a PDF export). Without widget support the text alone."""
    try:
        data = make_widget()._repr_mimebundle_(include=include, exclude=exclude)
    except Exception:  # no widget support here: the text stands in
        return {"text/plain": text}
    if isinstance(data, tuple):
        data = data[0]
    return {**dict(data or {}), "text/plain": text}


def question_from(entry: dict, where: str) -> Question:
    """One ``[[question]]`` table of a bank: ``kind = "choice"`` (options, correct) or ``"number"`` (value,
    tolerance, optional unit); both need ``prompt`` and ``explain``."""
    try:
        kind = entry["kind"]
        if kind == "choice":
            return Choice(entry["prompt"], entry["options"], entry["correct"], entry["explain"])
        if kind == "number":
            return Number(entry["prompt"], float(entry["value"]), float(entry["tolerance"]), entry["explain"],
                          entry.get("unit", ""))
    except KeyError as missing:
        raise ValueError(f"{where}: a question has no {missing} field") from None
    raise ValueError(f"{where}: kind = {kind!r}; use \"choice\" or \"number\"")


def bank_path(bank: str):
    """``"lessons/ddp"`` -> ``utils/lessons/ddp/quiz.toml`` (a lab: ``"labs/<slug>"``)."""
    from pathlib import Path

    path = Path(__file__).parent / bank / "quiz.toml"
    if not path.is_file():
        raise FileNotFoundError(f"no question bank {bank!r}: expected {path} "
                                "(banks are 'lessons/<folder>' or 'labs/<folder>' under utils/)")
    return path


def load(bank: str) -> list[Question]:
    """The questions of a bank, in file order."""
    import tomllib

    path = bank_path(bank)
    with open(path, "rb") as f:
        entries = tomllib.load(f).get("question", [])
    if not entries:
        raise ValueError(f"{path}: no [[question]] tables")
    return [question_from(e, f"{path.name} question {k + 1}") for k, e in enumerate(entries)]


def ask(bank: str) -> Quiz:
    """The quiz cell of a lesson or lab (introduced in ``notebooks/00_start_here.ipynb``):
    ``quiz.ask("lessons/start_here")`` shows the questions of ``utils/lessons/start_here/quiz.toml``."""
    return Quiz(f"Quiz ({bank.split('/')[-1].replace('_', ' ')})", load(bank))

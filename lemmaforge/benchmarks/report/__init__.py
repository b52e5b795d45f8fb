"""Reports on a bench run (or a single prove run), read from the store: `lemmaforge report`, and the
end-of-run line of `lemmaforge bench`. What counts (and what does not) is `_summary.py`'s docstring.

Public names: `load_run` (a run and its children, read once: `RunData`) and `summarize` (the report
as a JSON-safe dict), `compare` (two reports side by side), `export` (the per-problem CSV / JSONL
files), `plot` with `require_matplotlib` (the figures; extra `plot`); `render`, `render_compare`
and `one_line` (the report as text: rich tables, the end-of-run line); `write_html` (the report as
one self-contained page).

Private parts: `_summary.py` (reading the store and counting), `_text.py` (the text views),
`_html.py` (the HTML page), `_answers.py` (PutnamBench's answer-task section), `_recipe.py` (a
recipe's run beside the number its authors reported, with a Wilson interval).
"""

from lemmaforge.benchmarks.report._html import write_html
from lemmaforge.benchmarks.report._summary import (
    RunData,
    compare,
    export,
    load_run,
    plot,
    require_matplotlib,
    summarize,
)
from lemmaforge.benchmarks.report._text import one_line, render, render_compare

__all__ = [
    "RunData",
    "compare",
    "export",
    "load_run",
    "one_line",
    "plot",
    "render",
    "render_compare",
    "require_matplotlib",
    "summarize",
    "write_html",
]

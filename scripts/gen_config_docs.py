"""Generate the settings reference of docs/configuration.md from the settings model
(lemmaforge/config.py): every section and key, its type, default, environment variable and
description, in the model's order.

    python3 scripts/gen_config_docs.py            # rewrite the reference in docs/configuration.md
    python3 scripts/gen_config_docs.py --check    # exit 1 (and say so) when the page is out of date

Only the text between the two markers (`BEGIN` / `END`) is generated; the page's hand-written
header and footer (precedence, the environment's naming, the example, the prose on speculation)
are kept as they are. tests/test_config.py fails when the page and the model disagree.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lemmaforge.config import ENV_PREFIX, ENV_SHORT_FORMS, SECTIONS, Settings  # noqa: E402

PAGE = ROOT / "docs" / "configuration.md"
BEGIN = ("<!-- BEGIN SETTINGS REFERENCE: generated from lemmaforge/config.py by scripts/gen_config_docs.py;"
         " edit the field descriptions there, then run the script -->")
END = "<!-- END SETTINGS REFERENCE -->"
REGENERATE = "python3 scripts/gen_config_docs.py"
WIDTH = 104  # the descriptions' lines, as the hand-written text around them

_NAMES = {bool: "boolean", int: "integer", float: "number", str: "string", Path: "path"}


def _optional(annotation: Any) -> tuple[Any, bool]:
    """`X | None` → (X, True); anything else → (it, False)."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) < len(get_args(annotation)) and len(args) == 1:
            return args[0], True
    return annotation, False


def type_text(annotation: Any, default: Any = None) -> str:
    """How a TOML user writes a value of this type, in words ("optional": it may be left unset,
    its default)."""
    inner, optional = _optional(annotation)
    optional = optional and default is None
    origin = get_origin(inner)
    if origin is Literal:
        words = [f"`{json.dumps(a)}`" for a in get_args(inner)]
        text = ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]
    elif origin is list:
        (item,) = get_args(inner)
        text = f"list of {_NAMES.get(item, getattr(item, '__name__', str(item)))}s"
    elif origin is dict or inner is dict:
        text = "table"
    else:
        text = _NAMES.get(inner, getattr(inner, "__name__", str(inner)))
    return f"{text}, optional" if optional else text


def is_complex(annotation: Any) -> bool:
    """A list or table: read from the environment as JSON (pydantic-settings)."""
    inner, _ = _optional(annotation)
    return get_origin(inner) in (list, dict) or inner in (list, dict)


def default_value(field: FieldInfo) -> Any:
    if field.default is PydanticUndefined and field.default_factory is not None:
        return field.default_factory()  # type: ignore[call-arg]
    return field.default


def default_text(field: FieldInfo) -> str:
    """The default as TOML would write it; a default that depends on the machine is shown in words
    (`json_schema_extra={"shown_default": …}` on the field)."""
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    if "shown_default" in extra:
        return str(extra["shown_default"])
    value = default_value(field)
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str | list | dict):
        return f"`{json.dumps(value, ensure_ascii=False)}`"
    return f"`{value}`"


def env_names(path: tuple[str, ...], annotation: Any) -> str:
    name = ENV_PREFIX + "__".join(part.upper() for part in path)
    names = [f"`{name}`"] + [f"`{short}`" for short, long in ENV_SHORT_FORMS.items() if long == name]
    text = " or ".join(names)
    return f"{text} (JSON)" if is_complex(annotation) else text


def _entry(path: tuple[str, ...], field: FieldInfo) -> list[str]:
    if not field.description:
        raise SystemExit(f"{'.'.join(path)} has no description: add Field(description=…) in lemmaforge/config.py")
    kind = type_text(field.annotation, None if "shown_default" in str(field.json_schema_extra) else default_value(field))
    head = f"- **`{path[-1]}`** · {kind} · default {default_text(field)} · {env_names(path, field.annotation)}"
    body = textwrap.fill(field.description, width=WIDTH, initial_indent="    ", subsequent_indent="    ",
                         break_long_words=False, break_on_hyphens=False)
    return [head, "", body, ""]


def reference() -> str:
    """The generated part of the page, markers included."""
    lines = [BEGIN, ""]
    top = [(name, f) for name, f in Settings.model_fields.items() if name not in SECTIONS]
    lines += ["## Top-level keys", "", "Keys outside any section, at the top of the file.", ""]
    for name, field in top:
        lines += _entry((name,), field)
    listed: dict[type[BaseModel], str] = {}  # a model listed already ([planner]), by its section
    for section, model in SECTIONS.items():
        described = Settings.model_fields[section].description
        lines += [f"## `[{section}]`", "", described or (model.__doc__ or "").strip(), ""]
        if model in listed:  # [prover] has [planner]'s keys: said once
            first = listed[model]
            lines += [f"The same keys as [`[{first}]`](#{first}), each set from the environment as "
                      f"`{ENV_PREFIX}{section.upper()}__<KEY>` (e.g. `{ENV_PREFIX}{section.upper()}__URL`).", ""]
            continue
        listed[model] = section
        for name, field in model.model_fields.items():
            lines += _entry((section, name), field)
    lines.append(END)
    return "\n".join(lines) + "\n"


def render(page: str) -> str:
    """`page` with its reference replaced by the model's (the text around it kept)."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{PAGE.relative_to(ROOT)} lacks the markers {BEGIN!r} … {END!r}")
    return page[:start] + reference() + page[end + len(END) + 1:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is out of date, write nothing")
    args = parser.parse_args(argv)
    page = PAGE.read_text(encoding="utf-8")
    wanted = render(page)
    if args.check:
        if wanted != page:
            print(f"{PAGE.relative_to(ROOT)} is out of date with lemmaforge/config.py: run {REGENERATE}")
            return 1
        return 0
    if wanted != page:
        PAGE.write_text(wanted, encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

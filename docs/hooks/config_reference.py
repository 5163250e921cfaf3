"""mkdocs hook: the key tables of ``site_config.yml``, written from ``builder.config.schema`` at build time.

``configuration.md`` gets the demo campaign's ``site_config.yml`` in place of
``<!-- demo-config -->`` and, in place of ``<!-- config-keys -->``, one table per section of the
typed schema (``campaign``, top level, ``tasks[]``, ``significance``) and, in place of
``<!-- task-options -->``, the ``options`` of every task kind that exists; a key the commands
also take as a flag says which. A key of the schema that the page's prose never
mentions (as `` `key` ``) is logged as a warning, which fails ``mkdocs build --strict``: the
hand-written reference cannot silently fall behind the schema.
"""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from builder.config.flags import Flag

KEYS_MARKER = "<!-- config-keys -->"
OPTIONS_MARKER = "<!-- task-options -->"
DEMO_MARKER = "<!-- demo-config -->"
log = logging.getLogger("mkdocs.hooks.config_reference")


def on_page_markdown(markdown: str, page: Any, config: Any, **kwargs: Any) -> str:
    if KEYS_MARKER not in markdown:
        return markdown
    markdown = markdown.replace(DEMO_MARKER, _demo_config(Path(config.config_file_path).parent))
    from builder.config.reliability import ReliabilityConfig
    from builder.config.schema import CampaignConfig, SignificanceConfig, SiteConfig, TaskConfig

    sections = {"top level": SiteConfig, "campaign": CampaignConfig, "tasks[]": TaskConfig,
                "significance": SignificanceConfig, "tasks[].reliability": ReliabilityConfig}
    for section, model in sections.items():
        for name in model.model_fields:
            if f"`{name}`" not in markdown:
                log.warning("configuration.md: key %s.%s of builder.config.schema is not described",
                            section, name)
    keys = "\n".join(f"### {section}\n\n{_fields_table(model)}"
                     for section, model in sections.items())
    return markdown.replace(KEYS_MARKER, keys).replace(OPTIONS_MARKER, _kind_options())


def _demo_config(root: Path) -> str:
    path = root / "site_config.yml"
    if not path.is_file():
        return "*`site_config.yml` is not in this checkout.*\n"
    return f"```yaml\n{path.read_text(encoding='utf-8').rstrip()}\n```\n"


def _kind_options() -> str:
    from builder.tasks import KIND_MODULES, get_kind

    blocks = []
    for name in KIND_MODULES:
        try:
            kind = get_kind(name)
        except ImportError:  # the kind's module is not written yet
            continue
        blocks.append(
            f"### `{name}`\n\nOfficial measure by default: `{kind.official_measure}`; "
            f"leaderboard: {', '.join(f'`{m}`' for m in kind.leaderboard_measures)}.\n\n"
            f"{_fields_table(kind.options_model)}"
        )
    return "\n".join(blocks) or "*No task kind is available yet.*\n"


def _fields_table(model: type[BaseModel]) -> str:
    rows = []
    for name, info in model.model_fields.items():
        if info.is_required():
            default = "required"
        elif info.default_factory is not None:
            default = html.escape(repr(info.default_factory()))
        elif info.default is PydanticUndefined:
            default = ""
        else:
            default = html.escape(repr(info.default))
        notes = html.escape(info.description or "")
        flag = next((item for item in info.metadata if isinstance(item, Flag)), None)
        if flag is not None:
            notes += f" Command line: <code>{html.escape(flag.spelling)}</code>."
        rows.append(
            f"<tr><td><code>{name}</code></td><td><code>{html.escape(_type_name(info))}</code>"
            f"</td><td>{default}</td><td>{notes.strip()}</td></tr>"
        )
    return ("<table>\n<thead><tr><th>Key</th><th>Type</th><th>Default</th><th>Notes</th></tr>"
            "</thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n")


def _type_name(info: Any) -> str:
    annotation = info.annotation
    name = getattr(annotation, "__name__", None)
    text = name if name and not getattr(annotation, "__args__", None) else str(annotation)
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", text)  # builder.config.schema.TaskConfig -> TaskConfig

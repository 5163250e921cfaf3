"""The command-line flag of a config key: ``depth: Annotated[int, Flag("-M")] = Field(1000)``.

A key of ``site_config.yml`` (a task kind's option, a ``significance`` setting) that the commands
also take as a flag says so on its field, so the flag is declared once, where the key is. The
command line (``builder.cli.flags``) makes its arguments from these fields: their type and
choices from the annotation, their help from the description. Pattern from pydantic-settings'
``CliImplicitFlag``: the model is the command line's schema.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, init=False)
class Flag:
    """``names``: the flag's spellings (``-c``, ``--complete``); ``metavar``: the value's name in
    the help (default: the key in capitals); ``off`` and ``off_help``: for a yes/no key, the flag
    that turns it off (``--no-complete``) and what that means."""

    names: tuple[str, ...]
    metavar: str | None
    off: str | None
    off_help: str

    def __init__(self, *names: str, metavar: str | None = None, off: str | None = None,
                 off_help: str = "") -> None:
        if not names or not all(name.startswith("-") for name in names):
            raise ValueError(f"a flag starts with '-': {names!r}")
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "metavar", metavar)
        object.__setattr__(self, "off", off)
        object.__setattr__(self, "off_help", off_help)

    @property
    def spelling(self) -> str:
        """How messages name the flag: ``-M``, ``-c/--no-complete``."""
        return "/".join([self.names[0], *([self.off] if self.off else [])])

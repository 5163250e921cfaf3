"""The options of every task kind: what a ``site_config.yml`` task's ``options``, the commands'
flags and ``-o KEY=VALUE`` set, each option declared once, as a field of its kind's model.

Kept light (pydantic, no measure, no pandas): the command line makes its flags from these
models (``builder.cli.task_options``) before it knows which kind it will run. A field that is
also a flag says so (``Annotated[int, Flag("-M")]``, ``builder.config.flags``). ``KIND_OPTIONS``
gives each kind of ``builder.tasks.KIND_MODULES`` its model; each kind's ``TaskKind`` takes it
from here.
"""

from __future__ import annotations

from builder.tasks.naming import RunNamingOptions
from builder.tasks.options.adhoc import AdhocOptions
from builder.tasks.options.eprum_documents import EprumDocumentsOptions
from builder.tasks.options.passages import (
    BestInContextOptions,
    EprumOptions,
    FocusedOptions,
    RelevantInContextOptions,
    RestrictedRelevantInContextOptions,
    ThoroughOptions,
)

KIND_OPTIONS: dict[str, type[RunNamingOptions]] = {
    "adhoc": AdhocOptions,
    "focused": FocusedOptions,
    "thorough": ThoroughOptions,
    "relevant-in-context": RelevantInContextOptions,
    "restricted-relevant-in-context": RestrictedRelevantInContextOptions,
    "best-in-context": BestInContextOptions,
    "eprum": EprumOptions,
    "eprum-documents": EprumDocumentsOptions,
}
"""The options model of each task kind, in the order of ``KIND_MODULES`` (that of the flags in
``--help``)."""

"""``python -m builder``: the command line, as the ``appendix`` command runs it."""

from __future__ import annotations

import sys

from builder.cli import main

sys.exit(main())

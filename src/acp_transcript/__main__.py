"""``python -m acp_transcript``: the same as the ``acp-transcript`` command."""

import sys

from .cli import main

sys.exit(main())

"""`python -m tui.cli`: the `bedside` command without an installed entry point."""

import sys

from tui.cli import main

sys.exit(main())

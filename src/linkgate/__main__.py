from __future__ import annotations

import sys

from linkgate.cli import main

sys.exit(main())

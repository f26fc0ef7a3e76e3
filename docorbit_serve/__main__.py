"""``python -m docorbit_serve``: the same CLI as the ``docorbit`` console script."""

from __future__ import annotations

import sys

from docorbit_serve.cli import main

if __name__ == "__main__":
    sys.exit(main())

"""``python -m rankedu``: the ``rankedu`` command line (see :mod:`rankedu.cli`)."""

import sys

from rankedu.cli import main

if __name__ == "__main__":
    sys.exit(main())

"""``python -m flashlab``: the ``flashlab`` command (:mod:`flashlab.cli`), for a checkout used
without installing its script."""

import sys

from flashlab.cli import main

sys.exit(main())

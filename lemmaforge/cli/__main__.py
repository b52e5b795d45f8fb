"""`python -m lemmaforge.cli`: the same command line as the `lemmaforge` console script."""

from lemmaforge.cli import main

main()

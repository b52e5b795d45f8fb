"""`python -m lemmaforge.cli`: the same command line as the `lemmaforge` console script."""

from lemmaforge.cli import main

if __name__ == "__main__":  # guarded: tools that walk the package import this module too
    main()

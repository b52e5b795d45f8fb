"""Looking at what a run did: the run's tree, attempts and timeline read back from the store
(`model`), shown in the terminal (`text`) or as one self-contained HTML page (`html`)."""

"""The rating benchmark's pieces: the frozen protocol, the datasets, the methods, the scoring."""

"""Verification: every value a file published against ours, at the precision it is printed with.

A value that differs is explained where the file's own numbers contradict it (proofs); what
agrees is kept as the scorer printed it (printed), so every output prints what was verified.
"""

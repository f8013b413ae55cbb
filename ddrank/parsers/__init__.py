"""Readers for hand-record formats: text in, `RawRecord`s out."""

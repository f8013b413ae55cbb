"""Transitional: the readers' file I/O moved to `store.inputs` (`read(path)`), cleaning in worker
processes to `stages.clean_slice`. Import from there."""

from store.inputs.read import (  # noqa: F401
    companion_of,
    detect_format,
    hands_of,
    read,
    read_parsed,
    read_records,
)

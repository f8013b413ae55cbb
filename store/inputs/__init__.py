"""Reading input files: `read(path)` for one file of any format ddrank reads, the streamed reading
of large files, the Bridgemate `.bws` database and its ODBC helper process, LIN pieces.

The formats and their `bytes -> ParsedFile` readers are one pure table,
`ddrank.parsers.registry`; these modules are its file I/O.
"""

from store.inputs.files import expand_paths, file_sha1, input_files
from store.inputs.read import detect_format, read, read_parsed, read_records

__all__ = ["detect_format", "expand_paths", "file_sha1", "input_files", "read", "read_parsed",
           "read_records"]  # fmt: skip

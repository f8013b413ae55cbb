"""Intake: from a stored or freshly read row to a table result to score.

Who sits at the table (identity), the result's own validation (results), the row's fields as an
`EventResult` (records) and the traveller lines the movement expects and the file lacks
(movement). A row that cannot be scored comes back as a `RecordError` naming its source and line.
"""

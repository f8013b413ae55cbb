"""Publishing: the files a run writes for people (CSV tables, Markdown reports, the site) and the
console summary. Kept out of the pure core, which computes and writes nothing."""

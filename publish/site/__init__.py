"""The static site's files: pages rendered by `ddrank.site.render`, written here."""

from publish.site.writer import write_site

__all__ = ["write_site"]

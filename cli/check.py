"""`ddrank check FILES|DIR`: does ddrank score each file as its scorer published it?

Every file is scored on its own with default options, exactly as `ddrank score FILE` would, and
each kind of value it published is compared with ours. It writes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.render import console, emit_json, err_console, friendly_errors


def _namer(roots: list[Path]):  # noqa: ANN202 - a closure over the roots
    """A file shown relative to the folder it was found in (as given, for a given file)."""
    folders = [r.resolve() for r in roots if r.is_dir()]

    def name(path: str) -> str:
        p = Path(path).resolve()
        for root in folders:
            if p.is_relative_to(root):
                return str(p.relative_to(root))
        return path

    return name


def check(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Results files or folders (walked recursively).", show_default=False),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the whole report as JSON instead of words.")
    ] = False,
    lines: Annotated[
        int, typer.Option(help="Differing lines listed per kind of value (ours beside theirs).")
    ] = 3,
    site: Annotated[
        Path | None,
        typer.Option(
            help="Also read this built site's event pages (the `site` folder of "
            "`ddrank run` or `ddrank results`): does each page show every published "
            "place, total and percentage as the scorer printed them?",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Check ddrank against what each results file published.

    For each file, with default options: the producer the file declares, each event's kind, the
    scoring chosen and why, and for every kind of published value (matchpoints, IMPs and
    percentages per line, totals, final percentages, places, match VPs) how many of ours agree,
    with the first lines that differ, ours beside theirs. Then the pooled agreement. Files no
    reader takes are listed as unreadable (binary) or skipped (other text). With --site, the
    built pages are read too: each published place, total and percentage as the page shows it.
    Writes nothing. Exit 2 when no file could be read.
    """
    from ddrank.scoring.verification.conformance import FAILED, UNREADABLE
    from publish.check import as_json as report_json
    from publish.check import file_text, summary_text
    from stages.check import check_paths

    name = _namer(paths)
    with friendly_errors():

        def show(fc) -> None:  # noqa: ANN001
            if not as_json:
                console.print("\n".join(file_text(fc, name, lines)), markup=False,
                              highlight=False, soft_wrap=True)  # fmt: skip

        files, skipped = check_paths(paths, on_file=show)
    shown = _site_shown(site, files, lines, as_json) if site is not None else None
    if as_json:
        report = report_json(files, len(skipped), name)
        if shown is not None:
            report["site"] = {"folder": str(site), "shown": shown}
        emit_json(report)
    else:
        console.print("\n".join(["", *summary_text(files, len(skipped), name)]), markup=False,
                      highlight=False, soft_wrap=True)  # fmt: skip
    read = [f for f in files if f.status not in (UNREADABLE, FAILED)]
    if not read:  # nothing a reader took: one line, exit 2 (like every command)
        what = f"{len(files)} file(s), none readable" if files else "no results file"
        err_console.print(f"error: nothing to check: {what} in {', '.join(map(str, paths))}",
                          markup=False, highlight=False, soft_wrap=True)  # fmt: skip
        raise typer.Exit(2)


def _site_shown(site: Path, files: list, lines: int, as_json: bool) -> list[dict]:
    """What the built site at `site` shows of each published place, total and percentage
    (stages.site_check), printed unless `as_json`; exit 2 when `site` is no built site."""
    from ddrank.scoring.verification.conformance import FAILED, UNREADABLE
    from stages.site_check import check_site

    if not (site / "events").is_dir():
        err_console.print(f"error: {site}: no built site here (no events/ folder)",
                          markup=False, highlight=False, soft_wrap=True)  # fmt: skip
        raise typer.Exit(2)
    shown = check_site(site, [Path(f.path) for f in files if f.status not in (UNREADABLE, FAILED)])
    if not as_json:
        console.print(f"\nshown on the site {site}:", markup=False, highlight=False)
        for c in shown:
            console.print(f"  {c.what}: {c.agree} of {c.compared} as the scorer printed them",
                          markup=False, highlight=False)  # fmt: skip
            for d in c.disagree[:lines]:
                console.print(f"    {d}", markup=False, highlight=False, soft_wrap=True)
    return [{"what": c.what, "compared": c.compared, "agree": c.agree,
             "disagree": c.disagree[:lines]} for c in shown]  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command("check")(check)

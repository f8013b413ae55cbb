"""The bundled BBO LIN's pages in a real browser, checked against the store (issue 30): the
replay steps through the play with each legal card's DD value, a two-team match is shown as a
knockout match, and a player's costliest mistakes are the store's costs.

The store is built in-process by the stages with DDS, once per run (tests/site_store.py `lin_store`). Every page is opened in
Chromium at 1280 px and at 390 px (nothing may scroll sideways); `DDRANK_SCREENSHOTS=docs/img`
writes the pictures the README shows.
"""

from __future__ import annotations

import pytest
from site_browser import (
    PHONE,
    SUITS,
    board_pages,
    no_sideways_scroll,
    number,
    open_page,
    shot,
)
from site_store import lin_store, query

pytestmark = pytest.mark.flow


@pytest.fixture(scope="module")
def lin(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = lin_store(tmp_path_factory)
    site = tmp / "out" / "site"
    (path,) = sorted((site / "events").glob("*.html"))
    return {"db": tmp / "store.duckdb", "site": site, "event": path}


def test_replay_steps_through_the_play_with_each_legal_cards_dd_value(lin: dict, browser) -> None:
    """Card by card, the hands lose the card played, the DD count is the stored trace's, and just
    before a marked mistake every legal card is listed with declarer's DD tricks: the store's
    values, the card played among them and below the best."""
    values = query(lin["db"], "SELECT record_id, card_index, card_values FROM dd_card_alternatives "
                              "WHERE card_values IS NOT NULL ORDER BY record_id, card_index")  # fmt: skip
    assert values, "no legal-card values were computed"
    rid, index, text = values[0]
    trace, play = query(lin["db"], "SELECT t.trace, b.play FROM play_traces t JOIN boards b "
                                   "USING (record_id) WHERE record_id = ?", [rid])[0]  # fmt: skip
    board = next(p for p in board_pages(lin["event"]) if f'id="r-{rid}"' in p.read_text())
    page, errors = open_page(browser, board.as_uri())
    key = page.locator(f"#r-{rid} td.c-tbl a").get_attribute("href").removeprefix("#")
    box = page.locator(f"#{key}-replay")
    step = box.locator("button[aria-label='Next card']")
    for k in range(index + 1):
        held = box.locator(".rh").evaluate_all(
            "hs => hs.map(h => Array.from(h.querySelectorAll('.suit')).map(s => s.textContent))"
        )
        cards = sum(len([c for c in s[2:].split() if c != "—"]) for h in held for s in h)
        assert cards == 52 - k
        assert box.locator(".status-line").inner_text().split("double dummy: ")[1].split()[0] \
            == str(trace[k])  # fmt: skip
        if k < index:
            step.click()
    shown = box.locator(".legal-values .lv").all_inner_texts()
    side_best = max(int(v.split(":")[1]) for v in text.split())
    stored = {c: int(t) for c, t in (v.split(":") for v in text.split())}
    assert len(shown) == len(stored)
    declaring = int(trace[index]) - (side_best - stored[play[index]]) == int(trace[index + 1])
    for item in shown:
        card, tricks = item.rsplit(" ", 1)
        code = {v: k for k, v in SUITS.items()}[card[0]] + card[1:].replace("10", "T")
        lost = side_best - stored[code]
        assert int(tricks) == int(trace[index]) + (-lost if declaring else lost), item
    played = box.locator(".legal-values .lv.played").inner_text()
    assert played.startswith(SUITS[play[index][0]])
    box.scroll_into_view_if_needed()
    shot(page, "replay.png", box)
    phone, _ = open_page(browser, board.as_uri(), PHONE)
    assert no_sideways_scroll(phone) == []
    pbox = phone.locator(f"#{key}-replay")
    for _ in range(index):
        pbox.locator("button[aria-label='Next card']").click()
    shot(phone, "replay-phone.png", pbox)
    assert errors == []
    phone.close()
    page.close()


def test_a_two_team_match_is_shown_as_a_knockout_match(lin: dict, browser) -> None:
    """The 2010 USBF semi-final segment: one match, its IMPs and its winner, no VP ranking."""
    (team, opponent, imps_for, imps_against), _ = query(
        lin["db"], "SELECT team, opponent, imps_for, imps_against FROM team_matches ORDER BY team"
    )
    page, errors = open_page(browser, lin["event"].as_uri())
    head = page.locator("table.knockout thead th").all_inner_texts()
    assert head == ["Segment", "Boards", team, opponent]
    assert number(page.inner_text(".ko-for")) == imps_for
    assert number(page.inner_text(".ko-against")) == imps_against
    assert page.inner_text(".ko-winner") == (team if imps_for > imps_against else opponent)
    assert "VPs" not in page.inner_text("main")
    assert page.locator("table.ranking").count() == 1  # pairs by Butler IMPs only
    assert errors == []
    page.close()


def test_player_costliest_mistakes_are_the_stores_costs(lin: dict, browser) -> None:
    """A player's costliest mistakes are `ranked_mistakes`' rows, in its order, each cost in the
    event's units (hypothetical ones said so), each link landing on its card or call."""
    from ddrank.mistakes.words import cost_words

    cols = ("player", "rank", "cost", "unit", "basis", "dd_points", "tricks")
    rows = query(lin["db"], f"SELECT {', '.join(cols)} FROM ranked_mistakes WHERE rank <= 20 "
                            "ORDER BY player, rank")  # fmt: skip
    assert rows, "the mistake costs stage wrote nothing"
    by_player: dict[str, list[dict]] = {}
    for r in rows:
        by_player.setdefault(r[0], []).append(dict(zip(cols, r, strict=True)))
    player, want = max(by_player.items(), key=lambda kv: len(kv[1]))
    index, errors = open_page(browser, (lin["site"] / "index.html").as_uri())
    index.fill("#player-search", player)
    index.locator("#player-table tbody tr:visible a").first.click()
    index.wait_for_load_state("load")
    cells = index.locator("#costly tbody td.cost").all_inner_texts()
    assert [c.split(", ")[-1] for c in cells] == [cost_words(m) for m in want]
    assert any("IMP" in c for c in cells)
    if any(m["basis"] == "hypothetical" for m in want):
        assert index.locator("#costly tbody tr.hypothetical").count() == sum(
            m["basis"] == "hypothetical" for m in want)  # fmt: skip
    shot(index, "player-costs.png", index.locator("#costly"))
    href = index.locator("#costly a.mistake-link").first.get_attribute("href")
    index.click("#costly a.mistake-link >> nth=0")
    index.wait_for_load_state("load")
    anchor = href.split("#")[1]
    assert index.locator(f"[id='{anchor}']").count() >= 1
    assert errors == []
    index.close()

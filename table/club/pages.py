"""The hub's pages as HTML: server-rendered, a little JavaScript to take
the news the server pushes (server-sent events), no build step. Pure
functions of the room's snapshot, so tests can read them without a server.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from table.club.room import MatchRecord, PlayerMatch, Standing

STATE_WORDS = {"idle": "waiting", "dealing": "dealing", "playing": "playing",
               "over": "match over", "ended": "between matches"}

#: Why a hand was thrown in (`HandRecord.redeal`), in words.
REDEAL_WORDS = {"no_binding": "nobody bound", "closed": "a closed hand",
                "tie": "tied bindings"}

_CSS_TV = """
body{margin:0;background:#101418;color:#f4f4f0;font:32px/1.25 "DejaVu Sans",sans-serif}
h1{font-size:48px;margin:16px 32px}
#room{display:flex;gap:32px;padding:0 32px}
.tables{flex:3;display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:20px;
 align-content:start}
.t{background:#1d252c;border-radius:14px;padding:14px 20px;display:flex;gap:16px}
.t .body{flex:1}.t .name{font-size:40px;font-weight:bold}
.t .game{color:#9fd3ff}.t .num{font-size:44px;font-weight:bold}
.t .status{color:#ffe08a}.off{color:#ff7b7b}.err{color:#ff7b7b;font-size:26px}
.qr img{display:block;background:#fff;padding:6px;border-radius:6px}
.standings{flex:2}.standings table{width:100%;border-collapse:collapse}
.standings td,.standings th{padding:6px 10px;text-align:right}
.standings td:nth-child(2),.standings th:nth-child(2){text-align:left}
.standings tr:nth-child(odd) td{background:#1d252c}
.hidden{color:#aab;font-style:italic}
"""

_CSS_PHONE = """
body{margin:0;padding:12px;font:17px/1.4 "DejaVu Sans",sans-serif;background:#fafaf7;color:#111}
h1{font-size:24px;margin:4px 0}.status{color:#7a5200}.now{background:#eef4ff;padding:8px;
 border-radius:8px}details{margin:6px 0;background:#fff;border:1px solid #ddd;border-radius:8px;
 padding:6px 10px}summary{font-weight:bold}table{border-collapse:collapse}td{padding:2px 8px}
.win{font-weight:bold}.cost{background:#ffe1dc;font-weight:bold}.skip{color:#888}
small{color:#555}a.review{display:block;margin:6px 0}
"""

_JS = """
<script>
(function(){
  var box=document.getElementById('%s');
  var es=new EventSource('%s');
  es.onmessage=function(e){var d=JSON.parse(e.data);box.innerHTML=d.html;
    document.body.dataset.version=d.version;};
})();
</script>
"""


def _static_page(title: str, css: str, body: str, script: str = "") -> str:
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{css}</style></head><body>{body}"
            f"{script}</body></html>")


def _page(title: str, css: str, body: str, box: str, events: str) -> str:
    """A page whose `box` the server's news (`events`) keep up to date."""
    return _static_page(title, css, body, _JS % (box, events))


# ----- the TV scoreboard ----------------------------------------------------------------

def tv_page(fragment: str, room_name: str) -> str:
    body = f"<h1>{escape(room_name)}</h1><div id=room>{fragment}</div>"
    return _page(room_name, _CSS_TV, body, "room", "events")


def tv_fragment(tables: Sequence[dict[str, Any]], standings: Sequence[Standing] | None,
                by: str = "partnership") -> str:
    """Every table's card (with the QR code of its phone page), then the
    standings (None: hidden)."""
    cards = "".join(_table_card(t) for t in tables)
    if not tables:
        cards = "<p class=hidden>No table has reported yet.</p>"
    return (f"<div class=tables>{cards}</div>"
            f"<div class=standings>{_standings(standings, by)}</div>")


def _table_card(t: dict[str, Any]) -> str:
    name = escape(t["name"])
    state = STATE_WORDS.get(t["state"], t["state"])
    trick = ""
    if t["trick"] is not None:
        trick = f" &middot; trick <span class=num data-k=trick>{t['trick']}</span>/{t['tricks']}"
    online = "" if t["online"] is not False else " <span class=off>offline</span>"
    err = (f"<div class=err>cannot be followed: {escape(str(t['error']))}</div>"
           if t["error"] else "")
    return (f"<div class=t data-table='{name}' data-mark={t['mark']}><div class=body>"
            f"<div class=name>{name}{online}</div>"
            f"<div class=game>{escape(t['game'] or '-')}</div>"
            f"<div class=status data-k=status>{escape(t['status'])}</div>"
            f"<div>hands <span class=num data-k=hands>{t['hands']}</span>{trick}"
            f" &middot; <span data-k=state>{escape(state)}</span></div>{err}</div>"
            f"<div class=qr><a href='table/{name}'><img src='qr/{name}.svg' "
            f"alt='QR code of {name}'></a></div></div>")


COLUMN = {"partnership": "team", "player": "player", "table": "team"}


def _standings(rows: Sequence[Standing] | None, by: str = "partnership") -> str:
    """The standings, one table per game (card points of different games are
    not added up); a game's name is shown when the room plays more than one."""
    if rows is None:
        return "<h2>Standings</h2><p class=hidden>Hidden for the last rounds.</p>"
    games = list(dict.fromkeys(r.game for r in rows))
    parts = ["<h2>Standings</h2>"]
    for game in games or [""]:
        if len(games) > 1:
            parts.append(f"<h3 class=game>{escape(game)}</h3>")
        lines = "".join(
            f"<tr data-team='{escape(r.name)}'><td>{i}</td><td>{escape(r.name)}</td>"
            f"<td data-k=won>{r.won}</td><td data-k=hands_won>{r.hands_won}</td>"
            f"<td data-k=points>{r.points}</td></tr>"
            for i, r in enumerate((r for r in rows if r.game == game), 1))
        parts.append(f"<table><tr><th>#</th><th>{COLUMN.get(by, 'team')}</th><th>matches</th>"
                     f"<th>hands</th><th>points</th></tr>{lines}</table>")
    return "".join(parts)


# ----- the members' pages -----------------------------------------------------------------

def players_page(rows: Sequence[Standing], hidden: bool = False) -> str:
    """Every member known by their badge, with their results per game
    (`hidden`: the results are hidden for the last rounds)."""
    lines = "".join(
        f"<tr><td><a href='player/{escape(r.key_id.removeprefix('m:'))}'>{escape(r.name)}</a>"
        f"</td><td>{escape(r.game)}</td><td>{r.matches}</td><td>{r.won}</td>"
        f"<td>{r.hands}</td><td>{r.hands_won}</td><td>{r.points}</td></tr>"
        for r in sorted(rows, key=lambda r: (r.name.lower(), r.game)))
    body = ("<h1>Members</h1>" + (
        "<table><tr><th>member</th><th>game</th><th>matches</th><th>won</th><th>hands</th>"
        f"<th>hands won</th><th>points</th></tr>{lines}</table>" if rows else
        "<p class=hidden>Hidden for the last rounds.</p>" if hidden else
        "<p>No member has played with a badge yet.</p>"))
    return _static_page("Members: cardtable", _CSS_PHONE, body)


def player_page(name: str, played: Sequence[PlayerMatch], rows: Sequence[Standing]) -> str:
    """A member's results per game and every match they played."""
    totals = "".join(
        f"<tr><td>{escape(r.game)}</td><td>{r.matches}</td><td>{r.won}</td><td>{r.hands}</td>"
        f"<td>{r.hands_won}</td><td>{r.points}</td></tr>" for r in rows)
    matches = "".join(
        f"<tr data-result={pm.result}><td><a href='../table/{escape(pm.table)}'>"
        f"{escape(pm.table)}</a></td><td>{escape(pm.match.title)}</td>"
        f"<td>seat {pm.seat + 1}</td><td>{escape(', '.join(pm.partners) or '-')}</td>"
        f"<td>{len(pm.match.hands)}</td><td class='{'win' if pm.result == 'won' else ''}'>"
        f"{pm.result}</td></tr>" for pm in reversed(played))
    body = (f"<h1>{escape(name)}</h1><p><a href='../players'>all members</a></p>"
            "<h2>Results</h2><table><tr><th>game</th><th>matches</th><th>won</th>"
            f"<th>hands</th><th>hands won</th><th>points</th></tr>{totals}</table>"
            "<h2>Matches</h2><table><tr><th>table</th><th>game</th><th>seat</th>"
            f"<th>partners</th><th>hands</th><th>result</th></tr>{matches}</table>")
    return _static_page(f"{name}: cardtable", _CSS_PHONE, body)


# ----- a table's phone page -------------------------------------------------------------

def table_page(name: str, fragment: str) -> str:
    body = f"<h1>{escape(name)}</h1><div id=table>{fragment}</div>"
    return _page(f"{name}: cardtable", _CSS_PHONE, body, "table",
                 f"../events?table={escape(name)}")


def table_fragment(summary: dict[str, Any], matches: Sequence[MatchRecord]) -> str:
    """The match hand by hand; the hand in play only as a trick count."""
    now = (f"<div class=now>{escape(summary['game'] or '-')}: "
           f"{escape(STATE_WORDS.get(summary['state'], summary['state']))}")
    if summary["trick"] is not None:
        now += f", hand {summary['hands'] + 1}, trick {summary['trick']}/{summary['tricks']}"
    now += f"<div class=status>{escape(summary['status'])}</div></div>"
    parts = [now]
    for m in reversed(matches):
        head = f"<h2>{escape(m.title)} (match {m.id})</h2>"
        hands = "".join(_hand(m, h, summary.get("name", "")) for h in reversed(m.hands))
        parts.append(head + (hands or "<p>No hand finished yet.</p>"))
    return "".join(parts)


def _hand(m: MatchRecord, h: Any, table: str = "") -> str:
    teams = m.teams if len(m.teams) == len(h.points) else tuple(
        str(i + 1) for i in range(len(h.points)))
    score = ", ".join(f"{escape(t)}: {p}" for t, p in zip(teams, h.points, strict=True))
    if getattr(h, "redeal", None) is not None:
        why = REDEAL_WORDS.get(h.redeal, h.redeal)
        return (f"<details data-hand={h.number} data-redeal={escape(h.redeal)}><summary>Hand "
                f"{h.number}: thrown in ({escape(why)}), dealt again</summary>"
                f"<div class=status>{escape(h.status)}</div></details>")
    rows = "".join(
        "<tr><td>" + str(t.number) + "</td><td>"
        + " ".join(f"<span class='{'win' if s == t.winner else ''}'>{s + 1}:{escape(c)}</span>"
                   for s, c in t.plays)
        + f"</td><td>seat {t.winner + 1} +{t.points}</td></tr>"
        for t in h.tricks)
    review = (f"<a class=review href='{quote(table)}/review/{m.id}/{h.number}'>"
              "Review: the cards that cost points</a>" if table else "")
    return (f"<details data-hand={h.number}><summary>Hand {h.number}: {score}</summary>"
            f"<div class=status>{escape(h.status)}</div><table>{rows}</table>{review}</details>")


# ----- a hand's review (computed on the hub) -------------------------------------------------

def review_page(name: str, match_id: int, hand: int, body: str) -> str:
    """A finished hand's review: a plain page (nothing is pushed to it)."""
    return _static_page(f"{name}: hand {hand} reviewed", _CSS_PHONE,
                        f"<h1>{escape(name)}</h1>"
                        f"<p><a href='../../../{quote(name)}'>Back to the table</a></p>"
                        f"<h2>Match {match_id}, hand {hand}: review</h2>{body}")


def review_fragment(record: Any, reviews: Sequence[Any], best: tuple[int, int] | None,
                    played: Sequence[int]) -> str:
    """Every card played with the points it gave away against the best card,
    every card visible (double dummy); the cards that cost at least a point
    (or changed the hand's result) stand out. `record` is the hand
    (`engine.analysis.review.HandRecord`), `best` the points each team could
    reach with best play from the first card judged, `played` what they took."""
    n = record.game.players
    by_index = {r.index: r for r in reviews}
    names = [" + ".join(str(s + 1) for s, t in enumerate(record.teams) if t == k) for k in (0, 1)]
    head = []
    if best is not None:
        head.append(f"<p data-k=best>Best play with every card visible: {escape(names[0])} "
                    f"{best[0]}, {escape(names[1])} {best[1]}.</p>")
    if len(played) == 2:
        head.append(f"<p data-k=played>Played: {escape(names[0])} {played[0]}, "
                    f"{escape(names[1])} {played[1]}.</p>")
    rows = []
    for t in range(0, len(record.plays), n):
        cells = []
        for i in range(t, min(t + n, len(record.plays))):
            seat, c = record.plays[i]
            r = by_index.get(i)
            if r is None:
                mark, cls = "not judged", "skip"
            elif r.flagged:
                mark = f"−{r.loss}, best {' '.join(b.code for b in r.best[:3])}"
                cls = "cost"
            else:
                mark, cls = "best" if r.loss == 0 else f"−{r.loss}", "ok"
            cells.append(f"<td class={cls} data-play={i}>{seat + 1}:{escape(c.code)} "
                         f"<small>{escape(mark)}</small></td>")
        rows.append(f"<tr><td>{t // n + 1}</td>{''.join(cells)}</tr>")
    flagged = [r for r in reviews if r.flagged]
    if flagged:
        items = "".join(
            f"<li data-play={r.index}>trick {r.trick}, seat {r.seat + 1}, {escape(r.card.code)}: "
            f"{r.loss} point{'s' if r.loss != 1 else ''} given away"
            + ("; it changed the hand's result" if r.result_changed else "")
            + f" (best: {escape(' '.join(b.code for b in r.best[:4]))})</li>"
            for r in flagged)
        summary = f"<h3>Cards that cost the hand</h3><ul class=flagged>{items}</ul>"
    else:
        summary = "<p class=flagged>No card cost a point.</p>"
    skipped = len(record.plays) - len(by_index)
    note = ("<p class=note>With every card visible (double dummy), worked out on the club's "
            "hub. " + (f"{skipped} plays not judged: special tricks the solver does not "
                       "search, or positions too large to search in time." if skipped else "")
            + "</p>")
    return ("".join(head) + summary + f"<table class=review>{''.join(rows)}</table>" + note)

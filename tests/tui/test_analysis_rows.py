"""Issue 28 review: a decision's row in the terminal's analysis list — it names the question when
the answer does not ("gunpowder in battle: 0 gunpowder"), and on a narrow screen each of its two
lines is cut with an ellipsis rather than wrapped under the columns."""

from __future__ import annotations

from jamaica.analysis.core import Verdict
from jamaica.i18n import Words
from jamaica.tui.analysis import verdict_row

LONG = {0: "empty and load into hold 1 (3 food)", 1: "empty and load into hold 5 (1 food) " * 3}


def test_a_row_names_a_question_its_answer_does_not() -> None:
    powder = Verdict(179, 14, "powder", ((3, 0.52), (0, 0.5)), 0, 0.02, "")
    words = {0: "0 gunpowder", 3: "3 gunpowder"}
    assert "gunpowder in battle: 0 gunpowder" in verdict_row(powder, words).plain
    card = Verdict(10, 1, "card", ((12, 0.6), (13, 0.4)), 13, 0.2, "blunder")
    assert "card choice" not in verdict_row(card, {12: "Food / Forward", 13: "Forward"}).plain


def test_two_lines_cut_to_the_width_never_wrap() -> None:
    v = Verdict(40, 5, "load", ((1, 0.6), (0, 0.45)), 0, 0.15, "mistake")
    for lang in ("en", "fr"):
        row = verdict_row(v, LONG, Words(lang), True, 60)
        lines = row.plain.split("\n")
        assert len(lines) == 2 and all(len(line) <= 60 for line in lines), lines
        assert lines[1].startswith(" " * 13) and lines[1].rstrip().endswith("…")
        assert verdict_row(v, LONG, Words(lang), True).plain.split("\n")[1].endswith("(1 food) ")


def test_two_long_ways_to_pay_show_where_they_differ() -> None:
    """A review saw "Pay doubloons: 3 from hold 1 and 1 from hold 3 and 2 fro…" over "best: Pay
    doubloons: 3 from hold 1 and 1 from ho…": cut just where the two differ. What both take is
    left out of the row; the panel says each in full."""
    yours = ("Pay doubloons: 3 from hold 1 and 1 from hold 3 and 2 from hold 4 and 1 from the 6th "
             "Hold")
    best = "Pay doubloons: 3 from hold 1 and 1 from hold 3 and 3 from hold 4"
    v = Verdict(194, 16, "pay", ((1, 0.6), (0, 0.5)), 0, 0.1, "mistake")
    lines = verdict_row(v, {0: yours, 1: best}, Words("en"), True, 74).plain.split("\n")
    assert "Pay doubloons: 2 from hold 4 and 1 from the 6th Hold and …" in lines[0], lines
    assert lines[1].rstrip().endswith("best: 3 from hold 4 and …"), lines
    lines = verdict_row(v, {0: yours, 1: best}, Words("en"), True, 70).plain.split("\n")
    assert "1 from the 6th Hold" in lines[0] and all(len(line) <= 70 for line in lines), lines
    fr = Words("fr")
    ours = "Payer en doublons\u202f: 3 de la cale 1 et 2 de la cale 4"
    theirs = "Payer en doublons\u202f: 3 de la cale 1 et 3 de la cale 4"
    row = verdict_row(v, {0: ours, 1: theirs}, fr, True, 62).plain
    assert "2 de la cale 4 et …" in row and "3 de la cale 4 et …" in row, row
    same = Verdict(194, 16, "pay", ((0, 0.6), (1, 0.6)), 0, 0.0, "")
    assert yours in verdict_row(same, {0: yours, 1: best}).plain  # nothing lost: said in full

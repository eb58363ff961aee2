"""Championnat de France de Diplomatie: Super Pastis (cdf.md "Game score"), tournament scores, top
board, tie-breakers, teams, awards and best countries.

Source: the federation's French text, the 2012 rules of the Championnat de France de Diplomatie,
summarised in ``docs/regles/cdf.md`` (§II.2b4, §III, §IV).
Expected values are computed by hand in the tests (arithmetic in the comments), never by calling xlcircuit.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from xlcircuit.rules.cdf import (
    Board,
    Category,
    InvalidInput,
    Outcome,
    Player,
    Power,
    Seat,
    Vote,
    check_board,
    final_score,
    game_scores,
    parse_ballot,
    qualifying_score,
    round_score,
    run_championship,
    score_board,
    total_score,
)

A, E, F, G, I, R, T = (Power.AUSTRIA, Power.ENGLAND, Power.FRANCE, Power.GERMANY, Power.ITALY, Power.RUSSIA,
                       Power.TURKEY)


# === Super Pastis: the hand-checked boards of cdf.md ================================================


def test_hand_checked_game_single_leader():
    # cdf.md: 9 -> 18+10+(51-12)=67; 8 -> 16+10+12=38; 7 -> 14+10+6=30; 5 -> 10+10=20; 3 -> 16; 2 -> 14; 0 -> 5.
    assert game_scores([9, 8, 7, 5, 3, 2, 0], [None] * 6 + [5]) == [67, 38, 30, 20, 16, 14, 5]


def test_hand_checked_game_tied_leaders():
    # cdf.md: 8 -> 16+10+24=50 each; 7 -> 14+10+6=30; 6 -> 12+10+3=25; 5 -> 10+10+1.5=21.5; 0 -> 4 and 6.
    assert game_scores([8, 8, 7, 6, 5, 0, 0], [None] * 5 + [4, 6]) == [50, 50, 30, 25, 21.5, 4, 6]


@pytest.mark.parametrize("centres, expected", [
    # pursuer 1 behind: 51 - 12 = 39 for the leader (the hand-checked game above, without the elimination)
    ([9, 8, 7, 5, 3, 1, 1], [18 + 10 + 39, 16 + 10 + 12, 14 + 10 + 6, 20, 16, 12, 12]),
    # pursuer 2 behind: 10 -> 20+10+(51-6)=75; 8 -> 16+10+6=32; 6 (4 behind) -> 22; 4 -> 18; 3 -> 16; 2 -> 14; 1 -> 12
    ([10, 8, 6, 4, 3, 2, 1], [75, 32, 22, 18, 16, 14, 12]),
    # pursuer 3 behind: 11 -> 22+10+(51-3)=80; 8 -> 16+10+3=29; 6 -> 22; 4 -> 18; 3 -> 16; 1 -> 12
    ([11, 8, 6, 4, 3, 1, 1], [80, 29, 22, 18, 16, 12, 12]),
    # nobody within 3: 12 -> 24+10+51=85; 8 -> 16+10=26; 6 -> 22; 4 -> 18; 2 -> 14; 1 -> 12
    ([12, 8, 6, 4, 2, 1, 1], [85, 26, 22, 18, 14, 12, 12]),
])
def test_single_leader_and_his_pursuers(centres, expected):
    assert game_scores(centres) == expected


def test_three_tied_leaders():
    # x = 3: 7 -> 14+10+48/3=40; 6 (1 behind) -> 12+10+12/3=26; 4 (3 behind) -> 8+10+3/3=19; 3 -> 16; 0 after 5 years -> 5
    assert game_scores([7, 7, 7, 6, 4, 3, 0], [None] * 6 + [5]) == [40, 40, 40, 26, 19, 16, 5]


def test_two_behind_two_tied_leaders():
    # x = 2: 2 behind -> 6/2 = 3 (cdf.md: 6 -> 12+10+3 = 25)
    assert game_scores([8, 8, 6, 4, 4, 2, 2])[2] == 12 + 10 + 3


def test_solo():
    # 18 -> 102; the others 1 point per year played; eliminated: the years they survived.
    assert game_scores([18, 6, 5, 3, 2, 0, 0], [None] * 5 + [4, 5]) == [102, 7, 7, 7, 7, 4, 5]


def test_solo_with_more_centres():
    assert game_scores([22, 6, 4, 2, 0, 0, 0], [None] * 4 + [3, 4, 6]) == [102, 7, 7, 7, 3, 4, 6]


def test_eliminated_players_score_their_years_survived():
    scored = score_board([Seat("a", 12), Seat("b", 10), Seat("c", 6), Seat("d", 6), Seat("e", 0, 2),
                          Seat("f", 0, 3), Seat("g", 0, 6)])
    # 12 -> 24+10+(51-6)=79; 10 -> 20+10+6=36; 6 -> 22 twice; eliminated: 2, 3, 6.
    assert [s.score for s in scored] == [79, 36, 22, 22, 2, 3, 6]
    assert [s.outcome for s in scored][:2] == [Outcome.LEADER, Outcome.PURSUER]


def test_board_ended_by_vote_after_five_years():
    # No solo: years played change nothing but the eliminated: 8 -> 16+10+(51-6)=71; 6 -> 12+10+6=28;
    # 5 -> 10+10+3=23; 4 -> 18; 0 after 4 years -> 4.
    assert game_scores([8, 6, 6, 5, 5, 4, 0], [None] * 6 + [4], years=5) == [71, 28, 28, 23, 23, 18, 4]
    # A solo stopped after 5 years: the survivors get 5 points each.
    assert game_scores([18, 5, 4, 4, 3, 0, 0], [None] * 5 + [3, 4], years=5) == [102, 5, 5, 5, 5, 3, 4]


def test_a_board_of_fewer_players_when_allowed():
    with pytest.raises(InvalidInput, match="7 joueurs attendus"):
        game_scores([10, 5, 4, 4, 3, 3])
    # A dummy power: six players; 10 -> 20+10+51 = 81 (nobody within 3).
    assert game_scores([10, 5, 4, 4, 3, 3], short=True)[0] == 81


@pytest.mark.parametrize("seats, years, message", [
    ([Seat(c, 6) for c in "abcdef"] + [Seat("g", 0, 3)], 7, "36 centres"),  # 34 at most
    ([Seat(c, 1) for c in "abcdef"] + [Seat("g", 35)], 7, "de 0 à 34"),
    ([Seat(c, 1) for c in "abcdef"] + [Seat("g", 0)], 7, "éliminé"),  # no centre: when was he eliminated?
    ([Seat(c, 1) for c in "abcdef"] + [Seat("g", 2, 4)], 7, "pas éliminé"),
    ([Seat(c, 1) for c in "abcdef"] + [Seat("g", 0, 6)], 5, "0 à 5"),  # survived longer than the game
    ([Seat(c, 1) for c in "abcdef"] + [Seat("a", 2)], 7, "plusieurs fois"),
    ([Seat(c, 1, power=A if c in "ab" else None) for c in "abcdefg"], 7, "Autriche"),
    ([Seat(c, 1) for c in "abcdefgh"], 7, "7 joueurs"),
    ([Seat(c, 1) for c in "abcdefg"], 8, "années jouées"),
    # nobody owns a centre: impossible (§II.3c: an eliminated player has none; someone must have them)
    ([Seat(c, 0, 3) for c in "abcdefg"], 7, "aucun centre"),
])
def test_bad_boards_are_refused(seats, years, message):
    with pytest.raises(InvalidInput, match=message):
        check_board(seats, years)


# === Tournament scores ===========================================================================


@pytest.mark.parametrize("scores, expected", [
    ([67], 67),
    ([50, 40], 0.8 * 50 + 0.4 * 40),  # 56: 80% + 40% beats 100%
    ([81, 18], 81),  # 64.8 + 7.2 = 72 < 81: 100% + 0%
    ([30, 60], 60),  # 48 + 12 = 60: the two readings agree
])
def test_simultaneous_boards(scores, expected):
    assert round_score(scores) == pytest.approx(expected)


def test_three_simultaneous_boards_are_refused():
    with pytest.raises(InvalidInput):
        round_score([10, 20, 30])


@pytest.mark.parametrize("rounds, expected", [
    ([], 0), ([67], 67), ([67, 30], 97),
    ([67, 30, 50], 67 + 0.8 * 50 + 0.4 * 30),  # 119: best 100%, second 80%, third 40%
])
def test_qualifying_score(rounds, expected):
    assert qualifying_score(rounds) == pytest.approx(expected)


@pytest.mark.parametrize("rounds, expected", [
    ([67, 30], 97),  # fewer than three: the sum
    ([67, 30, 50], 67 + 50 + 0.8 * 30),  # 141
    ([67, 30, 50, 20], 67 + 50 + 0.8 * 30 + 0.4 * 20),  # 149
])
def test_final_score(rounds, expected):
    assert final_score(rounds) == pytest.approx(expected)


def test_top_board_bonus_then_other_bonuses():
    assert total_score(149, True, 5) == pytest.approx(149 * 1.15 + 5)  # 176.35
    assert total_score(149, False, 5) == 154


# === Championships built from short boards (the organiser allows them) ===========================


def board(r: int, table: str, *seats: tuple, years: int = 7) -> Board:
    return Board(r, table, tuple(Seat(*s) for s in seats), years)


def championship(boards, players=(), votes=(), favourites=(), top_board=False):
    return run_championship({p.name: p for p in players}, boards, votes, favourites, top_board, short=True)


def place(ch, name):
    return next(s for s in ch.standings if s.player == name)


# Top board (§III.1), hand-computed round scores (two-player boards, gaps of 4+ unless tied):
#   R1: A 10 v X 5 -> A 20+10+51=81, X 20; B 8 = C 8 -> 16+10+24=50 each; D 9 v E 2 -> D 79, E 14.
#   R2: B 12 v A 1 -> B 85, A 12; D 6 v C 2 -> D 73, C 14; X 7 v E 3 -> X 75, E 16.
#   R3: E 15 v A 2 -> E 91, A 14; C 9 v X 5 -> C 79, X 20; H 10 v G 4 -> H 81, G 18.
# Saturday (R1 + R2): A 93, B 135, C 64, D 152, E 30, X 95. Qualifying (R1-R3, 100/80/40% with three):
# A 81+0.8*14+0.4*12=97, B 135, C 79+40+5.6=124.6, D 152, E 91+12.8+5.6=109.4, X 75+16+8=99, H 81, G 18.
QUALIFYING_BOARDS = [
    board(1, "1", ("A", 10), ("X", 5)), board(1, "2", ("B", 8), ("C", 8)), board(1, "3", ("D", 9), ("E", 2)),
    board(2, "1", ("B", 12), ("A", 1)), board(2, "2", ("D", 6), ("C", 2)), board(2, "3", ("X", 7), ("E", 3)),
    board(3, "1", ("E", 15), ("A", 2)), board(3, "2", ("C", 9), ("X", 5)), board(3, "3", ("H", 10), ("G", 4)),
]


def test_top_board_in_five_steps():
    ch = championship(QUALIFYING_BOARDS, top_board=True)
    # 1: sole winners of R1 are A and D: best R2 is D (73 > 12); 2: best R2 left, B 85; 3: best Saturday left,
    # X 95 (A 93); 4: best R3 left, E 91; 5: qualifying left: C 124.6, A 97, H 81 (G 18 stays out).
    assert [(q.step, q.player) for q in ch.qualified] == [
        (1, "D"), (2, "B"), (3, "X"), (4, "E"), (5, "C"), (5, "A"), (5, "H")]
    assert [q.score for q in ch.qualified] == pytest.approx([73, 85, 95, 91, 124.6, 97, 81])
    qualifying = {q.player: (q.saturday, q.qualifying) for q in ch.qualifying}
    assert qualifying["C"] == pytest.approx((64, 124.6))
    assert [q.player for q in ch.qualifying][:3] == ["D", "B", "C"]


def test_a_tie_for_the_last_top_board_seat_is_warned_and_only_that_one():
    # R2: A 10 v B 5 -> 81, 20; R3: C 10 v D 5 -> 81, 20; E = F, G = H, I = J at 5 centres -> 10+10+24 = 44 each,
    # one game each, never met. Steps: 2 A, 3 B (Saturday 20), 4 C, then four seats for six players on 44:
    # E, F, G, H by name; only H against I decides who stays out, so only that tie is worth a warning.
    ch = championship([board(2, "1", ("A", 10), ("B", 5)), board(3, "1", ("C", 10), ("D", 5)),
                       board(3, "2", ("E", 5), ("F", 5)), board(3, "3", ("G", 5), ("H", 5)),
                       board(3, "4", ("I", 5), ("J", 5))], top_board=True)
    assert [(q.step, q.player) for q in ch.qualified] == [(2, "A"), (3, "B"), (4, "C"), (5, "E"), (5, "F"),
                                                           (5, "G"), (5, "H")]
    assert [w for w in ch.warnings if w.startswith("Table finale")] == [
        "Table finale, étape 5 : H et I restent ex aequo après tous les critères de départage ; H est retenu par "
        "ordre alphabétique : tranchez s'il le faut."]


def test_on_saturday_evening_only_the_first_three_steps_are_known():
    # §III.1: steps 4 and 5 are "la ronde 3" and "après la ronde 3": before round 3 nobody qualifies by them.
    ch = championship(QUALIFYING_BOARDS[:6], top_board=True)
    assert [(q.step, q.player) for q in ch.qualified] == [(1, "D"), (2, "B"), (3, "X")]


# §III.1 (source): "le meilleur score samedi soir" — rounds 1 and 2 are played on Saturday (§I), round 3 on
# Sunday. Steps 1-3 and the Saturday ranking are decided that evening, so their tie-breakers see rounds 1-2
# only; steps 4-5 and the ranking after round 3 see rounds 1-3.
#   R2: X 8 (Russia) = Y 8 (France), tied leaders -> 16+10+48/2 = 50 each.
#   R3: X 10 (Austria) v Y 5 (Germany) -> X 20+10+51 = 81, Y 10+10 = 20.
# X and Y on Saturday: 50 each; they met once (50 - 50: 0); one game each; best game 50 each; countries
# Russia 4 against France 3: Y first. Counting round 3 would put X first: confrontation (50 + 81) - (50 + 20) = +61.
SATURDAY_PAIR = [board(2, "1", ("X", 8, None, R), ("Y", 8, None, F)),
                 board(3, "1", ("X", 10, None, A), ("Y", 5, None, G))]


def test_saturday_steps_break_ties_on_rounds_1_and_2_only():
    # W 10 v V 5 in R2 -> W 81, V 20. Step 1: no round 1, nobody. Step 2: best R2, W 81. Step 3: best Saturday
    # left, X = Y = 50: Y by countries (see above). Step 4: best R3 left, X 81. Step 5: qualifying left, V 20.
    ch = championship(SATURDAY_PAIR + [board(2, "2", ("W", 10), ("V", 5))], top_board=True)
    assert [(q.step, q.player, q.tied) for q in ch.qualified] == [
        (2, "W", False), (3, "Y", False), (4, "X", False), (5, "V", False)]
    assert [q.score for q in ch.qualified] == [81, 50, 81, 20]
    # The Saturday ranking: W 81, then Y before X (50 each, countries), V 20. After round 3 (sums of two
    # rounds): X 50 + 81 = 131, W 81, Y 50 + 20 = 70, V 20.
    lines = {q.player: (q.saturday, q.saturday_place, q.qualifying, q.place) for q in ch.qualifying}
    assert lines == {"W": (81, 1, 81, 2), "Y": (50, 2, 70, 3), "X": (50, 3, 131, 1), "V": (20, 4, 20, 4)}


def test_step_2_breaks_a_tie_on_rounds_1_and_2_only():
    # Only X and Y played round 2: 50 each. Step 2: Y (countries on Saturday); step 3: X, Saturday 50.
    ch = championship(SATURDAY_PAIR, top_board=True)
    assert [(q.step, q.player, q.score) for q in ch.qualified] == [(2, "Y", 50), (3, "X", 50)]


def test_after_round_3_ties_are_broken_on_rounds_1_to_3():
    # R2: M 10 v P 4 -> M 81, P 18; N 10 v Q 5 -> N 81, Q 20. R3: K 10, P 5, Q 4 -> K 81, P 20, Q 18.
    # Qualifying (two rounds: sums): P 18 + 20 = 38 = Q 20 + 18. On rounds 1-3, P met Q in R3: 20 - 18 = +2,
    # P first; on rounds 1-2 alone they never met, one game each, and Q's best game (20 > 18) would win.
    # Steps: 2 M (81, tied with N, who is taken at step 3 by name: no warning), 3 N, 4 K, 5 P then Q.
    ch = championship([board(2, "1", ("M", 10), ("P", 4)), board(2, "2", ("N", 10), ("Q", 5)),
                       board(3, "1", ("K", 10), ("P", 5), ("Q", 4))], top_board=True)
    assert [(q.step, q.player) for q in ch.qualified] == [(2, "M"), (3, "N"), (4, "K"), (5, "P"), (5, "Q")]
    lines = {q.player: (q.saturday_place, q.place) for q in ch.qualifying}
    # Saturday: M = N 81 (1st, still equal), Q 20 (3rd), P 18 (4th), K 0; after round 3: K = M = N 81, P 4th, Q 5th.
    assert (lines["P"], lines["Q"]) == ((4, 4), (3, 5))
    assert not [w for w in ch.warnings if w.startswith("Table finale")]


def test_no_top_board_when_the_organisers_decide_so():
    assert championship(QUALIFYING_BOARDS, top_board=False).qualified == []


FINAL = board(4, "1", ("D", 8, None, A, 2), ("C", 8, None, E, 5), ("B", 6, None, F, 1), ("X", 5, None, G, 3),
              ("E", 4, None, I, 4), ("A", 3, None, R, 7), ("H", 0, 6, T, 6))


def test_champion_is_the_top_board_winner_who_chose_last():
    ch = championship(QUALIFYING_BOARDS + [FINAL, board(4, "2", ("G", 7))], top_board=True)
    # D and C both 8 centres on the top board: C chose 5th, D 2nd, so C is champion.
    assert ch.standings[0].player == "C" and ch.standings[0].champion
    # Top board: 8 = 8 tied -> 16+10+24 = 50 each. C: 79, 50, 50, 14 -> 79+50+0.8*50+0.4*14 = 174.6, x 1.15.
    assert place(ch, "C").total == pytest.approx(174.6 * 1.15)
    # D: 79, 73, 50 -> 79+73+0.8*50 = 192, x 1.15 = 220.8: more than C, but second.
    assert (place(ch, "D").place, place(ch, "D").total) == (2, pytest.approx(220.8))
    # G did not play the top board: no bonus (R3 18 + R4 14+10+51 = 75: 93).
    assert (place(ch, "G").top_board, place(ch, "G").total) == (False, 93)
    assert ch.warnings == []


def test_a_top_board_other_than_the_qualified_is_warned():
    swapped = Board(4, "1", tuple(Seat("G", s.centres, s.survived, s.power, s.choice) if s.player == "H" else s
                                  for s in FINAL.seats))
    ch = championship(QUALIFYING_BOARDS + [swapped, board(4, "2", ("H", 7))], top_board=True)
    assert any("manque H" in w and "en plus : G" in w for w in ch.warnings)
    assert place(ch, "G").top_board and not place(ch, "H").top_board


def test_top_board_needs_a_complete_choice_order():
    broken = Board(4, "1", tuple(Seat(s.player, s.centres, s.survived, s.power, 1) for s in FINAL.seats))
    with pytest.raises(InvalidInput, match="ordre de choix"):
        championship(QUALIFYING_BOARDS + [broken], top_board=True)


# === Tie-breakers of the final ranking (§IV.3b): each separates a pair equal on what comes before ===


def test_tie_breaker_1_direct_confrontation():
    # R1 together: L 9, A 5, B 4 -> A 20, B 18. R2 apart: A 4 -> 18, B 5 -> 20. Both 38, best 20, two games.
    ch = championship([board(1, "1", ("L", 9), ("A", 5, None, F), ("B", 4, None, E)),
                       board(2, "1", ("M", 9), ("A", 4, None, E)), board(2, "2", ("N", 9), ("B", 5, None, F))])
    a, b = place(ch, "A"), place(ch, "B")
    assert a.total == b.total == 38
    assert (a.place, b.place) == (b.place - 1, a.place + 1)
    assert a.decided_by == b.decided_by == "confrontation directe"


def test_tie_breaker_2_fewer_games():
    # A: one game, 13 centres behind a leader of 17 -> 36. B: two games of 4 centres -> 18 + 18 = 36.
    ch = championship([board(1, "1", ("L", 17), ("A", 13)), board(1, "2", ("M", 9), ("B", 4)),
                       board(2, "1", ("N", 9), ("B", 4))])
    assert place(ch, "A").place + 1 == place(ch, "B").place
    assert place(ch, "A").decided_by == "moins de parties"


def test_tie_breaker_3_best_game():
    # A: 9 and 4 centres -> 28 + 18 = 46; B: 7 and 6 -> 24 + 22 = 46; best game 28 against 24.
    ch = championship([board(1, "1", ("L", 13), ("A", 9)), board(1, "2", ("M", 13), ("B", 7)),
                       board(2, "1", ("N", 13), ("A", 4)), board(2, "2", ("O", 13), ("B", 6))])
    assert place(ch, "A").place + 1 == place(ch, "B").place
    assert place(ch, "A").decided_by == "meilleure partie"


def test_tie_breaker_4_countries_with_fewer_centres():
    # Same games (5 then 4 centres: 20 + 18); A played Austria and France (3 + 3), B Russia and France (4 + 3).
    ch = championship([board(1, "1", ("L", 9, None, G), ("A", 5, None, A)),
                       board(1, "2", ("M", 9, None, G), ("B", 5, None, R)),
                       board(2, "1", ("N", 9, None, G), ("A", 4, None, F)),
                       board(2, "2", ("O", 9, None, G), ("B", 4, None, F))])
    assert place(ch, "A").place + 1 == place(ch, "B").place
    assert place(ch, "A").decided_by == "pays de moins de centres"


def test_tie_breaker_5_youngest():
    players = [Player("A", dt.date(1990, 5, 1)), Player("B", dt.date(1990, 4, 30))]
    ch = championship([board(1, "1", ("L", 9), ("A", 5)), board(1, "2", ("M", 9), ("B", 5))], players)
    assert place(ch, "A").place + 1 == place(ch, "B").place
    assert place(ch, "A").decided_by == "le plus jeune"


def test_still_equal_after_every_tie_breaker_share_the_place():
    ch = championship([board(1, "1", ("L", 9), ("A", 5)), board(1, "2", ("M", 9), ("B", 5))])
    assert place(ch, "A").place == place(ch, "B").place
    assert any("A, B" in w for w in ch.warnings)


def test_other_bonus_is_added():
    ch = championship([board(1, "1", ("L", 9), ("A", 5)), board(1, "2", ("M", 9), ("B", 5))],
                      [Player("B", bonus=10)])
    assert place(ch, "B").total == 30 and place(ch, "B").place < place(ch, "A").place


# === Teams (§IV.5) =================================================================================


def test_team_score_is_the_round_2_sum_and_best_member_breaks_a_tie():
    players = [Player("A", team="Un"), Player("B", team="Un"), Player("C", team="Deux"), Player("D", team="Deux")]
    # R2: A 9 -> 28 and B 4 -> 18 (leaders of 13): 46; C 7 -> 24 and D 6 -> 22: 46. R1 does not count.
    ch = championship([board(1, "1", ("L", 13), ("C", 12)),
                       board(2, "1", ("L", 13), ("A", 9)), board(2, "2", ("M", 13), ("B", 4)),
                       board(2, "3", ("N", 13), ("C", 7)), board(2, "4", ("O", 13), ("D", 6))], players)
    assert [(t.team, t.place, t.score, t.decided_by) for t in ch.teams] == [
        ("Un", 1, 46, "meilleur score individuel"), ("Deux", 2, 46, "meilleur score individuel")]


def test_team_direct_confrontation():
    players = [Player("A", team="Un"), Player("B", team="Un"), Player("C", team="Deux"), Player("D", team="Deux")]
    # R2: A 5 -> 20 and C 4 -> 18 at the same board; B 4 -> 18 and D 5 -> 20 apart. 38 each, best 20, second 18;
    # where they met, Un's A beat Deux's C by 2.
    ch = championship([board(2, "1", ("L", 9), ("A", 5), ("C", 4)), board(2, "2", ("M", 9), ("D", 5)),
                       board(2, "3", ("N", 9), ("B", 4))], players)
    assert [(t.team, t.score, t.decided_by) for t in ch.teams] == [
        ("Un", 38, "confrontation directe"), ("Deux", 38, "confrontation directe")]


def team_pair(centres_un, centres_deux, powers_un=(None,) * 3, powers_deux=(None,) * 3, players=None):
    """Teams Un (A, B, C) and Deux (D, E, F), each member alone with a leader of 13 at a round-2 board
    (4+ centres behind: 2 per centre + 10)."""
    players = players or [Player(n, team="Un" if n in "ABC" else "Deux") for n in "ABCDEF"]
    seats = list(zip("ABC", centres_un, powers_un)) + list(zip("DEF", centres_deux, powers_deux))
    return championship([board(2, str(i), (f"L{i}", 13), (n, c, None, p)) for i, (n, c, p) in enumerate(seats)],
                        players)


def test_team_tie_breaker_3_second_best_member():
    # Un: 9, 5, 1 -> 28 + 20 + 12 = 60; Deux: 9, 4, 2 -> 28 + 18 + 14 = 60. Best 28 each; second 20 > 18.
    ch = team_pair((9, 5, 1), (9, 4, 2))
    assert [(t.team, t.place, t.score, t.decided_by) for t in ch.teams] == [
        ("Un", 1, 60, "second score individuel"), ("Deux", 2, 60, "second score individuel")]


def test_team_tie_breaker_4_countries_with_fewer_centres_on_average():
    # Same scores (9, 5, 1 each); Un played Austria, France, Italy (mean 3), Deux Russia, France, Italy (10/3).
    ch = team_pair((9, 5, 1), (9, 5, 1), (A, F, I), (R, F, I))
    assert [(t.team, t.decided_by) for t in ch.teams] == [
        ("Un", "pays de moins de centres"), ("Deux", "pays de moins de centres")]


def test_team_tie_breaker_5_youngest_average_age():
    # Same scores; Un born 1990, 1990, 1960 (mean about 1980.0), Deux 1980, 1980, 1981 (about 1980.3): Deux is
    # younger on average.
    births = dict(zip("ABCDEF", (1990, 1990, 1960, 1980, 1980, 1981)))
    players = [Player(n, dt.date(births[n], 1, 1), team="Un" if n in "ABC" else "Deux") for n in "ABCDEF"]
    ch = team_pair((9, 5, 1), (9, 5, 1), players=players)
    assert [(t.team, t.decided_by) for t in ch.teams] == [("Deux", "moyenne d'âge"), ("Un", "moyenne d'âge")]


def test_a_team_has_three_players_at_most():
    with pytest.raises(InvalidInput, match="3 joueurs au plus"):
        championship([board(1, "1", ("A", 5))], [Player(n, team="Un") for n in "ABCD"])


# === Awards (§IV.6) ================================================================================


def vote(r, voter, category, first, second, ballot="3+1", table="1"):
    return Vote(r, table, voter, category, first, second, parse_ballot(ballot))


D = Category.DIPLOMAT


def award_boards(rounds=4):
    return [board(r, "1", ("P", 5), ("Q", 5), ("V", 3), ("W", 3), ("Y", 2)) for r in range(1, rounds + 1)]


def award(ch, name, category=D):
    return next(a for a in ch.awards[category] if a.player == name)


def test_category_score_is_the_best_three_games():
    votes = [vote(r, "V", D, "P", "Q") for r in (1, 2, 3)] + [vote(4, "V", D, "Q", "P")]
    ch = championship(award_boards(), votes=votes)
    # P: 3, 3, 3, 1 -> best three 9; Q: 1, 1, 1, 3 -> 5.
    assert (award(ch, "P").points, award(ch, "P").place) == (9, 1)
    assert (award(ch, "Q").points, award(ch, "Q").games) == (5, 4)


def test_award_tie_breaker_1_best_average():
    # P: 3 in each of three games (9, average 3) in a 3-game board set; Q: 3, 3, 3, and 1 in a fourth (9, 2.5).
    boards = award_boards(3) + [board(4, "1", ("Q", 5), ("V", 3), ("W", 3))]
    votes = [vote(r, "V", D, "P", "W") for r in (1, 2, 3)] + [vote(r, "W", D, "Q", "V") for r in (1, 2, 3)]
    votes += [vote(4, "V", D, "W", "Q")]
    ch = championship(boards, votes=votes)
    assert award(ch, "P").points == award(ch, "Q").points == 9
    assert (award(ch, "P").average, award(ch, "Q").average) == (3, 2.5)
    assert award(ch, "P").place < award(ch, "Q").place


def test_award_tie_breaker_2_most_votes_in_one_game():
    # P: one 3 in game 1 (3 points, one vote); Q: a 2 (2+2) and a 1 (3+1's second) in game 1 (3 points, two votes).
    votes = [vote(1, "V", D, "P", "Y"), vote(1, "W", D, "Q", "V", "2+2"), vote(1, "Y", D, "W", "Q")]
    ch = championship(award_boards(1), votes=votes)
    assert award(ch, "P").points == award(ch, "Q").points == 3
    assert (award(ch, "P").most_votes, award(ch, "Q").most_votes) == (1, 2)
    assert award(ch, "Q").place < award(ch, "P").place


def test_award_tie_breakers_3_foreign_and_4_youngest():
    votes = [vote(1, "V", D, "P", "Q", "2+2")]
    foreign = championship(award_boards(1), [Player("Q", foreign=True)], votes=votes)
    assert award(foreign, "Q").place < award(foreign, "P").place
    young = championship(award_boards(1), [Player("P", dt.date(2000, 1, 2)), Player("Q", dt.date(2000, 1, 1))],
                         votes=votes)
    assert award(young, "P").place < award(young, "Q").place


def test_votes_must_name_two_other_players_of_the_board():
    with pytest.raises(InvalidInput, match="pas joué"):
        championship(award_boards(1), votes=[vote(1, "V", D, "P", "Z")])
    with pytest.raises(InvalidInput, match="différents"):
        championship(award_boards(1), votes=[vote(1, "V", D, "V", "P")])


def test_favourite_player_has_the_most_votes():
    ch = championship(award_boards(1), favourites=[("V", "P"), ("W", "P"), ("P", "Q"), ("Q", "P")])
    assert [(a.player, a.place, a.points) for a in ch.favourites] == [("P", 1, 3), ("Q", 2, 1)]


@pytest.mark.parametrize("text, expected", [("3+1", (3, 1)), ("2+2", (2, 2)), (" 3 + 1 ", (3, 1)), (31, (3, 1))])
def test_ballots(text, expected):
    assert parse_ballot(text) == expected


def test_bad_ballot():
    with pytest.raises(InvalidInput, match="3\\+1 ou 2\\+2"):
        parse_ballot("4+0")


@pytest.mark.parametrize("parse", [Power.parse, Category.parse, parse_ballot])
def test_a_blank_cell_is_named_as_such(parse):
    # An organiser reads the message: a blank cell is "une cellule vide", not "« None »".
    with pytest.raises(InvalidInput, match=r"trouvé une cellule vide$"):
        parse(None)


@pytest.mark.parametrize("text, expected", [
    ("Meilleur diplomate", Category.DIPLOMAT), ("tacticien", Category.TACTICIAN), ("STRATEGE", Category.STRATEGIST),
    ("le plus machiavélique", Category.MACHIAVELLIAN), ("machiavelique", Category.MACHIAVELLIAN)])
def test_categories(text, expected):
    assert Category.parse(text) is expected


@pytest.mark.parametrize("text, expected", [("autriche", A), ("RUSSIE", R), ("Turkey", T), (" Angleterre ", E)])
def test_powers(text, expected):
    assert Power.parse(text) is expected


# === Best countries (§IV.7): each tie-breaker separates a pair of equal scores ========================


def best(ch, power=A):
    return [(c.player, c.place) for c in ch.countries[power]]


def test_best_country_is_the_highest_game_score():
    ch = championship([board(1, "1", ("P", 10, None, A), ("L", 5, None, E)), board(2, "1", ("Q", 9, None, A))])
    # P: 20+10+51 = 81; Q alone: 18+10+51 = 79.
    assert best(ch) == [("P", 1), ("Q", 2)]


def test_best_country_1_more_centres():
    # P: 10 centres behind a leader of 14 -> 30; Q: 4 centres, 1 behind a leader of 5 -> 8+10+12 = 30.
    ch = championship([board(1, "1", ("L", 14), ("P", 10, None, A)), board(2, "1", ("M", 5), ("Q", 4, None, A))])
    assert best(ch) == [("P", 1), ("Q", 2)]


def test_best_country_2_smaller_gap_to_the_player_ahead():
    # Both 5 centres (20, nobody behind): P 4 behind a 9, Q 5 behind a 10.
    ch = championship([board(1, "1", ("L", 9), ("P", 5, None, A)), board(2, "1", ("M", 10), ("Q", 5, None, A))])
    assert best(ch) == [("P", 1), ("Q", 2)]


def test_best_country_3_larger_gap_to_the_player_behind():
    # Both 5 centres behind a 9 (20): P has a 2 behind him (gap 3), Q a 4 (gap 1).
    ch = championship([board(1, "1", ("L", 9), ("P", 5, None, A), ("S", 2)),
                       board(2, "1", ("M", 9), ("Q", 5, None, A), ("T", 4))])
    assert best(ch) == [("P", 1), ("Q", 2)]


def test_best_country_4_latest_elimination():
    # Both eliminated, 3 behind: P after 4 years behind one leader of 3 -> 4 + 3 = 7;
    # Q after 6 years behind three leaders of 3 -> 6 + 3/3 = 7. Q was eliminated later.
    ch = championship([board(1, "1", ("L", 3), ("P", 0, 4, A)),
                       board(2, "1", ("M", 3), ("N", 3), ("O", 3), ("Q", 0, 6, A))])
    assert [c.score for c in ch.countries[A]] == [7, 7]
    assert best(ch) == [("Q", 1), ("P", 2)]


def test_best_country_5_foreign_and_6_youngest():
    boards = [board(1, "1", ("L", 9), ("P", 5, None, A)), board(2, "1", ("M", 9), ("Q", 5, None, A))]
    assert best(championship(boards, [Player("Q", foreign=True)])) == [("Q", 1), ("P", 2)]
    young = [Player("P", dt.date(1980, 1, 1)), Player("Q", dt.date(1985, 1, 1))]
    assert best(championship(boards, young)) == [("Q", 1), ("P", 2)]


# === Properties ======================================================================================


@st.composite
def boards(draw, room: int = 0):
    """Seven centre counts with at most 34 - room in all (someone has one), and the years each eliminated
    player survived."""
    left, drawn = 34 - room, []
    for _ in range(7):
        drawn.append(draw(st.integers(0, min(17, left))))
        left -= drawn[-1]
    assume(sum(drawn) > 0)
    centres = draw(st.permutations(drawn))
    years = draw(st.integers(1, 7))
    survived = [draw(st.integers(0, years)) if c == 0 else None for c in centres]
    return centres, survived, years


@settings(max_examples=150)
@given(boards(room=1), st.integers(0, 6))
def test_one_more_centre_never_lowers_a_score(board_, who):
    centres, survived, years = board_
    more = list(centres)
    more[who] += 1
    lasted = list(survived)
    lasted[who] = None  # with a centre, he is no longer eliminated
    if max(more) >= 18:
        return  # the solo line: not this property
    assert game_scores(more, lasted, years)[who] >= game_scores(centres, survived, years)[who]


@settings(max_examples=150)
@given(boards(), st.randoms(use_true_random=False))
def test_a_board_does_not_depend_on_the_order_of_its_lines(board_, rng):
    centres, survived, years = board_
    seats = [Seat(str(i), c, s) for i, (c, s) in enumerate(zip(centres, survived))]
    shuffled = list(seats)
    rng.shuffle(shuffled)
    by_name = {g.seat.player: g.score for g in score_board(seats, years)}
    assert {g.seat.player: g.score for g in score_board(shuffled, years)} == by_name


@given(st.floats(0, 200), st.floats(0, 200))
def test_two_simultaneous_boards_never_score_less_than_the_better(a, b):
    assert round_score([a, b]) >= max(a, b)
    assert round_score([a, b]) == round_score([b, a])


@given(st.lists(st.floats(0, 200), max_size=3))
def test_qualifying_never_exceeds_the_sum(rounds):
    assert qualifying_score(rounds) <= sum(rounds) + 1e-9


# === Checks of the typed lines: located violations (index, field, message) ==========================

from xlcircuit.rules import cdf  # noqa: E402
from xlcircuit.rules.errors import Violation  # noqa: E402


def line(r, table, player, centres, survived=None, power=None, choice=None, years=None):
    return cdf.Line(r, table, Seat(player, centres, survived, power, choice), years)


#: A board of seven (§IV.1): 9, 8, 7, 5, 3, 2 and 0 centres (the last eliminated after 5 years).
SEVEN = [("A", 9), ("B", 8), ("C", 7), ("D", 5), ("E", 3), ("F", 2), ("G", 0, 5)]


def seven(r=1, table="1", **changes):
    return [line(r, table, name, centres, **{"survived": rest[0] if rest else None, **changes.get(name, {})})
            for name, centres, *rest in SEVEN]


def test_the_order_of_choice_belongs_to_the_top_board():
    # §III.2: only the top board's players choose their countries in order, and it is played in round 4.
    lines = seven(2, "1", C={"choice": 3})
    boards, violations = cdf.boards_of(lines, short=True)
    assert violations == [Violation(2, "choice", "ordre de choix en ronde 2 : seule la table finale (ronde 4) en a un")]
    assert [s.player for s in boards[0].seats] == list("ABDEFG")  # C's line is left out
    # The core's entry point refuses it too (it used to ignore an order of choice outside round 4).
    with pytest.raises(InvalidInput, match="ordre de choix en ronde 2"):
        run_championship({}, [Board(2, "1", tuple(ln.seat for ln in lines))], top_board=False)


def test_a_line_the_scoring_cannot_take_is_located_on_its_cell():
    lines = seven(G={"survived": None}) + seven(2, B={"survived": 3})
    _, violations = cdf.boards_of(lines)
    # G has no centre but no elimination year; B has 8 centres and an elimination year.
    assert [(v.index, v.field) for v in violations if v.field != "table"] == [(6, "survived"), (8, "survived")]
    assert "G n'a plus de centre" in violations[0].message


def test_board_violations_are_on_the_first_line_of_the_board():
    lengths = seven(1, "1", A={"years": 5}, B={"years": 6})
    six = seven(2, "1")[:6]
    boards, violations = cdf.boards_of(lengths + six)
    assert violations == [
        Violation(0, "years", "table 1 de la ronde 1 : plusieurs durées (5, 6) : une par partie"),
        Violation(7, "table", "table 1 de la ronde 2 : 7 joueurs attendus sur une table ; trouvé 6 (table "
                              "incomplète : autorisez-la dans les paramètres)"),
    ]
    assert boards == []
    boards, violations = cdf.boards_of(six, short=True)
    assert violations == [] and [len(b.seats) for b in boards] == [6]


def test_more_simultaneous_boards_than_allowed_is_on_the_last_line():
    # §II.2b3: two simultaneous boards at most; A on three boards of round 1 (9, 9 and 5 centres).
    lines = [line(1, t, "A", 9 if t != "3" else 5) for t in "123"] + [line(1, t, "B", 4) for t in "123"]
    boards, violations = cdf.boards_of(lines, short=True)
    assert [(v.index, v.field) for v in violations] == [(2, "player"), (5, "player")]
    assert violations[0].message == "A a 3 parties à la ronde 1 : 2 simultanées au plus"
    assert len(boards) == 3


VOTERS = [board(1, "1", ("P", 5), ("Q", 5), ("V", 3)), board(2, "1", ("P", 5), ("W", 3), ("Y", 2))]


def test_only_last_round_players_vote_for_the_favourite():
    # §IV.6b1: the favourite player is voted by the players of the last round, once each, not for oneself.
    seated = cdf.seated_at(VOTERS)
    favourites = [("W", "Q"), ("Q", "P"), ("Z", "P"), ("P", "P"), ("Y", "Q"), ("W", "P"), ("P", "Z")]
    assert cdf.favourite_violations(favourites, seated, lambda i: f"ligne {i + 2}") == [
        Violation(1, "voter", "Q n'a pas joué la dernière ronde : seuls ses joueurs votent"),
        Violation(2, "voter", "Z n'a joué aucune partie"),
        Violation(3, "favourite", "on ne vote pas pour soi-même"),
        Violation(5, "voter", "W a déjà voté (ligne 2) : un vote par joueur"),
        Violation(6, "favourite", "Z n'a joué aucune partie"),
    ]
    # The core's entry point refuses a first-round player's vote (it used to count it).
    with pytest.raises(InvalidInput, match="Q n'a pas joué la dernière ronde"):
        championship(VOTERS, favourites=[("Q", "P")])
    assert [a.player for a in championship(VOTERS, favourites=[("W", "Q"), ("Y", "Q")]).favourites] == ["Q"]


def test_ballots_are_located_on_the_name_or_category_at_fault():
    seated = cdf.seated_at(VOTERS)
    votes = [vote(1, "P", D, "Q", "V"), vote(3, "P", D, "Q", "V"), vote(1, "P", D, "W", "Y"),
             vote(1, "V", D, "V", "Q"), vote(1, "P", D, "V", "Q"), vote(1, "P", Category.STRATEGIST, "V", "Q")]
    assert cdf.vote_violations(votes, seated, lambda i: f"ligne {i + 2}") == [
        Violation(1, "table", "pas de table 1 à la ronde 3 dans la table Parties"),
        Violation(2, "first", "W n'a pas joué à la table 1 de la ronde 1"),
        Violation(2, "second", "Y n'a pas joué à la table 1 de la ronde 1"),
        Violation(3, "second", "le votant désigne deux autres joueurs, différents"),
        Violation(4, "category", "P a déjà voté « meilleur diplomate » pour cette partie (ligne 2)"),
    ]


def test_a_fourth_team_member_is_located_on_his_record():
    # §IV.5a: three players a team at most; the fourth (and any after) is the one refused.
    players = [Player(n, team="Un" if n != "C" else "Deux") for n in "ABCDEF"]
    assert cdf.team_violations(players) == [
        Violation(4, "team", "l'équipe « Un » a déjà 3 joueurs (A, B, D) : 3 joueurs au plus"),
        Violation(5, "team", "l'équipe « Un » a déjà 3 joueurs (A, B, D) : 3 joueurs au plus"),
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.tuples(st.integers(1, 4), st.sampled_from("123"), st.sampled_from("ABCDEFGH"), st.integers(0, 12),
                          st.integers(0, 7), st.sampled_from([None, None, None, 5, 6])),
                max_size=20, unique_by=lambda row: row[:3]))
def test_boards_without_violations_are_boards_the_championship_takes(rows):
    # The adapter does not re-check: whatever boards_of returns without a violation, the core accepts.
    lines = [line(r, t, p, c, None if c else s, None, None, years) for r, t, p, c, s, years in rows]
    boards, violations = cdf.boards_of(lines, short=True)
    assume(not violations)
    championship(boards)
    # Every line is on one of the boards.
    assert sorted(s.player for b in boards for s in b.seats) == sorted(ln.seat.player for ln in lines)

# Abstract Play: its games loaded with loadap, and its cell names in play, genmove and list_legal once the
# notation parameter is ap. Paths are relative to this directory. Run by `cargo test --test suites` and, unchanged,
# by gogui-regress.

# A 3x3 game checked by hand (tests/abstract_play.rs): two turns with an extra placement after a capture, a forced
# pass, and Black's capture of White's last stones.
1 loadap ap/hand-3x3.txt square-3
#? []

2 oust-status
#? [to-move none extra-turn no must-pass no stones-b 5 stones-w 0 captured-b 4 captured-w 1 placements 10 result B\+]

3 final_score
#? [B\+]

4 showboard
#? [.*last move: black A1\nresult: B\+ .*]

# Turn lists without a variant are read on the current board (still 3x3).
5 loadap ap/stops-after-capture.txt
#? [cannot load file 'ap/stops-after-capture.txt': turn 5 \('c1', line 6\): c1 captures, so black must place again, but the turn ends there]*

# hex7 names the board as hex-7 does; on it this 3x3 game is another one, which ends early.
6 loadap ap/hand-3x3.txt hex7
#? [cannot load file 'ap/hand-3x3.txt': turn 4 \('a3', line 4\): the game is already over: B\+ .*]*

61 loadap ap/hand-3x3.txt hex-9x
#? [syntax error: unknown Abstract Play board variant 'hex-9x': expected hex-6, hex-7, hex-8 or square-11 .*]*

7 loadap ap/missing.txt
#? [cannot load file 'ap/missing.txt': .*]*

# A JSON record names its board (none: hex-7, the site's default) and its players, which printsgf writes.
8 loadap ap/hex7-game.json hex-6
#? [cannot load file 'ap/hex7-game.json': the record is a game on hex-7, not on hex-6]*

9 loadap ap/hex7-game.json
#? []

10 oust-board
#? [hex7]

11 printsgf
#? [.*SZ\[13\]HX\[7\]GN\[Oust\]PB\[Ann\]PW\[Bob\]\n;B\[gg\];W\[am\];B\[ma\];W\[gm\];B\[ag\];W\[mg\]\)]

# The same cells by name: g7 is GoGui's G7, a1 A1, m7 N13, a7 G1, g1 A7, g13 N7. White's a1 and a7 make a2, b1, b2,
# a6, b7 and b8 placements that join them without touching a black stone.
# A record as the site publishes it: the variant's label, the default board's empty variant in the game id, and a
# final resign entry (the header names Bob, seat 2, the winner). The board did not reach the end.
111 loadap ap/site-hex7-resign.json
#? []

112 oust-status
#? [to-move b .* placements 6 result none]

113 loadap ap/hex7-game.json
#? []

12 oust-set-param notation ap
#? []

13 undo
#? []

14 list_legal
#? [a3 a4 a5 b3 b4 b5 b6 c1 .* g12 g13 h1 .* m6]

15 play w a2
#? [illegal move: a2 joins white stones into a group of 2 that touches no black stone]*

16 play w g13
#? []

17 play b g14
#? [illegal move: g14 is off the board: row g has cells g1 to g13]*

18 play b G
#? [syntax error: expected a cell such as d4 \(Abstract Play's notation\), or pass, got 'G']*

19 play b a1
#? [illegal move: a1 is occupied by a white stone]*

20 genmove b
#? [[a-m]1?[0-9]( .*)?]

21 oust-set-param notation gtp
#? []

22 oust-get-param notation
#? [gtp]

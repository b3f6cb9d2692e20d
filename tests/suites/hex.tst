# Hexhex boards: choosing one, GoGui's vertex names on the rhombus, six neighbours, set-ups, records, and what GoGui
# sends. Paths are relative to this directory. Run by `cargo test --test suites` and, unchanged, by gogui-regress.

# The hexhex board of side 2: 7 cells on GoGui's 3 x 3 rhombus (A1 B1 / A2 B2 C2 / B3 C3).
1 oust-board hex2
#? []

2 oust-board
#? [hex2]

3 list_legal
#? [A1 B1 A2 B2 C2 B3 C3]

4 perft 3
#? [186]

# A1's neighbours are B1, A2 and B2 (the upper right one): B1 joins A1 into a group that touches no white stone.
5 play b A1
#? []

6 play w C3
#? []

7 play b B1
#? [illegal move: B1 joins black stones into a group of 2 that touches no white stone]*

8 showboard
#? [B C\n B3 \.\(O\)C3\nA2 \. \. \. C2\n A1 X \. B1\n     A B\nblack to move\n.*]

9 play w B2
#? [illegal move: black is to move: white's placement did not capture]*

10 undo
#? []

11 oust-status
#? [to-move w extra-turn no must-pass no stones-b 1 stones-w 0 captured-b 0 captured-w 0 placements 1 result none]

# Side 7, the board Oust players use: vertices are GoGui's. The cut-off corners of the 13 x 13 rhombus are not on
# the board, and neither is anything beyond it.
12 oust-board hex7
#? []

13 play b A13
#? [illegal move: A13 is off the hex7 board: GoGui's 13x13 rhombus has it, but the hexagon does not]*

14 play b N1
#? [illegal move: N1 is off the hex7 board: GoGui's 13x13 rhombus has it, but the hexagon does not]*

15 play b P7
#? [illegal move: P7 is off the hex7 board]*

16 play b G7
#? []

17 play w N13
#? []

18 play b A1
#? []

19 list_legal
#? [.* G1 .* A7 .* N7 .* G13 .*]

# Set-ups list the rows of the hexagon from the top: S to 2S-1 points each.
20 oust-setup b ..O/..../..O/.X../X..
#? [syntax error: the board has 13 rows, the setup gives 5]*

21 oust-board hex3
#? []

22 oust-setup b ..O/..../..O/.X../X..
#? [syntax error: row 3 has 3 points, the board's row 3 has 5]*

# Black A1 and B2 are one group (B2 is A1's upper right neighbour); white C3 touches B2 only. Black A2 joins them
# into a group of 3, which touches C3 along B2: C3 is captured, White keeps E5, Black places again.
23 oust-setup b ..O/..../..O../.X../X..
#? []

24 play b A2
#? [capture 1 extra-turn]

25 showboard
#? [C D E\n  C5 \. \. O E5\n B4 \. \. \. \. E4\nA3 \. \. \. \. \. E3\n A2\(X\)X \. \. D2\n  A1 X \. \. C1\n      A B C\nblack to move \(extra turn after a capture\)\n.*]

# A forced pass on a hexhex board (found by random play): White has no legal placement.
26 oust-setup w XO./XX.O/XX.OX/X.XO/O.O
#? []

27 list_legal
#? [pass]

28 play w pass
#? []

29 oust-status
#? [to-move b extra-turn no must-pass no stones-b 8 stones-w 6 captured-b 0 captured-w 0 placements 0 result none]

30 oust-board hex14
#? [unacceptable size: hex14: a hexhex side must be 2 to 13]*

31 oust-board round
#? [syntax error: expected a board such as 9, 7x5 or hex7, got 'round']*

# Records: oust writes SZ[2S-1] and HX[S]; loadsgf takes the board from them.
32 loadsgf sgf/hex4-game.sgf
#? []

33 oust-board
#? [hex4]

34 final_score
#? [W\+]

35 loadsgf sgf/hex4-game.sgf 9
#? []

36 oust-status
#? [to-move w extra-turn no must-pass no stones-b 3 stones-w 4 captured-b 0 captured-w 1 placements 8 result none]

37 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[oust:[0-9.]+\]SZ\[7\]HX\[4\]GN\[Oust\]PB\[oust\]PW\[oust\]\n;B\[ag\];W\[de\];B\[gc\];W\[dc\];B\[dg\];W\[df\];W\[bd\];B\[fa\]\)]

# boardsize N is the square board (only an engine started on a hexhex board, with --size hexS, takes
# boardsize 2S-1 for it, as GoGui's player needs).
38 boardsize 7
#? []

39 oust-board
#? [7x7]

# What the ruler tells GoGui, and GoGui's moves on the rhombus.
40 oust-board hex7
#? []

41 gogui-rules_board_size
#? [13 hex]

42 play B G7
#? []

43 gogui-rules_board
#? [\? \? \? \? \? \? \. \. \. \. \. \. \.\n\? \? \? \? \? \. \. \. \. \. \. \. \.\n\? \? \? \? \. \. \. \. \. \. \. \. \.\n\? \? \? \. \. \. \. \. \. \. \. \. \.\n\? \? \. \. \. \. \. \. \. \. \. \. \.\n\? \. \. \. \. \. \. \. \. \. \. \. \.\n\. \. \. \. \. \. X \. \. \. \. \. \.\n\. \. \. \. \. \. \. \. \. \. \. \. \?\n\. \. \. \. \. \. \. \. \. \. \. \? \?\n\. \. \. \. \. \. \. \. \. \. \? \? \?\n\. \. \. \. \. \. \. \. \. \? \? \? \?\n\. \. \. \. \. \. \. \. \? \? \? \? \?\n\. \. \. \. \. \. \. \? \? \? \? \? \?]

44 gogui-rules_side_to_move
#? [white]

45 gogui-rules_legal_moves
#? [.* G1 .* A7 .* N7 .* G13 .*]

oust-set-param playouts 200
oust-set-param threads 1
46 genmove w
#? [[A-HJ-N][0-9]+]

# Games saved by GoGui 1.6 on its hexagonal board with `oust --size hex7` as the program: GoGui writes SZ[13]
# alone (and a PL in every move node), so they load as hex7 on an engine whose board is hex7. The player's name
# in PW was shortened to the command, the rest is as GoGui wrote it. The human game: Black (a person clicking)
# captured 31 times, each time placing again.
50 oust-board hex7
#? []

51 loadsgf sgf/gogui-hex7-human.sgf 20
#? []

52 oust-status
#? [to-move w extra-turn no must-pass no stones-b 12 stones-w 3 captured-b 4 captured-w 0 placements 19 result none]

53 loadsgf sgf/gogui-hex7-human.sgf
#? []

54 oust-status
#? [to-move none extra-turn no must-pass no stones-b 0 stones-w 46 captured-b 33 captured-w 72 placements 151 result W\+]

55 loadsgf sgf/gogui-hex7-cvc.sgf
#? []

56 gogui-rules_final_result
#? [White wins: all black stones captured after 170 placements]

# On a square 13 x 13 board the same record is refused: its moves and GoGui's PL follow the hexagonal rules.
57 oust-board 13
#? []

58 loadsgf sgf/gogui-hex7-human.sgf
#? [cannot load file 'sgf/gogui-hex7-human.sgf': after move 11 the record says black is to move \(PL\), but by the rules white is]*

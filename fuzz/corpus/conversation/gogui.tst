# GoGui support: the ruler commands (gogui-rules_*), the analyze commands, and the switch from move reports to bare
# GTP answers when GoGui is recognised by its first gogui-rules_* command.
# Run by `cargo test --test suites` and, unchanged, by gogui-regress.

# Before any gogui-rules_* command the reports are on.
rectangular_boardsize 4 2
oust-setup b XO../...O
1 oust-reports
#? [auto on]

2 play b A1
#? [capture 1 extra-turn]

# GoGui starts a program with name, protocol_version, version, list_commands, then asks the game's name.
3 gogui-rules_game_id
#? [Oust]

# From now on play and genmove answer as standard GTP: no reports.
4 oust-reports
#? [auto off]

5 play b C2
#? []

# GoGui draws square grids only: a rectangle is shown inside the square of its longer side, the points it lacks
# marked ? (GoGui quits when told "4 2", and shows only 2 x 2 points when told "2 4").
6 gogui-rules_board
#? [\? \? \? \?\n\? \? \? \?\nX \. X \.\nX \. \. O]

7 gogui-rules_board_size
#? [4]

# A game as GoGui sends it: upper-case colours, several moves of one colour in a row after captures.
boardsize 4
clear_board
komi 6.5
8 gogui-rules_board_size
#? [4]

9 gogui-rules_side_to_move
#? [black]

10 gogui-rules_legal_moves
#? [A1 B1 C1 D1 A2 B2 C2 D2 A3 B3 C3 D3 A4 B4 C4 D4]

11 gogui-rules_board
#? [\. \. \. \.\n\. \. \. \.\n\. \. \. \.\n\. \. \. \.]

12 play B B1
#? []

13 play W D4
#? []

14 play B D1
#? []

15 play W C1
#? []

# Black B2 joins B1 into a group of 2 touching white C1 (1): a capture, and Black places again.
16 play B B2
#? []

17 gogui-rules_side_to_move
#? [black]

18 gogui-rules_captured_count
#? [1 0]

# The extra turn: every point next to a black stone would join it without touching White, so only the others
# are legal.
19 gogui-rules_legal_moves
#? [A3 C3 D3 A4 B4 C4]

20 play B C4
#? []

21 gogui-rules_side_to_move
#? [white]

# White D3 joins D4 into a group of 2 touching black C4 (1): capture, and White places again.
22 play W D3
#? []

23 gogui-rules_side_to_move
#? [white]

24 play W A4
#? []

25 gogui-rules_board
#? [O \. \. O\n\. \. \. O\n\. X \. \.\n\. X \. X]

26 gogui-rules_captured_count
#? [1 1]

# GoGui also replays moves already on the board: they fail and change nothing.
27 play W A4
#? [illegal move: black is to move: white's placement did not capture]*

28 play B B2
#? [illegal move: B2 is occupied by a black stone]*

29 gogui-rules_board
#? [O \. \. O\n\. \. \. O\n\. X \. \.\n\. X \. X]

30 oust-status
#? [to-move b extra-turn no must-pass no stones-b 3 stones-w 3 captured-b 1 captured-w 1 placements 8 result none]

# The result is only there at the end.
31 gogui-rules_final_result
#? [game is not over]*

# genmove answers one vertex (the only legal move here is C1) and nothing more.
rectangular_boardsize 3 3
oust-setup w .OO/XXX/XX.
32 genmove w
#? [C1]

33 genmove b
#? [A3]

34 gogui-rules_legal_moves
#? []

35 gogui-rules_final_result
#? [Black wins: all white stones captured after 2 placements]

# A forced pass: the legal moves are just `pass`, and genmove answers `pass`.
oust-setup b O.O/X.O/XX.
36 play b B3
#? []

37 gogui-rules_side_to_move
#? [white]

38 gogui-rules_legal_moves
#? [pass]

39 genmove w
#? [pass]

40 gogui-rules_side_to_move
#? [black]

# A human's pass arrives from GoGui in upper case.
oust-setup b O.O/X.O/XX.
play b B3
48 play W PASS
#? []

49 gogui-rules_side_to_move
#? [black]

# The reports can be forced on again, and off.
41 oust-reports on
#? [on on]

oust-setup b O.O/X.O/XX.
42 play b B3
#? [forced-pass w]

43 oust-reports off
#? [off off]

44 genmove w
#? [pass]

45 oust-reports auto
#? [auto off]

46 oust-reports loud
#? [syntax error: the report mode must be auto, on or off, got 'loud']*

47 oust-reports on off
#? [syntax error: oust-reports takes 0 to 1 arguments \(\[auto\|on\|off\]\), got 2]*

# The RULES.md examples as GoGui sees them.
# Example 1 (extra turn, on 5x3 with a second white stone), then a lone placement that ends the turn.
rectangular_boardsize 5 3
oust-setup b .X.../O.OO./.X..O
50 play B B2
#? []

# (GoGui's grid is the 5 x 5 square: the two rows above the board are ?.)
51 gogui-rules_board
#? [\? \? \? \? \?\n\? \? \? \? \?\n\. X \. \. \.\n\. X \. \. \.\n\. X \. \. O]

52 gogui-rules_captured_count
#? [3 0]

53 gogui-rules_side_to_move
#? [black]

54 play B D2
#? []

55 gogui-rules_side_to_move
#? [white]

# Example 2: White B1 (and A2) would form a group of 2 touching the black group of 2: not legal.
rectangular_boardsize 4 2
oust-setup w .OX./..X.
56 gogui-rules_legal_moves
#? [A1 D1 D2]

# Example 3: A1 and B2 would join A2 without touching Black.
oust-setup w O.../...X
57 gogui-rules_legal_moves
#? [B1 C1 C2 D2]

# Example 4: the capture of D3 through C3, which is not next to the new stone; D3 was White's last stone.
rectangular_boardsize 4 3
oust-setup b XXXO/..../....
58 play B A2
#? []

59 gogui-rules_final_result
#? [Black wins: all white stones captured after 1 placement]

# Example 5: Black wins at once: no legal moves at all, and no extra placement.
rectangular_boardsize 4 2
oust-setup b XO../....
60 play B A1
#? []

61 gogui-rules_legal_moves
#? []

62 gogui-rules_captured_count
#? [1 0]

63 gogui-rules_final_result
#? [Black wins: all white stones captured after 1 placement]

64 play W C1
#? [illegal move: the game is over: B\+ \(black captured every white stone\)]*

# Example 6: the full 2x2 board, no winner.
boardsize 2
65 play B A2
#? []

66 play W B2
#? []

67 play B B1
#? []

68 play W A1
#? []

69 gogui-rules_legal_moves
#? []

70 gogui-rules_board
#? [X O\nO X]

71 gogui-rules_final_result
#? [No winner: neither player can place after 4 placements]

72 final_score
#? [0]

# The analyze commands GoGui offers in its menu, and the ones they run.
73 gogui-analyze_commands
#? [plist/Legal moves/list_legal\ngfx/Group sizes/oust-group_sizes\ngfx/Heat map/oust-heatmap\ngfx/Principal variation/oust-pv\nstring/Game status/oust-status\nstring/Board diagram/showboard]

rectangular_boardsize 4 2
oust-setup b XX.O/X..O
74 oust-group_sizes
#? [LABEL A1 3 D1 2 A2 3 B2 3 D2 2\nTEXT black 1 group \(largest 3\), white 1 group \(largest 2\)]

75 list_legal
#? [C1 C2]

clear_board
76 oust-group_sizes
#? [TEXT black 0 groups \(largest 0\), white 0 groups \(largest 0\)]

boardsize 5
oust-setup w X.X.X/...../O.O../OO.../.....
77 oust-group_sizes
#? [LABEL A2 3 B2 3 A3 3 C3 1 A5 1 C5 1 E5 1\nTEXT black 3 groups \(largest 1\), white 2 groups \(largest 3\)]

# The ruler commands take no arguments.
78 gogui-rules_board extra
#? [syntax error: gogui-rules_board takes no arguments, got 1]*

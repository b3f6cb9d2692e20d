# Move reports: `capture N`, `extra-turn`, `forced-pass C`, `result R`, in that order, alone for `play` and after
# the vertex for `genmove`. A plain non-capturing placement answers like standard GTP.

# Quick, reproducible thinking for the genmove commands below.
oust-set-param threads 1
oust-set-param playouts 300
oust-set-param seed 7

# Plain placements: empty for play, the bare vertex for genmove (the only legal move here is C1).
rectangular_boardsize 3 3
oust-setup w .OO/XXX/XX.
10 list_legal
#? [C1]

11 genmove w
#? [C1]

12 undo
#? []

13 reg_genmove w
#? [C1]

# reg_genmove played nothing: White is still to move.
14 oust-status
#? [to-move w extra-turn no must-pass no stones-b 5 stones-w 2 captured-b 0 captured-w 0 placements 0 result none]

15 play w C1
#? []

# Black A3 forms a group of 6 touching white {B3, C3} and C1: capture 3, White has no stones left.
16 play b A3
#? [capture 3 result B\+]

# Extra turn: Black captures one of two white stones and places again.
rectangular_boardsize 4 2
oust-setup b XO../...O
20 play b A1
#? [capture 1 extra-turn]

21 showboard
#? [A B C D\n 2 X \. \. \. 2\n 1\(X\)\. \. O 1\n   A B C D\nblack to move \(extra turn after a capture\)\nstones: black 2, white 1; captured: by black 1, by white 0\nlast move: black A1\nresult: none \(game in progress\)]

# genmove reports the capture after the vertex; the only capture here is A1.
oust-setup b XO../...O
22 genmove b
#? [A1 capture 1 extra-turn]

# Forced pass after a plain placement.
# 3 O . O   Black B3 is a lone placement. Then White's empty points B2 and C1 both join {C2, C3} into a group of 3
# 2 X . O   touching the black group {A1, A2, B1} of 3: not smaller. White has no legal placement and must pass.
# 1 X X .
rectangular_boardsize 3 3
oust-setup b O.O/X.O/XX.
30 play b B3
#? [forced-pass w]

31 list_legal
#? [pass]

32 oust-status
#? [to-move w extra-turn no must-pass yes stones-b 4 stones-w 3 captured-b 0 captured-w 0 placements 1 result none]

33 play b B2
#? [illegal move: white is to move: black's placement did not capture \(white has no legal placement and must pass\)]*

34 genmove w
#? [pass]

35 oust-status
#? [to-move b extra-turn no must-pass no stones-b 4 stones-w 3 captured-b 0 captured-w 0 placements 1 result none]

36 undo
#? []

37 play w pass
#? []

38 showboard
#? [.*last move: white pass\nresult: none \(game in progress\)]

# A capture whose extra turn has no legal placement: capture, extra turn and forced pass in one report.
# 3 X . O .   White D2 joins {C2, C3} into a group of 3 touching black D1 (1): D1 goes. In the extra turn every
# 2 X . O .   empty point joins that group without a capture (or touches the black group of 4), so White must
# 1 X X . X   pass.
rectangular_boardsize 4 3
oust-setup w X.O./X.O./XX.X
40 play w D2
#? [capture 1 extra-turn forced-pass w]

41 list_legal
#? [pass]

42 genmove b
#? [white is to move: extra turn after a capture \(white has no legal placement and must pass\)]*

43 play w pass
#? []

44 oust-status
#? [to-move b extra-turn no must-pass no stones-b 4 stones-w 3 captured-b 0 captured-w 1 placements 1 result none]

# With the reports off (`oust-reports off`, or `oust --reports off`) the same moves answer as standard GTP does:
# nothing for play, the bare vertex or pass for genmove. The game itself is the same.
50 oust-reports off
#? [off off]

rectangular_boardsize 4 2
oust-setup b XO../...O
51 play b A1
#? []

52 oust-status
#? [to-move b extra-turn yes must-pass no stones-b 2 stones-w 1 captured-b 1 captured-w 0 placements 1 result none]

oust-setup b XO../...O
53 genmove b
#? [A1]

rectangular_boardsize 4 3
oust-setup w X.O./X.O./XX.X
54 play w D2
#? []

55 genmove w
#? [pass]

rectangular_boardsize 4 2
oust-setup b XO../....
56 play b A1
#? []

57 final_score
#? [B\+]

58 oust-reports on
#? [on on]

oust-setup b XO../...O
59 play b A1
#? [capture 1 extra-turn]

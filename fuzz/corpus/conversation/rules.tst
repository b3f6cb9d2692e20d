# Every worked example of RULES.md, through the protocol. Rows are given top to bottom.

# Example 1: Black B2 forms {B1, B2, B3} (3) touching white {A2} (1) and {C2, D2} (2): both removed.
# As drawn they are all of White's stones, so Black wins at once (rule 7).
rectangular_boardsize 4 3
oust-setup b .X../O.OO/.X..
10 play b B2
#? [capture 3 result B\+]

11 final_score
#? [B\+]

12 list_legal
#? []

13 play w A1
#? [illegal move: the game is over: B\+ \(black captured every white stone\)]*

# Example 1 with one more white stone (on E1 of a 5x3 board): the capture gives an extra turn.
rectangular_boardsize 5 3
oust-setup b .X.../O.OO./.X..O
20 play b B2
#? [capture 3 extra-turn]

21 oust-status
#? [to-move b extra-turn yes must-pass no stones-b 3 stones-w 1 captured-b 3 captured-w 0 placements 1 result none]

22 play w A1
#? [illegal move: black is to move: extra turn after a capture]*

23 genmove w
#? [black is to move: extra turn after a capture]*

# A1 joins the black column into a group of 4 that touches nothing; D2 is a lone placement that ends the turn.
24 play b A1
#? [illegal move: A1 joins black stones into a group of 4 that touches no white stone]*

25 play b D2
#? []

26 oust-status
#? [to-move w extra-turn no must-pass no stones-b 4 stones-w 1 captured-b 3 captured-w 0 placements 2 result none]

# Example 2: White A1 and White D2 are non-capturing; White B1 would form {B1, B2} (2) touching black {C1, C2} (2).
rectangular_boardsize 4 2
oust-setup w .OX./..X.
30 play w B1
#? [illegal move: B1 forms a white group of 2 touching a black group of 2, which is not smaller]*

31 play w A1
#? []

32 undo
#? []

33 play w D2
#? []

34 oust-status
#? [to-move b extra-turn no must-pass no stones-b 2 stones-w 2 captured-b 0 captured-w 0 placements 1 result none]

# Example 3: White A1 would form {A1, A2} (2) touching no black stone (condition a).
oust-setup w O.../...X
40 play w A1
#? [illegal move: A1 joins white stones into a group of 2 that touches no black stone]*

# B2 would also join A2 without touching Black, so only B1, C1, C2 and D2 remain.
41 list_legal
#? [B1 C1 C2 D2]

# Example 4: Black A2 forms {A2, A3, B3, C3}; C3 touches white D3: it is removed. As drawn D3 is White's only
# stone, so Black wins.
rectangular_boardsize 4 3
oust-setup b XXXO/..../....
50 play b A2
#? [capture 1 result B\+]

# Example 4 with a second white stone on D1: the capture gives an extra turn.
oust-setup b XXXO/..../...O
51 play b A2
#? [capture 1 extra-turn]

# Example 5: Black A1 forms {A1, A2} (2) touching white B2 (1), White's last stone: Black wins, no extra placement.
rectangular_boardsize 4 2
oust-setup b XO../....
60 play b A1
#? [capture 1 result B\+]

61 oust-status
#? [to-move none extra-turn no must-pass no stones-b 2 stones-w 0 captured-b 1 captured-w 0 placements 1 result B\+]

62 genmove w
#? [cannot move: the game is over \(B\+ \(black captured every white stone\)\)]*

# Example 6: B A2, W B2, B B1, W A1 fills the 2x2 board with isolated stones: no winner (ruling 8).
boardsize 2
70 play b A2
#? []

71 play w B2
#? []

72 play b B1
#? []

73 play w A1
#? [result 0]

74 final_score
#? [0]

75 list_legal
#? []

76 play b pass
#? [illegal move: the game is over: 0 \(neither player can place\)]*

# The same 2x2 ending, checked from the empty board by perft (issue counts 4 12 24 8 0).
clear_board
77 perft 5
#? [0]

78 perft 4
#? [8]

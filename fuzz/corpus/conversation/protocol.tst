# Protocol framing and the standard commands.
# Run by `cargo test --test suites` and, unchanged, by gogui-regress.
# `#? [pattern]` : the whole response text matches the regular expression.
# `#? [pattern]*`: the command fails (gogui-regress counts it as an expected failure).

1 protocol_version
#? [2]

2 name
#? [oust]

3 version
#? [\d+\.\d+\.\d+]

4 known_command play
#? [true]

5 known_command frobnicate
#? [false]

6 known_command oust-setup
#? [true]

# Commands without ids are answered with a bare = or ?.
boardsize 7
clear_board

7 list_legal
#? [A1 B1 C1 D1 E1 F1 G1 A2 B2 C2 D2 E2 F2 G2 A3 B3 C3 D3 E3 F3 G3 A4 B4 C4 D4 E4 F4 G4 A5 B5 C5 D5 E5 F5 G5 A6 B6 C6 D6 E6 F6 G6 A7 B7 C7 D7 E7 F7 G7]

# Unknown commands, wrong arity and bad arguments
10 frobnicate
#? [unknown command]*

11 play b
#? [syntax error: play takes 2 arguments \(COLOR MOVE\), got 1]*

12 play b D4 extra
#? [syntax error: play takes 2 arguments \(COLOR MOVE\), got 3]*

13 play red D4
#? [syntax error: expected a colour \(b, black, w, white\), got 'red']*

14 play b I4
#? [syntax error: expected a vertex such as D4, or pass, got 'I4']*

15 play b D0
#? [syntax error: expected a vertex such as D4, or pass, got 'D0']*

16 play b H1
#? [illegal move: H1 is off the 7x7 board]*

17 play b A8
#? [illegal move: A8 is off the 7x7 board]*

18 boardsize 1
#? [unacceptable size: 1x1: each side must be 2 to 25]*

19 boardsize 26
#? [unacceptable size: 26x26: each side must be 2 to 25]*

20 boardsize nine
#? [syntax error: the size must be a whole number, got 'nine']*

21 boardsize 99999999999999999999999
#? [syntax error: the size must be a whole number, got '99999999999999999999999']*

22 komi 6.5
#? []

23 komi lots
#? [syntax error: komi must be a number, got 'lots']*

24 name extra
#? [syntax error: name takes no arguments, got 1]*

# A failed command changed nothing: the board is still 7x7 and empty.
25 oust-status
#? [to-move b extra-turn no must-pass no stones-b 0 stones-w 0 captured-b 0 captured-w 0 placements 0 result none]

# Colours and vertices in any case; output in upper case.
26 play BLACK d4
#? []

27 play W c4
#? []

28 genmove white
#? [black is to move: white's placement did not capture]*

29 play white e4
#? [illegal move: black is to move: white's placement did not capture]*

30 play b D4
#? [illegal move: D4 is occupied by a black stone]*

31 play b pass
#? [illegal move: black cannot pass while a placement is legal \(for example A1\)]*

32 final_score
#? [game is not over]*

33 undo
#? []

34 undo
#? []

35 undo
#? [cannot undo: no move to take back]*

36 rectangular_boardsize 5 3
#? []

37 oust-status
#? [to-move b extra-turn no must-pass no stones-b 0 stones-w 0 captured-b 0 captured-w 0 placements 0 result none]

38 play b E3
#? []

39 play w F1
#? [illegal move: F1 is off the 5x3 board]*

40 rectangular_boardsize 5
#? [syntax error: rectangular_boardsize takes 2 arguments \(WIDTH HEIGHT\), got 1]*

41 rectangular_boardsize 30 3
#? [unacceptable size: 30x3: each side must be 2 to 25]*

# Perft from the empty board (issue counts) and its errors
boardsize 3
42 perft 4
#? [1904]

43 perft 0
#? [1]

44 perft x
#? [syntax error: depth must be a whole number from 0 to 64, got 'x']*

45 perft 65
#? [syntax error: depth must be a whole number from 0 to 64, got '65']*

boardsize 4
46 perft 3
#? [2896]

rectangular_boardsize 4 3
47 perft 5
#? [52752]

# Set-up errors
48 oust-setup b XX/..
#? [syntax error: the board has 3 rows, the setup gives 2]*

49 oust-setup b XXX./..../...
#? [syntax error: row 1 has 3 points, the board is 4 wide]*

50 oust-setup b XXX./..../..Z.
#? [syntax error: 'Z' in row 1 is not a point: use X or B, O or W, and \. or -]*

51 oust-setup b XXX./..../.... second
#? [syntax error: the third argument can only be 'extra-turn', got 'second']*

52 oust-setup g XXX./..../....
#? [syntax error: expected a colour \(b, black, w, white\), got 'g']*

# Trailing comments and extra spaces are ignored.
53   name   # the engine's name
#? [oust]

99 quit
#? []

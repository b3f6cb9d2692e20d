# Game records: loadsgf and printsgf. Paths are relative to this directory (gogui-regress runs the engine here).
# sgf/gogui-*.sgf are games saved by GoGui 1.6 after real games with oust: GoGui writes no GM, a KM, and a PL
# (the side to move after the move) in every move node. Run by `cargo test --test suites` and by gogui-regress.

# A GoGui game (human Black against oust), loaded up to the position before move 13: after move 12 (B C5, a
# capture) Black places again.
1 loadsgf sgf/gogui-human-game.sgf 13
#? []

2 oust-status
#? [to-move b extra-turn yes must-pass no stones-b 5 stones-w 5 captured-b 1 captured-w 1 placements 12 result none]

3 showboard
#? [.*\nlast move: black C5\nresult: none \(game in progress\)]

# Move number 1 is the start position.
4 loadsgf sgf/gogui-human-game.sgf 1
#? []

5 oust-status
#? [to-move b extra-turn no must-pass no stones-b 0 stones-w 0 captured-b 0 captured-w 0 placements 0 result none]

# The whole game: White captured every black stone with its 111th placement.
6 loadsgf sgf/gogui-human-game.sgf
#? []

7 final_score
#? [W\+]

8 oust-status
#? [to-move none extra-turn no must-pass no stones-b 0 stones-w 30 captured-b 27 captured-w 54 placements 111 result W\+]

# One past the last move loads the whole game; so does any move number beyond, as GTP says.
9 loadsgf sgf/gogui-human-game.sgf 112
#? []

10 loadsgf sgf/gogui-human-game.sgf 113
#? []

37 oust-status
#? [to-move none extra-turn no must-pass no stones-b 0 stones-w 30 captured-b 27 captured-w 54 placements 111 result W\+]

38 loadsgf sgf/gogui-human-game.sgf 99999999999999999999
#? [syntax error: the move number must be a whole number from 1, got '99999999999999999999']*

11 loadsgf sgf/gogui-human-game.sgf 0
#? [syntax error: the move number must be a whole number from 1, got '0']*

12 loadsgf sgf/gogui-human-game.sgf ten
#? [syntax error: the move number must be a whole number from 1, got 'ten']*

# A loaded game goes on from where it stopped: undo takes back its last move, which can then be played again.
13 undo
#? []

14 oust-status
#? [to-move w extra-turn yes must-pass no stones-b 6 stones-w 29 captured-b 27 captured-w 48 placements 110 result none]

15 play w D7
#? [capture 6 result W\+]

# printsgf writes the record back: the players' names of the file, the result, consecutive moves of one colour.
16 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[oust:[0-9.]+\]SZ\[9\]GN\[Oust\]PW\[oust\]RE\[W\+\]\n;B\[dg\];W\[ag\];B\[fc\];W\[hf\];B\[bb\];W\[id\];B\[cd\];W\[gg\]\n;B\[fg\];W\[gh\];W\[de\];B\[ce\].*;W\[dc\]\)]

# A computer-against-computer game saved by GoGui.
17 loadsgf sgf/gogui-cvc-game.sgf
#? []

18 showboard
#? [   A B C D E F G H J\n 9 \. \. \. \. O O \. \. \. 9\n 8 O O \. O O \. \. \. \. 8\n 7 \. O O \. O O \. \. \. 7\n 6 \. \. O \. O \. \. O\(O\)6\n 5 O O O O O O O O \. 5\n 4 \. O O O O \. \. O \. 4\n 3 O \. \. \. O O O \. O 3\n 2 \. O \. \. O O O \. \. 2\n 1 O \. \. O O O O \. O 1\n   A B C D E F G H J\ngame over\nstones: black 0, white 42; captured: by black 19, by white 50\nlast move: white J6\nresult: W\+ \(white captured every black stone\)]

# A 3x3 game in which Black had to pass (clicked in GoGui as Game, Pass): GoGui writes the pass as B[].
33 loadsgf sgf/gogui-pass-game.sgf 11
#? []

34 oust-status
#? [to-move b extra-turn no must-pass yes stones-b 3 stones-w 4 captured-b 1 captured-w 2 placements 10 result none]

35 loadsgf sgf/gogui-pass-game.sgf
#? []

36 showboard
#? [   A B C\n 3 \. \.\(O\)3\n 2 O \. O 2\n 1 \. O O 1\n   A B C\ngame over\nstones: black 0, white 5; captured: by black 1, by white 5\nlast move: white C3\nresult: W\+ \(white captured every black stone\)]

# Errors start with GTP's 'cannot load file', name the file and the reason, and leave the game as it was.
20 loadsgf missing.sgf
#? [cannot load file 'missing\.sgf': .+]*

21 loadsgf sgf
#? [cannot load file 'sgf': .+]*

22 loadsgf sgf/not-sgf.sgf
#? [cannot load file 'sgf/not-sgf\.sgf': not a valid SGF record: no game tree: expected one such as \(;FF\[4\]SZ\[9\];B\[dd\]\), but the file has no `\(`]*

23 loadsgf sgf/illegal-move.sgf
#? [cannot load file 'sgf/illegal-move\.sgf': move 3 \(white C3\) is illegal: black is to move: white's placement did not capture]*

24 loadsgf sgf/wrong-turn.sgf
#? [cannot load file 'sgf/wrong-turn\.sgf': after move 2 the record says white is to move \(PL\), but by the rules black is]*

# A record that breaks off says where, and what is missing.
39 loadsgf sgf/truncated.sgf
#? [cannot load file 'sgf/truncated\.sgf': not a valid SGF record: the record breaks off at line 2, column 11, the end of the file, inside the value of W that begins at line 2, column 9: missing `\]` and `\)` to close the game tree opened at line 1, column 1]*

40 loadsgf sgf/unclosed.sgf
#? [cannot load file 'sgf/unclosed\.sgf': not a valid SGF record: the record breaks off at line 3, column 1, the end of the file: missing `\)` to close the game tree opened at line 1, column 1]*

41 loadsgf sgf/empty.sgf
#? [cannot load file 'sgf/empty\.sgf': not a valid SGF record: the file is empty: expected a game tree such as \(;FF\[4\]SZ\[9\];B\[dd\]\)]*

25 oust-status
#? [to-move none extra-turn no must-pass no stones-b 0 stones-w 5 captured-b 1 captured-w 5 placements 11 result W\+]

# Only the moves before the move number are replayed (and checked).
26 loadsgf sgf/illegal-move.sgf 3
#? []

27 oust-status
#? [to-move b extra-turn no must-pass no stones-b 1 stones-w 1 captured-b 0 captured-w 0 placements 2 result none]

# loadsgf does not check the result: sgf-check does.
28 loadsgf sgf/wrong-result.sgf
#? []

29 loadsgf
#? [syntax error: loadsgf takes 1 to 2 arguments \(FILE \[MOVE_NUMBER\]\), got 0]*

30 printsgf a.sgf b.sgf
#? [syntax error: printsgf takes 0 to 1 arguments \(\[FILE\]\), got 2]*

# A set-up position is written with AB, AW and PL; the moves follow.
rectangular_boardsize 4 2
oust-setup w .OX./..X.
31 play w A1
#? []

32 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[oust:[0-9.]+\]SZ\[4:2\]GN\[Oust\]AB\[cb\]\[ca\]AW\[ba\]PL\[W\]\n;W\[ab\]\)]

# loadsgf plays the main line of the first game of a collection (sgf-check checks them all).
42 loadsgf sgf/second-game-illegal.sgf
#? []

43 oust-status
#? [to-move b extra-turn no must-pass no stones-b 1 stones-w 1 captured-b 0 captured-w 0 placements 2 result none]

# The pie rule (RULES.md rule 9, protocol.md "The pie rule"): White may answer Black's first placement with swap.
# Square and hexhex boards: the swap, its report, list_legal, showboard, undo, records and every refusal. Paths are
# relative to this directory. Run by `cargo test --test suites` and, unchanged, by gogui-regress.

1 boardsize 5
#? []

2 oust-get-param pie
#? [off]

# Off by default: every swap is refused, and the state stays as it was.
3 play b C3
#? []

4 play w swap
#? [illegal move: swap is illegal: the pie rule is off]*

5 list_legal
#? [A1 B1 C1 D1 E1 A2 B2 C2 D2 E2 A3 B3 D3 E3 A4 B4 C4 D4 E4 A5 B5 C5 D5 E5]

# Switched on, the current game has it at once: White may now answer C3 with swap.
6 oust-set-param pie on
#? []

7 list_legal
#? [A1 B1 C1 D1 E1 A2 B2 C2 D2 E2 A3 B3 D3 E3 A4 B4 C4 D4 E4 A5 B5 C5 D5 E5 swap]

8 showboard
#? [A B C D E\n 5 \. \. \. \. \. 5\n 4 \. \. \. \. \. 4\n 3 \. \.\(X\)\. \. 3\n 2 \. \. \. \. \. 2\n 1 \. \. \. \. \. 1\n   A B C D E\nwhite to move\nstones: black 1, white 0; captured: by black 0, by white 0\nlast move: black C3\npie rule: on \(white may swap now\)\nresult: none \(game in progress\)]

9 play b swap
#? [illegal move: swap is illegal: only white may swap, as its first move]*

10 play w SWAP
#? [swapped]

# No stone changes; White (now the one who started) moves again.
11 showboard
#? [A B C D E\n 5 \. \. \. \. \. 5\n 4 \. \. \. \. \. 4\n 3 \. \. X \. \. 3\n 2 \. \. \. \. \. 2\n 1 \. \. \. \. \. 1\n   A B C D E\nwhite to move again \(after the swap: the players exchanged colours\)\nstones: black 1, white 0; captured: by black 0, by white 0\nlast move: white swap\npie rule: on \(white swapped\)\nresult: none \(game in progress\)]

12 list_legal
#? [A1 B1 C1 D1 E1 A2 B2 C2 D2 E2 A3 B3 D3 E3 A4 B4 C4 D4 E4 A5 B5 C5 D5 E5]

13 play w swap
#? [illegal move: swap is illegal: white has already swapped]*

14 play b B2
#? [illegal move: white is to move: white swapped and moves again]*

15 oust-set-param pie off
#? [pie: the game has a swap, so the pie rule stays on until a new game \(or undo the swap\)]*

16 oust-get-param pie
#? [on]

# Undo takes the swap back: the swap is legal again.
17 undo
#? []

18 list_legal
#? [A1 B1 C1 D1 E1 A2 B2 C2 D2 E2 A3 B3 D3 E3 A4 B4 C4 D4 E4 A5 B5 C5 D5 E5 swap]

19 oust-status
#? [to-move w extra-turn no must-pass no stones-b 1 stones-w 0 captured-b 0 captured-w 0 placements 1 result none]

# After White's first placement, and on the empty board, it is too late or too early.
20 play w B2
#? []

21 play w swap
#? [illegal move: swap is illegal: white may swap only in answer to black's first placement on the empty board]*

22 clear_board
#? []

23 play w swap
#? [illegal move: swap is illegal: black has not placed its first stone yet]*

24 play b swap
#? [illegal move: swap is illegal: only white may swap, as its first move]*

25 showboard
#? [.*\nlast move: none\npie rule: on \(white may swap after black's first placement\)\nresult: none \(game in progress\)]

# perft counts the swap: 25 placements, then 24 placements and the swap after each.
26 perft 2
#? [625]

# A set-up position never allows the swap.
27 oust-setup w ...../...../..X../...../.....
#? []

28 play w swap
#? [illegal move: swap is illegal: white may swap only in answer to black's first placement on the empty board]*

# The hexhex board of side 3: the centre wins for Black, so the engine swaps it.
30 oust-board hex3
#? []

31 play b C3
#? []

32 list_legal
#? [A1 B1 C1 A2 B2 C2 D2 A3 B3 D3 E3 B4 C4 D4 E4 C5 D5 E5 swap]

33 genmove w
#? [swap swapped]

34 showboard
#? [C D E\n  C5 \. \. \. E5\n B4 \. \. \. \. E4\nA3 \. \. X \. \. E3\n A2 \. \. \. \. D2\n  A1 \. \. \. C1\n      A B C\nwhite to move again \(after the swap: the players exchanged colours\)\nstones: black 1, white 0; captured: by black 0, by white 0\nlast move: white swap\npie rule: on \(white swapped\)\nresult: none \(game in progress\)]

# Records: RU[pie] in the root, the swap as W[swap-sides]; loadsgf reads them back.
35 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[oust:[0-9.]+\]SZ\[5\]HX\[3\]GN\[Oust\]RU\[pie\]PW\[oust\]\n;B\[cc\];W\[swap-sides\]\)]

36 undo
#? []

37 perft 2
#? [270]

38 oust-set-param pie off
#? []

# A record's rules apply to its game: the parameter keeps the engine's setting, which the next new game takes.
39 loadsgf sgf/pie-swap-hex4.sgf
#? []

40 oust-get-param pie
#? [off]

41 showboard
#? [.*\nblack to move\nstones: black 1, white 1; captured: by black 0, by white 0\nlast move: white B2\npie rule: on \(no swap any more\)\nresult: none \(game in progress\)]

42 loadsgf sgf/pie-swap.sgf 3
#? []

43 showboard
#? [.*\nwhite to move again \(after the swap: the players exchanged colours\)\nstones: black 1, white 0; captured: by black 0, by white 0\nlast move: white swap\npie rule: on \(white swapped\)\nresult: none \(game in progress\)]

44 undo
#? []

45 play w swap
#? [swapped]

46 play w C3
#? []

47 play b G7
#? []

48 printsgf
#? [\(;FF\[4\]GM\[1\]CA\[UTF-8\]AP\[oust:[0-9.]+\]SZ\[9\]GN\[Oust\]RU\[pie\]\n;B\[ee\];W\[swap-sides\];W\[cg\];B\[gc\]\)]

49 clear_board
#? []

50 showboard
#? [.*\nblack to move\nstones: black 0, white 0; captured: by black 0, by white 0\nlast move: none\nresult: none \(game in progress\)]

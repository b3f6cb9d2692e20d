# oust-solve: the solver over the protocol.
# Run by `cargo test --test suites` and, unchanged, by gogui-regress.
# `#? [pattern]` : the whole response text matches the regular expression.
# `#? [pattern]*`: the command fails (gogui-regress counts it as an expected failure).

# 3x3: Black wins in 3 from the empty board; after B B2 White loses in 2 whatever it plays.
boardsize 3
1 oust-solve
#? [win B2 3]

play b B2
2 oust-solve 5
#? [loss [A-C][1-3] 2]

# Nothing was played.
3 oust-status
#? [to-move w .* placements 1 result none]

# B1 joins B2 and takes White's only stone: the game is over.
play w A1
4 play b B1
#? [capture 1 result B\+]

5 oust-solve
#? [cannot solve: the game is over \(B\+ \(black captured every white stone\)\): nothing to solve]*

# 4x3 (4 columns, 3 rows): only B2 and C2 win, in 9.
6 oust-board 4x3
#? []

7 oust-solve
#? [win (B2|C2) 9]

# 2x7: a loss for the first player, in 19 at the slowest.
8 oust-board 2x7
#? []

9 oust-solve
#? [loss [AB][1-7] 19]

# A forced pass is the best (the only) move: White's only point, B2, would join A2 into a group of 2 next to a
# black group of 4.
10 oust-board 3x2
#? []

11 oust-setup w O.X/XXX
#? []

12 oust-solve
#? [loss pass 2]

# genmove passes for it, at once.
121 genmove w
#? [pass]

# An extra turn is part of the position: Black to place again after a capture.
13 oust-board 3
#? []

14 oust-setup b X.O/.X./... extra-turn
#? []

15 oust-solve
#? [win [A-C][1-3] \d+]

# hexhex boards: side 2 and side 3 are Black wins in 3.
16 oust-board hex2
#? []

17 oust-solve
#? [win [A-C][1-3] 3]

18 oust-board hex3
#? []

19 oust-solve
#? [win C3 3]

# A game over without a winner (ruling 8: neither player can place) is refused with its reason too.
191 boardsize 2
#? []

play b A2
play w B2
play b B1
192 play w A1
#? [result 0]

193 oust-solve
#? [cannot solve: the game is over \(0 \(neither player can place\)\): nothing to solve]*

194 genmove b
#? [illegal move: the game is over: 0 \(neither player can place\)]*

# Arguments
20 oust-solve x
#? [syntax error: the time must be a number of seconds from 0 to 10000000, got 'x']*

21 oust-solve 1 2
#? [syntax error: oust-solve takes 0 to 1 arguments \(\[SECONDS\]\), got 2]*

# A board too big to finish in the time: unknown, never a guess, however large the board.
22 oust-board 9
#? []

23 oust-solve 0.05
#? [unknown]

231 oust-board 25
#? []

232 oust-solve 0.05
#? [unknown]

233 oust-board hex13
#? []

234 oust-solve 0
#? [unknown]

# genmove plays the solver's move once it proves the position: the fastest win.
24 oust-board 3
#? []

25 genmove b
#? [B2]

26 play w A1
#? []

27 genmove b
#? [(B1|A2) capture 1 result B\+]

# A table the system will not give (64 GB on a smaller machine): genmove goes on without the solver, it never
# aborts (and where the machine has the memory, the solver plays as usual).
28 oust-board 3
#? []

29 oust-set-param solver_mb 65536
#? []

30 genmove b
#? [[A-C][1-3]]

31 oust-set-param solver_mb 64
#? []

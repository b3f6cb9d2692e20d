#!/bin/sh
# Makes the built-in networks again, byte for byte (docs/learning.md): the distillation self-play of the engine
# with the learned priors, then one fit for each family (generation 0), then the hexhex network's generations 1
# to 3 and the square network's generations 1 to 3: each its own self-play and a fit from the one before
# (docs/results.md, "The network by generation"). About 16.5 CPU-hours of self-play
# (some 7 hours on 2 cores) and 0.5 to 1 CPU-hour of fitting networks. Needs GNU parallel and a release build.
#
#   scripts/regenerate-nets.sh [WORK-DIRECTORY]
#
# The data files stay in WORK-DIRECTORY (nets-run by default); interrupted self-play and fits resume where they
# stopped when the script is run again.
set -eu
oust=${OUST:-target/release/oust}
dir=${1:-nets-run}
mkdir -p "$dir"

# Generation 0: 1,270 games over twelve boards of both families at 1,600 playouts a move, with the learned priors.
parallel -j 2 "$oust" selfplay --boards 9,hex7,7,hex5,9,hex7,11,hex6,9,hex7,13,hex8 --games 1270 \
    --playouts 1600 --priors learned --seed 3701 --shard {}/2 --out "$dir/gen0-{}.txt" ::: 1 2
cat "$dir/gen0-1.txt" "$dir/gen0-2.txt" > "$dir/gen0.txt"
# The hexhex network was fitted to the first 863 games of the run.
awk '{ print } /^g 862 / { exit }' "$dir/gen0.txt" > "$dir/gen0-863.txt"

"$oust" train-net "$dir/gen0.txt" --family square --channels 32 --blocks 4 --epochs 4 \
    --out weights/history/oust-net-square-gen0.net
"$oust" train-net "$dir/gen0-863.txt" --family hex --channels 32 --blocks 4 --epochs 4 \
    --out weights/history/oust-net-hex-gen0.net

# The hexhex generations' self-play computed the network in floats (--precision float), as every binary did before
# the integer network became the default.
#
# Generation 1 of the hexhex network (docs/results/2026-12-05-generation-1.md): generation 0 plays itself at 400
# visits a move, the first 168 and 180 games of the two shards of an 8,000-game run (about 1.1 CPU-hours), and a fit
# from generation 0.
for k in 1 2; do
    stop=$([ "$k" = 1 ] && echo 168 || echo 180)
    "$oust" selfplay --boards hex7,hex5,hex7,hex6,hex7,hex8,hex7,hex9 --games 8000 --playouts 400 --priors network \
        --precision float --net weights/history/oust-net-hex-gen0.net --seed 4601 --shard "$k/2" --stop-after "$stop" \
        --out "$dir/gen1-$k.txt" &
done
wait
"$oust" train-net "$dir/gen1-1.txt" "$dir/gen1-2.txt" --family hex --init weights/history/oust-net-hex-gen0.net \
    --epochs 2 --seed 1 --out weights/oust-net-hex.net
cp weights/oust-net-hex.net weights/history/oust-net-hex-gen1.net

# Generation N of the hexhex network from generation N - 1: it plays itself at 400 visits a move, 500 games in two
# shards from seed SEED, then a fit from it on its own games and those it was fitted to, 2 epochs, the fit's other
# options after the name it is kept under in weights/history.
generation() {
    n=$1 seed=$2 kept=$3
    shift 3
    prev=weights/history/oust-net-hex-gen$((n - 1)).net
    for k in 1 2; do
        "$oust" selfplay --boards hex7,hex5,hex7,hex6,hex7,hex8,hex7,hex9 --games 500 --playouts 400 --priors network \
            --precision float --net "$prev" --seed "$seed" --shard "$k/2" --out "$dir/gen$n-$k.txt" &
    done
    wait
    "$oust" train-net "$dir/gen$((n - 1))-1.txt" "$dir/gen$((n - 1))-2.txt" "$dir/gen$n-1.txt" "$dir/gen$n-2.txt" \
        --family hex --init "$prev" --epochs 2 "$@" --out weights/oust-net-hex.net
    cp weights/oust-net-hex.net "weights/history/$kept"
}

# Generation 2 (docs/results/2026-12-05-generation-2.md): about 1.6 CPU-hours of self-play, a fit on 848 games. The
# self-play was made by the binary of 4be772e, whose search later versions changed: other binaries play other games.
generation 2 47011 oust-net-hex-gen2.net --seed 1

# Generation 3 (docs/results/2026-12-05-generation-3.md): about 1.5 CPU-hours of self-play, a fit on 1,000 games
# with 2 threads: the round of scripts/rl-loop.sh with SEED=47 and FIT_THREADS=2. The self-play was made by the
# binary of 5cb26ec.
generation 3 47021 oust-net-hex-gen3-puct.net --seed 2 --threads 2
# Generation 1 of the square network (docs/results/2026-12-06-square-generation-1.md): generation 0 plays itself at
# 400 visits a move, the network in int8, 400 games over fourteen square and rectangular boards from 6x6 to 19x19
# (about 1.2 CPU-hours on one core), then a fit from generation 0 on them, 2 epochs, 2 threads: the round of
# scripts/rl-loop.sh with FAMILY=square SEED=58 JOBS=1 and these BOARDS. The self-play was made by the binary of
# db24b24.
"$oust" selfplay --boards 9x9,7x7,11x11,9x9,13x13,8x8,9x9,19x19,6x6,11x11,9x9,7x11,10x10,9x9,15x15,9x13 \
    --games 400 --playouts 400 --priors network --net weights/history/oust-net-square-gen0.net --seed 58011 \
    --shard 1/1 --out "$dir/square-gen1.txt"
"$oust" train-net "$dir/square-gen1.txt" --family square --init weights/history/oust-net-square-gen0.net \
    --epochs 2 --seed 1 --threads 2 --out weights/oust-net-square.net
cp weights/oust-net-square.net weights/history/oust-net-square-gen1.net
# Generation 2 of the square network (docs/results/2026-12-06-square-generation-2.md): generation 1 plays itself on
# the same boards, 400 games (about 2.4 hours of one core, shared), then a fit from generation 1 on generations 1
# and 2's games (the loop's window of two), 2 epochs, 2 threads: the second round of the same scripts/rl-loop.sh
# run. The self-play was made by the binary of db24b24.
"$oust" selfplay --boards 9x9,7x7,11x11,9x9,13x13,8x8,9x9,19x19,6x6,11x11,9x9,7x11,10x10,9x9,15x15,9x13 \
    --games 400 --playouts 400 --priors network --net weights/history/oust-net-square-gen1.net --seed 58021 \
    --shard 1/1 --out "$dir/square-gen2.txt"
"$oust" train-net "$dir/square-gen1.txt" "$dir/square-gen2.txt" --family square \
    --init weights/history/oust-net-square-gen1.net --epochs 2 --seed 2 --threads 2 --out weights/oust-net-square.net
cp weights/oust-net-square.net weights/history/oust-net-square-gen2.net
# Generation 3 of the square network (docs/results/2026-12-06-square-generation-3.md): generation 2 plays itself on
# the same boards, 400 games (about 1.4 hours of one core, shared), then a fit from generation 2 on generations 2
# and 3's games, 2 epochs, 2 threads: the third round of the same scripts/rl-loop.sh run. The self-play was made by
# the binary of db24b24.
"$oust" selfplay --boards 9x9,7x7,11x11,9x9,13x13,8x8,9x9,19x19,6x6,11x11,9x9,7x11,10x10,9x9,15x15,9x13 \
    --games 400 --playouts 400 --priors network --net weights/history/oust-net-square-gen2.net --seed 58031 \
    --shard 1/1 --out "$dir/square-gen3.txt"
"$oust" train-net "$dir/square-gen2.txt" "$dir/square-gen3.txt" --family square \
    --init weights/history/oust-net-square-gen2.net --epochs 2 --seed 3 --threads 2 --out weights/oust-net-square.net
cp weights/oust-net-square.net weights/history/oust-net-square-gen3.net
echo "weights/oust-net-square.net and weights/oust-net-hex.net written: rebuild (cargo build --release)" >&2

#!/bin/sh
# Makes weights/oust-placement-1.txt again, byte for byte (docs/learning.md): two generations of self-play and
# fitting, about 35 minutes on 2 cores. Needs GNU parallel and a release build (cargo build --release).
#
#   scripts/regenerate-weights.sh [WORK-DIRECTORY]
#
# The data files stay in WORK-DIRECTORY (weights-run by default); an interrupted run resumes where it stopped.
set -eu
oust=${OUST:-target/release/oust}
dir=${1:-weights-run}
mkdir -p "$dir"

# Generation 1: the handmade priors' self-play, 400 games on 9x9 and hex-7 at 1,600 playouts a move.
parallel -j 2 "$oust" selfplay --boards 9,hex7 --games 400 --playouts 1600 --seed 12 --priors handmade \
    --shard {}/2 --out "$dir/gen1-{}.txt" ::: 1 2
"$oust" train "$dir/gen1-1.txt" "$dir/gen1-2.txt" --out "$dir/gen1.txt"

# Generation 2: self-play with generation 1's priors, 240 games at 3,200 playouts, two in three on hex-7; the
# shipped weights are fitted to these alone.
parallel -j 2 "$oust" selfplay --boards hex7,hex7,9 --games 240 --playouts 3200 --seed 13 --priors learned \
    --weights "$dir/gen1.txt" --shard {}/2 --out "$dir/gen2-{}.txt" ::: 1 2
"$oust" train "$dir/gen2-1.txt" "$dir/gen2-2.txt" --out weights/oust-placement-1.txt
echo "weights/oust-placement-1.txt written: rebuild (cargo build --release) to build it in" >&2

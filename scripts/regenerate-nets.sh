#!/bin/sh
# Makes the built-in networks again, byte for byte (docs/learning.md): the distillation self-play of the engine
# with the learned priors, then one fit for each family. About 9 CPU-hours of self-play (some 4.5 hours on 2
# cores) and 0.5 to 1 CPU-hour of fitting a network. Needs GNU parallel and a release build.
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

"$oust" train-net "$dir/gen0.txt" --family square --channels 32 --blocks 4 --epochs 4 --out weights/oust-net-square.net
"$oust" train-net "$dir/gen0-863.txt" --family hex --channels 32 --blocks 4 --epochs 4 --out weights/oust-net-hex.net
echo "weights/oust-net-square.net and weights/oust-net-hex.net written: rebuild (cargo build --release)" >&2

#!/usr/bin/env bash
# The reinforcement loop of docs/learning.md ("The loop"): the best network plays itself, a network is fitted to
# that data starting from it, and the fit is kept only when it beats the best network in an SPRT (the gate).
#
#   scripts/rl-loop.sh DIR [ROUNDS]
#
# Plays ROUNDS rounds (default 1). A round whose gate accepts makes the next generation; one whose gate does not
# leaves the best network as it was, and the next round adds more games of it and fits again on all of them.
#
# Everything lives in DIR, and every step resumes where it stopped: run the same command again after an
# interruption at any point (self-play resumes its files, the fit its checkpoint; a gate cut short is played again
# from its first game, which plays the same games: fixed visits, one thread, fixed seeds). A network is installed
# as the best only by its gate's verdict file, written through a rename, so nothing else is ever taken up.
# Run it from the repository's root (the built-in networks are read from weights/).
#
# The settings are read from the environment at the first run and written to DIR/settings; later runs use the
# file's (edit it to change them between rounds):
#   OUST         the engine binary                       (target/release/oust)
#   FAMILY       hex or square                           (hex)
#   BOARDS       self-play boards, in turn               (hex7,hex5,hex7,hex6,hex7,hex8,hex7,hex9)
#   GAMES        self-play games a round                 (1000)
#   VISITS       self-play visits a move                 (400)
#   GUMBEL       self-play by a Gumbel root search over this many sampled moves, VISITS its simulations
#                (oust selfplay --gumbel); empty: PUCT    (empty)
#   JOBS         self-play games and gate games at once  (the number of cores)
#   EPOCHS       passes of a fit over its data           (2)
#   FIT_THREADS  threads of a fit                        (the number of cores; a settings file without it: 1)
#   WINDOW       generations whose data a fit reads      (2: this one and the one before)
#   GATE_SIZE    the gate's board                        (hex7)
#   GATE_VISITS  the gate's visits a move                (800)
#   GATE_GAMES   the gate's games at most                (400)
#   GATE_SPRT    the gate's SPRT                         (0,50,0.05,0.05)
#   SEED         the run's seed                          (46)
# DIR/gen-N/round-R/: shard-K.txt (self-play), candidate.net (the fit), gate.tsv and gate.out, verdict
# (accepted or rejected). The best network is the candidate of the newest generation with an accepted round (none
# yet: the built-in one); a round plays with the best network of its start.
# DIR/log: one line a step. DIR/gen-0/round-1/ may hold the games that made the built-in network (shard files and a
# selfplay.done): the first generation's fit then reads them too, as any generation reads the one before.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [[ "$1" == -* ]]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
DIR=$1
ROUNDS=${2:-1}
if ! [[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]]; then
    echo "rl-loop: ROUNDS must be a positive number, not '$ROUNDS'" >&2
    exit 2
fi
mkdir -p "$DIR"

settings="$DIR/settings"
if [ ! -f "$settings" ]; then
    cat >"$settings.tmp" <<EOF
OUST=${OUST:-target/release/oust}
FAMILY=${FAMILY:-hex}
BOARDS=${BOARDS:-hex7,hex5,hex7,hex6,hex7,hex8,hex7,hex9}
GAMES=${GAMES:-1000}
VISITS=${VISITS:-400}
GUMBEL=${GUMBEL:-}
JOBS=${JOBS:-$(nproc)}
EPOCHS=${EPOCHS:-2}
FIT_THREADS=${FIT_THREADS:-$(nproc)}
WINDOW=${WINDOW:-2}
GATE_SIZE=${GATE_SIZE:-hex7}
GATE_VISITS=${GATE_VISITS:-800}
GATE_GAMES=${GATE_GAMES:-400}
GATE_SPRT=${GATE_SPRT:-0,50,0.05,0.05}
SEED=${SEED:-46}
EOF
    mv "$settings.tmp" "$settings"
fi
# shellcheck source=/dev/null
. "$settings"
# A settings file written before fits had threads: one thread, as its fits had; before Gumbel searches, PUCT.
FIT_THREADS=${FIT_THREADS:-1}
GUMBEL=${GUMBEL:-}
case "$FAMILY" in
hex | square) ;;
*)
    echo "rl-loop: $settings: FAMILY must be hex or square, not '$FAMILY'" >&2
    exit 2
    ;;
esac
if [ ! -x "$OUST" ]; then
    echo "rl-loop: $settings: OUST=$OUST is not an executable (cargo build --release builds it)" >&2
    exit 2
fi

log() {
    printf '%s %s\n' "$(date -u +%FT%TZ)" "$*" | tee -a "$DIR/log" >&2
}

# The best network so far is the candidate of the newest generation's accepted round: the verdict file, written
# by a rename, is the only record of it. best_round prints that round's directory, or nothing (the built-in network).
best_round() {
    local v best="" bg=0 g
    for v in "$DIR"/gen-*/round-*/verdict; do
        if [ -f "$v" ] && [ "$(cat "$v")" = accepted ]; then
            g=${v#"$DIR"/gen-}
            g=${g%%/*}
            if [ "$g" -gt "$bg" ]; then
                bg=$g
                best=$(dirname "$v")
            fi
        fi
    done
    echo "$best"
}
best_net() {
    local r
    r=$(best_round)
    if [ -n "$r" ]; then echo "$r/candidate.net"; fi
}
best_gen() {
    local r
    r=$(best_round)
    if [ -n "$r" ]; then
        r=${r#"$DIR"/gen-}
        echo "${r%%/*}"
    else
        echo 0
    fi
}
# An engine of the gate: fixed visits, one thread, the network FILE (or the built-in one), a seed.
gate_engine() {
    local net=$1 seed=$2
    local cmd="$OUST --threads 1 --seed $seed --playouts $GATE_VISITS --set evaluator=network"
    if [ -n "$net" ]; then cmd="$cmd --set net_$FAMILY=$net"; fi
    echo "$cmd"
}

# Self-play of round directory $1 with seed $2: JOBS shards, one process each, every one resumed by oust itself.
selfplay() {
    local round=$1 seed=$2 net pids=() k failed=0
    net=$(best_net)
    if [ -f "$round/selfplay.done" ]; then return; fi
    log "self-play: $round, $GAMES games at $VISITS visits${GUMBEL:+ (Gumbel, $GUMBEL moves)}, $JOBS shards, network ${net:-built-in}"
    for k in $(seq 1 "$JOBS"); do
        "$OUST" selfplay --boards "$BOARDS" --games "$GAMES" --playouts "$VISITS" --priors network \
            ${net:+--net "$net"} ${GUMBEL:+--gumbel "$GUMBEL"} --seed "$seed" --shard "$k/$JOBS" \
            --out "$round/shard-$k.txt" \
            >"$round/shard-$k.out" 2>"$round/shard-$k.log" &
        pids+=($!)
    done
    for k in "${pids[@]}"; do wait "$k" || failed=1; done
    if [ "$failed" = 1 ]; then
        log "self-play failed: $round/shard-*.log say why"
        exit 1
    fi
    touch "$round/selfplay.done"
}

# The fit of round directory $1: from the best network, on this generation's rounds and the WINDOW - 1
# generations before (the games every finished self-play wrote).
fit() {
    local round=$1 gen=$2 net files=() g
    net=$(best_net)
    if [ -f "$round/fit.done" ]; then return; fi
    for ((g = gen - WINDOW + 1; g <= gen; g++)); do
        if [ "$g" -ge 0 ]; then
            for f in "$DIR"/gen-"$g"/round-*/shard-*.txt; do
                if [ -f "$f" ] && [ -f "$(dirname "$f")/selfplay.done" ]; then files+=("$f"); fi
            done
        fi
    done
    log "fit: $round/candidate.net from ${net:-the built-in network} on ${#files[@]} files, $EPOCHS epochs"
    if [ -z "$net" ]; then
        net="$round/built-in.net"
        cp "weights/oust-net-$FAMILY.net" "$net"
    fi
    "$OUST" train-net "${files[@]}" --family "$FAMILY" --init "$net" --epochs "$EPOCHS" --seed "$gen" \
        --threads "$FIT_THREADS" --out "$round/candidate.net" >"$round/fit.out" 2>"$round/fit.log" || {
        log "fit failed: $round/fit.log says why"
        exit 1
    }
    touch "$round/fit.done"
}

# The gate of round directory $1 with seed $2: the candidate against the best network; writes the verdict.
gate() {
    local round=$1 seed=$2 net
    net=$(best_net)
    if [ -f "$round/verdict" ]; then return; fi
    log "gate: $round/candidate.net against ${net:-the built-in network}, $GATE_SIZE, $GATE_VISITS visits, SPRT $GATE_SPRT"
    "$OUST" match --black "$(gate_engine "$round/candidate.net" $((seed + 1)))" \
        --white "$(gate_engine "$net" $((seed + 2)))" --size "$GATE_SIZE" --games "$GATE_GAMES" --alternate \
        --random-openings 2 --seed "$seed" --sprt "$GATE_SPRT" --concurrency "$JOBS" --fresh-engines --overwrite \
        --results "$round/gate.tsv" >"$round/gate.out" 2>"$round/gate.log" || {
        log "gate failed: $round/gate.log says why"
        exit 1
    }
    if grep -q 'H1 accepted' "$round/gate.out"; then
        echo accepted >"$round/verdict.tmp"
    else
        echo rejected >"$round/verdict.tmp"
    fi
    mv "$round/verdict.tmp" "$round/verdict"
}

for ((done_rounds = 0; done_rounds < ROUNDS; done_rounds++)); do
    gen=$(($(best_gen) + 1))
    r=1
    while [ -f "$DIR/gen-$gen/round-$r/verdict" ]; do r=$((r + 1)); done
    round="$DIR/gen-$gen/round-$r"
    mkdir -p "$round"
    seed=$((SEED * 1000 + gen * 10 + r))
    selfplay "$round" "$seed"
    fit "$round" "$gen"
    gate "$round" "$seed"
    verdict=$(cat "$round/verdict")
    log "gate: $verdict ($(grep -m1 -o 'Elo difference.*' "$round/gate.out" || echo 'no Elo line'))"
    if [ "$verdict" = accepted ]; then
        log "generation $gen is the best network: $round/candidate.net"
    fi
done

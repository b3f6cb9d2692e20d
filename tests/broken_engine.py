#!/usr/bin/env python3
"""A deliberately broken GTP engine for the tests of `oust match` (and of `oust gui`).

Usage: broken_engine.py MODE ENGINE [ARGS...]

It runs the real engine (ENGINE ARGS...) behind it and forwards every command, answering genmove with the bare
vertex as a strict GTP engine does, except for one misbehaviour chosen by MODE:

  good        none: a well-behaved GTP engine (bare genmove vertices, no move reports)
  illegal     its first genmove of each game answers an occupied point (or Z25, off the board, on an empty one)
  garbage     its first genmove of each game answers '= banana'
  crash       exits with status 3, without answering, at the first genmove after a move was played
  hang        never answers the first genmove after a move was played
  extra-turn  captures whenever it can, then treats its turn as over and answers the extra genmove with 'pass'
  plain       a well-behaved engine that knows only standard GTP: every oust-* command is an unknown command
  swap        answers its first genmove of each game with 'swap' (the pie rule's swap; legal only for White's
              first move with the pie rule on), and plays it in the real engine too
  swap-late   answers its second genmove of each game with 'swap', which is never legal
  late        answers every genmove 0.15 s after the real engine does
  no-cancel   a well-behaved engine without oust-genmove_cancellable, as oust was before it had the command
"""

import os
import subprocess
import sys
import time

MODE = sys.argv[1]
engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(line):
    """Sends a command to the real engine and returns its response, '=' or '?' included, without the blank line."""
    engine.stdin.write(line + "\n")
    engine.stdin.flush()
    lines = []
    while True:
        got = engine.stdout.readline()
        if got == "":
            sys.exit(4)
        if got.strip() == "":
            if lines:
                return "\n".join(lines)
            continue
        lines.append(got.rstrip("\n"))


def answer(text):
    sys.stdout.write(text + "\n\n")
    sys.stdout.flush()


def capture_for(color):
    """Plays a capturing placement for color in the real engine when there is one, and returns its report."""
    legal = ask("list_legal")[1:].split()
    for vertex in legal:
        if vertex == "pass":
            break
        report = ask("play %s %s" % (color, vertex))
        if "capture" in report.split():
            return "= " + vertex + report[1:]
        ask("undo")
    return None


moves_seen = 0
genmoves = 0
last_point = None
extra_turn = False

while True:
    line = sys.stdin.readline()
    if line == "":
        break
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command in ("boardsize", "rectangular_boardsize", "clear_board"):
        moves_seen, genmoves, last_point, extra_turn = 0, 0, None, False
    elif command == "play" and len(words) == 3:
        moves_seen += 1
        if words[2].lower() != "pass":
            last_point = words[2].upper()
    elif command == "quit":
        ask("quit")
        answer("=")
        break
    elif MODE == "plain" and command.startswith("oust-"):
        answer("? unknown command")
        continue
    elif MODE == "no-cancel" and "oust-genmove_cancellable" in words[:2]:
        answer("= false" if command == "known_command" else "? unknown command")
        continue
    elif MODE == "no-cancel" and command == "list_commands":
        answer("\n".join(l for l in ask(line.strip()).split("\n") if l != "oust-genmove_cancellable"))
        continue
    if command != "genmove":
        answer(ask(line.strip()))
        continue

    genmoves += 1
    if MODE == "illegal" and genmoves == 1:
        answer("= " + (last_point or "Z25"))
        continue
    if (MODE == "swap" and genmoves == 1) or (MODE == "swap-late" and genmoves == 2):
        ask("play %s swap" % words[1])
        moves_seen += 1
        answer("= swap")
        continue
    if MODE == "garbage" and genmoves == 1:
        answer("= banana")
        continue
    if MODE == "crash" and moves_seen > 0:
        os._exit(3)
    if MODE == "hang" and moves_seen > 0:
        time.sleep(3600)
    if MODE == "late":
        time.sleep(0.15)
    if MODE == "extra-turn":
        if extra_turn:
            answer("= pass")
            continue
        reply = capture_for(words[1])
        if reply is None:
            reply = ask(line.strip())
    else:
        reply = ask(line.strip())
    moves_seen += 1
    tokens = reply.split()
    extra_turn = "extra-turn" in tokens
    answer(" ".join(tokens[:2]))

"""Compiles libphonenumber's regular expressions ahead of time.

The patterns in libphonenumber's metadata use a small subset of regular expression syntax over the
ten ASCII digits: literals, character classes, alternation, groups and bounded repetition (plus `$`
in a few national-prefix patterns). This module turns them into two kinds of automata:

* `Program`: a Thompson-style instruction list (char-class, split with priority, jump, save, assert
  end, match). The Swift runtime executes it with a Pike VM where leftmost-first captures matter
  (national prefix for parsing, IDD prefixes, format patterns): linear time, no backtracking.
* `DFA`: a deterministic automaton over the digits built by subset construction from one or more
  programs and minimized; each state carries a bit set of the programs that accept there. Used for
  validity, number type and leading-digit decisions: one table lookup per digit.

Parsing of the pattern text is delegated to Python's own `re` parser so the syntax accepted is
exactly what Python (and Java, for this subset) accepts.
"""

from __future__ import annotations

import re._constants as C
import re._parser as P

# Instruction opcodes and leftmost-first DFA labels: schema.py, which writes them for Swift too.
from schema import (  # noqa: E402
    LEFTMOST_END_MATCH, LEFTMOST_END_MATCH_GROUP, LEFTMOST_MATCH, LEFTMOST_MATCH_GROUP, OP_CLASS, OP_END,
    OP_JUMP, OP_MATCH, OP_SAVE, OP_SPLIT)

ALL_DIGITS = (1 << 10) - 1


class UnsupportedPattern(Exception):
    pass


class Program:
    """A list of instructions; `ngroups` capture groups (slots 2..2*ngroups+1)."""

    def __init__(self) -> None:
        self.ops: list[tuple[int, object]] = []
        self.ngroups = 0

    def emit(self, op: int, arg: object = None) -> int:
        self.ops.append((op, arg))
        return len(self.ops) - 1

    def patch(self, index: int, arg: object) -> None:
        self.ops[index] = (self.ops[index][0], arg)


def _class_mask(items) -> int:
    mask = 0
    negate = False
    for op, av in items:
        if op is C.LITERAL:
            if 48 <= av <= 57:
                mask |= 1 << (av - 48)
        elif op is C.RANGE:
            lo, hi = av
            for c in range(max(lo, 48), min(hi, 57) + 1):
                mask |= 1 << (c - 48)
        elif op is C.CATEGORY and av is C.CATEGORY_DIGIT:
            mask |= ALL_DIGITS
        elif op is C.NEGATE:
            negate = True
        else:
            raise UnsupportedPattern(f"class item {op} {av}")
    return (ALL_DIGITS & ~mask) if negate else mask


def _compile_node(prog: Program, node) -> None:
    for op, av in node:
        if op is C.LITERAL:
            if not 48 <= av <= 57:
                raise UnsupportedPattern(f"literal {chr(av)!r}")
            prog.emit(OP_CLASS, 1 << (av - 48))
        elif op is C.IN:
            prog.emit(OP_CLASS, _class_mask(av))
        elif op is C.ANY:
            prog.emit(OP_CLASS, ALL_DIGITS)
        elif op is C.BRANCH:
            alternatives = av[1]
            jumps = []
            for i, alt in enumerate(alternatives):
                if i < len(alternatives) - 1:
                    split = prog.emit(OP_SPLIT, None)
                    start = len(prog.ops)
                    _compile_node(prog, alt)
                    jumps.append(prog.emit(OP_JUMP, None))
                    prog.patch(split, (start, len(prog.ops)))
                else:
                    _compile_node(prog, alt)
            for j in jumps:
                prog.patch(j, len(prog.ops))
        elif op is C.SUBPATTERN:
            group, add_flags, del_flags, sub = av
            if group is not None:
                prog.ngroups = max(prog.ngroups, group)
                prog.emit(OP_SAVE, 2 * group)
                _compile_node(prog, sub)
                prog.emit(OP_SAVE, 2 * group + 1)
            else:
                _compile_node(prog, sub)
        elif op is C.MAX_REPEAT or op is C.MIN_REPEAT:
            lo, hi, sub = av
            greedy = op is C.MAX_REPEAT
            for _ in range(lo):
                _compile_node(prog, sub)
            if hi is C.MAXREPEAT:
                loop = prog.emit(OP_SPLIT, None)
                body = len(prog.ops)
                _compile_node(prog, sub)
                prog.emit(OP_JUMP, loop)
                after = len(prog.ops)
                prog.patch(loop, (body, after) if greedy else (after, body))
            else:
                splits = []
                for _ in range(hi - lo):
                    split = prog.emit(OP_SPLIT, None)
                    splits.append((split, len(prog.ops)))
                    _compile_node(prog, sub)
                end = len(prog.ops)
                for split, body in splits:
                    prog.patch(split, (body, end) if greedy else (end, body))
        elif op is C.AT:
            if av in (C.AT_END, C.AT_END_STRING):
                prog.emit(OP_END)
            elif av in (C.AT_BEGINNING, C.AT_BEGINNING_STRING):
                pass  # all our matches are anchored at the start already
            else:
                raise UnsupportedPattern(f"anchor {av}")
        else:
            raise UnsupportedPattern(f"opcode {op}")


def compile_program(pattern: str | None) -> Program:
    """Compiles `pattern` to a program that matches at the start of the input.

    `None` (a number type that does not exist in a region) gives a program that never matches.
    """
    prog = Program()
    prog.emit(OP_SAVE, 0)
    if pattern is None:
        prog.emit(OP_CLASS, 0)
    else:
        _compile_node(prog, P.parse(pattern))
    prog.emit(OP_SAVE, 1)
    prog.emit(OP_MATCH)
    return prog


def _closure(prog: Program, pcs, at_end: bool) -> frozenset[int]:
    """Epsilon closure; `OP_END` passes only when `at_end` (used only to detect acceptance)."""
    seen = set()
    stack = list(pcs)
    while stack:
        pc = stack.pop()
        if pc in seen:
            continue
        seen.add(pc)
        op, arg = prog.ops[pc]
        if op == OP_SPLIT:
            stack.extend(arg)
        elif op == OP_JUMP:
            stack.append(arg)
        elif op == OP_SAVE:
            stack.append(pc + 1)
        elif op == OP_END and at_end:
            stack.append(pc + 1)
    return frozenset(seen)


class DFA:
    """A minimized DFA; state 0 is the dead state, `start` the initial state.

    `trans[s][d]` is the next state; `label[s]` the bit set of accepting programs (full match:
    the input read so far is matched by those programs). With `prefix=True` for a program, its bit
    stays set once reached (lookingAt semantics: some prefix of the input matched).
    """

    def __init__(self, trans: list[list[int]], label: list[int], start: int) -> None:
        self.trans = trans
        self.label = label
        self.start = start


def build_dfa(patterns: list[tuple[str | None, bool]]) -> DFA:
    """Builds one DFA for several patterns; `patterns[i] = (regex, prefix_mode)` gives label bit i."""
    progs = [compile_program(p) for p, _ in patterns]
    prefix = [pm for _, pm in patterns]
    for prog in progs:
        for op, _ in prog.ops:
            if op == OP_END:
                raise UnsupportedPattern("$ in a DFA pattern")

    def accepts(i: int, pcs) -> bool:
        prog = progs[i]
        return any(prog.ops[pc][0] == OP_MATCH for pc in pcs)

    # A DFA state: tuple of (frozenset of pcs per program), plus sticky prefix bits.
    def make(pcsets, sticky: int):
        label = sticky
        for i, pcs in enumerate(pcsets):
            if accepts(i, pcs):
                label |= 1 << i
        sticky_now = 0
        for i in range(len(progs)):
            if prefix[i] and label >> i & 1:
                sticky_now |= 1 << i
        # Once a prefix program has matched, its own threads no longer matter.
        pcsets = tuple(frozenset() if sticky_now >> i & 1 else pcs for i, pcs in enumerate(pcsets))
        return (pcsets, sticky_now), label

    def step(key, d: int):
        pcsets, sticky = key
        nxt = []
        for i, pcs in enumerate(pcsets):
            prog = progs[i]
            moved = [pc + 1 for pc in pcs if prog.ops[pc][0] == OP_CLASS and prog.ops[pc][1] >> d & 1]
            nxt.append(_closure(prog, moved, False))
        return make(tuple(nxt), sticky)

    start_sets = tuple(_closure(prog, [0], False) for prog in progs)
    return _determinize(make(start_sets, 0), (tuple(frozenset() for _ in progs), 0), step)


def _determinize(start, dead_key, step) -> DFA:
    """Subset construction: `start` is the start state's (key, label), `dead_key` the key of the
    state that can never accept (state 0), `step(key, digit)` the (key, label) after a digit.
    Returns the minimized DFA."""
    start_key, start_label = start
    index = {dead_key: 0}
    keys = [dead_key]
    labels = [0]
    trans: list[list[int]] = [[0] * 10]
    if start_key not in index:
        index[start_key] = 1
        keys.append(start_key)
        labels.append(start_label)
        trans.append([0] * 10)
    work = [index[start_key]]
    while work:
        s = work.pop()
        for d in range(10):
            key, label = step(keys[s], d)
            if key not in index:
                index[key] = len(keys)
                keys.append(key)
                labels.append(label)
                trans.append([0] * 10)
                work.append(index[key])
            trans[s][d] = index[key]
    # Dead-state detection beyond the canonical dead state happens in minimization.
    return minimize(DFA(trans, labels, index[start_key]))


def minimize(dfa: DFA) -> DFA:
    """Moore partition refinement; renumbers states depth-first from the start (dead = 0)."""
    n = len(dfa.trans)
    # States from which nothing can change any more (no label and only reach unlabeled sinks)
    # are merged into the dead state by the refinement itself: they share label 0 and successors.
    block = {}
    part = []
    for s in range(n):
        key = dfa.label[s]
        part.append(block.setdefault(key, len(block)))
    while True:
        block = {}
        new = []
        for s in range(n):
            key = (part[s],) + tuple(part[t] for t in dfa.trans[s])
            new.append(block.setdefault(key, len(block)))
        if len(block) == len(set(part)):
            part = new
            break
        part = new
    # Renumber: dead block first.
    dead_block = part[0]
    order = {dead_block: 0}
    queue = [part[dfa.start]]
    if queue[0] not in order:
        order[queue[0]] = len(order)
    rep = {}
    for s in range(n):
        rep.setdefault(part[s], s)
    # Depth-first preorder (successors in digit order): a run of states that a walk takes one
    # after another ("\d{7}") lands in consecutive rows, so a number's walk touches few cache lines.
    stack = [queue[0]]
    while stack:
        b = stack.pop()
        successors = []
        for t in dfa.trans[rep[b]]:
            if part[t] not in order:
                order[part[t]] = len(order)
                successors.append(part[t])
        # Visit the first new successor next (pushed last).
        for t in reversed(successors):
            stack.append(t)
    m = len(order)
    trans = [[0] * 10 for _ in range(m)]
    label = [0] * m
    for b, i in order.items():
        s = rep[b]
        label[i] = dfa.label[s]
        trans[i] = [order[part[t]] for t in dfa.trans[s]]
    return DFA(trans, label, order[part[dfa.start]])



def _ordered_closure(prog: Program, seeds, at_end: bool, group_slot: int | None) -> list[tuple[int, bool]]:
    """The Pike VM's thread list at one position, from `seeds` ((pc, group bit) in priority order).

    Follows jumps, splits (first branch first) and saves depth-first as `_PikeRun.add` does, with
    one visited set for the whole position, so a pc reached again by a lower-priority path is
    dropped. The bit of a thread says whether its path executed `SAVE group_slot` (the start of
    the last group). `OP_END` passes only when `at_end`. Returns the CLASS and MATCH threads.
    """
    seen: set[int] = set()
    out: list[tuple[int, bool]] = []

    def visit(pc: int, bit: bool) -> None:
        if pc in seen:
            return
        seen.add(pc)
        op, arg = prog.ops[pc]
        if op == OP_JUMP:
            visit(arg, bit)
        elif op == OP_SPLIT:
            visit(arg[0], bit)
            visit(arg[1], bit)
        elif op == OP_SAVE:
            visit(pc + 1, bit or arg == group_slot)
        elif op == OP_END:
            if at_end:
                visit(pc + 1, bit)
        else:
            out.append((pc, bit))

    for pc, bit in seeds:
        visit(pc, bit)
    return out


def _first_match(prog: Program, threads) -> bool | None:
    """The group bit of the first MATCH thread (the one the Pike VM reports), or None."""
    for pc, bit in threads:
        if prog.ops[pc][0] == OP_MATCH:
            return bit
    return None


def build_leftmost_dfa(prog: Program) -> DFA:
    """A DFA that tells where the Pike VM's leftmost-first match of `prog` at the start of the
    input ends (`lookingAt`), and whether that match entered the program's last capture group.

    As in RE2's DFA, a state is the Pike VM's ordered thread list after the epsilon closure, cut
    after the first MATCH thread (the VM stops there: lower-priority threads can never win). A
    thread is its pc and one bit, whether its path entered the last group; threads are unique by
    pc, the first path to reach a pc keeping it, as in the VM. `$` is decided at the end of the
    input only, so each state also carries what the VM would report if the input ended there:
    `label` holds LEFTMOST_MATCH (| _GROUP) for "a match ends here" when more input follows, and
    LEFTMOST_END_MATCH (| _GROUP) for "a match ends here" at the end of the input. The match end
    is the end of the input when its state has LEFTMOST_END_MATCH, and otherwise the last
    position before it whose state has LEFTMOST_MATCH (each later match comes from a thread of
    higher priority than the earlier ones, so it replaces them).
    """
    if prog.ngroups >= 8:
        raise UnsupportedPattern("more than 7 groups: the Pike VM keeps 16 capture slots")
    group_slot = 2 * prog.ngroups if prog.ngroups > 0 else None

    def make(seeds):
        threads = _ordered_closure(prog, seeds, False, group_slot)
        label = 0
        for i, (pc, bit) in enumerate(threads):
            if prog.ops[pc][0] == OP_MATCH:
                threads = threads[:i + 1]
                label = LEFTMOST_MATCH | (LEFTMOST_MATCH_GROUP if bit else 0)
                break
        at_end = _first_match(prog, _ordered_closure(prog, seeds, True, group_slot))
        if at_end is not None:
            label |= LEFTMOST_END_MATCH | (LEFTMOST_END_MATCH_GROUP if at_end else 0)
        elif label:
            raise AssertionError("a match that more input keeps but the end of input loses")
        return (tuple(threads), label), label

    def step(key, d: int):
        threads, _ = key
        return make([(pc + 1, bit) for pc, bit in threads if prog.ops[pc][0] == OP_CLASS and prog.ops[pc][1] >> d & 1])

    return _determinize(make([(0, False)]), ((), 0), step)

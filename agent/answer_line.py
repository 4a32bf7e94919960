"""The line of questions waiting for an answer in this process (one replica).

At most `slots` answers that search run at once; the others wait in the order they came and are told
their place ("busy: your question is 3rd in line") instead of waiting silently. Quick turns (greetings,
thanks, questions about the app, commands: agent/conversation.py, agent/routing.py) never join the line,
so a "hello" is not answered after the searches ahead of it.

    line = AnswerLine(slots=2)
    ticket = line.join()
    while not ticket.wait(1.0):
        say(f"busy: your question is {ordinal(ticket.position())} in line")
    try: ... answer ...
    finally: ticket.leave()
"""

from __future__ import annotations

import sys
import threading
from collections import deque

from agent import conversation
from agent.routing import parse_command


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 3 -> "3rd", 11 -> "11th", 22 -> "22nd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def favour_short_turns(interval_s: float) -> float:
    """Shorten the process's GIL switch interval to `interval_s` (never lengthen it; settings
    `limits.switch_interval_s` says why); returns the interval in force."""
    if sys.getswitchinterval() > interval_s:
        sys.setswitchinterval(interval_s)
    return sys.getswitchinterval()


def is_quick(text: str) -> bool:
    """A turn answered without a search: a command or conversation (greetings, thanks, about the app)."""
    return parse_command(text) is not None or conversation.is_conversation(text)


class Ticket:
    def __init__(self, line: "AnswerLine") -> None:
        self.line = line
        self.admitted = False
        self.left = False

    def wait(self, timeout_s: float) -> bool:
        """True once this question may be answered (at most `timeout_s` of waiting)."""
        with self.line._cond:
            return self.line._cond.wait_for(lambda: self.admitted, timeout_s)

    def position(self) -> int:
        """Its place in line (1 = next), 0 once it is being answered."""
        with self.line._cond:
            return 0 if self.admitted or self.left else self.line._waiting.index(self) + 1

    def leave(self) -> None:
        """Answered, stopped or failed: its slot (or its place in line) goes to the next question."""
        with self.line._cond:
            if self.left:
                return
            self.left = True
            if self.admitted:
                self.line._running -= 1
            else:
                self.line._waiting.remove(self)
            self.line._admit()


class AnswerLine:
    def __init__(self, slots: int) -> None:
        self.slots = max(1, int(slots))
        self._cond = threading.Condition()
        self._running = 0
        self._waiting: deque[Ticket] = deque()

    def join(self) -> Ticket:
        ticket = Ticket(self)
        with self._cond:
            self._waiting.append(ticket)
            self._admit()
        return ticket

    def counts(self) -> tuple[int, int]:
        """(answers running, questions waiting)."""
        with self._cond:
            return self._running, len(self._waiting)

    def _admit(self) -> None:  # with the condition held
        while self._waiting and self._running < self.slots:
            self._waiting.popleft().admitted = True
            self._running += 1
        self._cond.notify_all()

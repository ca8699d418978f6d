"""os.fork() for running a fixture's kernel in real torch where it cannot
signal the harness (fixtures/runtime/bad/kill_parent.cpp calls kill(getppid()),
kill(-1) and kill(0); as root in the chroot, kill(-1) alone would end every
process of the machine, CI's runner included).

The side that gets 0 runs as PID 2 of a PID namespace of its own and in a
session of its own: its parent is the namespace's init (which ignores signals
from inside), kill(-1) reaches only the namespace, kill(0) only itself. The
harness sees one child as before: the returned PID ends when the kernel's
process ends, with its exit code, or 128 + the signal that ended it; kill()
below ends it and the namespace. Where namespaces are not permitted the child gets
its own session only, and says so on stderr.
"""
import os
import signal
import sys


def _wait_and_exit(pid):
    _, status = os.waitpid(pid, 0)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


def fork():
    pid = os.fork()
    if pid:
        return pid
    os.setsid()
    try:
        os.unshare(os.CLONE_NEWPID)
    except (AttributeError, OSError) as e:
        print(f"confined_fork: no PID namespace here ({e}); the child has its own session only",
              file=sys.stderr)
        return 0
    init = os.fork()  # PID 1 of the new namespace
    if init:
        _wait_and_exit(init)
    kernel = os.fork()  # PID 2
    if kernel:
        _wait_and_exit(kernel)
    os.setsid()
    return 0


def kill(pid):
    """Ends a child of fork() and everything in its namespace: the child and
    the namespace's init share a process group, and the namespace ends with
    its init."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass

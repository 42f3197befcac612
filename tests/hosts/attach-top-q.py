# attach-top-q.py PCT PID MECH (e2e 158): pct top -p PID on a terminal (a pty), q once its
# view names the mechanism; prints top's exit status, exits 1 on a timeout
import os, pty, select, sys, time
pct, target, mech = sys.argv[1:4]
os.environ['TERM'] = 'xterm'
pid, fd = pty.fork()
if pid == 0:
    os.execv(pct, [pct, 'top', '-d', '0.3', '--mechanism=' + mech, '-p', target])
buf, sent, deadline = b'', False, time.time() + 15
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            d = os.read(fd, 65536)
        except OSError:
            break
        if not d:
            break
        buf += d
    if not sent and b'attached with ' + mech.encode() in buf:
        os.write(fd, b'q')
        sent = True
    w, st = os.waitpid(pid, os.WNOHANG)
    if w:
        break
else:
    os.kill(pid, 9)
    print('timeout; the screen: %r' % buf[-300:])
    sys.exit(1)
if not w:
    _, st = os.waitpid(pid, 0)
print('q sent' if sent else 'q not sent', os.waitstatus_to_exitcode(st))

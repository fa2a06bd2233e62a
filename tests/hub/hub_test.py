"""`make hub-test`: one JupyterHub for a class (Debian's jupyterhub 3.0 and
node-configurable-http-proxy), on loopback, with the DummyAuthenticator and
SimpleLocalProcessSpawner (every user's server runs unprivileged as this
user, its home a temporary directory). Four users log in; each user's
server runs a moonflow notebook through its kernels API, all four at once,
cell by cell in lockstep so their kernels interleave:

- every cell answers, with the values a fresh moonflow gives;
- sessions are isolated: one user's globals and random seed never reach
  another's (two users share a seed, two have their own; each draws what a
  lone process with its seed draws);
- the class's memory limit (mem_limit: MEM_LIMIT in the kernel's
  environment) makes a too-large tensor a ResourceExhaustedError, and the
  kernel keeps answering;
- the server's idle culling shuts an idle kernel down and leaves alone a
  busy one whose long cell is still running (it then answers);
- a kernel restart gives a fresh session;
- shutting the hub down leaves no moonflow process behind.

Prints TAP. Kept out of `make test` for its time (about a minute); CI runs it
after `make test` (.ci/run)."""
import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid

import requests
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

ROOT = os.environ.get("MOONFLOW_ROOT") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("MOONFLOW_BIN") or os.path.join(ROOT, "build", "release", "moonflow")
SLOW = 3 if os.environ.get("MOONFLOW_SANITIZE") == "1" else 1
USERS = ["ada", "bo", "cy", "di"]
SEEDS = {"ada": 7, "bo": 7, "cy": 8, "di": 9}
CULL_IDLE = 8 * SLOW
MEM_LIMIT = 512 * 1024 * 1024

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print("%s %d - %s" % ("ok" if ok else "not ok", len(results), name), flush=True)
    if not ok and detail:
        for line in str(detail).splitlines()[-30:]:
            print("#   " + line, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def moonflow_processes(tag):
    """pids of moonflow processes whose command line or environment names
    this test's directory (the kernels' connection files live under it)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            exe = os.readlink("/proc/%s/exe" % pid)
            cmd = open("/proc/%s/cmdline" % pid, "rb").read().decode(errors="replace")
        except OSError:
            continue
        if os.path.basename(exe).startswith("moonflow") and tag in cmd:
            pids.append(int(pid))
    return pids


def config(tmp, port, hub_port, proxy_port, token, kernels):
    return """
c.JupyterHub.ip = '127.0.0.1'
c.JupyterHub.port = %(port)d
c.JupyterHub.hub_ip = '127.0.0.1'
c.JupyterHub.hub_port = %(hub_port)d
c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:%(proxy_port)d'
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.db_url = 'sqlite:///%(tmp)s/hub.sqlite'
c.JupyterHub.cookie_secret_file = '%(tmp)s/cookie_secret'
c.JupyterHub.pid_file = '%(tmp)s/hub.pid'
c.JupyterHub.authenticator_class = 'dummy'
c.DummyAuthenticator.password = 'class'
c.JupyterHub.spawner_class = 'simple'
c.SimpleLocalProcessSpawner.home_dir_template = '%(tmp)s/home/{username}'
c.Spawner.default_url = '/tree'
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.mem_limit = %(mem)d
c.Spawner.environment = {'JUPYTER_PATH': '%(kernels)s', 'NO_COLOR': '1',
                         'OPENBLAS_NUM_THREADS': '1', 'MOONFLOW_NUM_THREADS': '1'}
c.Spawner.args = ['--allow-root',
                  '--MappingKernelManager.cull_idle_timeout=%(cull)d',
                  '--MappingKernelManager.cull_interval=2',
                  '--MappingKernelManager.cull_busy=False',
                  '--MappingKernelManager.cull_connected=True']
c.JupyterHub.services = [{'name': 'teacher', 'api_token': '%(token)s'}]
c.JupyterHub.load_roles = [{'name': 'teacher', 'services': ['teacher'],
                            'scopes': ['admin:users', 'admin:servers', 'tokens', 'access:servers']}]
c.JupyterHub.cleanup_servers = True
""" % dict(port=port, hub_port=hub_port, proxy_port=proxy_port, tmp=tmp, token=token,
           kernels=kernels, mem=MEM_LIMIT, cull=CULL_IDLE)


class Kernel:
    """One kernel of one user's server, driven over its websocket."""

    def __init__(self, base, user, token):
        self.base, self.user, self.token = base, user, token
        self.session = uuid.uuid4().hex

    def api(self, method, path, **kw):
        r = requests.request(method, "%s/user/%s/api/%s" % (self.base, self.user, path),
                             headers={"Authorization": "token " + self.token}, timeout=60, **kw)
        return r

    async def start(self):
        r = self.api("POST", "kernels", json={"name": "moonflow"})
        r.raise_for_status()
        self.id = r.json()["id"]
        await self.connect()

    async def connect(self):
        url = "%s/user/%s/api/kernels/%s/channels?session_id=%s" % (
            self.base.replace("http", "ws", 1), self.user, self.id, self.session)
        self.ws = await websocket_connect(HTTPRequest(url, headers={"Authorization": "token " + self.token}))

    async def run(self, code, timeout=60 * SLOW):
        """(status, stdout text, error name and value) of one cell."""
        msg_id = uuid.uuid4().hex
        await self.ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": self.session,
                       "username": self.user, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        out, reply, idle = [], None, False
        deadline = time.monotonic() + timeout
        while reply is None or not idle:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("%s: no answer to %r" % (self.user, code))
            raw = await asyncio.wait_for(self.ws.read_message(), left)
            if raw is None:
                raise ConnectionError("%s: the kernel's websocket closed" % self.user)
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            t = msg["msg_type"]
            if t == "stream":
                out.append(msg["content"]["text"])
            elif t in ("execute_result", "display_data"):
                out.append(msg["content"]["data"].get("text/plain", "") + "\n")
            elif t == "status" and msg["content"]["execution_state"] == "idle":
                idle = True
            elif t == "execute_reply":
                reply = msg["content"]
        return reply["status"], "".join(out), (reply.get("ename"), reply.get("evalue"))

    def close(self):
        self.ws.close()


def expected_draws():
    """What a lone moonflow process draws for each seed."""
    out = {}
    for seed in sorted(set(SEEDS.values())):
        p = subprocess.run([BIN, "-e", "tf.random.set_seed(%d); print(tf.random.uniform({3}))" % seed],
                           capture_output=True, text=True, timeout=60)
        out[seed] = p.stdout
    return out


async def lockstep(kernels, cells):
    """Runs cell k on every user's kernel at once, for each k; returns
    {user: [(status, out, error), ...]}."""
    got = {k.user: [] for k in kernels}
    for cell in cells:
        answers = await asyncio.gather(*(k.run(cell(k.user)) for k in kernels))
        for k, a in zip(kernels, answers):
            got[k.user].append(a)
    return got


async def class_session(base, tokens, draws):
    kernels = [Kernel(base, u, tokens[u]) for u in USERS]
    await asyncio.gather(*(k.start() for k in kernels))
    cells = [
        lambda u: 'owner = "%s"\nmine_%s = true\ntf.random.set_seed(%d)' % (u, u, SEEDS[u]),
        lambda u: "print(tf.random.uniform({3}))",
        lambda u: ('local others = {}\nfor k in pairs(_G) do if k:match("^mine_") then '
                   'others[#others + 1] = k end end\ntable.sort(others)\n'
                   'print(owner, table.concat(others, ","))'),
        lambda u: 'print(os.getenv("MEM_LIMIT"))',
        lambda u: "big = tf.zeros({200000000})",
        lambda u: 'print(owner, tf.reduce_sum(tf.ones({4})):numpy())',
    ]
    got = await lockstep(kernels, cells)
    every = [a for answers in got.values() for a in answers]
    check("four users' notebooks: every cell answers", len(every) == 4 * len(cells), got)
    for u in USERS:
        a = got[u]
        check("%s: the cells run" % u, [x[0] for x in a[:4]] == ["ok"] * 4, a)
        check("%s: draws what a lone process with seed %d draws" % (u, SEEDS[u]),
              a[1][1] == draws[SEEDS[u]], "%r\n%r" % (a[1][1], draws[SEEDS[u]]))
        check("%s: sees only its own globals" % u, a[2][1] == "%s\tmine_%s\n" % (u, u), a[2][1])
        check("%s: the kernel has the class's MEM_LIMIT" % u, a[3][1] == "%d\n" % MEM_LIMIT, a[3][1])
        check("%s: a tensor past the memory limit is a ResourceExhaustedError" % u,
              a[4][0] == "error" and a[4][2][0] == "ResourceExhaustedError", a[4])
        check("%s: the kernel keeps answering, its session intact" % u,
              a[5][:2] == ("ok", "%s\t4.0\n" % u), a[5])
    return kernels


async def culling(kernels):
    """ada's kernel stays idle; bo's runs a cell longer than the idle
    timeout. The server culls ada's and not bo's, whose cell then answers."""
    idle, busy = kernels[0], kernels[1]
    long_cell = ("local t = os.time()\nwhile os.time() - t < %d do end\nprint(owner, 'done')"
                 % (CULL_IDLE + 8))
    running = asyncio.ensure_future(busy.run(long_cell, timeout=(CULL_IDLE + 60) * SLOW))
    deadline = time.monotonic() + (CULL_IDLE + 30) * SLOW
    culled = False
    while time.monotonic() < deadline and not culled:
        await asyncio.sleep(1)
        culled = idle.api("GET", "kernels/" + idle.id).status_code == 404
    check("the server culls an idle kernel", culled)
    check("and not the busy one while its cell runs",
          not running.done() and busy.api("GET", "kernels/" + busy.id).status_code == 200)
    answer = await running
    check("the busy kernel's long cell answers", answer[:2] == ("ok", "bo\tdone\n"), answer)


async def restart(kernel):
    r = kernel.api("POST", "kernels/%s/restart" % kernel.id)
    check("a kernel restart succeeds", r.status_code == 200, r.text)
    kernel.close()
    await kernel.connect()
    for _ in range(30):  # the new session may take a moment to listen
        try:
            a = await kernel.run('print(rawget(_G, "owner"), rawget(_G, "mine_%s"))' % kernel.user, timeout=10)
            break
        except (TimeoutError, asyncio.TimeoutError):
            await kernel.connect()
    check("a restarted kernel is a fresh session", a[:2] == ("ok", "nil\tnil\n"), a)


def main():
    tmp = tempfile.mkdtemp(prefix="moonflow-hub-")
    hub = None
    try:
        prefix = os.path.join(tmp, "prefix")
        subprocess.run([BIN, "install-kernel", "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL, timeout=60)
        port, hub_port, proxy_port = free_port(), free_port(), free_port()
        token = secrets.token_hex(16)
        with open(os.path.join(tmp, "jupyterhub_config.py"), "w") as f:
            f.write(config(tmp, port, hub_port, proxy_port, token, os.path.join(prefix, "share", "jupyter")))
        # Debian's nodejs finds node-configurable-http-proxy's modules in
        # /usr/share/nodejs by itself; a nodejs from elsewhere (NodeSource's)
        # needs NODE_PATH.
        env = dict(os.environ, PATH="/usr/bin:/bin", NODE_PATH="/usr/share/nodejs")
        for var in ("JUPYTER_PATH", "JUPYTER_DATA_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
            env.pop(var, None)
        log = open(os.path.join(tmp, "hub.log"), "w")
        hub = subprocess.Popen(["/usr/bin/jupyterhub", "-f", os.path.join(tmp, "jupyterhub_config.py")],
                               cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
        base = "http://127.0.0.1:%d" % port
        admin = {"Authorization": "token " + token}
        up = False
        for _ in range(120 * SLOW):
            try:
                up = requests.get(base + "/hub/api/", timeout=5).status_code == 200
            except requests.RequestException:
                pass
            if up or hub.poll() is not None:
                break
            time.sleep(0.5)
        check("the hub starts on loopback behind configurable-http-proxy", up,
              open(os.path.join(tmp, "hub.log")).read())
        if not up:
            return
        # Each user logs in through the login form and starts a server.
        tokens = {}
        for u in USERS:
            s = requests.Session()
            r = s.post(base + "/hub/login", data={"username": u, "password": "class"},
                       allow_redirects=False, timeout=30)
            check("%s logs in" % u, r.status_code == 302 and "jupyterhub-session-id" in s.cookies, r.status_code)
            r = requests.post("%s/hub/api/users/%s/server" % (base, u), headers=admin, timeout=60)
            check("%s's server is requested" % u, r.status_code in (201, 202), r.text)
            r = requests.post("%s/hub/api/users/%s/tokens" % (base, u), headers=admin,
                              json={"note": "hub test"}, timeout=30)
            tokens[u] = r.json()["token"]
        ready = set()
        deadline = time.monotonic() + 120 * SLOW
        while len(ready) < len(USERS) and time.monotonic() < deadline:
            for u in USERS:
                r = requests.get("%s/hub/api/users/%s" % (base, u), headers=admin, timeout=30).json()
                if r.get("servers", {}).get("", {}).get("ready"):
                    ready.add(u)
            time.sleep(0.5)
        check("four single-user servers are ready", len(ready) == 4, open(os.path.join(tmp, "hub.log")).read())
        if len(ready) < 4:
            return
        draws = expected_draws()
        loop = asyncio.new_event_loop()
        kernels = loop.run_until_complete(class_session(base, tokens, draws))
        check("the class's kernels are moonflow processes while the hub runs",
              len(moonflow_processes(tmp)) == 4, moonflow_processes(tmp))
        loop.run_until_complete(restart(kernels[2]))
        loop.run_until_complete(culling(kernels))
        for k in kernels:
            k.close()
        pending = asyncio.all_tasks(loop)  # the closed websockets' readers
        for t in pending:
            t.cancel()
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.close()
        hub.send_signal(signal.SIGTERM)
        try:
            hub.wait(timeout=60 * SLOW)
        except subprocess.TimeoutExpired:
            pass
        check("the hub shuts down", hub.poll() is not None)
        left = []
        for _ in range(20):
            left = moonflow_processes(tmp)
            if not left:
                break
            time.sleep(0.5)
        check("no moonflow process is left behind", left == [], left)
    finally:
        if hub is not None and hub.poll() is None:
            os.killpg(hub.pid, signal.SIGKILL)
        for pid in moonflow_processes(tmp):
            os.kill(pid, signal.SIGKILL)
        if os.environ.get("MOONFLOW_HUB_KEEP"):
            print("# kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % len(results))
    sys.exit(0 if results and all(results) else 1)


if __name__ == "__main__":
    main()

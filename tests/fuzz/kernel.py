#!/usr/bin/python3
"""kernel.py — a seeded fuzzer for the Jupyter kernel's messages over ZeroMQ.

    tests/fuzz/kernel.py [--seed S] [--count N] [--every K]
    tests/fuzz/kernel.py --seed S --index I      (replays one case)

Starts one kernel (fresh connection file, through tests/jupyter/mfkernel.py)
and talks to it over raw ZeroMQ sockets, so it can send what no client
library would: for each case, drawn from (seed, index) alone, it sends on
shell, control or stdin either

- a valid but odd request (execute_request with random Lua: empty, huge,
  NUL bytes, invalid UTF-8, unicode, magics; complete/inspect/is_complete/
  history/comm_info/kernel_info with random, missing and mistyped fields;
  the same request twice under one msg_id; extra routing frames; buffers):
  it must get exactly one reply of the right type, signed, with our header
  as its parent and status ok/error/abort, and busy then idle on iopub;
- a message that must be dropped (wrong or missing HMAC, too few frames,
  no delimiter, header/parent/metadata that are not JSON objects, no
  msg_type, a huge unsigned frame) or ignored (an unknown msg_type, a stray
  input_reply on stdin): no reply at all, and the next valid request on the
  same channel (a probe sent right after) is answered normally.

Every K cases (and at the end) `1 + 1` must still give 2 and a variable set
at the start must still hold its value. The kernel process must be alive
after every case. Output is TAP; each failure is a "not ok" line naming its
replay command. Exit status 1 when anything failed.
"""
import argparse
import hashlib
import hmac
import json
import os
import random
import sys
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "jupyter"))
import mfkernel  # noqa: E402
import zmq  # noqa: E402

DELIM = b"<IDS|MSG>"
REPLY_WAIT = 20.0 * mfkernel.SLOW   # a valid request's reply (huge cells included)
IOPUB_WAIT = 10.0 * mfkernel.SLOW
KEEP = "fuzz_kept_state"


class Failure(Exception):
    pass


# ---- case generation ------------------------------------------------------

LUA = [
    "1 + 1", "x = 1", "return nil", "return", "error('boom')", "error({code = 1})", "error()",
    "error(setmetatable({}, {__tostring = function() return 'tostring err' end}))",
    "print('hi')", "print(('a'):rep(100000))", "io.write('no newline')",
    "io.stderr:write('to stderr\\n')", "local t = {} for i = 1, 1000 do t[i] = i end return #t",
    "tf.constant({1, 2, 3})", "tf.constant(1) + 'a'", "return tf.ones({2, 2})",
    "tf.constant({{1, 2}, {3}})", "tf.reshape(tf.range(6), {4, -1})",
    "tf.func(function(x) return x * 2 end)(tf.constant(3))", "tf.Variable(1.5)",
    "syntax error here", "function f(", "end", "return 1/0", "return 0/0", "return -0.0",
    "return math.huge", "return math.mininteger", "return string.rep('\u00e9', 1000)",
    "print('\\0')", "return '\\xff\\xfe'", "print(string.char(0, 255, 128))",
    "return 1, 2, 3", "return {1, 2, 3}", "return {a = {b = {}}}", "return print",
    "return coroutine.wrap(function() coroutine.yield(1) end)()",
    "return setmetatable({}, {__tostring = function() error('bad tostring') end})",
    "return setmetatable({}, {__tostring = function() return 5 end})",
    "return setmetatable({}, {__index = function() error('index') end}).x",
    "return select('#', 1, nil, nil)", "collectgarbage()", "local a <close> = nil",
    "goto nowhere", "return ...", "io.read()", "return io.read('n')",
    "%help", "%time 1 + 1", "%%time\nreturn 1 + 1", "%who", "%nosuchmagic", "%", "%%",
    "%tutorial", "%tutorial nosuch", "tf?", "tf.constant?", "?tf.func", "tf.constant??",
    "??", "?", "nosuch?", "tf.nosuch??", "exit()", "\u4f60\u597d = 1 return \u4f60\u597d",
    "s = '\U0001f600' return #s", "return '\u202e\u0301'", "--[[ unclosed", "return [[",
    "\t\n  \n", ";;;", "local function r(n) if n == 0 then return 0 end return r(n - 1) end "
    "return r(100000)", "local function r() return r() + 1 end r()",
    "return string.format('%q', 1/3)", "return tostring(nil) .. 1",
]

REQUESTS = ["execute_request", "complete_request", "inspect_request", "is_complete_request",
            "history_request", "comm_info_request", "kernel_info_request"]
# Known to the kernel but with no reply (comm_open answers on iopub only), or
# unknown: both must be answered by silence.
SILENT = ["comm_msg", "comm_close", "comm_open", "foo_request", "debug_request",
          "usage_request", "execute_reply", "input_reply", "", "_request", "x" * 300,
          "execute_request ", "EXECUTE_REQUEST", "execute\u00e9_request"]


def odd_value(rng, depth=0):
    """Any JSON value, small, of any type."""
    k = rng.randrange(10 if depth < 2 else 7)
    if k == 0:
        return None
    if k == 1:
        return rng.choice([True, False])
    if k == 2:
        return rng.choice([0, -1, 1, 2 ** 31, -2 ** 63, 2 ** 64, 10 ** 30, 7])
    if k == 3:
        return rng.choice([0.5, -1e308, 1e308, 3.0])
    if k in (4, 5, 6):
        return odd_text(rng, 40)
    if k in (7, 8):
        return [odd_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {odd_text(rng, 8): odd_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def odd_text(rng, n):
    k = rng.randrange(6)
    if k == 0:
        return ""
    if k == 1:
        return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(n)))
    if k == 2:
        return "".join(chr(rng.choice([rng.randrange(0x80, 0x800), rng.randrange(0x4e00, 0x9fff),
                                       rng.randrange(0x1f600, 0x1f650), 0x0, 0x202e, 0xfeff]))
                       for _ in range(rng.randrange(n)))
    if k == 3:
        return rng.choice(LUA)
    if k == 4:
        return "tf." + rng.choice(["constant", "func", "Variable", "", "nosuch", "math.add",
                                   "constant(", "constant(1).", "ones({2,"])
    return rng.choice(["\x00", "a\x00b", "\udc80"])  # \udc80: a raw 0x80 byte on the wire


def lua_code(rng):
    k = rng.randrange(20)
    if k == 0:
        return ""
    if k == 1:  # huge but cheap to run
        return rng.choice(["x = 1\n" * 200000, "--" + "a" * 3000000,
                           "s = '" + "b" * 2000000 + "' return #s"])
    if k == 2:
        return odd_text(rng, 30)
    if k == 3:
        c = rng.choice(LUA)
        i = rng.randrange(len(c) + 1)
        return c[:i] + rng.choice(["\x00", "\udc80", "\udcff", "\u00e9", "\n", "'"]) + c[i:]
    return rng.choice(["\n", "; ", " "]).join(rng.choice(LUA) for _ in range(rng.randrange(1, 4)))


def maybe(rng, content, key, good, p_missing=0.15, p_odd=0.25):
    r = rng.random()
    if r < p_missing:
        return
    content[key] = odd_value(rng) if r < p_missing + p_odd else good


def request_content(rng, msg_type):
    c = {}
    if rng.random() < 0.05:
        return rng.choice([{}, {"junk": odd_value(rng)}])
    if msg_type == "execute_request":
        maybe(rng, c, "code", lua_code(rng), 0.05, 0.1)
        maybe(rng, c, "silent", rng.random() < 0.2)
        maybe(rng, c, "store_history", rng.random() < 0.8)
        maybe(rng, c, "user_expressions", {"a": "1 + 1", "b": odd_text(rng, 10)} if rng.random() < 0.5 else {})
        maybe(rng, c, "allow_stdin", rng.random() < 0.5)
        maybe(rng, c, "stop_on_error", rng.random() < 0.5)
    elif msg_type in ("complete_request", "inspect_request"):
        code = odd_text(rng, 30) if rng.random() < 0.5 else rng.choice(LUA)
        maybe(rng, c, "code", code, 0.1, 0.1)
        maybe(rng, c, "cursor_pos", rng.choice([0, len(code), len(code) // 2, -1, 10 ** 9,
                                                 len(code) + 1]))
        if msg_type == "inspect_request":
            maybe(rng, c, "detail_level", rng.choice([0, 1, 2, -1]))
    elif msg_type == "is_complete_request":
        maybe(rng, c, "code", lua_code(rng) if rng.random() < 0.7 else rng.choice(LUA))
    elif msg_type == "history_request":
        maybe(rng, c, "hist_access_type", rng.choice(["tail", "range", "search", "nosuch", ""]),
              0.1, 0.1)
        for key, good in (("output", rng.random() < 0.5), ("raw", rng.random() < 0.5),
                          ("session", rng.choice([0, 1, -1, 10 ** 6])),
                          ("start", rng.choice([0, 1, -5, 10 ** 9])),
                          ("stop", rng.choice([0, 1, 3, 10 ** 9, -1])),
                          ("n", rng.choice([0, 1, 10, 10 ** 9, -1])),
                          ("pattern", rng.choice(["*", "?", "x*", "", "[", "%", "\\", "*" * 200])),
                          ("unique", rng.random() < 0.5)):
            maybe(rng, c, key, good, 0.3, 0.2)
    elif msg_type == "comm_info_request":
        maybe(rng, c, "target_name", odd_text(rng, 10), 0.5, 0.25)
    if rng.random() < 0.2:
        c[odd_text(rng, 8)] = odd_value(rng)
    return c


def header(rng, session, msg_type, odd=True):
    h = {"msg_id": uuid.UUID(int=rng.getrandbits(128)).hex, "session": session,
         "username": "fuzz", "date": "2030-01-01T00:00:00.000000Z", "msg_type": msg_type,
         "version": "5.3"}
    if odd and rng.random() < 0.3:
        key = rng.choice(["msg_id", "session", "username", "date", "version"])
        if rng.random() < 0.5:
            del h[key]
        else:
            h[key] = odd_value(rng)
    if odd and rng.random() < 0.1:
        h[odd_text(rng, 8)] = odd_value(rng)
    return readable(h)


def readable(v):
    """v without what the kernel's JSON parser (jansson) cannot read in a
    header, parent or metadata (a raw invalid UTF-8 byte, a NUL in a key, an
    integer past 64 bits): the kernel drops such a message, as it cannot
    parse it, so it would not be a valid request."""
    if isinstance(v, str):
        return "".join("?" if "\udc80" <= ch <= "\udcff" else ch for ch in v)
    if isinstance(v, list):
        return [readable(x) for x in v]
    if isinstance(v, dict):
        return {readable(key).replace("\0", "0"): readable(x) for key, x in v.items()}
    if isinstance(v, int) and not isinstance(v, bool) and not -2 ** 63 <= v < 2 ** 63:
        return 7
    return v


def dumps(obj, rng):
    """JSON bytes; a lone surrogate (\\udc80-\\udcff) becomes the raw byte,
    i.e. invalid UTF-8 inside an otherwise well-formed JSON text."""
    return json.dumps(obj, ensure_ascii=rng.random() < 0.3).encode("utf-8", "surrogateescape")


def make_case(seed, index):
    """(description, channel, list of messages, expectation). Each message is
    (frames, header-or-None); expectation is 'reply' or 'silent'."""
    rng = random.Random("%d:%d" % (seed, index))
    session = uuid.UUID(int=rng.getrandbits(128)).hex
    kind = rng.choices(["valid", "dup", "badsig", "frames", "badjson", "badcontent", "silent",
                        "huge", "stdin"], [40, 4, 8, 6, 8, 8, 8, 3, 5])[0]
    channel = "control" if rng.random() < 0.25 else "shell"
    msg_type = rng.choice(REQUESTS)
    if kind in ("valid", "dup", "badcontent") and channel == "control":
        msg_type = rng.choice(REQUESTS + ["interrupt_request"])
    h = header(rng, session, msg_type)
    parts = [h, {}, {}, request_content(rng, msg_type)]
    if rng.random() < 0.1:
        parts[1] = {"msg_id": "earlier", "msg_type": "execute_request"}
    if rng.random() < 0.1:
        parts[2] = readable({odd_text(rng, 5): odd_value(rng)})
    idents = []
    if rng.random() < 0.1:  # extra routing frames before the delimiter
        idents = [rng.choice([b"x", b"", b"\x00" * 5, b"id" * 50]) for _ in range(rng.randrange(1, 4))]
    buffers = []
    if rng.random() < 0.05:
        buffers = [b"buf" * rng.randrange(100)]
    raw = [dumps(p, rng) for p in parts]
    desc = "%s %s on %s" % (kind, msg_type or "''", channel)
    expect = "reply"
    headers = [h]
    sig = None
    if kind == "dup":
        desc = "same msg_id twice: " + desc
        headers = [h, h]
    elif kind == "badsig":
        expect = "silent"
        how = rng.randrange(5)
        if how == 0:
            sig = b""
        elif how == 1:
            sig = b"%064x" % rng.getrandbits(256)
        elif how == 2:
            sig = b"flip"
        elif how == 3:
            sig = b"z" * rng.choice([1, 63, 64, 65, 1000])
        else:
            sig = "sign-then-change"
        desc += " [signature %s]" % ["empty", "random", "one char off", "garbage",
                                     "of other content"][how]
    elif kind == "frames":
        expect = "silent"
    elif kind == "badjson":
        expect = "silent"
        which = min(rng.randrange(4 if rng.random() < 0.7 else 3), 2)  # header, parent, metadata
        raw[which] = rng.choice([b"", b"{", b"[]", b"null", b"1", b'"s"', b"{\"a\":}",
                                 b"\xff\xfe", b"{\"msg_type\": \"x\"", b"{}" * 3,
                                 b"{\"code\": \"\xff\"}"])
        if which == 0 and rng.random() < 0.5:
            h2 = dict(h)
            h2.pop("msg_type")
            if rng.random() < 0.5:
                h2["msg_type"] = odd_value(rng) if rng.random() < 0.5 else None
                if isinstance(h2["msg_type"], str):
                    h2["msg_type"] = 7
            raw[0] = dumps(h2, rng)
        desc += " [%s not a JSON object with a msg_type]" % ["header", "parent", "metadata"][which]
    elif kind == "badcontent":
        raw[3] = rng.choice([b"", b"{", b"[]", b"null", b"\"code\"", b"{\"code\": \"\xff\"}",
                             b"{\"code\": \"a\x00b\"}", b"{\"code\": 1,}", b"\xef\xbb\xbf{}",
                             b"{\"code\": \"" + b"\x80" * 1000 + b"\"}"])
        desc += " [content not JSON text: %r]" % raw[3][:20]
    elif kind == "silent":
        expect = "silent"
        t = rng.choice(SILENT)
        h = header(rng, session, t, odd=False)
        raw[0] = dumps(h, rng)
        c = rng.choice([{}, {"comm_id": "c" + uuid.UUID(int=rng.getrandbits(128)).hex,
                             "target_name": odd_text(rng, 10), "data": {}},
                        {"value": "stray"}, request_content(rng, "execute_request")])
        raw[3] = dumps(c, rng) if rng.random() < 0.8 else b"{not json"
        desc = "unknown or reply-less %r on %s" % (t[:30], channel)
    elif kind == "huge":
        if rng.random() < 0.5:
            expect = "silent"
            raw[3] = b"{\"code\": \"" + b"y" * rng.choice([1 << 20, 16 << 20]) + b"\"}"
            sig = b"%064x" % rng.getrandbits(256)
            desc += " [huge content, bad signature]"
        else:
            n = rng.choice([1 << 20, 8 << 20])
            h = header(rng, session, "execute_request", odd=False)
            headers = [h]
            raw = [dumps(h, rng), b"{}", b"{}", json.dumps({"code": "--" + "z" * n}).encode()]
            desc = "huge execute_request (%d MB comment) on shell" % (n >> 20)
            channel = "shell"
    elif kind == "stdin":
        channel = "stdin"
        expect = "silent"
        t = rng.choice(["input_reply", "input_reply", "execute_request", "input_request", "x"])
        h = header(rng, session, t, odd=False)
        raw = [dumps(h, rng), dumps({"msg_id": "nobody"}, rng), b"{}",
               dumps({"value": odd_text(rng, 20)} if rng.random() < 0.8 else odd_value(rng), rng)]
        if rng.random() < 0.3:
            sig = b""
        desc = "stray %s on stdin" % t
    spec = {"raw": raw, "idents": idents, "buffers": buffers, "sig": sig}
    if kind == "frames":
        how = rng.randrange(4)
        spec["frames"] = how
        desc += " [%s]" % ["no delimiter", "too few frames", "delimiter only", "empty message"][how]
    if kind == "valid" and channel == "shell" and msg_type == "execute_request":
        c = parts[3]
        if c.get("allow_stdin") is True and isinstance(c.get("code"), str):
            spec["answer"] = odd_text(rng, 10)
    return desc, channel, spec, expect, headers, rng


# ---- the wire -------------------------------------------------------------

class Kernel:
    def __init__(self):
        self.km, kc, self.log = mfkernel.start_kernel("kernel-fuzz")
        kc.stop_channels()
        info = self.km.get_connection_info()
        self.key = info["key"] if isinstance(info["key"], bytes) else info["key"].encode()
        self.ctx = zmq.Context()
        ident = uuid.uuid4().hex.encode()
        url = "%s://%s:" % (info["transport"], info["ip"])
        self.sock = {}
        for name, kind, port in (("shell", zmq.DEALER, "shell_port"),
                                 ("control", zmq.DEALER, "control_port"),
                                 ("stdin", zmq.DEALER, "stdin_port"),
                                 ("iopub", zmq.SUB, "iopub_port")):
            s = self.ctx.socket(kind)
            s.setsockopt(zmq.LINGER, 0)
            if kind == zmq.DEALER and name != "control":
                s.setsockopt(zmq.IDENTITY, ident)  # stdin goes to the shell's client
            if kind == zmq.SUB:
                s.setsockopt(zmq.SUBSCRIBE, b"")
            s.connect(url + str(info[port]))
            self.sock[name] = s
        self.session = uuid.uuid4().hex
        # iopub is a PUB socket: wait until our subscription is through.
        deadline = time.monotonic() + mfkernel.TIMEOUT
        sent = 0
        while True:
            self.send_valid("shell", "kernel_info_request", {})
            sent += 1
            if self.poll("iopub", 0.5):
                break
            if time.monotonic() > deadline:
                raise Failure("iopub never connected")
        for _ in range(sent):  # every reply in, so none is taken for a later one
            if not self.poll("shell", mfkernel.TIMEOUT):
                raise Failure("no kernel_info_reply at start")
            self.recv("shell")
        self.drain(0.1)

    def sign(self, parts):
        m = hmac.new(self.key, digestmod=hashlib.sha256)
        for p in parts:
            m.update(p)
        return m.hexdigest().encode()

    def send(self, channel, frames):
        self.sock[channel].send_multipart(frames, copy=False)

    def frames(self, raw, idents=(), buffers=(), sig=None):
        s = self.sign(raw) if sig is None else sig
        return list(idents) + [DELIM, s] + list(raw) + list(buffers)

    def send_valid(self, channel, msg_type, content):
        h = {"msg_id": uuid.uuid4().hex, "session": self.session, "username": "fuzz",
             "date": "2030-01-01T00:00:00.000000Z", "msg_type": msg_type, "version": "5.3"}
        self.send(channel, self.frames([json.dumps(h).encode(), b"{}", b"{}",
                                        json.dumps(content).encode()]))
        return h

    def poll(self, channel, timeout):
        return self.sock[channel].poll(int(timeout * 1000)) != 0

    def recv(self, channel):
        """One message as a dict; checks the kernel's own signature."""
        fr = self.sock[channel].recv_multipart()
        if channel == "iopub":
            fr = fr[1:]  # the topic
        d = fr.index(DELIM)
        raw = fr[d + 2:d + 6]
        if fr[d + 1] != self.sign(raw):
            raise Failure("kernel sent a message with a wrong signature on %s" % channel)
        h, parent, _, content = (json.loads(x) for x in raw)
        return {"idents": fr[:d], "header": h, "parent_header": parent, "content": content,
                "msg_type": h["msg_type"]}

    def drain(self, wait=0.0):
        """Whatever is waiting on every socket, as (channel, msg)."""
        got = []
        for ch in ("shell", "control", "stdin", "iopub"):
            while self.poll(ch, wait):
                got.append((ch, self.recv(ch)))
        return got

    def alive(self):
        return self.km.is_alive()

    def close(self):
        for s in self.sock.values():
            s.close(0)
        self.ctx.term()
        if self.km.is_alive():
            self.km.shutdown_kernel(now=True)


def reply_type(msg_type):
    return msg_type[:-len("_request")] + "_reply"


def await_replies(k, channel, headers, answer=None, wait=REPLY_WAIT):
    """Waits for one reply and busy/idle per header (which may repeat). An
    input_request is answered with `answer` (or an empty line)."""
    want = len(headers)
    replies, busy, idle = [], 0, 0
    deadline = time.monotonic() + wait
    poller = zmq.Poller()
    for ch in (channel, "iopub", "stdin"):
        poller.register(k.sock[ch], zmq.POLLIN)
    parent = headers[0]
    asked = 0
    while len(replies) < want or idle < want:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Failure("no %s within %.0fs (got %d replies, %d busy, %d idle)"
                          % ("reply" if len(replies) < want else "idle status", wait,
                             len(replies), busy, idle))
        ready = dict(poller.poll(int(left * 1000)))
        if k.sock["stdin"] in ready:
            m = k.recv("stdin")
            if m["msg_type"] != "input_request" or m["parent_header"] != parent:
                raise Failure("unexpected %s on stdin" % m["msg_type"])
            # Later questions get "" (the end of io.read("a")), then "0" (what
            # io.read("n") waits for: it skips blank lines, as Lua does).
            asked += 1
            if asked > 20:
                raise Failure("input asked for %d times" % asked)
            if asked > 1:
                answer = "" if asked == 2 else "0"
            k.send("stdin", k.frames([json.dumps({
                "msg_id": uuid.uuid4().hex, "session": k.session, "username": "fuzz",
                "msg_type": "input_reply", "version": "5.3"}).encode(),
                json.dumps(m["header"]).encode(), b"{}",
                json.dumps({"value": answer or ""}).encode()]))
        if k.sock["iopub"] in ready:
            m = k.recv("iopub")
            if m["parent_header"] == parent and m["msg_type"] == "status":
                state = m["content"]["execution_state"]
                if state == "busy":
                    busy += 1
                elif state == "idle":
                    idle += 1
                    if idle > busy:
                        raise Failure("idle without busy")
        if k.sock[channel] in ready:
            m = k.recv(channel)
            if m["parent_header"] != parent:
                raise Failure("a %s whose parent is %r, not the request %r"
                              % (m["msg_type"], m["parent_header"], parent))
            replies.append(m)
    t = parent.get("msg_type")
    for m in replies:
        if m["msg_type"] != reply_type(t):
            raise Failure("a %s answered a %s" % (m["msg_type"], t))
        status = m["content"].get("status")
        if t == "is_complete_request" and status in ("complete", "incomplete", "invalid",
                                                    "unknown"):
            continue
        if status not in ("ok", "error", "abort", "aborted"):
            raise Failure("reply status %r" % (status,))
    return replies


def probe(k, channel):
    """A valid request right after a message that must be dropped: it gets
    its own reply, and nothing answers the dropped one before it."""
    if channel == "stdin":
        answer = "probe-%d" % random.randrange(10 ** 6)
        h = k.send_valid("shell", "execute_request", {"code": "return io.read()", "silent": False,
                                                      "allow_stdin": True})
        r = await_replies(k, "shell", [h], answer=answer)[0]
        if r["content"]["status"] != "ok":
            raise Failure("io.read() after the stray message failed: %r" % r["content"])
        return
    # on control, a request relayed to the main thread, as the dropped one would be
    t = "is_complete_request" if channel == "control" else "kernel_info_request"
    h = k.send_valid(channel, t, {"code": "x = 1"})
    await_replies(k, channel, [h])


def result_of(k, code):
    h = k.send_valid("shell", "execute_request", {"code": code, "silent": False})
    deadline = time.monotonic() + REPLY_WAIT
    text = None
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not k.poll("iopub", left):
            raise Failure("no idle after %r" % code)
        m = k.recv("iopub")
        if m["parent_header"] != h:
            continue
        if m["msg_type"] == "execute_result":
            text = m["content"]["data"]["text/plain"]
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
    if not k.poll("shell", REPLY_WAIT):
        raise Failure("no reply to %r" % code)
    r = k.recv("shell")
    if r["parent_header"] != h:
        raise Failure("reply to %r has parent %r" % (code, r["parent_header"]))
    return text


def state_intact(k):
    two = result_of(k, "1 + 1")
    if two != "2":
        raise Failure("1 + 1 gave %r" % (two,))
    kept = result_of(k, KEEP)
    if kept != "4242":
        raise Failure("%s is %r, not 4242" % (KEEP, kept))


def run_case(k, seed, index):
    desc, channel, spec, expect, headers, rng = make_case(seed, index)
    if spec["sig"] == "sign-then-change":
        sig = k.sign(spec["raw"])
        spec["raw"][3] = spec["raw"][3] + b" "
        spec["sig"] = sig
    frames = k.frames(spec["raw"], spec["idents"], spec["buffers"], spec["sig"])
    how = spec.get("frames")
    if how == 0:
        frames = [f for f in frames if f != DELIM]
    elif how == 1:
        frames = frames[:rng.randrange(len(spec["idents"]) + 2, len(spec["idents"]) + 6)]
    elif how == 2:
        frames = [DELIM]
    elif how == 3:
        frames = [b""]
    for _ in headers:
        k.send(channel, frames)
    if expect == "reply":
        replies = await_replies(k, channel, headers, spec.get("answer"))
        if spec["idents"] and replies[0]["idents"] != spec["idents"]:
            raise Failure("reply routed with %r, not %r" % (replies[0]["idents"], spec["idents"]))
    else:
        probe(k, channel)
    # Anything else now waiting is a reply nobody asked for.
    for ch, m in k.drain(0.02):
        if ch != "iopub":
            raise Failure("extra %s on %s (parent %r)" % (m["msg_type"], ch,
                                                           m["parent_header"].get("msg_id")))
    if not k.alive():
        raise Failure("the kernel died")
    return desc


def fresh_kernel():
    k = Kernel()
    result_of(k, "%s = 4242" % KEEP)
    return k


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--index", type=int, help="replay this one case")
    ap.add_argument("--every", type=int, default=25, help="state check every K cases")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    cases = [a.index] if a.index is not None else range(a.start, a.start + a.count)
    me = os.path.relpath(os.path.abspath(__file__))
    k = fresh_kernel()
    failures, n_tap, block = 0, 0, []
    t0 = time.monotonic()

    def fail(index, why, desc):
        nonlocal failures, n_tap, k
        failures += 1
        n_tap += 1
        print("not ok %d - case %d (%s): %s; replay: %s --seed %d --index %d"
              % (n_tap, index, desc, why, me, a.seed, index), flush=True)
        try:
            with open(k.log, encoding="utf-8", errors="replace") as f:
                for line in f.read().splitlines()[-5:]:
                    print("#   kernel log: " + line[:300])
        except OSError:
            pass
        try:
            k.close()
        except Exception:
            pass
        k = fresh_kernel()

    for j, index in enumerate(cases):
        desc = "?"
        try:
            desc = make_case(a.seed, index)[0]
            run_case(k, a.seed, index)
            if a.verbose:
                print("# case %d: %s" % (index, desc), flush=True)
            block.append(index)
            if len(block) >= a.every or j == len(cases) - 1:
                state_intact(k)
                n_tap += 1
                print("ok %d - cases %d..%d (seed %d): replies, silence, state intact"
                      % (n_tap, block[0], block[-1], a.seed), flush=True)
                block = []
        except Failure as e:
            if block and block[-1] == index:  # the state check after the block
                fail(index, "%s after cases %d..%d; replay them: %s --seed %d --start %d --count %d"
                     % (e, block[0], index, me, a.seed, block[0], len(block)), desc)
            else:
                fail(index, str(e), desc)
            block = []
        except (zmq.ZMQError, ValueError, KeyError, json.JSONDecodeError) as e:
            fail(index, "%s: %s" % (type(e).__name__, e), desc)
            block = []
    k.close()
    print("# %d cases from seed %d in %.1fs, %d failures"
          % (len(cases), a.seed, time.monotonic() - t0, failures))
    print("1..%d" % n_tap)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

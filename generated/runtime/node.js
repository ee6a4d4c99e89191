// dist/runtime/node-remote.js
import { createServer } from "node:http";
function requestOf(req, signal) {
  const host = firstHeader(req.headers.host) ?? "localhost";
  const safeHost = /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? host : "localhost";
  const method = req.method ?? "GET";
  return {
    method,
    url: `http://${safeHost}${req.url ?? "/"}`,
    headers: {
      get(name) {
        const value = req.headers[name.toLowerCase()];
        if (value === void 0)
          return null;
        return Array.isArray(value) ? value.join(", ") : value;
      }
    },
    body: method === "GET" || method === "HEAD" ? null : bodyOf(req),
    ...signal ? { signal } : {}
  };
}
function firstHeader(value) {
  return Array.isArray(value) ? value[0] : value;
}
function bodyOf(req) {
  return {
    getReader() {
      const chunks = [];
      let ended = false;
      let failure;
      let wake;
      const notify = () => {
        const resume = wake;
        wake = void 0;
        resume?.();
      };
      const onData = (chunk) => {
        chunks.push(chunk);
        req.pause();
        notify();
      };
      const onEnd = () => {
        ended = true;
        notify();
      };
      const onError = (error) => {
        failure ?? (failure = error);
        notify();
      };
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("aborted", () => onError(new Error("the client aborted the request")));
      req.on("error", onError);
      const detach = () => {
        req.removeListener("data", onData);
        req.removeListener("end", onEnd);
      };
      return {
        async read() {
          for (; ; ) {
            const chunk = chunks.shift();
            if (chunk)
              return { done: false, value: chunk };
            if (failure)
              throw failure;
            if (ended)
              return { done: true };
            req.resume();
            await new Promise((resolve) => {
              wake = resolve;
            });
          }
        },
        releaseLock: detach,
        async cancel() {
          detach();
          chunks.length = 0;
          req.resume();
        }
      };
    }
  };
}
async function writeResponse(res, response) {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie?.() ?? [];
  response.headers.forEach((value, name) => {
    if (name.toLowerCase() !== "set-cookie")
      res.setHeader(name, value);
  });
  if (cookies.length > 0)
    res.setHeader("Set-Cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => {
    });
  };
  res.once("close", onClose);
  try {
    for (; ; ) {
      const next = await reader.read();
      if (next.done || gone)
        break;
      if (!res.write(next.value)) {
        await new Promise((resolve) => {
          const done = () => {
            res.removeListener("drain", done);
            res.removeListener("close", done);
            resolve();
          };
          res.once("drain", done);
          res.once("close", done);
        });
      }
    }
  } catch {
    if (!gone)
      res.destroy();
    return;
  } finally {
    res.removeListener("close", onClose);
  }
  if (!gone && !res.writableEnded)
    res.end();
}
function createNodeHttpHandler(server) {
  return (req, res) => {
    const aborter = new AbortController();
    const onClose = () => {
      if (!res.writableEnded)
        aborter.abort(new Error("the client went away"));
    };
    res.once("close", onClose);
    server.handleRequest(requestOf(req, aborter.signal)).then((response) => writeResponse(res, response)).catch((error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.statusCode = 500;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end(`the ACP server failed: ${error instanceof Error ? error.message : String(error)}
`);
    });
  };
}
var STATUS_TEXT = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable"
};
function refuseUpgrade(socket, status, message) {
  const body = `${message}
`;
  socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r
Content-Type: text/plain; charset=utf-8\r
Content-Length: ${Buffer.byteLength(body)}\r
Connection: close\r
\r
${body}`);
  socket.destroy();
}
function createNodeWebSocketUpgradeHandler(server, webSocketServer, options = {}) {
  const heartbeatMs = options.heartbeatMs ?? 3e4;
  return (req, socket, head) => {
    let gone = false;
    const onGone = () => {
      gone = true;
    };
    socket.once("close", onGone);
    socket.once("error", onGone);
    server.prepareWebSocketUpgrade(requestOf(req)).then((prepared) => {
      if (!prepared.ok) {
        refuseUpgrade(socket, prepared.status, prepared.message);
        return;
      }
      if (gone) {
        prepared.reject();
        return;
      }
      const onHeaders = (headers, request) => {
        if (request !== req)
          return;
        for (const [name, value] of Object.entries(prepared.headers))
          headers.push(`${name}: ${value}`);
      };
      webSocketServer.on("headers", onHeaders);
      socket.removeListener("close", onGone);
      socket.removeListener("error", onGone);
      const failed = () => prepared.reject();
      socket.once("close", failed);
      webSocketServer.handleUpgrade(req, socket, head, (ws) => {
        webSocketServer.removeListener("headers", onHeaders);
        socket.removeListener("close", failed);
        prepared.accept(ws);
        if (heartbeatMs > 0)
          heartbeat(ws, heartbeatMs);
      });
    }).catch(() => refuseUpgrade(socket, 500, "the ACP server failed"));
  };
}
function heartbeat(ws, ms) {
  const socket = ws;
  if (typeof socket.ping !== "function" || typeof socket.terminate !== "function")
    return;
  let alive = true;
  socket.on("pong", () => {
    alive = true;
  });
  const timer = setInterval(() => {
    if (!alive) {
      clearInterval(timer);
      socket.terminate?.();
      return;
    }
    alive = false;
    try {
      socket.ping?.();
    } catch {
      clearInterval(timer);
    }
  }, ms);
  timer.unref();
  socket.on("close", () => clearInterval(timer));
}
async function serve(server, options = {}) {
  const path = options.path ?? "/acp";
  const host = options.host ?? "127.0.0.1";
  const http = createNodeHttpHandler(server);
  let upgrade;
  let webSockets;
  if (options.webSocket !== false) {
    let ws;
    try {
      ws = await import("ws");
    } catch {
      throw new Error("serve(): WebSocket support needs the ws package (npm install ws), or pass { webSocket: false } to serve HTTP only");
    }
    const wss = new ws.WebSocketServer({
      noServer: true,
      maxPayload: server.limits.maxMessageBytes,
      perMessageDeflate: false
    });
    webSockets = wss;
    upgrade = createNodeWebSocketUpgradeHandler(server, wss, options);
  }
  const pathOf = (url) => (url ?? "/").split("?")[0];
  const httpServer = createServer((req, res) => {
    if (pathOf(req.url) !== path) {
      res.statusCode = 404;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end(`not found: the ACP endpoint is ${path}
`);
      return;
    }
    http(req, res);
  });
  httpServer.on("upgrade", (req, socket, head) => {
    if (!upgrade || pathOf(req.url) !== path) {
      refuseUpgrade(socket, 404, `not found: the ACP endpoint is ${path}`);
      return;
    }
    upgrade(req, socket, head);
  });
  await new Promise((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.removeListener("error", reject);
      resolve();
    });
  });
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${path}`,
    async close() {
      await server.close();
      const open = webSockets?.clients;
      for (let waited = 0; open && open.size > 0 && waited < 500; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      for (const socket of open ?? [])
        socket.terminate();
      webSockets?.close();
      await new Promise((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    }
  };
}

// dist/runtime/node.js
import { spawn } from "node:child_process";
import { Fifo } from "./index.js";
import { InputEndedError } from "./index.js";
import { ndJsonStream } from "./index.js";
var READ_AHEAD = 16;
function readableOf(source, ended = async () => void 0) {
  return {
    getReader() {
      const chunks = new Fifo();
      let done = false;
      let failure;
      let paused = false;
      let wake;
      const notify = () => {
        const resume = wake;
        wake = void 0;
        resume?.();
      };
      const onData = (chunk) => {
        chunks.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
        if (chunks.length >= READ_AHEAD && !paused) {
          paused = true;
          source.pause();
        }
        notify();
      };
      const onEnd = () => {
        done = true;
        notify();
      };
      const onError = (error) => {
        failure ?? (failure = error);
        notify();
      };
      source.on("data", onData);
      source.on("end", onEnd);
      source.on("close", onEnd);
      source.on("error", onError);
      const detach = () => {
        source.removeListener("data", onData);
        source.removeListener("end", onEnd);
        source.removeListener("close", onEnd);
      };
      return {
        async read() {
          for (; ; ) {
            if (chunks.length > 0) {
              const value = chunks.shift();
              if (paused && chunks.length < READ_AHEAD / 4) {
                paused = false;
                source.resume();
              }
              return { done: false, value };
            }
            if (failure)
              throw failure;
            if (done) {
              detach();
              const reason = await ended();
              if (reason)
                throw reason;
              return { done: true };
            }
            await new Promise((resolve) => {
              wake = resolve;
            });
          }
        },
        releaseLock: detach,
        async cancel() {
          detach();
          chunks.clear();
          source.destroy();
        }
      };
    }
  };
}
function writableOf(sink, failed = async (error) => error) {
  let broken;
  sink.on("error", (error) => {
    broken ?? (broken = error);
  });
  return {
    getWriter() {
      return {
        write(chunk) {
          if (broken)
            return failed(broken).then((e) => Promise.reject(e));
          if (sink.destroyed || sink.writableEnded)
            return Promise.reject(new Error("the output stream is closed"));
          return new Promise((resolve, reject) => {
            let settled = false;
            const ready = sink.write(chunk, (error) => {
              if (!error)
                return;
              broken ?? (broken = error);
              if (!settled) {
                settled = true;
                failed(error).then(reject);
              }
            });
            if (ready) {
              settled = true;
              resolve();
            } else {
              sink.once("drain", () => {
                if (!settled) {
                  settled = true;
                  resolve();
                }
              });
            }
          });
        },
        close() {
          if (sink.destroyed || sink.writableFinished || broken)
            return Promise.resolve();
          return new Promise((resolve) => {
            sink.once("finish", resolve);
            sink.once("close", resolve);
            sink.once("error", () => resolve());
            if (!sink.writableEnded)
              sink.end();
          });
        },
        releaseLock() {
        }
      };
    }
  };
}
function nodeStream(output, input, options) {
  return ndJsonStream(writableOf(output), readableOf(input), options);
}
function stdio(options) {
  return nodeStream(process.stdout, process.stdin, options);
}
var FRAME = /^\s+at\s/;
function lastWords(stderr) {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim() !== "");
  let frame = -1;
  for (let i = lines.length - 1; i >= 0; i--)
    if (FRAME.test(lines[i])) {
      frame = i;
      break;
    }
  if (frame > 0) {
    while (frame > 0 && FRAME.test(lines[frame - 1]))
      frame--;
    const error = lines[frame - 1];
    if (error !== void 0) {
      const where = lines[frame].trim();
      return `ends in a stack trace: ${error.trim().slice(0, 300)} (${where.slice(0, 200)})`;
    }
  }
  const traceback = lines.lastIndexOf("Traceback (most recent call last):");
  const raised = traceback < 0 ? void 0 : lines.slice(traceback + 1).filter((l) => !/^\s/.test(l)).pop();
  if (raised !== void 0)
    return `ends in a traceback: ${raised.trim().slice(0, 300)}`;
  const last = lines.slice(-3).join(" / ").slice(-400);
  return last ? `ended with: ${last}` : "";
}
var AgentExitError = class extends InputEndedError {
  constructor(command, exit, stderr) {
    const how = exit.error ? `could not be started: ${exit.error.message}` : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    super(`the agent (${command}) ${how}${stderrEnd(stderr)}`);
    this.name = "AgentExitError";
    this.code = exit.code;
    this.signal = exit.signal;
    this.stderr = stderr;
  }
};
function stderrEnd(stderr) {
  const said = lastWords(stderr);
  return said ? `; its stderr ${said}` : "";
}
var AgentStartError = class extends InputEndedError {
  constructor(command, stderr, failure) {
    const why = "error" in failure ? `failed initialize (${failure.error.code} ${failure.error.message})` : `did not answer initialize within ${failure.timeoutMs} ms`;
    super(`the agent (${command}) ${why} and was stopped${stderrEnd(stderr)}`);
    this.name = "AgentStartError";
    this.kind = "error" in failure ? "failed" : "timed-out";
    if ("error" in failure)
      this.error = failure.error;
    this.stderr = stderr;
  }
};
var KILL_GRACE_MS = 2e3;
var DEFAULT_INITIALIZE_TIMEOUT_MS = 6e4;
var EXIT_GRACE_MS = 2e3;
function spawnAgent(command, args = [], options = {}) {
  const spawnOptions = {
    stdio: ["pipe", "pipe", "pipe"],
    ...options.cwd === void 0 ? {} : { cwd: options.cwd },
    ...options.env === void 0 ? {} : { env: { ...options.env } }
  };
  const child = spawn(command, [...args], spawnOptions);
  const limit = options.stderrTailBytes ?? 8192;
  let tail = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text) => {
    if (options.stderr !== "keep")
      process.stderr.write(text);
    tail = (tail + text).slice(-limit);
  });
  let exit;
  const exited = new Promise((resolve) => {
    child.once("close", (code, signal) => {
      exit ?? (exit = { code, signal });
      resolve(exit);
    });
    child.once("error", (error) => {
      exit ?? (exit = { code: null, signal: null, error });
      resolve(exit);
    });
  });
  const display = [command, ...args].join(" ");
  const reason = async () => {
    if (!exit) {
      let timer;
      await Promise.race([
        exited,
        new Promise((resolve) => {
          timer = setTimeout(resolve, EXIT_GRACE_MS);
          timer.unref?.();
        })
      ]);
      if (timer)
        clearTimeout(timer);
    }
    return exit ? new AgentExitError(display, exit, tail) : void 0;
  };
  const stdin = child.stdin;
  const stdout = child.stdout;
  const stream = ndJsonStream(writableOf(stdin, async (error) => await reason() ?? error), readableOf(stdout, reason), options);
  const timeoutMs = options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  const stop = () => {
    if (exit)
      return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => {
      if (!exit)
        child.kill("SIGKILL");
    }, KILL_GRACE_MS);
    timer.unref?.();
  };
  const guarded = guardInitialize(stream, timeoutMs, (failure) => {
    stop();
    return new AgentStartError(display, tail, failure);
  });
  return { stream: guarded, child, exited, stderrTail: () => tail };
}
function guardInitialize(stream, timeoutMs, stop) {
  let id;
  let watching = true;
  let failure;
  let timer;
  let wake;
  const fail = (error) => {
    watching = false;
    if (timer)
      clearTimeout(timer);
    failure ?? (failure = error);
    wake?.(failure);
  };
  const failed = new Promise((_, reject) => {
    wake = reject;
  });
  failed.catch(() => {
  });
  return {
    writable: {
      getWriter() {
        const writer = stream.writable.getWriter();
        return {
          write(message) {
            if (watching && id === void 0 && "method" in message && message.method === "initialize" && "id" in message) {
              id = message.id;
              if (timeoutMs > 0) {
                timer = setTimeout(() => fail(stop({ timeoutMs })), timeoutMs);
                timer.unref?.();
              }
            }
            return writer.write(message);
          },
          close: () => writer.close(),
          releaseLock: () => writer.releaseLock()
        };
      }
    },
    readable: {
      getReader() {
        const reader = stream.readable.getReader();
        return {
          async read() {
            if (failure)
              throw failure;
            const next = watching ? await Promise.race([reader.read(), failed]) : await reader.read();
            if (failure)
              throw failure;
            const value = next.value;
            if (watching && id !== void 0 && typeof value === "object" && value !== null && value.id === id) {
              if (typeof value.error === "object" && value.error !== null) {
                const { code, message, data } = value.error;
                fail(stop({
                  error: {
                    code: typeof code === "number" ? code : Number.NaN,
                    message: typeof message === "string" ? message : "",
                    ...data === void 0 ? {} : { data }
                  }
                }));
                throw failure;
              }
              if ("result" in value) {
                watching = false;
                if (timer)
                  clearTimeout(timer);
              }
            }
            return next;
          },
          releaseLock: () => reader.releaseLock(),
          cancel: (reason) => {
            watching = false;
            if (timer)
              clearTimeout(timer);
            return reader.cancel(reason);
          }
        };
      }
    }
  };
}
export {
  AgentExitError,
  AgentStartError,
  createNodeHttpHandler,
  createNodeWebSocketUpgradeHandler,
  nodeStream,
  readableOf,
  serve,
  spawnAgent,
  stdio,
  writableOf
};

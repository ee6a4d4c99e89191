/**
 * Node.js helpers: a connection over this process's stdio, over any pair of Node streams,
 * or to an agent process this one spawns. Their own entry point (`PKG/node`), so every
 * other one stays web-platform only; this module alone imports Node's built-ins.
 *
 * They read and write Node streams directly rather than through `Readable.toWeb` /
 * `Writable.toWeb`: the writable adapter of Node 20 and 22 (not 24) throws an uncaught
 * TypeError when the application ends the Node stream while a write is in flight and the
 * connection then closes, and an EPIPE from a peer that died needs a listener or it kills
 * the process.
 */
import { type SpawnOptions, spawn } from "node:child_process";
import { Fifo } from "./fifo.js";
import type { JsonRpcId, JsonRpcMessage } from "./json-rpc.js";
import { InputEndedError, type MessageStream } from "./message-stream.js";
import { type NdJsonStreamOptions, ndJsonStream } from "./ndjson-stream.js";
import type { ReadableLike, StreamReader, StreamReadResult, WritableLike } from "./web-types.js";

/** The Node stream members used here: any `stream.Readable` (`process.stdin`, a child's stdout). */
export interface NodeReadable {
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(error?: Error): unknown;
}

/** The Node stream members used here: any `stream.Writable` (`process.stdout`, a child's stdin). */
export interface NodeWritable {
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean;
  end(callback?: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  once(event: "drain" | "finish" | "close", listener: () => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
  readonly writableEnded?: boolean;
  readonly writableFinished?: boolean;
  readonly destroyed?: boolean;
}

/** Chunks read ahead before the source is paused (its data then waits in the pipe). */
const READ_AHEAD = 16;

/** The bytes of a Node readable, as the web-style reader `ndJsonStream` takes. */
export function readableOf(
  source: NodeReadable,
  ended: () => Promise<Error | undefined> = async () => undefined,
): ReadableLike<Uint8Array> {
  return {
    getReader(): StreamReader<Uint8Array> {
      const chunks = new Fifo<Uint8Array>();
      let done = false;
      let failure: Error | undefined;
      let paused = false;
      let wake: (() => void) | undefined;
      const notify = () => {
        const resume = wake;
        wake = undefined;
        resume?.();
      };
      const onData = (chunk: Uint8Array | string) => {
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
      const onError = (error: Error) => {
        failure ??= error;
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
        // The error listener stays: a late error with none would crash the process.
      };
      return {
        async read(): Promise<StreamReadResult<Uint8Array>> {
          for (;;) {
            if (chunks.length > 0) {
              const value = chunks.shift() as Uint8Array;
              if (paused && chunks.length < READ_AHEAD / 4) {
                paused = false;
                source.resume();
              }
              return { done: false, value };
            }
            if (failure) throw failure;
            if (done) {
              detach();
              const reason = await ended();
              if (reason) throw reason;
              return { done: true };
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        releaseLock: detach,
        async cancel(): Promise<void> {
          detach();
          chunks.clear();
          source.destroy();
        },
      };
    },
  };
}

/** A Node writable as the web-style writer `ndJsonStream` takes; never throws out of the process. */
export function writableOf(
  sink: NodeWritable,
  failed: (error: Error) => Promise<Error> = async (error) => error,
): WritableLike<Uint8Array> {
  let broken: Error | undefined;
  // An EPIPE from a peer that died arrives as an event too; without a listener it is fatal.
  sink.on("error", (error) => {
    broken ??= error;
  });
  return {
    getWriter() {
      return {
        write(chunk: Uint8Array): Promise<void> {
          if (broken) return failed(broken).then((e) => Promise.reject(e));
          if (sink.destroyed || sink.writableEnded)
            return Promise.reject(new Error("the output stream is closed"));
          return new Promise<void>((resolve, reject) => {
            let settled = false;
            const ready = sink.write(chunk, (error) => {
              if (!error) return;
              broken ??= error;
              if (!settled) {
                settled = true;
                failed(error).then(reject);
              }
            });
            // Backpressure: the next write waits for 'drain' when the sink says so.
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
        close(): Promise<void> {
          // Whatever the application did to the stream already (ended, destroyed), this
          // only finishes it; it never throws.
          if (sink.destroyed || sink.writableFinished || broken) return Promise.resolve();
          return new Promise<void>((resolve) => {
            sink.once("finish", resolve);
            sink.once("close", resolve);
            sink.once("error", () => resolve());
            if (!sink.writableEnded) sink.end();
          });
        },
        releaseLock(): void {},
      };
    },
  };
}

/**
 * ACP over a pair of Node streams (`output` receives what this side sends, `input` is what
 * the peer sends), without the web-stream adapters. The options are `ndJsonStream`'s.
 */
export function nodeStream(
  output: NodeWritable,
  input: NodeReadable,
  options?: NdJsonStreamOptions,
): MessageStream {
  return ndJsonStream(writableOf(output), readableOf(input), options);
}

/**
 * ACP on this process's stdin and stdout: what an agent started by an editor serves on.
 * Log to stderr (`console.error`), never to stdout: stdout is the protocol's.
 */
export function stdio(options?: NdJsonStreamOptions): MessageStream {
  return nodeStream(
    process.stdout as unknown as NodeWritable,
    process.stdin as unknown as NodeReadable,
    options,
  );
}

/** A JavaScript stack frame line (`    at fn (file:3:7)`). */
const FRAME = /^\s+at\s/;

/**
 * What the end of an agent's stderr says, for one line of a message. When it holds a stack
 * trace, the trace's own error line (and where it was thrown), not the stack's last frames
 * or what Node prints after them (`code: 'MODULE_NOT_FOUND'`, `}`, `Node.js v20.19.0`):
 * a JavaScript stack's line above its `at …` frames, a Python traceback's last line.
 * Otherwise its last three lines.
 */
function lastWords(stderr: string): string {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trim() !== "");
  let frame = -1;
  for (let i = lines.length - 1; i >= 0; i--)
    if (FRAME.test(lines[i] as string)) {
      frame = i;
      break;
    }
  if (frame > 0) {
    // The first frame of that stack, and the error line above it.
    while (frame > 0 && FRAME.test(lines[frame - 1] as string)) frame--;
    const error = lines[frame - 1];
    if (error !== undefined) {
      const where = (lines[frame] as string).trim();
      return `ends in a stack trace: ${error.trim().slice(0, 300)} (${where.slice(0, 200)})`;
    }
  }
  const traceback = lines.lastIndexOf("Traceback (most recent call last):");
  const raised =
    traceback < 0
      ? undefined
      : lines
          .slice(traceback + 1)
          .filter((l) => !/^\s/.test(l))
          .pop();
  if (raised !== undefined) return `ends in a traceback: ${raised.trim().slice(0, 300)}`;
  const last = lines.slice(-3).join(" / ").slice(-400);
  return last ? `ended with: ${last}` : "";
}

/** How a spawned agent's process ended. */
export interface AgentExit {
  /** Exit code, or null when a signal ended it (or it never started). */
  readonly code: number | null;
  readonly signal: string | null;
  /** Why it never started (`spawn my-agent ENOENT`), when it did not. */
  readonly error?: Error;
}

/**
 * The close reason of a connection to an agent process that exited (or never started): its
 * exit code or signal and the end of what it wrote to stderr, which usually says why.
 */
export class AgentExitError extends InputEndedError {
  override readonly name = "AgentExitError";
  readonly code: number | null;
  readonly signal: string | null;
  /** The last bytes of its stderr (up to `stderrTailBytes`). */
  readonly stderr: string;

  constructor(command: string, exit: AgentExit, stderr: string) {
    const how = exit.error
      ? `could not be started: ${exit.error.message}`
      : exit.signal
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.code}`;
    super(`the agent (${command}) ${how}${stderrEnd(stderr)}`);
    this.code = exit.code;
    this.signal = exit.signal;
    this.stderr = stderr;
  }
}

/** `; its stderr …` (what its last lines say: a stack trace's error line, or the lines), or nothing when it wrote none. */
function stderrEnd(stderr: string): string {
  const said = lastWords(stderr);
  return said ? `; its stderr ${said}` : "";
}

/**
 * The close reason of a connection to an agent process stopped at start-up: it answered
 * `initialize` with an error, or not within `initializeTimeoutMs`. The process was killed;
 * the message says why and how its stderr ended, which usually says more.
 */
export class AgentStartError extends InputEndedError {
  override readonly name = "AgentStartError";
  /** `"failed"`: it answered `initialize` with an error; `"timed-out"`: it did not answer in time. */
  readonly kind: "failed" | "timed-out";
  /** Its error answer, when it failed. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** The last bytes of its stderr (up to `stderrTailBytes`). */
  readonly stderr: string;

  constructor(
    command: string,
    stderr: string,
    failure: { timeoutMs: number } | { error: { code: number; message: string; data?: unknown } },
  ) {
    const why =
      "error" in failure
        ? `failed initialize (${failure.error.code} ${failure.error.message})`
        : `did not answer initialize within ${failure.timeoutMs} ms`;
    super(`the agent (${command}) ${why} and was stopped${stderrEnd(stderr)}`);
    this.kind = "error" in failure ? "failed" : "timed-out";
    if ("error" in failure) this.error = failure.error;
    this.stderr = stderr;
  }
}

/** How long a stopped agent has between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2000;

/** Default of `SpawnAgentOptions.initializeTimeoutMs`. */
const DEFAULT_INITIALIZE_TIMEOUT_MS = 60_000;

export interface SpawnAgentOptions extends NdJsonStreamOptions {
  readonly cwd?: string;
  /** The agent's environment; default this process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * `"forward"` (default): the agent's stderr (its log) is copied to this process's stderr
   * as it comes; `"keep"`: not copied. Either way the last `stderrTailBytes` are kept for
   * the close reason.
   */
  readonly stderr?: "forward" | "keep";
  /** How much of the end of the agent's stderr to keep; default 8 KiB. */
  readonly stderrTailBytes?: number;
  /**
   * How long the agent has to answer the `initialize` sent over `stream` (default 60 000 ms;
   * `0`: no limit). An agent that answers it with an error, or not in time, is killed, and
   * the connection closes with an {@link AgentStartError} (why, and the end of its stderr)
   * as the reason of the `ConnectionClosedError` the call rejects with: a hung start leaves
   * no process behind.
   */
  readonly initializeTimeoutMs?: number;
}

/**
 * The agent's Node `ChildProcess`, typed by the members used most, so these declarations
 * need no @types/node (cast to `ChildProcess` from `node:child_process` for the rest).
 */
export interface AgentChild {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: string | number): boolean;
  /** Its stdin; `close()` on the connection ends it, and so may the application. */
  readonly stdin: { end(): unknown } | null;
}

/** A spawned agent process and the ACP stream to it. */
export interface AgentProcess {
  /** Give it to `new ClientSideConnection(toClient, agent.stream)`. */
  readonly stream: MessageStream;
  readonly child: AgentChild;
  /** Settles when the process has exited and its output ended (or it failed to start); never rejects. */
  readonly exited: Promise<AgentExit>;
  /** The end of what it wrote to stderr so far. */
  stderrTail(): string;
}

/** How long input end waits for the agent's exit status before ending without it. */
const EXIT_GRACE_MS = 2000;

/**
 * Start an agent process and speak ACP with it on its stdio. When it exits (also at
 * start-up, before answering anything), the connection closes with an `AgentExitError`
 * as the reason of its `ConnectionClosedError`: exit code, signal and the end of its stderr.
 *
 * @example
 * const agent = spawnAgent("my-agent", ["--acp"]);
 * const conn = new ClientSideConnection(toClient, agent.stream);
 */
export function spawnAgent(
  command: string,
  args: readonly string[] = [],
  options: SpawnAgentOptions = {},
): AgentProcess {
  const spawnOptions: SpawnOptions = {
    stdio: ["pipe", "pipe", "pipe"],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: { ...options.env } }),
  };
  const child = spawn(command, [...args], spawnOptions);
  const limit = options.stderrTailBytes ?? 8192;
  let tail = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    if (options.stderr !== "keep") process.stderr.write(text);
    tail = (tail + text).slice(-limit);
  });
  let exit: AgentExit | undefined;
  // 'close', not 'exit': by then its stderr has been read to the end too.
  const exited = new Promise<AgentExit>((resolve) => {
    child.once("close", (code, signal) => {
      exit ??= { code, signal };
      resolve(exit);
    });
    child.once("error", (error) => {
      exit ??= { code: null, signal: null, error };
      resolve(exit);
    });
  });
  const display = [command, ...args].join(" ");
  /** The agent's exit as the reason input ended, once known (waiting a little for it). */
  const reason = async (): Promise<AgentExitError | undefined> => {
    if (!exit) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        exited,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, EXIT_GRACE_MS);
          timer.unref?.();
        }),
      ]);
      if (timer) clearTimeout(timer);
    }
    return exit ? new AgentExitError(display, exit, tail) : undefined;
  };
  const stdin = child.stdin as unknown as NodeWritable;
  const stdout = child.stdout as unknown as NodeReadable;
  const stream = ndJsonStream(
    writableOf(stdin, async (error) => (await reason()) ?? error),
    readableOf(stdout, reason),
    options,
  );
  const timeoutMs = options.initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS;
  const stop = () => {
    if (exit) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => {
      if (!exit) child.kill("SIGKILL");
    }, KILL_GRACE_MS);
    timer.unref?.();
  };
  const guarded = guardInitialize(stream, timeoutMs, (failure) => {
    stop();
    return new AgentStartError(display, tail, failure);
  });
  return { stream: guarded, child, exited, stderrTail: () => tail };
}

/**
 * `stream`, watching the first `initialize` sent over it: an error answer, or no answer
 * within `timeoutMs` (0: no limit), makes `stop` end the agent, and the reader then rejects
 * with what `stop` returns, in place of that answer and of anything after it.
 */
function guardInitialize(
  stream: MessageStream,
  timeoutMs: number,
  stop: (
    failure: { timeoutMs: number } | { error: { code: number; message: string; data?: unknown } },
  ) => Error,
): MessageStream {
  let id: JsonRpcId | undefined;
  let watching = true;
  let failure: Error | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: ((error: Error) => void) | undefined;
  const fail = (error: Error) => {
    watching = false;
    if (timer) clearTimeout(timer);
    failure ??= error;
    wake?.(failure);
  };
  const failed = new Promise<never>((_, reject) => {
    wake = reject;
  });
  failed.catch(() => {});
  return {
    writable: {
      getWriter() {
        const writer = stream.writable.getWriter();
        return {
          write(message: JsonRpcMessage) {
            if (
              watching &&
              id === undefined &&
              "method" in message &&
              message.method === "initialize" &&
              "id" in message
            ) {
              id = message.id;
              if (timeoutMs > 0) {
                timer = setTimeout(() => fail(stop({ timeoutMs })), timeoutMs);
                timer.unref?.();
              }
            }
            return writer.write(message);
          },
          close: () => writer.close(),
          releaseLock: () => writer.releaseLock(),
        };
      },
    },
    readable: {
      getReader() {
        const reader = stream.readable.getReader();
        return {
          async read() {
            if (failure) throw failure;
            const next = watching
              ? await Promise.race([reader.read(), failed])
              : await reader.read();
            if (failure) throw failure;
            const value = next.value as
              | { id?: unknown; error?: unknown; result?: unknown }
              | undefined;
            if (
              watching &&
              id !== undefined &&
              typeof value === "object" &&
              value !== null &&
              value.id === id
            ) {
              if (typeof value.error === "object" && value.error !== null) {
                const { code, message, data } = value.error as {
                  code?: unknown;
                  message?: unknown;
                  data?: unknown;
                };
                fail(
                  stop({
                    error: {
                      code: typeof code === "number" ? code : Number.NaN,
                      message: typeof message === "string" ? message : "",
                      ...(data === undefined ? {} : { data }),
                    },
                  }),
                );
                throw failure;
              }
              if ("result" in value) {
                watching = false;
                if (timer) clearTimeout(timer);
              }
            }
            return next;
          },
          releaseLock: () => reader.releaseLock(),
          cancel: (reason?: unknown) => {
            watching = false;
            if (timer) clearTimeout(timer);
            return reader.cancel(reason);
          },
        };
      },
    },
  };
}

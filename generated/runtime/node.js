/**
 * Node.js helpers: a connection over this process's stdio, over any pair of Node streams,
 * or to an agent process this one spawns. Their own entry point (`PKG/node`), so every
 * other one stays web-platform only; this module alone imports Node's built-ins.
 *
 * They read and write Node streams directly rather than through `Readable.toWeb` /
 * `Writable.toWeb`: Node 20's writable adapter throws an uncaught TypeError when the
 * application ends the Node stream while a write is in flight and the connection then
 * closes, and an EPIPE from a peer that died needs a listener or it kills the process.
 */
import { spawn } from "node:child_process";
import { Fifo } from "./fifo.js";
import { InputEndedError } from "./message-stream.js";
import { ndJsonStream } from "./ndjson-stream.js";
/** Chunks read ahead before the source is paused (its data then waits in the pipe). */
const READ_AHEAD = 16;
/** The bytes of a Node readable, as the web-style reader `ndJsonStream` takes. */
export function readableOf(source, ended = async () => undefined) {
    return {
        getReader() {
            const chunks = new Fifo();
            let done = false;
            let failure;
            let paused = false;
            let wake;
            const notify = () => {
                const resume = wake;
                wake = undefined;
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
                // The error listener stays: a late error with none would crash the process.
            };
            return {
                async read() {
                    for (;;) {
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
                },
            };
        },
    };
}
/** A Node writable as the web-style writer `ndJsonStream` takes; never throws out of the process. */
export function writableOf(sink, failed = async (error) => error) {
    let broken;
    // An EPIPE from a peer that died arrives as an event too; without a listener it is fatal.
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
                        // Backpressure: the next write waits for 'drain' when the sink says so.
                        if (ready) {
                            settled = true;
                            resolve();
                        }
                        else {
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
                    // Whatever the application did to the stream already (ended, destroyed), this
                    // only finishes it; it never throws.
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
                releaseLock() { },
            };
        },
    };
}
/**
 * ACP over a pair of Node streams (`output` receives what this side sends, `input` is what
 * the peer sends), without the web-stream adapters. The options are `ndJsonStream`'s.
 */
export function nodeStream(output, input, options) {
    return ndJsonStream(writableOf(output), readableOf(input), options);
}
/**
 * ACP on this process's stdin and stdout: what an agent started by an editor serves on.
 * Log to stderr (`console.error`), never to stdout: stdout is the protocol's.
 */
export function stdio(options) {
    return nodeStream(process.stdout, process.stdin, options);
}
/**
 * The close reason of a connection to an agent process that exited (or never started): its
 * exit code or signal and the end of what it wrote to stderr, which usually says why.
 */
export class AgentExitError extends InputEndedError {
    constructor(command, exit, stderr) {
        const how = exit.error
            ? `could not be started: ${exit.error.message}`
            : exit.signal
                ? `was killed by ${exit.signal}`
                : `exited with code ${exit.code}`;
        const last = stderr.trim().split(/\r?\n/).slice(-3).join(" / ").slice(-400);
        super(`the agent (${command}) ${how}${last ? `; its stderr ended with: ${last}` : ""}`);
        this.name = "AgentExitError";
        this.code = exit.code;
        this.signal = exit.signal;
        this.stderr = stderr;
    }
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
export function spawnAgent(command, args = [], options = {}) {
    const spawnOptions = {
        stdio: ["pipe", "pipe", "pipe"],
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.env === undefined ? {} : { env: { ...options.env } }),
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
    // 'close', not 'exit': by then its stderr has been read to the end too.
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
    /** The agent's exit as the reason input ended, once known (waiting a little for it). */
    const reason = async () => {
        if (!exit) {
            let timer;
            await Promise.race([
                exited,
                new Promise((resolve) => {
                    timer = setTimeout(resolve, EXIT_GRACE_MS);
                    timer.unref?.();
                }),
            ]);
            if (timer)
                clearTimeout(timer);
        }
        return exit ? new AgentExitError(display, exit, tail) : undefined;
    };
    const stdin = child.stdin;
    const stdout = child.stdout;
    const stream = ndJsonStream(writableOf(stdin, async (error) => (await reason()) ?? error), readableOf(stdout, reason), options);
    return { stream, child, exited, stderrTail: () => tail };
}

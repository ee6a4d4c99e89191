import { InputEndedError, type MessageStream } from "./message-stream.js";
import { type NdJsonStreamOptions } from "./ndjson-stream.js";
import type { ReadableLike, WritableLike } from "./web-types.js";
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
/** The bytes of a Node readable, as the web-style reader `ndJsonStream` takes. */
export declare function readableOf(source: NodeReadable, ended?: () => Promise<Error | undefined>): ReadableLike<Uint8Array>;
/** A Node writable as the web-style writer `ndJsonStream` takes; never throws out of the process. */
export declare function writableOf(sink: NodeWritable, failed?: (error: Error) => Promise<Error>): WritableLike<Uint8Array>;
/**
 * ACP over a pair of Node streams (`output` receives what this side sends, `input` is what
 * the peer sends), without the web-stream adapters. The options are `ndJsonStream`'s.
 */
export declare function nodeStream(output: NodeWritable, input: NodeReadable, options?: NdJsonStreamOptions): MessageStream;
/**
 * ACP on this process's stdin and stdout: what an agent started by an editor serves on.
 * Log to stderr (`console.error`), never to stdout: stdout is the protocol's.
 */
export declare function stdio(options?: NdJsonStreamOptions): MessageStream;
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
export declare class AgentExitError extends InputEndedError {
    readonly name = "AgentExitError";
    readonly code: number | null;
    readonly signal: string | null;
    /** The last bytes of its stderr (up to `stderrTailBytes`). */
    readonly stderr: string;
    constructor(command: string, exit: AgentExit, stderr: string);
}
/**
 * The close reason of a connection to an agent process stopped at start-up: it answered
 * `initialize` with an error, or not within `initializeTimeoutMs`. The process was killed;
 * the message says why and how its stderr ended, which usually says more.
 */
export declare class AgentStartError extends InputEndedError {
    readonly name = "AgentStartError";
    /** `"failed"`: it answered `initialize` with an error; `"timed-out"`: it did not answer in time. */
    readonly kind: "failed" | "timed-out";
    /** Its error answer, when it failed. */
    readonly error?: {
        readonly code: number;
        readonly message: string;
        readonly data?: unknown;
    };
    /** The last bytes of its stderr (up to `stderrTailBytes`). */
    readonly stderr: string;
    constructor(command: string, stderr: string, failure: {
        timeoutMs: number;
    } | {
        error: {
            code: number;
            message: string;
            data?: unknown;
        };
    });
}
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
    readonly stdin: {
        end(): unknown;
    } | null;
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
/**
 * Start an agent process and speak ACP with it on its stdio. When it exits (also at
 * start-up, before answering anything), the connection closes with an `AgentExitError`
 * as the reason of its `ConnectionClosedError`: exit code, signal and the end of its stderr.
 *
 * @example
 * const agent = spawnAgent("my-agent", ["--acp"]);
 * const conn = new ClientSideConnection(toClient, agent.stream);
 */
export declare function spawnAgent(command: string, args?: readonly string[], options?: SpawnAgentOptions): AgentProcess;

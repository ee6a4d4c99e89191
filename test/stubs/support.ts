import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../../generator/paths.js";

export const FIXTURES = join(ROOT, "test", "stubs", "fixtures");
/** Runs a TypeScript file with Node through tsx, as the fixtures are written in TypeScript. */
export const TS_NODE = [process.execPath, "--import", "tsx"];
export const OUR_AGENT = [...TS_NODE, join(FIXTURES, "turn-agent.ts")];
export const SDK_AGENT = [...TS_NODE, join(FIXTURES, "sdk-agent.ts")];
export const OUR_CLIENT = [...TS_NODE, join(FIXTURES, "turn-client.ts")];

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();

/**
 * Spawn a process and collect its output until it exits. Bounded: after `timeoutMs` it is
 * killed and the promise rejects, so a hung peer fails the test instead of stalling it.
 */
export function run(
  command: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Finished> {
  const [file, ...args] = command;
  if (!file) throw new Error("empty command");
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `${args.join(" ")} did not finish in ${options.timeoutMs ?? 20_000} ms\nstderr: ${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 20_000);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface Started {
  readonly child: ChildProcessWithoutNullStreams;
  /** Exit code, once the process has exited and its output is drained. */
  readonly exited: Promise<number | null>;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
}

/** Spawn a long-lived process whose stdin/stdout the test drives itself; `stopAll()` kills leftovers. */
export function start(command: readonly string[], env: Record<string, string> = {}): Started {
  const [file, ...args] = command;
  if (!file) throw new Error("empty command");
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, exited, stderr: () => stderr };
}

/** For `afterEach`/`afterAll`: no test leaves a process behind, even when it failed. */
export function stopAll(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

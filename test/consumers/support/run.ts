import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";

export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run a command to completion without throwing on a non-zero exit: the callers assert on
 * the exit code and the output, so a failure shows what the command printed. Asynchronous,
 * so several compilers can run side by side while vitest stays responsive.
 */
export function exec(
  file: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
        // Bounded: a hung compiler or install fails the run instead of stalling it.
        timeout: options.timeoutMs ?? 120_000,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") {
          reject(new Error(`${file} ${args.join(" ")}: ${error.message}\n${stderr}`));
          return;
        }
        resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/**
 * Map `items` through `task` with at most `limit` tasks in flight, keeping the input order
 * in the result. The default is one task per core: the tasks are compiler runs, CPU-bound.
 */
export async function pool<T, R>(
  items: readonly T[],
  task: (item: T) => Promise<R>,
  limit = Math.max(1, availableParallelism()),
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

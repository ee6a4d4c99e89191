// Spawning measured child processes.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RSS_HOOK = fileURLToPath(new URL("./rss-hook.mjs", import.meta.url));

/**
 * CPU time (user + system, ms) of every descendant this process has waited for, from
 * /proc/self/stat (cutime + cstime). Measured around a spawnSync it is the CPU time of the
 * whole child tree, including processes the child itself ran (TypeScript 7's `tsc` is a Node
 * launcher for a native binary). Resolution is one clock tick (10 ms). Null off Linux.
 *
 * CPU time is recorded because the machines this runs on are shared: wall time grows with
 * everyone else's load, CPU time barely does, so ratios built on it stay comparable.
 */
function childrenCpuMs() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the parenthesised command name; cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[13]) + Number(fields[14]);
    // USER_HZ is 100 on every Linux ABI Node supports.
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

/**
 * Runs `node <args>` and returns wall time (ms, as seen from outside: start-up included, since
 * that is what a user or CI waits for), CPU time of the child tree (ms, or null), exit status
 * and output; with `rssFile`, also the child's peak RSS in MB.
 * @param {string[]} args
 * @param {{ cwd?: string, rssFile?: string, env?: Record<string, string> }} [options]
 */
export function runNode(args, options = {}) {
  const { cwd, rssFile, env } = options;
  if (rssFile) rmSync(rssFile, { force: true });
  const nodeArgs = rssFile ? ["--import", RSS_HOOK, ...args] : args;
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, nodeArgs, {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env, ...(rssFile ? { ACP_BENCH_RSS_FILE: rssFile } : {}) },
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const cpuAfter = childrenCpuMs();
  /** @type {number | null} */
  let peakRssMb = null;
  if (rssFile && existsSync(rssFile)) {
    peakRssMb = JSON.parse(readFileSync(rssFile, "utf8")).maxRssKb / 1024;
  }
  return {
    wallMs,
    cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    status: child.status,
    stdout: child.stdout ?? "",
    stderr: child.stderr ?? "",
    peakRssMb,
    error: child.error,
  };
}

/**
 * Runs a command (not necessarily node) and returns its output, failing loudly.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {import("node:child_process").SpawnSyncOptions} [options]
 * @returns {string}
 */
export function run(command, args, options = {}) {
  const child = spawnSync(command, args, {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  const stdout = String(child.stdout ?? "");
  if (child.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited ${child.status}: ${String(child.stderr || stdout)
        .trim()
        .slice(0, 2000)}`,
    );
  }
  return stdout;
}

/**
 * @param {string} dir
 * @param {string} name
 */
export function rssPath(dir, name) {
  return join(dir, `${name}.rss.json`);
}

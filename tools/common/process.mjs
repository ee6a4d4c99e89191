/**
 * What the scripts under tools/ that drive the CLI share: reading a `--flag value` argument,
 * and running a command to completion with its output captured (the CLI's output is what
 * they judge, so it is kept, not inherited).
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root, where commands run unless told otherwise. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The value given after `flag` (`--json FILE` → `FILE`), if the flag is there.
 * @param {readonly string[]} args
 * @param {string} flag
 */
export function flagValue(args, flag) {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/**
 * Runs `command` to its end; a process that was killed counts as exit code 1.
 * @param {string} command
 * @param {string[]} argv
 * @param {string} [cwd]
 */
export function run(command, argv, cwd = ROOT) {
  // Generated trees and compiler runs print a lot; the default 1 MiB would cut them off.
  const r = spawnSync(command, argv, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status ?? 1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

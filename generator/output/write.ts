import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import type { OutputFile } from "../emit/output.js";
import { InputError } from "../errors.js";
import { MANIFEST } from "./plan.js";

/** Every file under `dir`, by `/`-separated relative path. Empty when `dir` does not exist. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  if (!statSync(dir).isDirectory())
    throw InputError.about(dir, "--out exists and is not a directory");
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === "node_modules") continue;
        walk(full);
      } else if (entry.isFile()) {
        files.set(relative(dir, full).split(sep).join("/"), readFileSync(full, "utf8"));
      }
    }
  };
  walk(dir);
  return files;
}

/**
 * Replace `outDir` with exactly `files`, atomically: everything is written to a sibling
 * staging folder first, then swapped in with two renames. If anything fails before the
 * swap, `outDir` is untouched and the staging folder is removed.
 *
 * A non-empty folder without our manifest is refused: `--out .` must never wipe a project.
 */
export function writeAtomically(
  outDir: string,
  displayOut: string,
  files: OutputFile[],
  force: boolean,
): void {
  const target = resolve(outDir);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory())
      throw InputError.about(displayOut, "--out exists and is not a directory");
    const entries = readdirSync(target);
    if (entries.length > 0 && !entries.includes(MANIFEST) && !force) {
      throw InputError.about(
        displayOut,
        `refusing to replace a non-empty folder that acp-codegen did not generate (no ${MANIFEST}); pass --force to replace it`,
      );
    }
  }
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const staging = join(parent, `.${basename(target)}.acp-codegen-new-${stamp}`);
  const previous = join(parent, `.${basename(target)}.acp-codegen-old-${stamp}`);
  try {
    for (const file of files) {
      const path = join(staging, ...file.path.split("/"));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    }
    // Keep what a user may have put inside the package folder that we never generate.
    if (existsSync(join(target, "node_modules")))
      renameSync(join(target, "node_modules"), join(staging, "node_modules"));
    if (existsSync(target)) renameSync(target, previous);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (existsSync(previous) && !existsSync(target)) renameSync(previous, target);
    throw error;
  }
  rmSync(previous, { recursive: true, force: true });
}

/** Which planned files are new, changed or unchanged on disk, and which disk files are extra. */
export interface TreeDiff {
  added: string[];
  changed: string[];
  removed: string[];
  unchanged: string[];
}

export function compareTree(files: OutputFile[], onDisk: Map<string, string>): TreeDiff {
  const diff: TreeDiff = { added: [], changed: [], removed: [], unchanged: [] };
  const planned = new Set<string>();
  for (const file of files) {
    planned.add(file.path);
    const existing = onDisk.get(file.path);
    if (existing === undefined) diff.added.push(file.path);
    else if (existing !== file.content) diff.changed.push(file.path);
    else diff.unchanged.push(file.path);
  }
  for (const path of [...onDisk.keys()].sort()) if (!planned.has(path)) diff.removed.push(path);
  return diff;
}

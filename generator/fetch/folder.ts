import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Member } from "./archive.js";
import { SourceError } from "./errors.js";
import { SCHEMA_ROOTS, targetName } from "./layout.js";

/**
 * The candidate schema files of a local folder: the folder itself or its `schema/`
 * subfolder, each with its `vN/` folders. Only those places are looked at, so pointing at a
 * repository or package checkout never walks `node_modules`. Links are followed: the folder
 * is the user's own, unlike an archive from elsewhere.
 */
export function readFolder(path: string, display: string): Map<string, Member> {
  if (!isDirectory(path)) throw new SourceError(display, "not a readable folder");
  const found = new Map<string, Member>();
  for (const root of SCHEMA_ROOTS) {
    const dir = join(path, root);
    for (const name of list(dir)) {
      const full = join(dir, name);
      if (isDirectory(full)) {
        if (!/^v[1-9][0-9]*$/.test(name)) continue;
        for (const inner of list(full)) addFile(found, root, `${name}/${inner}`, join(full, inner));
      } else {
        addFile(found, root, name, full);
      }
    }
  }
  return found;
}

function addFile(found: Map<string, Member>, root: string, name: string, full: string): void {
  if (targetName(name) === undefined) return;
  const relative = `${root}${name}`;
  try {
    if (!statSync(full).isFile()) return;
    found.set(relative, { kind: "file", bytes: readFileSync(full) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    found.set(relative, { kind: "other", detail: `cannot be read (${code})` });
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../errors.js";
import { CHANGES_FILE } from "../load/layout.js";
import { targetName } from "./layout.js";
import { README_FILE, RECORD_FILE } from "./record.js";

/** What the schema folder holds now: its schema files by path, and fetch's record files. */
export interface CurrentSchema {
  exists: boolean;
  files: Map<string, Buffer>;
  readme?: string;
  record?: string;
  changes?: string;
}

/**
 * Read the schema folder `fetch` is about to replace. The folder is swapped whole, so it
 * must hold nothing but schema files and fetch's own record: anything else (notes, a whole
 * project given by mistake as `--schema-dir .`) is refused rather than thrown away.
 */
export function readCurrentSchema(dir: string, display: string): CurrentSchema {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) {
      throw InputError.about(display, "--schema-dir exists and is not a directory");
    }
    entries = readdirSync(dir).sort();
  } catch (error) {
    if (error instanceof InputError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { exists: false, files: new Map() };
    throw InputError.about(display, `cannot read (${(error as NodeJS.ErrnoException).code})`);
  }
  const current: CurrentSchema = { exists: true, files: new Map() };
  const foreign = (name: string) =>
    InputError.about(
      join(display, name),
      `refusing to replace ${display}: acp-codegen fetch did not write this (move it out of the folder, or fetch into another --schema-dir)`,
    );
  for (const name of entries) {
    const full = join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) {
      if (!/^v[1-9][0-9]*$/.test(name)) throw foreign(name);
      for (const inner of readdirSync(full).sort()) {
        const relative = `${name}/${inner}`;
        if (targetName(relative) !== relative || !statSync(join(full, inner)).isFile()) {
          throw foreign(relative);
        }
        current.files.set(relative, readFileSync(join(full, inner)));
      }
    } else if (name === README_FILE) {
      current.readme = readFileSync(full, "utf8");
    } else if (name === RECORD_FILE) {
      current.record = readFileSync(full, "utf8");
    } else if (name === CHANGES_FILE) {
      current.changes = readFileSync(full, "utf8");
    } else if (targetName(name) !== undefined && stat.isFile()) {
      current.files.set(name, readFileSync(full));
    } else {
      throw foreign(name);
    }
  }
  return current;
}

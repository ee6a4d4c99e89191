import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { GENERATOR_VERSION, ROOT } from "../paths.js";

let cached: string | undefined;

/**
 * A hash of everything besides the input that decides the output: the generator's
 * compiled code, its templates and runtime, and the exact versions of every package it
 * depends on. Same inputs + same options + same fingerprint ⇒ byte-identical output, which
 * is what lets `check` confirm a clean tree without regenerating it.
 */
export function generatorFingerprint(): string {
  if (cached) return cached;
  const hash = createHash("sha256").update(`acp-codegen ${GENERATOR_VERSION}\n`);
  for (const dir of ["dist/generator", "dist/runtime", "templates"]) {
    for (const file of listFiles(join(ROOT, dir))) {
      hash
        .update(`${dir}/${file}\n`)
        .update(readFileSync(join(ROOT, dir, file)))
        .update("\n");
    }
  }
  for (const line of dependencyVersions()) hash.update(`${line}\n`);
  cached = hash.digest("hex");
  return cached;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/** `name@version` for the whole installed dependency closure of the generator, sorted. */
function dependencyVersions(): string[] {
  const seen = new Map<string, string>();
  const visit = (fromDir: string, name: string) => {
    let manifestPath: string;
    try {
      manifestPath = createRequire(join(fromDir, "package.json")).resolve(`${name}/package.json`);
    } catch {
      return; // packages whose exports hide package.json: their parent's version pins them
    }
    const pkg = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      version: string;
      dependencies?: Record<string, string>;
    };
    const key = `${name}@${pkg.version}`;
    if (seen.has(key)) return;
    seen.set(key, manifestPath);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(join(manifestPath, ".."), dep);
  };
  const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  for (const dep of Object.keys(root.dependencies ?? {})) visit(ROOT, dep);
  return [...seen.keys()].sort();
}

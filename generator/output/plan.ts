import { createHash } from "node:crypto";
import type { OutputFile } from "../emit/output.js";
import type { PackageOptions } from "../emit/package.js";
import type { ProtocolModel } from "../model/protocol.js";
import { GENERATOR_VERSION } from "../paths.js";
import { generatorFingerprint } from "./fingerprint.js";

export const MANIFEST = "acp-codegen.json";

/** What `generate` recorded, so `check` can tell a schema change from a hand edit. */
export interface Manifest {
  generator: { name: "acp-codegen"; version: string; fingerprint: string };
  options: PackageOptions;
  inputs: Record<string, string>;
  /**
   * The `--extension` files, by their path relative to the package folder, with their
   * hashes; absent without any.
   */
  extensions?: Record<string, string>;
  /** `--extension-surfaces`, when given with extensions. */
  extensionSurfaces?: string[];
  files: Record<string, string>;
}

const SAFE_PATH = /^(?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_.-]+$/;

/**
 * Merge every emitter's files into one sorted list, refusing duplicates and any path that
 * could leave the output folder, and add the manifest.
 */
export function plan(
  model: ProtocolModel,
  options: PackageOptions,
  emitted: OutputFile[],
  extensionSurfaces?: readonly string[],
): OutputFile[] {
  const byPath = new Map<string, string>();
  for (const file of emitted) {
    if (
      !SAFE_PATH.test(file.path) ||
      file.path.split("/").some((part) => part === "." || part === "..")
    ) {
      throw new Error(`internal error: unsafe output path ${JSON.stringify(file.path)}`);
    }
    if (byPath.has(file.path)) throw new Error(`internal error: two emitters wrote ${file.path}`);
    byPath.set(file.path, file.content);
  }
  const files = [...byPath.keys()]
    .sort()
    .map((path) => ({ path, content: byPath.get(path) as string }));
  const manifest: Manifest = {
    generator: {
      name: "acp-codegen",
      version: GENERATOR_VERSION,
      fingerprint: generatorFingerprint(),
    },
    options,
    inputs: Object.fromEntries(model.inputs.map((f) => [f.name, f.sha256])),
    ...(model.extensions.length > 0
      ? { extensions: Object.fromEntries(model.extensions.map((f) => [f.name, f.sha256])) }
      : {}),
    ...(extensionSurfaces && model.extensions.length > 0
      ? { extensionSurfaces: [...extensionSurfaces] }
      : {}),
    files: Object.fromEntries(files.map((f) => [f.path, sha256(f.content)])),
  };
  files.push({ path: MANIFEST, content: `${JSON.stringify(manifest, null, 2)}\n` });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function sha256(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}

/**
 * The manifest with the generator fingerprint blanked: a generator rebuilt with identical
 * output must not count as drift, only as a reason to take the slow path once.
 */
export function withoutFingerprint(manifestText: string): string {
  return manifestText.replace(/("fingerprint": )"[0-9a-f]*"/, '$1""');
}

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Command } from "commander";
import { afterAll } from "vitest";
import { registerDiff } from "../../generator/diff/command.js";

/** A temporary folder for this test file, removed when its tests are done. */
export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "acp-diff-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Write files (path → JSON value, or raw text) under `root`; returns `root`. */
export function writeTree(root: string, files: Record<string, unknown>): string {
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  }
  return root;
}

export interface Run {
  code: number;
  out: string[];
  err: string[];
  error?: unknown;
}

/**
 * Run `diff` on a bare commander program with only `registerDiff` wired in, as cli.ts does.
 * Errors are returned rather than printed: turning them into one line and exit 2 is main()'s job.
 */
export async function runDiffCommand(args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const program = new Command("acp-codegen").exitOverride().configureOutput({
    writeOut: (s) => out.push(s.trimEnd()),
    writeErr: (s) => err.push(s.trimEnd()),
  });
  registerDiff(program, { out: (l) => out.push(l), err: (l) => err.push(l) });
  try {
    await program.parseAsync(["diff", ...args], { from: "user" });
    return { code: (program.getOptionValue("exitCode") as number | undefined) ?? 0, out, err };
  } catch (error) {
    return { code: -1, out, err, error };
  }
}

/** A flat release: one schema.json holding these definitions. */
export function flatRelease(defs: Record<string, unknown>): Record<string, unknown> {
  return {
    "schema.json": { $schema: "https://json-schema.org/draft/2020-12/schema", $defs: defs },
  };
}

import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTree } from "../generator/output/write.js";
import { ROOT } from "../generator/paths.js";
import {
  type CliRun,
  cli,
  importSurface,
  SCHEMA_DIR,
  tempDir,
  typeCheckDeclarations,
} from "./support/run.js";

/** One crafted input and what must happen with it (test/fixtures/hostile/<name>/case.json). */
interface HostileCase {
  expect: "error" | "generated";
  why: string;
  /** error: a pattern the single stderr line must match. */
  stderr?: string;
  /** generated: values and the verdict the generated guard must give. */
  samples?: Array<{ type: string; value: unknown; valid: boolean }>;
  /** generated: a chain of `depth` nested values through the `next` property. */
  deepSample?: { type: string; depth: number; valid: boolean };
  typesMustNotMatch?: string[];
  methods?: Record<string, Record<string, string>>;
  warnings?: string[];
}

const HOSTILE_DIR = join(ROOT, "test", "fixtures", "hostile");
const CASES = readdirSync(HOSTILE_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map(
    (e) =>
      [
        e.name,
        JSON.parse(readFileSync(join(HOSTILE_DIR, e.name, "case.json"), "utf8")) as HostileCase,
      ] as const,
  );

const work = tempDir("hostile");
const sentinel = join(work.path, "sentinel");
const ACCEPTED = CASES.filter(([, c]) => c.expect === "generated");

beforeAll(async () => {
  expect(
    (await cli("generate", "--schema-dir", join(SCHEMA_DIR), "--out", sentinel, "--quiet")).code,
  ).toBe(0);
});
afterAll(() => work.remove());

/**
 * One generate per accepted case, made by whichever test needs it first (its own test, or
 * the joint type-check), so each test holds up on its own and in any order.
 */
const generations = new Map<string, Promise<{ out: string; run: CliRun }>>();
function generated(name: string): Promise<{ out: string; run: CliRun }> {
  let pending = generations.get(name);
  if (!pending) {
    const out = join(work.path, `gen-${name}`);
    pending = cli(
      "generate",
      "--schema-dir",
      join(HOSTILE_DIR, name),
      "--out",
      out,
      "--quiet",
    ).then((run) => ({ out, run }));
    generations.set(name, pending);
  }
  return pending;
}

describe.each(CASES.filter(([, c]) => c.expect === "error"))("rejected: %s", (name, c) => {
  it("exits 2 with one line naming file and pointer, and leaves --out untouched", async () => {
    const out = join(work.path, `out-${name}`);
    cpSync(sentinel, out, { recursive: true });
    const before = readTree(out);
    const siblingsBefore = readdirSync(work.path).sort();
    for (const command of ["generate", "check"]) {
      const run = await cli(command, "--schema-dir", join(HOSTILE_DIR, name), "--out", out);
      expect(run.code, c.why).toBe(2);
      expect(run.stderr).toHaveLength(1);
      expect(run.stderr[0]).toMatch(new RegExp(c.stderr ?? "^$"));
      expect(run.stderr[0]).toMatch(/^acp-codegen: \S*(schema|meta)\.json#\S*: /);
    }
    expect(readTree(out)).toEqual(before);
    expect(readdirSync(work.path).sort()).toEqual(siblingsBefore);
  });
});

describe.each(ACCEPTED)("generated safely: %s", (name, c) => {
  it("generates, and the guards give the schema's verdicts", async () => {
    const { out, run } = await generated(name);
    expect(run.code, run.stderr.join("\n")).toBe(0);
    const warnings = run.stderr.filter((l) => l.startsWith("warning:"));
    expect(run.stderr.length).toBe(warnings.length);
    for (const w of c.warnings ?? []) expect(warnings.join("\n")).toContain(w);

    const polluted = Object.getOwnPropertyNames(Object.prototype).length;
    const mod = await importSurface(out, "v1");
    for (const sample of c.samples ?? []) {
      const guard = mod[`is${sample.type}`] as (v: unknown) => boolean;
      expect(guard(sample.value), `${sample.type} ${JSON.stringify(sample.value)}`).toBe(
        sample.valid,
      );
    }
    if (c.deepSample) {
      let value: unknown = { value: 0, next: null };
      for (let i = 1; i < c.deepSample.depth; i++) value = { value: i, next: value };
      expect((mod[`is${c.deepSample.type}`] as (v: unknown) => boolean)(value)).toBe(
        c.deepSample.valid,
      );
      const result = (
        mod[`validate${c.deepSample.type}`] as (v: unknown) => {
          valid: boolean;
          issues: Array<{ keyword: string }>;
        }
      )(value);
      expect(result.valid).toBe(false);
      expect(result.issues[0]?.keyword).toBe("depth");
    }
    for (const [constant, expected] of Object.entries(c.methods ?? {}))
      expect(mod[constant]).toEqual(expected);
    const types = readFileSync(join(out, "v1", "types.d.ts"), "utf8");
    for (const pattern of c.typesMustNotMatch ?? [])
      expect(types).not.toMatch(new RegExp(pattern, "m"));
    expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(polluted);
  });
});

describe("generated code from every accepted hostile input", () => {
  it("type-checks under strict in one compiler run", async () => {
    const outputs: Array<{ out: string; run: CliRun }> = [];
    for (const [name] of ACCEPTED) outputs.push(await generated(name));
    for (const { run } of outputs) expect(run.code, run.stderr.join("\n")).toBe(0);
    const tsc = typeCheckDeclarations(
      work.path,
      outputs.map((o) => o.out),
    );
    expect(tsc.output).toBe("");
    expect(tsc.status).toBe(0);
  });
});

describe("a huge schema", () => {
  const build = async (name: string, defs: Record<string, unknown>) => {
    const dir = join(work.path, `${name}-schema`);
    cpSync(join(HOSTILE_DIR, "empty-defs"), dir, { recursive: true });
    writeFileSync(join(dir, "schema.json"), JSON.stringify({ $defs: defs }));
    const out = join(work.path, `${name}-out`);
    return { out, run: await cli("generate", "--schema-dir", dir, "--out", out, "--quiet") };
  };

  it("with 2,000 definitions generates and validates", async () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) defs[`Leaf${i}`] = { type: "integer", format: "uint32" };
    for (let i = 0; i < 1950; i++) {
      defs[`Def${i}`] = {
        type: "object",
        properties: { id: { $ref: `#/$defs/Leaf${i % 50}` }, tag: { const: `t${i}` } },
        required: ["id", "tag"],
      };
    }
    const { out, run } = await build("huge", defs);
    expect(run.code, run.stderr.join("\n")).toBe(0);
    const mod = await importSurface(out, "v1");
    expect((mod.isDef1949 as (v: unknown) => boolean)({ id: 1, tag: "t1949" })).toBe(true);
    expect((mod.isDef1949 as (v: unknown) => boolean)({ id: -1, tag: "t1949" })).toBe(false);
  });

  it("whose $ref chain is too long to follow fails with one clear line, not a crash", async () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++)
      defs[`Def${i}`] = {
        type: "object",
        properties: { next: i === 2999 ? { type: "null" } : { $ref: `#/$defs/Def${i + 1}` } },
      };
    const { out, run } = await build("chain", defs);
    expect(run.code).toBe(2);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(
      /chain-schema: the schema is nested or linked too deeply to process/,
    );
    expect(readdirSync(work.path)).not.toContain(out.split("/").pop());
  });
});

describe("docs/hostile-input.md", () => {
  it("lists every case of the corpus with its outcome", () => {
    const doc = readFileSync(join(ROOT, "docs", "hostile-input.md"), "utf8");
    for (const [name, c] of CASES) {
      expect(doc, name).toMatch(
        new RegExp(
          `^\\| \`${name}\` \\| ${c.expect === "error" ? "rejected" : "generated"} \\|`,
          "m",
        ),
      );
    }
    const rows = [...doc.matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1]);
    expect(new Set(rows)).toEqual(new Set(CASES.map(([name]) => name)));
  });
});

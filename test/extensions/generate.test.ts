import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileStrict } from "../support/compile.js";
import { exportedTypes, parse } from "../support/declarations.js";
import { cli, importSurface, readJson, SCHEMA_DIR, tempDir } from "../support/run.js";
import { surfacesOf } from "../support/surfaces.js";
import { declaredMethods, PROBE, readExtension } from "./support.js";

/**
 * A package generated with `--extension` on every surface of the vendored schema: the
 * extension's definitions get types, validators and parsers like the protocol's, and its
 * methods join the method tables and the connection's interfaces under names derived like
 * the protocol's. Every expectation is read from the extension file.
 */

const extension = readExtension(PROBE);
const methods = declaredMethods(extension);
const surfaces = surfacesOf(SCHEMA_DIR);
const out = tempDir("ext-generate");
afterAll(() => out.remove());

/** Values each definition must refuse; the test fails when a definition has none. */
const INVALID: Record<string, unknown[]> = {
  ProbeEchoRequest: [
    { sessionId: "s", text: "" },
    { sessionId: "s", text: "a", times: 70_000 },
  ],
  ProbeEchoResponse: [{ parts: [{ index: -1, text: "a" }] }, {}],
  ProbePart: [{ index: 1 }],
  ProbeStatusNotification: [{ state: "gone" }],
  ProbeSyncRequest: [{ since: 1.5 }],
  ProbeSyncResponse: [{ now: "13" }],
};

type Fn = (value: unknown) => unknown;

beforeAll(async () => {
  const result = await cli("generate", "--out", out.path, "--extension", PROBE, "--quiet");
  expect(result.stderr).toEqual([]);
  expect(result.code).toBe(0);
}, 120_000);

describe("generate --extension: every surface", () => {
  it("the test's table covers every definition of the extension", () => {
    expect(Object.keys(INVALID).sort()).toEqual(Object.keys(extension.$defs).sort());
  });

  describe.each(surfaces.map((s) => s.id))("%s", (id) => {
    it("types, guards and parsers for every extension definition", async () => {
      const path = join(out.path, id, "types.d.ts");
      const types = exportedTypes(parse(path, readFileSync(path, "utf8")));
      const entry = await importSurface(out.path, id);
      for (const [key, def] of Object.entries(extension.$defs)) {
        expect(types.get(key), key).toBe(1);
        const is = entry[`is${key}`] as Fn;
        const parse = entry[`parse${key}`] as Fn;
        for (const example of def.examples as unknown[]) {
          expect(is(example), `${key} accepts ${JSON.stringify(example)}`).toBe(true);
          expect(parse(example)).toEqual(example);
        }
        for (const bad of INVALID[key] ?? []) {
          expect(is(bad), `${key} refuses ${JSON.stringify(bad)}`).toBe(false);
          expect(() => parse(bad)).toThrow(/invalid/);
        }
      }
    });

    it("METHODS, the method constants and the method maps list the extension's methods", async () => {
      const entry = await importSurface(out.path, id);
      const table = entry.METHODS as Array<Record<string, unknown>>;
      const maps = readFileSync(join(out.path, id, "methods.d.ts"), "utf8");
      for (const m of methods) {
        expect(table).toContainEqual({
          method: m.method,
          side: m.side,
          kind: m.kind,
          key: m.key,
          handler: m.handler,
          params: m.params,
          result: m.result,
        });
        for (const side of m.servedBy) {
          expect((entry[`${side.toUpperCase()}_METHODS`] as Record<string, string>)[m.key]).toBe(
            m.method,
          );
          const map = `${side[0]?.toUpperCase()}${side.slice(1)}${m.kind === "request" ? "Request" : "Notification"}Map`;
          const body = between(maps, `export interface ${map} {`, "\n}");
          const result = m.result ? ` result: T.${m.result};` : "";
          expect(body).toContain(
            `"${m.method}": { kind: "${m.kind}"; params: T.${m.params};${result} };`,
          );
        }
      }
    });

    it("an optional handler on the serving side's interface and a typed call on its remote", () => {
      const dts = readFileSync(join(out.path, id, "connection.d.ts"), "utf8");
      for (const m of methods) {
        for (const side of m.servedBy) {
          const role = side === "agent" ? "Agent" : "Client";
          // `Agent<Strict extends boolean = false>` where the surface has an open reading.
          const head = dts.match(
            new RegExp(`export interface ${role}(?:<[^>]*>)? extends ExtensionHandlers \\{`),
          );
          expect(head, `${role}'s handler interface is declared`).not.toBeNull();
          const handlers = between(dts, head?.[0] ?? "", "\n}");
          const remote = between(dts, `export interface Remote${role} {`, "\n}");
          const context = m.kind === "request" ? "RequestContext" : "NotificationContext";
          const result = m.result ? `T.${m.result}` : "void";
          const returns = `${result} | Promise<${result}>`;
          expect(handlers).toContain(
            `  ${m.handler}?(params: T.${m.params}, context: ${context}): ${returns};`,
          );
          expect(remote).toContain(`  ${m.handler}(params: T.${m.params}`);
        }
      }
    });

    it("typed _meta keys: optional in the type, validated strictly, dropped alone by parse when they do not fit", async () => {
      const types = declarationTexts(join(out.path, id, "types.d.ts"));
      const entry = await importSurface(out.path, id);
      for (const [target, keys] of Object.entries(extension["x-meta"] ?? {})) {
        const is = entry[`is${target}`] as Fn;
        const parse = entry[`parse${target}`] as Fn;
        const base = { toolCallId: "call-1" };
        expect(is(base)).toBe(true);
        for (const [key, schema] of Object.entries(keys)) {
          expect(ownerOf(types, `${JSON.stringify(key)}?: `)).toBe(target);
          const good = (schema as { enum: string[] }).enum[0];
          const fits = { ...base, _meta: { [key]: good, other: 1 } };
          const misfit = { ...base, _meta: { [key]: 42, other: 1 } };
          expect(is(fits)).toBe(true);
          expect(is(misfit)).toBe(false);
          expect(parse(fits)).toEqual(fits);
          expect(parse(misfit)).toEqual({ ...base, _meta: { other: 1 } });
        }
      }
    });
  });

  it("a strict consumer compiles typed handlers and calls, and the compiler refuses wrong ones", () => {
    const lines = surfaces.flatMap((s, i) => [
      `import type { Agent as A${i}, Client as C${i}, RemoteAgent as R${i} } from "./${s.id}/index.js";`,
    ]);
    surfaces.forEach((_, i) => {
      lines.push(
        `export const echo${i}: NonNullable<A${i}["probeEcho"]> = (p) => ({ parts: [{ index: 0, text: p.text }] });`,
        `export const status${i}: NonNullable<C${i}["probeStatus"]> = (p) => { const s: "starting" | "ready" = p.state; void s; };`,
        `export const call${i} = (r: R${i}) => r.probeEcho({ sessionId: "s", text: "t" }).then((x) => x.parts.length);`,
        "// @ts-expect-error the result's parts hold text, not numbers",
        `export const wrong${i}: NonNullable<A${i}["probeEcho"]> = () => ({ parts: [{ index: 0, text: 1 }] });`,
        "// @ts-expect-error text is required",
        `export const missing${i} = (r: R${i}) => r.probeEcho({ sessionId: "s" });`,
      );
    });
    const consumer = join(out.path, "consumer.ts");
    writeFileSync(consumer, `${lines.join("\n")}\n`);
    // No DOM, no @types/node: the package alone must compile.
    const tsc = compileStrict(
      out.path,
      [consumer],
      { lib: ["es2020"], types: [], noUncheckedIndexedAccess: false },
      "tsconfig.consumer.json",
    );
    expect(tsc.output).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("the manifest records the extension by its path from the package, with its hash", () => {
    const manifest = readJson<{ extensions?: Record<string, string> }>(
      join(out.path, "acp-codegen.json"),
    );
    const name = relative(out.path, PROBE).split(sep).join("/");
    expect(Object.keys(manifest.extensions ?? {})).toEqual([name]);
    expect(manifest.extensions?.[name]).toMatch(/^[0-9a-f]{64}$/);
  });
});

function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  expect(from, `${start} is declared`).toBeGreaterThanOrEqual(0);
  const to = text.indexOf(end, from + start.length);
  return text.slice(from, to);
}

/**
 * A types.d.ts and the declaration files it takes names from (an unstable surface's takes the
 * stable surface's unchanged declarations from `../types.js`), each file's text on its own.
 */
function declarationTexts(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const sources = [...text.matchAll(/^(?:import|export) [^;]*? from "(\.[^"]+)\.js";/gm)].map((m) =>
    join(dirname(path), `${m[1]}.d.ts`),
  );
  return [text, ...new Set(sources)].map((t, i) => (i === 0 ? t : readFileSync(t, "utf8")));
}

/** The type whose declaration holds `needle` (the last `export interface|type` before it). */
function ownerOf(files: string[], needle: string): string | undefined {
  const types = files.find((t) => t.includes(needle));
  expect(types, `${needle} is declared`).toBeDefined();
  const text = types ?? "";
  const at = text.indexOf(needle);
  const declarations = [...text.slice(0, at).matchAll(/^export (?:interface|type) (\w+)/gm)];
  return declarations.at(-1)?.[1];
}

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Diagnostics } from "../../generator/diagnostics.js";
import { surfaceContexts } from "../../generator/emit/contexts.js";
import { emitParsers } from "../../generator/emit/parsers.js";
import { loadSchemaDir } from "../../generator/load/index.js";
import { buildModel } from "../../generator/model/build.js";
import { buildSymbols } from "../../generator/symbols/table.js";
import { heldReleases, tempDir } from "../support/run.js";
import { attempt, buildParsePackage, clone, deepFreeze } from "./support.js";

/**
 * The rules no ACP release exercises (a synthetic schema), prototype safety, the
 * hot path's identity, and the emitter on every release we hold.
 */
const work = tempDir("parse-edges");
afterAll(() => work.remove());

const synthetic = await buildParsePackage(
  join(import.meta.dirname, "fixtures", "synthetic"),
  join(work.path, "synthetic"),
);
const widget = synthetic.surfaces.get("v1");
if (!widget) throw new Error("synthetic surface missing");
const parseWidget = widget.parsers.parseWidget as (v: unknown) => unknown;
const isWidget = widget.guards.isWidget as (v: unknown) => boolean;

/** Defaults of the synthetic Widget, filled in whenever they are missing. */
const FILLED = { size: 1, options: { constructor: "c", prototype: "p" } };
const BASE = { name: "w", kind: "small" };

describe("rules the releases do not exercise (synthetic schema)", () => {
  it.each([
    [
      "a required default-on-error property with no default stays an error",
      { ...BASE, kind: "huge" },
      { error: "/kind" },
    ],
    ["an unknown x- annotation is ignored", { ...BASE, note: 5 }, { error: "/note" }],
    ["a missing property with a default is filled in", BASE, { value: { ...BASE, ...FILLED } }],
    ["default-on-error uses the default", { ...BASE, size: -3 }, { value: { ...BASE, ...FILLED } }],
    [
      "default-on-error on an optional array without default falls back to []",
      { ...BASE, tags: 7 },
      { value: { ...BASE, ...FILLED, tags: [] } },
    ],
    [
      "default-on-null on a map gives {}",
      { ...BASE, labels: null },
      { value: { ...BASE, ...FILLED, labels: {} } },
    ],
    [
      "skip-invalid-items keeps a repaired item and drops one beyond repair",
      { ...BASE, parts: [{ id: "x", weight: "heavy" }, { weight: 1 }, { id: "y" }] },
      { value: { ...BASE, ...FILLED, parts: [{ id: "x" }, { id: "y" }] } },
    ],
    [
      "values of additionalProperties are repaired",
      { ...BASE, byName: { a: { id: "q", weight: "z" }, b: { id: "r", weight: 2 } } },
      { value: { ...BASE, ...FILLED, byName: { a: { id: "q" }, b: { id: "r", weight: 2 } } } },
    ],
    [
      "a check that cannot be split (unevaluatedProperties beside $ref) still decides",
      { ...BASE, sealed: { id: "p", extra: 1 } },
      { value: { ...BASE, ...FILLED } },
    ],
    [
      "… and keeps a valid value",
      { ...BASE, sealed: { id: "p", flag: true } },
      { value: { ...BASE, ...FILLED, sealed: { id: "p", flag: true } } },
    ],
  ])("%s", (_rule, input, expected) => {
    const frozen = deepFreeze(clone(input));
    const outcome = attempt(parseWidget, frozen);
    if ("error" in expected) {
      expect(outcome.ok).toBe(false);
      const issues = (outcome as { error: { issues: Array<{ instancePath: string }> } }).error
        .issues;
      expect(issues.map((i) => i.instancePath)).toContain(expected.error);
    } else {
      expect(outcome).toEqual({ ok: true, value: expected.value });
      expect(isWidget((outcome as { value: unknown }).value)).toBe(true);
    }
  });

  it("gives every result its own copy of a default", () => {
    const first = parseWidget(BASE) as { options: { constructor: string } };
    first.options.constructor = "changed";
    expect((parseWidget(BASE) as typeof first).options.constructor).toBe("c");
  });
});

describe("prototype safety and the hot path", () => {
  const parsePart = widget.parsers.parsePart as (v: unknown) => unknown;
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  const hostile = (weight: string) =>
    JSON.parse(
      `{"name":"w","kind":"small","size":2,"options":{},"__proto__":{"polluted":1},` +
        `"constructor":{"prototype":{"polluted":2}},` +
        `"parts":[{"id":"a","weight":${weight},"__proto__":{"polluted":3}}],` +
        `"byName":{"__proto__":{"id":"b","weight":${weight}},"prototype":{"id":"c"}}}`,
    );

  it.each([
    ["valid", "1"],
    ["repaired", '"heavy"'],
  ])(
    "drops every __proto__ key, keeps declared and map keys named like prototype members: %s",
    (_label, weight) => {
      const input = deepFreeze(hostile(weight));
      const out = parseWidget(input) as Record<string, unknown> & {
        parts: Array<Record<string, unknown>>;
        byName: Record<string, Record<string, unknown>>;
      };
      for (const object of [out, out.parts[0], out.byName, out.byName.prototype])
        expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
      expect(Object.hasOwn(out, "__proto__")).toBe(false);
      expect(Object.hasOwn(out.byName, "__proto__")).toBe(false);
      expect(Object.hasOwn(out.parts[0] as object, "__proto__")).toBe(false);
      // `constructor` is not a Widget property: dropped like any undeclared key. `prototype` is
      // a key of the byName map, which admits any key.
      expect(Object.hasOwn(out, "constructor")).toBe(false);
      expect(out.byName.prototype).toEqual({ id: "c" });
      expect(out.parts).toEqual([weight === "1" ? { id: "a", weight: 1 } : { id: "a" }]);
      expect(({} as { polluted?: number }).polluted).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    },
  );

  it("returns a valid value itself; a repair copies only what changes", () => {
    const valid = deepFreeze({ id: "p", weight: 1 });
    expect(parsePart(valid)).toBe(valid);
    const input = deepFreeze({
      ...BASE,
      ...FILLED,
      parts: [{ id: "x", weight: "heavy" }],
      byName: { a: { id: "a" } },
    });
    const out = parseWidget(input) as typeof input;
    expect(out).not.toBe(input);
    expect(out.parts).toEqual([{ id: "x" }]);
    expect(out.byName).toBe(input.byName);
  });

  it("reports what cannot be repaired with instance paths", () => {
    const outcome = attempt(parseWidget, {
      ...BASE,
      parts: [{ id: 1 }],
      byName: { a: { weight: 1 } },
    });
    expect(outcome.ok).toBe(false);
    const error = (
      outcome as { error: { name: string; type: string; issues: Array<{ instancePath: string }> } }
    ).error;
    expect(error.name).toBe("ValidationError");
    expect(error.type).toBe("Widget");
    expect(error.issues.map((i) => i.instancePath)).toEqual(["/byName/a"]);
  });
});

describe("the emitter on every release we hold", () => {
  const releases = heldReleases();

  it.each(releases)(
    "%s: emits parsers as valid ES modules, deterministically",
    async (label, dir) => {
      const model = buildModel(loadSchemaDir(dir, dir, new Diagnostics()));
      const symbols = buildSymbols(model);
      // As the pipeline emits them, beside one another: a stable surface with an unstable one
      // also writes the plan both share.
      for (const context of await surfaceContexts(model, symbols, new Diagnostics())) {
        const { surface } = context;
        const first = await emitParsers(context);
        // Twice for one release: byte-identical output (no map or set order leaks in).
        if (label === "vendored") expect(await emitParsers(context)).toEqual(first);
        // No release has a subschema check the runtime cannot read as data, so none has a
        // second compiled module of checks: parse asks the definitions' validators.
        const shared = context.unstable ? ["shared-parsers.js"] : [];
        expect(first.map((f) => f.path)).toEqual(
          ["parsers.js", ...shared].map((file) => `${surface.id}/${file}`),
        );
        const folder = join(work.path, "syntax", label.replace(/\W+/g, "-"), surface.id);
        mkdirSync(folder, { recursive: true });
        for (const file of first.filter((f) => f.path.endsWith(".js"))) {
          const path = join(folder, `${file.path.split("/").pop()}`.replace(/\.js$/, ".mjs"));
          writeFileSync(path, file.content);
          const check = spawnSync(process.execPath, ["--check", path], { encoding: "utf8" });
          expect(check.stderr, `${label} ${file.path}`).toBe("");
        }
      }
    },
  );
});

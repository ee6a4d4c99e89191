import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type * as Runtime from "../../templates/runtime/parse.js";
import type { Reading, UnknownVariant } from "../../templates/runtime/parse.js";
import { SCHEMA_DIR, tempDir } from "../support/run.js";
import { SchemaArbitraries, SchemaChecker } from "./arbitrary.js";
import { type MutationContext, mutate, mutationsArbitrary } from "./mutate.js";
import { buildParsePackage, deepFreeze } from "./support.js";
import { tagGroups } from "./tagged.js";

/**
 * The generated fast walks (generator/emit/shape-walks.ts) against the runtime's interpreter
 * (templates/runtime/parse-reshape.ts, parse-choice.ts), node by node. Both implement what
 * serde keeps of a valid value, the union-choice rule above all, once each: here every
 * node's fast walk must give what the interpreter alone gives (a plan whose every walk is
 * the interpreter) on the value that reaches that node, under the reading it is read with,
 * and report the same unknown variants. The values: generated from the schema for every
 * definition, mutated or not, then made what the walks are given (the valid value itself,
 * or the value the repair plan made valid; under the open reading, one its check admits).
 *
 * `ACP_WALK_RUNS=n` runs n cases per definition.
 */
const SEED = 20260412;
const RUNS_PER_DEFINITION = Number(process.env.ACP_WALK_RUNS ?? 20);

const work = tempDir("parse-walks");
afterAll(() => work.remove());
const pkg = await buildParsePackage(SCHEMA_DIR, work.path);
const runtime = (await import(
  pathToFileURL(join(work.path, "runtime", "index.js")).href
)) as typeof Runtime;

type Walk = (value: unknown, reading: Reading) => unknown;

/** The tables a parsers.js hands its plan, exported by a copy of the module made for the test. */
interface Tables {
  nodes: () => readonly Runtime.PlanNode[];
  shapes: () => readonly Runtime.ShapeNode[];
  checks: readonly Runtime.Check[];
  walks: readonly Walk[];
}

/** What a definition's `parse<Name>` passes its plan: the shape and repair roots, the open check. */
interface Roots {
  type: string;
  shape: number;
  repair: number | undefined;
  open: number | undefined;
}

/** parsers.js, plus an export of the tables it builds its plan of (the one line it lacks). */
async function tablesOf(folder: string): Promise<Tables> {
  const text = readFileSync(join(folder, "parsers.js"), "utf8");
  const walks = /P\.createParsePlan\(nodes, shapes, checks, (.*)\);$/m.exec(text)?.[1];
  if (walks === undefined) throw new Error(`${folder}/parsers.js: no createParsePlan call`);
  const copy = join(folder, "parsers.walks-test.js");
  writeFileSync(
    copy,
    `${text}\nexport const tables = { nodes, shapes, checks, walks: ${walks} };\n`,
  );
  return ((await import(pathToFileURL(copy).href)) as { tables: Tables }).tables;
}

/** Each definition's roots, read off the `R(…)` calls of parsers.js and the shared module. */
function rootsOf(folder: string, shared: string | undefined): Roots[] {
  const texts = [readFileSync(join(folder, "parsers.js"), "utf8")];
  if (shared) texts.push(readFileSync(shared, "utf8"));
  const roots = new Map<string, Roots>();
  for (const text of texts)
    for (const [, type, rest] of text.matchAll(
      /\bR\(v, o, \w+, "(\w+)"((?:, (?:\d+|undefined))*)\)/g,
    )) {
      const [shape, repair, open] = (rest as string)
        .split(", ")
        .slice(1)
        .map((n) => (n === "undefined" ? undefined : Number(n)));
      if (shape !== undefined)
        roots.set(type as string, { type: type as string, shape, repair, open });
    }
  return [...roots.values()];
}

interface SurfaceCase {
  id: string;
  tables: Tables;
  roots: Roots[];
  arbitraries: SchemaArbitraries;
  mutations: MutationContext;
  /** The tests' reference validator of a definition, by type name. */
  valid: (type: string) => (value: unknown) => boolean;
  /** Shape nodes compared at least once, and how often under the open reading. */
  seen: Set<number>;
  open: { compared: number };
}

const cases: SurfaceCase[] = [];
for (const [id, modules] of pkg.surfaces) {
  const folder = join(work.path, id);
  const head = readFileSync(join(folder, "parsers.js"), "utf8");
  const sharedFrom = /import \{ base \} from "(.*)";/.exec(head)?.[1];
  const checker = await SchemaChecker.for(modules.surface);
  const defs = new Map(modules.surface.definitions.map((d) => [d.key, d.schema]));
  cases.push({
    id,
    tables: await tablesOf(folder),
    roots: rootsOf(folder, sharedFrom === undefined ? undefined : join(folder, sharedFrom)),
    arbitraries: new SchemaArbitraries(modules.surface, checker),
    mutations: { tags: tagGroups(defs) },
    valid: (type) => {
      const def = modules.surface.definitions.find((d) => d.key === type);
      if (!def) throw new Error(`${id}: no definition ${type}`);
      return checker.definition(def.key, modules.surface.defsKeyword);
    },
    seen: new Set(),
    open: { compared: 0 },
  });
}

/** A reading as the walks take it, with the unknown variants it reports. */
function readingFor(open: boolean): { reading: Reading; reported: UnknownVariant[] } {
  const reported: UnknownVariant[] = [];
  return { reading: open ? { onUnknown: (u) => reported.push(u) } : false, reported };
}

/**
 * The interpreter alone: a plan on the same tables whose every walk is its own interpreter,
 * the check `extra` appended (the definition's validator, for repairing towards it). With
 * `trace`, every node a value reaches is recorded with that value and its reading.
 */
function interpreter(
  tables: Tables,
  extra: Runtime.Check,
  trace?: Array<[number, unknown, boolean]>,
): Runtime.ParsePlan {
  const count = tables.shapes().length;
  const walks: Walk[] = Array.from({ length: count }, (_, i) => (value, reading) => {
    trace?.push([i, value, reading !== false]);
    return plan.reshape(value, i, reading);
  });
  const plan = runtime.createParsePlan(
    tables.nodes,
    tables.shapes,
    [...tables.checks, extra],
    walks,
  );
  return plan;
}

/**
 * The unknown variants a reading reported, each once: a fast walk that meets one in a child
 * and then hands the object to the interpreter (for another key) has the interpreter walk
 * that child again, so it reports the variant twice where the interpreter alone reports it
 * once. Which variants are reported is what must agree.
 */
const kinds = (reported: readonly UnknownVariant[]): string[] =>
  [...new Set(reported.map((u) => `${u.tag} ${JSON.stringify(u.kind)}`))].sort();

/**
 * One node, one value: the fast walk's result and reports against the interpreter's. Equal
 * values, the same object back exactly when the interpreter changes nothing, and the same
 * unknown variants reported; else what differs.
 */
function disagreement(
  c: SurfaceCase,
  pure: Runtime.ParsePlan,
  node: number,
  value: unknown,
  open: boolean,
): string | undefined {
  const ours = readingFor(open);
  const theirs = readingFor(open);
  const walked = (c.tables.walks[node] as Walk)(value, ours.reading);
  const interpreted = pure.reshape(value, node, theirs.reading);
  c.seen.add(node);
  if (open) c.open.compared++;
  const same =
    isDeepStrictEqual(walked, interpreted) &&
    (walked === value) === (interpreted === value) &&
    isDeepStrictEqual(kinds(ours.reported), kinds(theirs.reported));
  if (same) return undefined;
  const show = (result: unknown, reported: UnknownVariant[]) =>
    `${result === value ? "the value itself" : JSON.stringify(result)}, unknown variants [${kinds(reported).join("; ")}]`;
  return `node ${node} (${open ? "open" : "strict"} reading) on ${JSON.stringify(value)}: fast walk ${show(walked, ours.reported)}; interpreter ${show(interpreted, theirs.reported)}`;
}

/** The value the walks are given for `input` under the reading, or undefined: none. */
function walkInput(
  plan: Runtime.ParsePlan,
  roots: Roots,
  valid: (value: unknown) => boolean,
  own: number,
  checks: readonly Runtime.Check[],
  input: unknown,
  open: boolean,
): unknown {
  const accepts = open && roots.open !== undefined ? (checks[roots.open] as Runtime.Check) : valid;
  if (accepts(input)) return input;
  if (roots.repair === undefined) return undefined;
  return plan.repairedAs(input, roots.repair, open && roots.open !== undefined ? roots.open : own);
}

describe.each(cases.map((c) => [c.id, c] as const))(
  "%s: fast walks against the interpreter",
  (_id, c) => {
    let ran = 0;
    it.each(c.roots.map((r) => [r.type, r] as const))("%s", (_type, roots) => {
      const valid = c.valid(roots.type);
      const own = c.tables.checks.length;
      const trace: Array<[number, unknown, boolean]> = [];
      const tracing = interpreter(c.tables, valid, trace);
      const pure = interpreter(c.tables, valid);
      let compared = 0;
      fc.assert(
        fc.property(
          c.arbitraries.definition(roots.type),
          fc.option(mutationsArbitrary, { nil: undefined }),
          fc.boolean(),
          (generated, edits, openWanted) => {
            const input = deepFreeze(
              edits === undefined ? generated : mutate(generated, edits, c.mutations),
            );
            const open = openWanted && roots.open !== undefined;
            const value = walkInput(tracing, roots, valid, own, c.tables.checks, input, open);
            if (value === undefined) return true;
            trace.length = 0;
            tracing.reshape(value, roots.shape, readingFor(open).reading);
            // The root first: the trace holds the nodes below it, each with the value it got.
            const visits: Array<[number, unknown, boolean]> = [
              [roots.shape, value, open],
              ...trace,
            ];
            for (const [node, at, reading] of visits) {
              compared++;
              const differs = disagreement(c, pure, node, at, reading);
              if (differs !== undefined) throw new Error(differs);
            }
            return true;
          },
        ),
        { seed: SEED, numRuns: RUNS_PER_DEFINITION },
      );
      expect(compared).toBeGreaterThan(0);
      ran++;
    });

    // After the definitions' cases, in whatever order they ran: every root and the nodes the
    // values reached below it were compared. Only when every case ran (a `-t` filter runs some).
    afterAll(() => {
      if (ran < c.roots.length) return;
      const total = c.tables.shapes().length;
      const roots = new Set(c.roots.map((r) => r.shape));
      for (const root of roots) expect(c.seen, `root ${root}`).toContain(root);
      expect(c.seen.size / total, `${c.seen.size} of ${total} nodes`).toBeGreaterThan(0.5);
      // The open reading differs only where a closed tagged union is reached.
      if (c.roots.some((r) => r.open !== undefined)) expect(c.open.compared).toBeGreaterThan(0);
    });
  },
);

/**
 * Type-level cases whose subjects differ from one schema release to the next: a method only
 * the unstable surface has, a v1 method v2 dropped. The methods are picked from the schema
 * (its `x-method` / `x-side` annotations, read by the test suite's own reader) when the test
 * package is prepared, and written beside it as `.test-package/schema-cases.ts`, which
 * `npm run typecheck` and test/stubs/types.test.ts compile like test/stubs/type-cases.ts.
 * A bump that changes which methods those are changes the cases, not the tests.
 */
import { join } from "node:path";
import { handlerName } from "./protocol.js";
import { type AnnotatedMethod, annotatedMethods, schemaOf, surfacesOf } from "./surfaces.js";

export const SCHEMA_CASES = "schema-cases.ts";

interface Request extends AnnotatedMethod {
  handler: string;
  result: string;
}

/** The request methods of a surface served by `side`, sorted by wire name, with their result types. */
function requests(surfaceId: string, side: string, schemaDir: string): Request[] {
  const surface = surfacesOf(schemaDir).find((s) => s.id === surfaceId);
  if (!surface) return [];
  const schema = schemaOf(surface, schemaDir);
  const responses = new Map(
    Object.entries(schema.$defs).flatMap(([name, def]) =>
      name.endsWith("Response") && typeof def["x-method"] === "string"
        ? [[def["x-method"], name] as const]
        : [],
    ),
  );
  return annotatedMethods(schema)
    .filter((m) => m.side === side && m.kind === "request" && responses.has(m.wire))
    .map((m) => ({ ...m, handler: handlerName(m.key), result: responses.get(m.wire) ?? "" }))
    .sort((a, b) => a.wire.localeCompare(b.wire));
}

/** The first of `from` whose wire name `other` lacks. */
const firstMissing = (from: Request[], other: Request[]) =>
  from.find((m) => !other.some((o) => o.wire === m.wire));

/**
 * The source of the cases for the schema folder's surfaces. A case whose subject the schema
 * does not have (no unstable-only method, no v2) is left out, and the file says so in its
 * place.
 */
export function renderSchemaCases(schemaDir: string): string {
  const { unstableOnly, droppedByV2 } = schemaCaseSubjects(schemaDir);
  const lines = [
    "// Written by test/support/schema-cases.ts from the schema the test package comes from.",
    'import type * as stable from "./package/v1/index.js";',
    'import type * as unstable from "./package/v1/unstable/index.js";',
    'import type * as v2 from "./package/v2/index.js";',
    "",
    "declare const clientSide: stable.ClientSideConnection;",
    "declare const unstableClientSide: unstable.ClientSideConnection;",
    "declare const v2AgentSide: v2.AgentSideConnection;",
    "declare const minimalAgent: stable.Agent;",
    "",
  ];
  if (unstableOnly) {
    const m = unstableOnly;
    lines.push(
      `// --- ${m.wire}: an agent request only the unstable surface has`,
      `declare const params: unstable.${m.params};`,
      `// @ts-expect-error ${m.wire} is an unstable method: the stable proxy has no such member`,
      `clientSide.agent.${m.handler}(params);`,
      `export const called: Promise<unstable.${m.result}> = unstableClientSide.agent.${m.handler}(params);`,
      `// @ts-expect-error ${m.wire} is not in the stable AgentRequestMap`,
      `clientSide.request(${JSON.stringify(m.wire)}, params);`,
      `export const byName: Promise<unstable.${m.result}> = unstableClientSide.request(${JSON.stringify(m.wire)}, params);`,
      `declare const handler: NonNullable<unstable.Agent[${JSON.stringify(m.handler)}]>;`,
      `export const unstableAgent: unstable.Agent = { ...minimalAgent, ${m.handler}: handler };`,
      "export const stableAgent: stable.Agent = {",
      "  ...minimalAgent,",
      `  // @ts-expect-error ${m.handler} is not an Agent member on the stable surface`,
      `  ${m.handler}: handler,`,
      "};",
      "",
    );
  } else lines.push("// (no agent request only the unstable surface has)", "");
  if (droppedByV2) {
    const m = droppedByV2;
    lines.push(
      `// --- ${m.wire}: a v1 client request v2 does not have`,
      `declare const v1Params: stable.${m.params};`,
      `// @ts-expect-error v2 has no ${m.wire}`,
      `v2AgentSide.client.${m.handler}(v1Params);`,
      "",
    );
  } else lines.push("// (no v1 client request v2 lacks)", "");
  return lines.join("\n");
}

/** The methods the cases are about, read from the schema folder. */
export function schemaCaseSubjects(schemaDir: string): {
  unstableOnly: Request | undefined;
  droppedByV2: Request | undefined;
} {
  return {
    unstableOnly: firstMissing(
      requests("v1/unstable", "agent", schemaDir),
      requests("v1", "agent", schemaDir),
    ),
    droppedByV2: firstMissing(
      requests("v1", "client", schemaDir),
      requests("v2", "client", schemaDir),
    ),
  };
}

/** Where the test package's copy lives (beside `package/`). */
export const schemaCasesPath = (home: string): string => join(home, SCHEMA_CASES);

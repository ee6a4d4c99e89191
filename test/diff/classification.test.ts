import { describe, expect, it } from "vitest";
import { suggestBump } from "../../generator/diff/semver.js";
import { compareModels } from "../../generator/diff/surfaces.js";
import type { JsonObject } from "../../generator/schema/json.js";
import { diffDefs, method, modelOf, verdicts } from "./helpers.js";

/**
 * One small hand-made schema pair per kind of change, with the verdict the rules in
 * generator/diff/change.ts give it: narrowing breaks builders, widening breaks readers,
 * removing a name breaks both.
 */

const obj = (properties: Record<string, unknown>, required: string[] = []): JsonObject =>
  ({ type: "object", properties, ...(required.length ? { required } : {}) }) as JsonObject;

describe("identity", () => {
  it("reports nothing when nothing changed, even if keys are reordered", () => {
    const a = {
      Foo: { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } },
    };
    const b = {
      Foo: { properties: { b: { type: "integer" }, a: { type: "string" } }, type: "object" },
    };
    expect(diffDefs(a as never, b as never)).toEqual([]);
    expect(suggestBump([]).bump).toBe("none");
  });
});

describe("documentation", () => {
  it("a changed description is doc-only and asks for a patch release", () => {
    const changes = diffDefs(
      { Foo: { description: "old", type: "string" } },
      { Foo: { description: "new", type: "string" } },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "doc-changed",
        path: "$defs/Foo",
        breaksBuilders: false,
        breaksReaders: false,
        docOnly: true,
      },
    ]);
    expect(suggestBump(changes).bump).toBe("patch");
  });

  it("a title or example change is doc-only too", () => {
    const changes = diffDefs(
      { Foo: obj({ a: { type: "string", title: "A" } }) },
      { Foo: obj({ a: { type: "string", title: "Aa", examples: ["x"] } }) },
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: "doc-changed",
      docOnly: true,
      path: "$defs/Foo/properties/a",
    });
    expect(changes[0]?.description).toBe("Foo.a: title changed, examples added");
  });

  it("a deprecation is a minor change, not doc-only (semver asks for minor)", () => {
    const changes = diffDefs(
      { Foo: { type: "string" } },
      { Foo: { type: "string", deprecated: true } },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "deprecated-changed",
        path: "$defs/Foo",
        breaksBuilders: false,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    expect(suggestBump(changes).bump).toBe("minor");
  });
});

describe("fields", () => {
  it("an optional field added breaks nobody", () => {
    const changes = diffDefs(
      { Foo: obj({ a: { type: "string" } }) },
      { Foo: obj({ a: { type: "string" }, b: { type: "string" } }) },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "field-added",
        path: "$defs/Foo/properties/b",
        breaksBuilders: false,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    expect(suggestBump(changes).bump).toBe("minor");
  });

  it("a required field added breaks builders only", () => {
    const changes = diffDefs({ Foo: obj({}) }, { Foo: obj({ b: { type: "string" } }, ["b"]) });
    expect(verdicts(changes)).toEqual([
      {
        kind: "field-added",
        path: "$defs/Foo/properties/b",
        breaksBuilders: true,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    expect(suggestBump(changes).bump).toBe("major");
  });

  it("an optional field removed breaks readers; builders only when extra fields are rejected", () => {
    const open = diffDefs({ Foo: obj({ a: { type: "string" } }) }, { Foo: obj({}) });
    expect(verdicts(open)).toEqual([
      {
        kind: "field-removed",
        path: "$defs/Foo/properties/a",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
    const closed = diffDefs(
      { Foo: { ...obj({ a: { type: "string" } }), additionalProperties: false } },
      { Foo: { ...obj({}), additionalProperties: false } },
    );
    expect(closed[0]).toMatchObject({
      kind: "field-removed",
      breaksBuilders: true,
      breaksReaders: true,
    });
  });

  it("optional → required breaks builders; required → optional breaks readers", () => {
    const required = diffDefs(
      { Foo: obj({ a: { type: "string" } }) },
      { Foo: obj({ a: { type: "string" } }, ["a"]) },
    );
    expect(verdicts(required)).toEqual([
      {
        kind: "field-required",
        path: "$defs/Foo/properties/a",
        breaksBuilders: true,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    const optional = diffDefs(
      { Foo: obj({ a: { type: "string" } }, ["a"]) },
      { Foo: obj({ a: { type: "string" } }) },
    );
    expect(verdicts(optional)).toEqual([
      {
        kind: "field-optional",
        path: "$defs/Foo/properties/a",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
  });

  it("changes inside a field are reported at the field's pointer and name", () => {
    const changes = diffDefs(
      { Foo: obj({ list: { type: "array", items: { type: "string" } } }) },
      { Foo: obj({ list: { type: "array", items: { type: "integer" } } }) },
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: "type-changed",
      path: "$defs/Foo/properties/list/items",
      subject: "Foo.list[]",
      breaksBuilders: true,
      breaksReaders: true,
    });
  });

  it("closing an object to unlisted fields breaks builders; opening it breaks nobody", () => {
    const closed = diffDefs({ Foo: obj({}) }, { Foo: { ...obj({}), additionalProperties: false } });
    expect(verdicts(closed)).toEqual([
      {
        kind: "constraint-changed",
        path: "$defs/Foo/additionalProperties",
        breaksBuilders: true,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    const opened = diffDefs({ Foo: { ...obj({}), additionalProperties: false } }, { Foo: obj({}) });
    expect(opened[0]).toMatchObject({ breaksBuilders: false, breaksReaders: false });
  });
});

describe("enums and unions", () => {
  it("an enum value added breaks readers (exhaustive switches); one removed breaks both", () => {
    const added = diffDefs(
      { E: { type: "string", enum: ["a"] } },
      { E: { type: "string", enum: ["a", "b"] } },
    );
    expect(verdicts(added)).toEqual([
      {
        kind: "variant-added",
        path: "$defs/E/enum/1",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
    const removed = diffDefs(
      { E: { type: "string", enum: ["a", "b"] } },
      { E: { type: "string", enum: ["a"] } },
    );
    expect(verdicts(removed)).toEqual([
      {
        kind: "variant-removed",
        path: "$defs/E/enum/1",
        breaksBuilders: true,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
  });

  it("const branches are matched by value, not position (StopReason style)", () => {
    const lit = (v: string) => ({ type: "string", const: v });
    const changes = diffDefs(
      { StopReason: { oneOf: [lit("end_turn"), lit("refusal")] } },
      { StopReason: { oneOf: [lit("max_tokens"), lit("end_turn"), lit("refusal")] } },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "variant-added",
        path: "$defs/StopReason/oneOf/0",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
    expect(changes[0]?.description).toContain('variant "max_tokens" added');
  });

  it("enum and oneOf-of-consts with the same values are the same type", () => {
    const changes = diffDefs(
      { E: { type: "string", enum: ["a", "b"] } },
      {
        E: {
          oneOf: [
            { type: "string", const: "a" },
            { type: "string", const: "b" },
          ],
        },
      },
    );
    expect(changes).toEqual([]);
  });

  it("branches tagged by a property const are matched by tag (SessionUpdate style)", () => {
    const branch = (tag: string, ref: string) => ({
      type: "object",
      properties: { sessionUpdate: { type: "string", const: tag } },
      required: ["sessionUpdate"],
      allOf: [{ $ref: `#/$defs/${ref}` }],
    });
    const defs = {
      Plan: obj({ entries: { type: "array" } }),
      Chunk: obj({ text: { type: "string" } }),
    };
    const changes = diffDefs(
      { ...defs, SessionUpdate: { oneOf: [branch("plan", "Plan")] } },
      {
        ...defs,
        SessionUpdate: { oneOf: [branch("agent_message_chunk", "Chunk"), branch("plan", "Plan")] },
      },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "variant-added",
        path: "$defs/SessionUpdate/oneOf/0",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
    expect(changes[0]?.description).toBe(
      'SessionUpdate: variant "agent_message_chunk" added (code that switches over SessionUpdate must handle it)',
    );
  });

  it("a new variant of an open union (catch-all branch) breaks nobody", () => {
    const lit = (v: string) => ({ type: "string", const: v });
    const other = (known: string[]) => ({ title: "other", type: "string", not: { enum: known } });
    const changes = diffDefs(
      { Kind: { anyOf: [lit("a"), other(["a"])] } },
      { Kind: { anyOf: [lit("a"), lit("b"), other(["a", "b"])] } },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "variant-added",
        path: "$defs/Kind/anyOf/1",
        breaksBuilders: false,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
  });

  it("opening a union (adding its catch-all) breaks readers", () => {
    const lit = (v: string) => ({ type: "string", const: v });
    const changes = diffDefs(
      { Kind: { anyOf: [lit("a"), lit("b")] } },
      { Kind: { anyOf: [lit("a"), lit("b"), { title: "other", type: "string" }] } },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "variant-added",
        path: "$defs/Kind/anyOf/2",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
  });

  it("listing known values of a plain type as an open enum is compatible (ErrorCode style)", () => {
    const changes = diffDefs(
      { Err: obj({ code: { type: "integer", format: "int32" } }) },
      {
        Err: obj({ code: { $ref: "#/$defs/ErrorCode" } }),
        ErrorCode: {
          anyOf: [
            { type: "integer", format: "int32", const: -32700 },
            { type: "integer", format: "int32", description: "Other code." },
          ],
        },
      },
    );
    expect(changes.filter((c) => c.breaksBuilders || c.breaksReaders)).toEqual([]);
    expect(changes.map((c) => c.kind).sort()).toEqual([
      "definition-added",
      "ref-changed",
      "type-changed",
    ]);
  });

  it("a branch whose fields moved into a named definition is the same variant", () => {
    const inline = {
      type: "object",
      properties: { type: { const: "text" }, text: { type: "string" } },
      required: ["type", "text"],
    };
    const named = {
      type: "object",
      properties: { type: { const: "text" } },
      required: ["type"],
      allOf: [{ $ref: "#/$defs/TextContent" }],
    };
    const changes = diffDefs(
      { Block: { oneOf: [inline] } },
      { Block: { oneOf: [named] }, TextContent: obj({ text: { type: "string" } }, ["text"]) },
    );
    expect(changes.filter((c) => c.breaksBuilders || c.breaksReaders)).toEqual([]);
    expect(changes.map((c) => c.kind).sort()).toEqual(["definition-added", "ref-changed"]);
  });
});

describe("types, nullability and references", () => {
  it("a type widened breaks readers, narrowed breaks builders, replaced breaks both", () => {
    const widened = diffDefs({ T: { type: "string" } }, { T: { type: ["string", "number"] } });
    expect(widened[0]).toMatchObject({
      kind: "type-changed",
      breaksBuilders: false,
      breaksReaders: true,
    });
    const narrowed = diffDefs({ T: { type: ["string", "number"] } }, { T: { type: "string" } });
    expect(narrowed[0]).toMatchObject({
      kind: "type-changed",
      breaksBuilders: true,
      breaksReaders: false,
    });
    const replaced = diffDefs({ T: { type: "string" } }, { T: { type: "boolean" } });
    expect(replaced[0]).toMatchObject({
      kind: "type-changed",
      breaksBuilders: true,
      breaksReaders: true,
    });
  });

  it("integer → number widens; number → integer narrows", () => {
    expect(diffDefs({ T: { type: "integer" } }, { T: { type: "number" } })[0]).toMatchObject({
      breaksBuilders: false,
      breaksReaders: true,
    });
    expect(diffDefs({ T: { type: "number" } }, { T: { type: "integer" } })[0]).toMatchObject({
      breaksBuilders: true,
      breaksReaders: false,
    });
  });

  it("null allowed breaks readers; null no longer allowed breaks builders", () => {
    const added = diffDefs(
      { T: obj({ a: { type: "string" } }) },
      { T: obj({ a: { type: ["string", "null"] } }) },
    );
    expect(verdicts(added)).toEqual([
      {
        kind: "nullable-added",
        path: "$defs/T/properties/a",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
    const removed = diffDefs(
      { T: obj({ a: { type: ["string", "null"] } }) },
      { T: obj({ a: { type: "string" } }) },
    );
    expect(removed[0]).toMatchObject({
      kind: "nullable-removed",
      breaksBuilders: true,
      breaksReaders: false,
    });
  });

  it("the spellings of a nullable reference are equivalent", () => {
    const defs = { Ann: obj({}) };
    const changes = diffDefs(
      {
        ...defs,
        T: obj({ a: { description: "x", $ref: "#/$defs/Ann" }, b: { type: ["string", "null"] } }),
      },
      {
        ...defs,
        T: obj({
          a: { description: "x", allOf: [{ $ref: "#/$defs/Ann" }] },
          b: { anyOf: [{ type: "string" }, { type: "null" }] },
        }),
      },
    );
    expect(changes).toEqual([]);
    const nullable = diffDefs(
      { ...defs, T: obj({ a: { $ref: "#/$defs/Ann" } }) },
      { ...defs, T: obj({ a: { anyOf: [{ $ref: "#/$defs/Ann" }, { type: "null" }] } }) },
    );
    expect(verdicts(nullable)).toEqual([
      {
        kind: "nullable-added",
        path: "$defs/T/properties/a/anyOf/0",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
  });

  it("a reference to a renamed but identical definition is compatible; the removed name is not", () => {
    const changes = diffDefs(
      { Old: obj({ x: { type: "string" } }), T: obj({ a: { $ref: "#/$defs/Old" } }) },
      { New: obj({ x: { type: "string" } }), T: obj({ a: { $ref: "#/$defs/New" } }) },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "definition-added",
        path: "$defs/New",
        breaksBuilders: false,
        breaksReaders: false,
        docOnly: false,
      },
      {
        kind: "definition-removed",
        path: "$defs/Old",
        breaksBuilders: true,
        breaksReaders: true,
        docOnly: false,
      },
      {
        kind: "ref-changed",
        path: "$defs/T/properties/a",
        breaksBuilders: false,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
  });

  it("a reference to a definition of another shape reports the difference at the reference", () => {
    const changes = diffDefs(
      { A: obj({ x: { type: "string" } }), T: obj({ a: { $ref: "#/$defs/A" } }) },
      {
        A: obj({ x: { type: "string" } }),
        B: obj({ x: { type: "string" }, y: { type: "string" } }, ["y"]),
        T: obj({ a: { $ref: "#/$defs/B" } }),
      },
    );
    const breaking = changes.filter((c) => c.breaksBuilders || c.breaksReaders);
    expect(verdicts(breaking)).toEqual([
      {
        kind: "field-added",
        path: "$defs/B/properties/y",
        breaksBuilders: true,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    expect(breaking[0]?.subject).toBe("T.a.y");
  });

  it("recursive definitions whose reference changes do not loop", () => {
    const node = (self: string) =>
      obj({ next: { $ref: `#/$defs/${self}` }, v: { type: "string" } });
    const changes = diffDefs(
      { A: node("A"), Root: obj({ n: { $ref: "#/$defs/A" } }) },
      { B: node("B"), Root: obj({ n: { $ref: "#/$defs/B" } }) },
    );
    // Root.n now names B, and so does B.next where A.next named A; the walk stops there.
    expect(changes.filter((c) => c.kind === "ref-changed").map((c) => c.path)).toEqual([
      "$defs/B/properties/next",
      "$defs/Root/properties/n",
    ]);
    expect(changes).toHaveLength(4);
  });
});

describe("constraints, defaults and parsing annotations", () => {
  it("a tighter bound breaks builders, a looser one readers", () => {
    const raised = diffDefs(
      { L: { type: "integer", minimum: 0 } },
      { L: { type: "integer", minimum: 1 } },
    );
    expect(verdicts(raised)).toEqual([
      {
        kind: "constraint-changed",
        path: "$defs/L/minimum",
        breaksBuilders: true,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    const lowered = diffDefs(
      { S: { type: "string", maxLength: 5 } },
      { S: { type: "string", maxLength: 9 } },
    );
    expect(lowered[0]).toMatchObject({ breaksBuilders: false, breaksReaders: true });
    const added = diffDefs({ S: { type: "array" } }, { S: { type: "array", minItems: 1 } });
    expect(added[0]).toMatchObject({ breaksBuilders: true, breaksReaders: false });
  });

  it("a pattern added narrows, removed widens, changed breaks both", () => {
    expect(
      diffDefs({ S: { type: "string" } }, { S: { type: "string", pattern: "^a" } })[0],
    ).toMatchObject({
      breaksBuilders: true,
      breaksReaders: false,
    });
    expect(
      diffDefs({ S: { type: "string", pattern: "^a" } }, { S: { type: "string" } })[0],
    ).toMatchObject({
      breaksBuilders: false,
      breaksReaders: true,
    });
    expect(
      diffDefs(
        { S: { type: "string", pattern: "^a" } },
        { S: { type: "string", pattern: "^b" } },
      )[0],
    ).toMatchObject({
      breaksBuilders: true,
      breaksReaders: true,
    });
  });

  it("a changed default breaks readers; a default that only fills new keys does not", () => {
    const changed = diffDefs(
      { C: { type: "boolean", default: false } },
      { C: { type: "boolean", default: true } },
    );
    expect(verdicts(changed)).toEqual([
      {
        kind: "default-changed",
        path: "$defs/C",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
    const extended = diffDefs(
      { C: { type: "object", default: { a: false, n: { x: 1 } } } },
      { C: { type: "object", default: { a: false, b: false, n: { x: 1, y: 2 } } } },
    );
    expect(extended[0]).toMatchObject({ breaksBuilders: false, breaksReaders: false });
    expect(extended[0]?.description).toBe("C: default now also sets b, n.y");
  });

  it("dropping a lenient-parsing annotation breaks readers; adding one breaks nobody", () => {
    const key = "x-deserialize-default-on-error";
    const removed = diffDefs(
      { T: obj({ a: { type: "string", [key]: true } }) },
      { T: obj({ a: { type: "string" } }) },
    );
    expect(verdicts(removed)).toEqual([
      {
        kind: "parsing-changed",
        path: "$defs/T/properties/a",
        breaksBuilders: false,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
    const added = diffDefs(
      { T: obj({ a: { type: "string" } }) },
      { T: obj({ a: { type: "string", [key]: true } }) },
    );
    expect(added[0]).toMatchObject({ breaksBuilders: false, breaksReaders: false, docOnly: false });
  });

  it("a keyword the diff does not understand is reported as breaking, never dropped", () => {
    const changes = diffDefs(
      { T: { type: "object", dependencies: { a: ["b"] } } },
      { T: { type: "object", dependencies: { a: ["c"] } } },
    );
    expect(verdicts(changes)).toEqual([
      {
        kind: "schema-changed",
        path: "$defs/T/dependencies",
        breaksBuilders: true,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
  });
});

describe("definitions and methods", () => {
  it("a definition added is compatible, one removed breaks both", () => {
    expect(verdicts(diffDefs({}, { A: { type: "string" } }))).toEqual([
      {
        kind: "definition-added",
        path: "$defs/A",
        breaksBuilders: false,
        breaksReaders: false,
        docOnly: false,
      },
    ]);
    expect(verdicts(diffDefs({ A: { type: "string" } }, {}))).toEqual([
      {
        kind: "definition-removed",
        path: "$defs/A",
        breaksBuilders: true,
        breaksReaders: true,
        docOnly: false,
      },
    ]);
  });

  it("a method added is compatible; one removed breaks both; its definitions follow", () => {
    const added = compareModels(
      modelOf({ v1: {} }),
      modelOf({ v1: method("Ping", "ping", "agent") }),
    );
    expect(added.map((c) => c.kind)).toEqual([
      "method-added",
      "definition-added",
      "definition-added",
    ]);
    expect(added[0]).toMatchObject({
      path: "$defs/PingRequest/x-method",
      breaksBuilders: false,
      breaksReaders: false,
    });
    const removed = compareModels(
      modelOf({ v1: method("Ping", "ping", "agent") }),
      modelOf({ v1: {} }),
    );
    expect(removed[0]).toMatchObject({
      kind: "method-removed",
      breaksBuilders: true,
      breaksReaders: true,
    });
  });

  it("stable vs unstable: a method leaving unstable for stable is stabilized, the reverse moved to unstable", () => {
    const both = { ...method("Ping", "ping", "agent"), ...method("Fork", "session/fork", "agent") };
    const before = modelOf({ v1: method("Ping", "ping", "agent"), "v1/unstable": both });
    const after = modelOf({ v1: method("Fork", "session/fork", "agent"), "v1/unstable": both });
    const stable = compareModels(before, after).filter((c) => c.surface === "v1");
    const methods = stable.filter((c) => c.kind.startsWith("method-"));
    expect(methods.map((c) => [c.kind, c.breaksBuilders, c.breaksReaders])).toEqual([
      ["method-stabilized", false, false],
      ["method-moved-to-unstable", true, true],
    ]);
    expect(methods[1]?.description).toBe(
      'ping (request handled by agent): moved to unstable (gone from ".", still in "./unstable")',
    );
    expect(stable.map((c) => c.kind)).toContain("definition-stabilized");
    expect(stable.map((c) => c.kind)).toContain("definition-moved-to-unstable");
    // The unstable surface itself did not change.
    expect(compareModels(before, after).filter((c) => c.surface === "v1/unstable")).toEqual([]);
  });

  it("a method that changes sides breaks both", () => {
    const changes = compareModels(
      modelOf({ v1: method("Ping", "ping", "agent") }),
      modelOf({ v1: method("Ping", "ping", "client") }),
    );
    expect(changes.map((c) => [c.kind, c.breaksBuilders, c.breaksReaders])).toEqual([
      ["method-side-changed", true, true],
    ]);
  });

  it("a method whose params type is renamed but keeps its shape is compatible", () => {
    const before = method(
      "Kill",
      "terminal/kill",
      "client",
      obj({ id: { type: "string" } }, ["id"]),
    );
    const after = method(
      "KillTerminal",
      "terminal/kill",
      "client",
      obj({ id: { type: "string" } }, ["id"]),
    );
    const changes = compareModels(modelOf({ v1: before }), modelOf({ v1: after }));
    const types = changes.filter((c) => c.kind === "method-types-changed");
    expect(types.map((c) => [c.breaksBuilders, c.breaksReaders])).toEqual([
      [false, false],
      [false, false],
    ]);
    expect(types[0]?.description).toContain(
      "params type is now KillTerminalRequest (was KillRequest, same shape)",
    );
  });

  it("a routing-union branch that names a method type follows the method's verdict", () => {
    const route = (refs: string[]) => ({ anyOf: refs.map((r) => ({ $ref: `#/$defs/${r}` })) });
    const before = { ...method("Ping", "ping", "agent"), ClientRequest: route(["PingRequest"]) };
    const after = {
      ...method("Ping", "ping", "agent"),
      ...method("Pong", "pong", "agent"),
      ClientRequest: route(["PingRequest", "PongRequest"]),
    };
    const changes = diffDefs(before, after);
    const variant = changes.find((c) => c.kind === "variant-added");
    expect(variant).toMatchObject({ breaksBuilders: false, breaksReaders: false });
    expect(suggestBump(changes).bump).toBe("minor");
  });
});

describe("surfaces", () => {
  it("a surface that appears is compatible; one that disappears breaks both", () => {
    const added = compareModels(
      modelOf({ v1: {} }),
      modelOf({ v1: {}, v2: { A: { type: "string" } } }),
    );
    expect(added.map((c) => [c.surface, c.kind, c.breaksBuilders])).toEqual([
      ["v2", "surface-added", false],
    ]);
    const removed = compareModels(modelOf({ v1: {}, v2: {} }), modelOf({ v1: {} }));
    expect(removed.map((c) => [c.surface, c.kind, c.breaksBuilders, c.breaksReaders])).toEqual([
      ["v2", "surface-removed", true, true],
    ]);
  });

  it("orders surfaces by version, stable first, whatever order they were loaded in", () => {
    const changes = compareModels(
      modelOf({}),
      modelOf({ "v2/unstable": {}, v2: {}, "v1/unstable": {}, v1: {} }),
    );
    expect(changes.map((c) => c.surface)).toEqual(["v1", "v1/unstable", "v2", "v2/unstable"]);
  });
});

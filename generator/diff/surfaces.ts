import type { ProtocolModel, SurfaceModel } from "../model/protocol.js";
import { escapePointerToken } from "../schema/pointer.js";
import type { Change, Finding } from "./change.js";
import { finding } from "./classification.js";
import { attributeExtensions } from "./extensions.js";
import { compareMethods, type SurfacePair } from "./methods.js";
import { compareDefinition } from "./shape/compare.js";
import type { SchemaSide } from "./shape/walk.js";
import { compareText } from "./text.js";

/**
 * The semantic difference between two releases, as seen by code using the generated
 * package: surfaces (entry points) matched by id, then methods, then definitions.
 * Pure: reads the two models, returns changes in a deterministic order.
 */
export function compareModels(oldModel: ProtocolModel, newModel: ProtocolModel): Change[] {
  const changes: Change[] = [];
  for (const id of surfaceIds(oldModel, newModel)) {
    const before = oldModel.surfaces.find((s) => s.id === id);
    const after = newModel.surfaces.find((s) => s.id === id);
    let findings: Finding[];
    if (before && after) findings = compareSurface(pairOf(before, after, oldModel, newModel));
    else if (after) findings = [surfaceAdded(after)];
    else if (before) findings = [surfaceRemoved(before)];
    else findings = [];
    const surfaceChanges = mergeRepeats(findings)
      .sort(compareFindings)
      .map((f) => ({ surface: id, ...f }));
    changes.push(...attributeExtensions(surfaceChanges, before, after));
  }
  return changes;
}

/** Canonical surface order: by protocol version, stable before unstable. */
export function surfaceIds(...models: ProtocolModel[]): string[] {
  const all = new Map<string, SurfaceModel>();
  for (const model of models) for (const s of model.surfaces) if (!all.has(s.id)) all.set(s.id, s);
  return [...all.values()]
    .sort(
      (a, b) =>
        a.version - b.version ||
        Number(a.stability === "unstable") - Number(b.stability === "unstable"),
    )
    .map((s) => s.id);
}

function pairOf(
  before: SurfaceModel,
  after: SurfaceModel,
  oldModel: ProtocolModel,
  newModel: ProtocolModel,
): SurfacePair {
  const twin = (model: ProtocolModel, s: SurfaceModel) =>
    s.stability === "stable"
      ? model.surfaces.find((o) => o.version === s.version && o.stability === "unstable")
      : undefined;
  const oldUnstable = twin(oldModel, before);
  const newUnstable = twin(newModel, after);
  return {
    old: before,
    new: after,
    ...(oldUnstable ? { oldUnstable } : {}),
    ...(newUnstable ? { newUnstable } : {}),
    oldSide: sideOf(before),
    newSide: sideOf(after),
  };
}

function sideOf(surface: SurfaceModel): SchemaSide {
  const defs = Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema]));
  const methodDefs = new Set<string>();
  for (const m of surface.methods) {
    methodDefs.add(m.params);
    if (typeof m.result === "string") methodDefs.add(m.result);
  }
  return { defs, keyword: surface.defsKeyword, methodDefs };
}

function compareSurface(pair: SurfacePair): Finding[] {
  const findings: Finding[] = [];
  if (pair.old.protocolVersion !== pair.new.protocolVersion) {
    findings.push(
      finding(
        "protocol-version-changed",
        "",
        "PROTOCOL_VERSION",
        `changed from ${pair.old.protocolVersion} to ${pair.new.protocolVersion}`,
      ),
    );
  }
  findings.push(...compareMethods(pair));
  findings.push(...compareDefinitions(pair));
  return findings;
}

function compareDefinitions(pair: SurfacePair): Finding[] {
  const findings: Finding[] = [];
  const oldDefs = pair.oldSide.defs;
  const newDefs = pair.newSide.defs;
  const has = (s: SurfaceModel | undefined, key: string) =>
    s?.definitions.some((d) => d.key === key) ?? false;
  const path = (keyword: string, key: string) => `${keyword}/${escapePointerToken(key)}`;

  for (const key of Object.keys(newDefs)) {
    if (Object.hasOwn(oldDefs, key)) {
      findings.push(
        ...compareDefinition(
          key,
          oldDefs[key] ?? null,
          newDefs[key] ?? null,
          pair.oldSide,
          pair.newSide,
        ),
      );
    } else if (has(pair.oldUnstable, key)) {
      findings.push(
        finding(
          "definition-stabilized",
          path(pair.newSide.keyword, key),
          key,
          `now stable (was only in "${pair.oldUnstable?.entry}")`,
        ),
      );
    } else {
      findings.push(
        finding("definition-added", path(pair.newSide.keyword, key), key, "definition added"),
      );
    }
  }
  for (const key of Object.keys(oldDefs)) {
    if (Object.hasOwn(newDefs, key)) continue;
    const moved = has(pair.newUnstable, key);
    findings.push(
      finding(
        moved ? "definition-moved-to-unstable" : "definition-removed",
        path(pair.oldSide.keyword, key),
        key,
        moved
          ? `moved to unstable (gone from "${pair.new.entry}", still in "${pair.newUnstable?.entry}")`
          : "definition removed (code that imports the type or its guards no longer compiles)",
      ),
    );
  }
  return findings;
}

function surfaceAdded(s: SurfaceModel): Finding {
  return finding(
    "surface-added",
    "",
    s.entry,
    `entry point added (${s.schemaFile.name}: ${s.definitions.length} definitions, ${s.methods.length} methods)`,
  );
}

function surfaceRemoved(s: SurfaceModel): Finding {
  return finding(
    "surface-removed",
    "",
    s.entry,
    "entry point removed (code importing it no longer compiles)",
  );
}

/**
 * A definition first seen in this release is compared, through each reference to it, with
 * the inline shape it replaced; one change inside it then shows up once per reference, with
 * the same path. Report it once, naming the other references that led to it.
 */
function mergeRepeats(findings: Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = [f.path, f.kind, f.what, f.breaksBuilders, f.breaksReaders, f.docOnly].join(
      "\u0000",
    );
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()].map((group) => {
    const [first, ...rest] = [...group].sort((a, b) => compareText(a.description, b.description));
    if (!first || rest.length === 0) return first as Finding;
    const others = new Set(rest.map((f) => f.subject).filter((s) => s !== first.subject));
    if (others.size === 0) return first;
    const also = [...others].sort(compareText);
    return {
      ...first,
      description: `${first.description} (also through ${also.join(", ")})`,
      also,
    };
  });
}

/** Surface-wide changes first, then methods, then definitions; within each, by path. */
const CATEGORY: Partial<Record<Finding["kind"], number>> = {
  "surface-added": 0,
  "surface-removed": 0,
  "protocol-version-changed": 0,
  "method-added": 1,
  "method-removed": 1,
  "method-stabilized": 1,
  "method-moved-to-unstable": 1,
  "method-side-changed": 1,
  "method-types-changed": 1,
  "method-key-changed": 1,
};

function compareFindings(a: Finding, b: Finding): number {
  return (
    (CATEGORY[a.kind] ?? 2) - (CATEGORY[b.kind] ?? 2) ||
    compareText(a.path, b.path) ||
    compareText(a.kind, b.kind) ||
    compareText(a.description, b.description)
  );
}

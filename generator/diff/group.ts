import type { Change } from "./change.js";

/**
 * The lines the text and markdown reports print: one per change, except that the same
 * change repeated across definitions (between releases years apart, `_meta` made
 * object-only in forty definitions) is one line with the list. The JSON report keeps every
 * change as an item of its own.
 */
export type ReportLine = { change: Change } | { group: ChangeGroup };

export interface ChangeGroup {
  /** The changes folded together, in report order: two or more. */
  changes: readonly Change[];
  /** The common end of their subjects (`_meta`); empty when the definitions themselves changed. */
  label: string;
  /** Each change's subject without the label, and the other names it is reached through. */
  members: ReadonlyArray<{ name: string; also: readonly string[] }>;
  /** What happened, the same for all. */
  what: string;
  /** Their pointer with the definition left out: `$defs/*` + `/properties/_meta`. */
  path: string;
}

/** `$defs/<key>` and what follows it: a definition's pointer, split at the key. */
const IN_DEFINITION = /^((?:\$defs|definitions)\/)(?:[^/~]|~[01])+((?:\/.*)?)$/;

/**
 * Changes are the same when they are of one kind, break the same code, say the same thing
 * and sit at the same place inside their definitions. Method and entry point changes stay
 * one per line: each names its own method or surface.
 */
function groupKey(c: Change): string | undefined {
  if (c.kind.startsWith("method-") || c.kind.startsWith("surface-")) return undefined;
  const inDefinition = IN_DEFINITION.exec(c.path);
  if (!inDefinition) return undefined;
  return [
    c.surface,
    c.kind,
    c.breaksBuilders,
    c.breaksReaders,
    c.docOnly,
    c.what,
    inDefinition[1],
    inDefinition[2],
  ].join("\u0000");
}

/** The report's changes as lines, each group where its first change was. */
export function reportLines(changes: readonly Change[]): ReportLine[] {
  const byKey = new Map<string, Change[]>();
  for (const c of changes) {
    const key = groupKey(c);
    if (key === undefined) continue;
    const same = byKey.get(key);
    if (same) same.push(c);
    else byKey.set(key, [c]);
  }
  const lines: ReportLine[] = [];
  const placed = new Set<string>();
  for (const c of changes) {
    const key = groupKey(c);
    const same = key === undefined ? undefined : byKey.get(key);
    if (key === undefined || !same || same.length < 2) {
      lines.push({ change: c });
      continue;
    }
    if (placed.has(key)) continue;
    placed.add(key);
    lines.push({ group: group(same) });
  }
  return lines;
}

function group(changes: Change[]): ChangeGroup {
  const label = commonTail(changes.map((c) => c.subject));
  const strip = (name: string) =>
    label !== "" && name.endsWith(`.${label}`) ? name.slice(0, -label.length - 1) : name;
  const first = changes[0] as Change;
  const inDefinition = IN_DEFINITION.exec(first.path);
  return {
    changes,
    label,
    members: changes.map((c) => ({ name: strip(c.subject), also: (c.also ?? []).map(strip) })),
    what: first.what,
    path: `${inDefinition?.[1] ?? ""}*${inDefinition?.[2] ?? ""}`,
  };
}

/**
 * The longest end all names share after a `.` (`AgentCapabilities._meta`,
 * `ClientCapabilities.fs._meta` → `_meta`), leaving each a name of its own; "" when none.
 */
function commonTail(names: readonly string[]): string {
  const [first, ...rest] = names;
  if (first === undefined) return "";
  for (let dot = first.indexOf("."); dot >= 0; dot = first.indexOf(".", dot + 1)) {
    const tail = first.slice(dot + 1);
    if (
      dot > 0 &&
      tail !== "" &&
      rest.every((n) => n.length > tail.length + 1 && n.endsWith(`.${tail}`))
    )
      return tail;
  }
  return "";
}

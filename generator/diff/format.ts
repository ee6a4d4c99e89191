import { type Change, type Impact, impactOf } from "./change.js";
import { type ChangeGroup, type ReportLine, reportLines } from "./group.js";
import type { DiffReport, SurfaceSummary } from "./report.js";
import { type Counts, plural } from "./semver.js";

export const FORMATS = ["text", "markdown", "json"] as const;
export type Format = (typeof FORMATS)[number];

/** Render a report as lines (no trailing newlines): the CLI writes them one by one. */
export function render(report: DiffReport, format: Format): string[] {
  if (format === "json") return renderJson(report).split("\n");
  return format === "markdown" ? renderMarkdown(report) : renderText(report);
}

/** Version of the JSON shape below; bumped on any incompatible change to it. */
export const JSON_FORMAT_VERSION = 1;

/**
 * The JSON shape is documented in docs/bump.md. Keys are written in a fixed order and
 * changes keep the report's order, so the output is byte-stable for the same inputs.
 */
export function renderJson(report: DiffReport): string {
  const body = {
    formatVersion: JSON_FORMAT_VERSION,
    old: report.old,
    new: report.new,
    bump: report.advice.bump,
    reason: report.advice.reason,
    counts: counts(report.advice.counts),
    notes: report.notes,
    surfaces: report.surfaces.map((s) => ({
      id: s.id,
      entry: s.entry,
      status: s.status,
      oldFile: s.oldFile ?? null,
      newFile: s.newFile ?? null,
      bump: s.advice.bump,
      counts: counts(s.advice.counts),
    })),
    changes: report.changes.map((c) => ({
      surface: c.surface,
      kind: c.kind,
      impact: impactOf(c),
      path: c.path,
      subject: c.subject,
      description: c.description,
      breaksBuilders: c.breaksBuilders,
      breaksReaders: c.breaksReaders,
      docOnly: c.docOnly,
      // Only on an extension's changes, so a diff without extensions reads as it always has.
      ...(c.extension === undefined ? {} : { extension: c.extension }),
    })),
  };
  return JSON.stringify(body, null, 2);
}

function counts(c: Counts): Counts {
  return { breaking: c.breaking, compatible: c.compatible, doc: c.doc };
}

const IMPACT_ORDER: readonly Impact[] = ["breaking", "compatible", "doc"];
const IMPACT_TITLE: Record<Impact, string> = {
  breaking: "Breaking",
  compatible: "Compatible",
  doc: "Documentation only",
};

function byImpact(changes: readonly Change[], impact: Impact): Change[] {
  return changes.filter((c) => impactOf(c) === impact);
}

function tally(c: Counts): string {
  return `${c.breaking} breaking, ${c.compatible} compatible, ${c.doc} documentation-only`;
}

function surfaceLine(s: SurfaceSummary): string {
  if (s.status === "unchanged") return "no changes";
  if (s.status === "added") return "added";
  if (s.status === "removed") return "removed";
  return `${s.advice.bump}: ${tally(s.advice.counts)}`;
}

/** Plain text for terminals: every change on one line, breaking ones first. */
export function renderText(report: DiffReport): string[] {
  const lines = [
    `Schema diff: ${report.old} -> ${report.new}`,
    `Suggested version bump for the generated package: ${report.advice.bump} (${report.advice.reason})`,
  ];
  for (const note of report.notes) lines.push(`Note: ${note}`);
  if (report.advice.counts.breaking > 0) {
    lines.push("B = breaks code that builds messages, R = breaks code that reads messages");
  }
  for (const surface of report.surfaces) {
    lines.push("", `${surface.id} (entry point "${surface.entry}"): ${surfaceLine(surface)}`);
    const changes = report.changes.filter((c) => c.surface === surface.id);
    lines.push(...textGroups(protocolChanges(changes), "  "));
    for (const [file, own] of byExtension(changes)) {
      lines.push(`  Extension ${file}:`, ...textGroups(own, "    "));
    }
  }
  return lines;
}

/** A group on one line: `_meta: now restricted to object, in 3 definitions: A, B (also through C), D`. */
function groupText(g: ChangeGroup): string {
  const names = g.members.map((m) =>
    m.also.length === 0 ? m.name : `${m.name} (also through ${m.also.join(", ")})`,
  );
  const head = g.label === "" ? "" : `${g.label}: `;
  return `${head}${g.what}, in ${g.members.length} definitions: ${names.join(", ")}`;
}

function textGroups(changes: readonly Change[], indent: string): string[] {
  const lines: string[] = [];
  for (const impact of IMPACT_ORDER) {
    const group = byImpact(changes, impact);
    if (group.length === 0) continue;
    lines.push(`${indent}${IMPACT_TITLE[impact]} (${group.length}):`);
    if (impact === "doc") {
      lines.push(...docSummary(group, `${indent}  `));
      continue;
    }
    for (const line of reportLines(group)) {
      const c = "change" in line ? line.change : (line.group.changes[0] as Change);
      const flags =
        impact === "breaking"
          ? `${c.breaksBuilders ? "B" : "-"}${c.breaksReaders ? "R" : "-"} `
          : "";
      const path = "change" in line ? c.path : line.group.path;
      const where = path === "" ? "" : `  [${path}]`;
      const text = "change" in line ? c.description : groupText(line.group);
      lines.push(`${indent}  ${flags}${text}${where}`);
    }
  }
  return lines;
}

/** Definitions named on a summary line; the rest are counted. */
const SUMMARY_NAMES = 8;

/**
 * Documentation-only changes in text, where a bump's hundreds of rewritten descriptions
 * buried everything else: one line per kind of change, with how many places and which
 * definitions (a kind seen once keeps its own line). Markdown and JSON list each change.
 */
function docSummary(changes: readonly Change[], indent: string): string[] {
  const byWhat = new Map<string, Change[]>();
  for (const c of changes) byWhat.set(c.what, [...(byWhat.get(c.what) ?? []), c]);
  return [...byWhat].map(([what, same]) => {
    const [only] = same;
    if (same.length === 1 && only)
      return `${indent}${only.description}${only.path === "" ? "" : `  [${only.path}]`}`;
    const names = [...new Set(same.map(definitionOf))];
    const shown = names.slice(0, SUMMARY_NAMES).join(", ");
    const more = names.length > SUMMARY_NAMES ? ` and ${names.length - SUMMARY_NAMES} more` : "";
    return `${indent}${what}: ${plural(same.length, "place")}, in ${plural(names.length, "definition")}: ${shown}${more} (--format markdown or json lists each)`;
  });
}

/** The `$defs` key a change is in, else its subject. */
function definitionOf(c: Change): string {
  const key = /^(?:\$defs|definitions)\/((?:[^/~]|~[01])+)/.exec(c.path)?.[1];
  return key === undefined ? c.subject : key.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The protocol's own changes: those no extension owns. */
function protocolChanges(changes: readonly Change[]): Change[] {
  return changes.filter((c) => c.extension === undefined);
}

/** Each extension's changes, in the order the extensions first appear. */
function byExtension(changes: readonly Change[]): Map<string, Change[]> {
  const groups = new Map<string, Change[]>();
  for (const c of changes) {
    if (c.extension === undefined) continue;
    groups.set(c.extension, [...(groups.get(c.extension) ?? []), c]);
  }
  return groups;
}

/** Compatible changes are shown inline up to this many; more are folded away. */
const INLINE_COMPATIBLE = 25;

/**
 * Markdown for a release note or a pull request (GitHub-flavoured): the verdict, a table of
 * surfaces, then per surface the breaking changes in a table, compatible ones after, and
 * documentation-only ones folded in a <details> block.
 */
export function renderMarkdown(report: DiffReport): string[] {
  const lines = [
    "## ACP schema changes",
    "",
    `${code(report.old)} → ${code(report.new)}`,
    "",
    `**Suggested version bump for the generated package: ${report.advice.bump}**: ${escapeText(report.advice.reason)}.`,
  ];
  for (const note of report.notes) lines.push("", `> ${escapeText(note)}`);
  lines.push(
    "",
    "| Surface | Entry point | Status | Breaking | Compatible | Docs only |",
    "|---|---|---|---:|---:|---:|",
  );
  for (const s of report.surfaces) {
    const c = s.advice.counts;
    lines.push(
      `| ${code(s.id, true)} | ${code(s.entry, true)} | ${s.status} | ${c.breaking} | ${c.compatible} | ${c.doc} |`,
    );
  }
  if (report.advice.counts.breaking > 0) {
    lines.push(
      "",
      "*Builders* are code that constructs and sends a message; *readers* are code that receives and handles it.",
    );
  }

  for (const surface of report.surfaces) {
    const changes = report.changes.filter((c) => c.surface === surface.id);
    if (changes.length === 0) continue;
    lines.push(
      "",
      `### ${code(surface.id)} (entry point ${code(surface.entry)}): ${surface.advice.bump}`,
    );
    lines.push(...markdownGroups(protocolChanges(changes)));
    for (const [file, own] of byExtension(changes))
      lines.push("", `#### Extension ${code(file)}`, ...markdownGroups(own));
  }
  return lines;
}

function markdownGroups(changes: readonly Change[]): string[] {
  const lines: string[] = [];
  const breaking = byImpact(changes, "breaking");
  if (breaking.length > 0) {
    lines.push(
      "",
      "| | Change | Builders | Readers |",
      "|---|---|---|---|",
      ...reportLines(breaking).map((line) => {
        const c = "change" in line ? line.change : (line.group.changes[0] as Change);
        return `| ⚠️ **breaking** | ${lineCell(line, true)} | ${c.breaksBuilders ? "**breaks**" : "ok"} | ${c.breaksReaders ? "**breaks**" : "ok"} |`;
      }),
    );
  }
  const compatible = byImpact(changes, "compatible");
  if (compatible.length > 0) {
    const list = reportLines(compatible).map((line) => `- ${lineCell(line)}`);
    if (list.length <= INLINE_COMPATIBLE) {
      lines.push("", `**Compatible changes (${compatible.length})**`, "", ...list);
    } else {
      lines.push("", ...folded(`Compatible changes (${compatible.length})`, list));
    }
  }
  const doc = byImpact(changes, "doc");
  if (doc.length > 0) {
    lines.push(
      "",
      ...folded(
        `Documentation-only changes (${plural(doc.length, "change")})`,
        reportLines(doc).map((line) => `- ${lineCell(line)}`),
      ),
    );
  }
  return lines;
}

function folded(summary: string, body: string[]): string[] {
  return ["<details>", `<summary>${escapeText(summary)}</summary>`, "", ...body, "", "</details>"];
}

/** One report line as markdown: a change, or a group with its members listed as code. */
function lineCell(line: ReportLine, inTable = false): string {
  if ("change" in line) return changeCell(line.change, inTable);
  const g = line.group;
  const names = g.members.map((m) => {
    const name = code(m.name, inTable);
    return m.also.length === 0
      ? name
      : `${name} (also through ${m.also.map((a) => code(a, inTable)).join(", ")})`;
  });
  const head = g.label === "" ? "" : `${code(g.label, inTable)}: `;
  return `${head}${escapeText(g.what)}, in ${g.members.length} definitions: ${names.join(", ")} (${code(g.path, inTable)})`;
}

/** `Subject`: what happened (`path`). The subject is code so `<tag>` is not read as HTML. */
function changeCell(c: Change, inTable = false): string {
  const what = c.description.startsWith(`${c.subject}: `)
    ? c.description.slice(c.subject.length + 2)
    : c.description;
  const where = c.path === "" ? "" : ` (${code(c.path, inTable)})`;
  return `${code(c.subject, inTable)}: ${escapeText(what)}${where}`;
}

/**
 * A code span that survives any content, including backticks. In a table cell a pipe must
 * be escaped even inside code (GFM splits cells first); elsewhere the backslash would show.
 */
function code(text: string, inTable = false): string {
  const oneLine = text.replace(/\r?\n/g, " ");
  const flat = inTable ? oneLine.replace(/\|/g, "\\|") : oneLine;
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Plain text in a table cell or list item: no HTML, no table breaks, no stray emphasis. */
function escapeText(text: string): string {
  return text
    .replace(/\r?\n/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]|])/g, "\\$1");
}

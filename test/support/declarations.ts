import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import ts from "typescript-5.9";

/**
 * A structural reading of generated declaration and JavaScript files, through the TypeScript
 * parser: which names a file exports, and per declaration the property names, string literal
 * types and type names it uses. Doc comments are not part of it (they may mention anything).
 */
export interface DeclarationShape {
  /** Property and method names of every object type and interface in the declaration. */
  members: Set<string>;
  /** String literal types (tags, method names). */
  literals: Set<string>;
  /** Type names it refers to: `T.Foo` and `Foo` both give `Foo`. */
  references: Set<string>;
}

export function parse(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.ES2022,
    true,
    fileName.endsWith(".js") ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );
}

function nameText(name: ts.PropertyName | ts.BindingName | undefined): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))
    return name.text;
  if (ts.isPrivateIdentifier(name)) return name.text;
  return undefined;
}

function entityName(name: ts.EntityName | ts.Expression): string {
  if (ts.isIdentifier(name)) return name.text;
  if (ts.isQualifiedName(name)) return name.right.text;
  if (ts.isPropertyAccessExpression(name)) return name.name.text;
  return name.getText();
}

export function shapeOf(node: ts.Node): DeclarationShape {
  const shape: DeclarationShape = {
    members: new Set(),
    literals: new Set(),
    references: new Set(),
  };
  const visit = (n: ts.Node) => {
    if (
      (ts.isPropertySignature(n) ||
        ts.isMethodSignature(n) ||
        ts.isPropertyDeclaration(n) ||
        ts.isMethodDeclaration(n)) &&
      nameText(n.name) !== undefined
    )
      shape.members.add(nameText(n.name) as string);
    if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal))
      shape.literals.add(n.literal.text);
    if (ts.isTypeReferenceNode(n)) shape.references.add(entityName(n.typeName));
    if (ts.isExpressionWithTypeArguments(n)) shape.references.add(entityName(n.expression));
    ts.forEachChild(n, visit);
  };
  visit(node);
  return shape;
}

const isExported = (n: ts.Node) =>
  ts.canHaveModifiers(n) &&
  (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Top-level exported declarations by name (several for overloads). */
export function exportedDeclarations(file: ts.SourceFile): Map<string, ts.Node[]> {
  const out = new Map<string, ts.Node[]>();
  const add = (name: string, node: ts.Node) => out.set(name, [...(out.get(name) ?? []), node]);
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const d of statement.declarationList.declarations) {
        const name = nameText(d.name);
        if (name) add(name, d);
      }
    } else if (
      (ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      isExported(statement) &&
      statement.name
    ) {
      add(statement.name.text, statement);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause) {
      if (ts.isNamedExports(statement.exportClause))
        for (const element of statement.exportClause.elements) add(element.name.text, element);
      else add(statement.exportClause.name.text, statement);
    }
  }
  return out;
}

/**
 * The types a file exports: declared there, or (an unstable surface's types.d.ts) taken from
 * another file and exported as types (`export type { A }`). Each with the number of its
 * declarations.
 */
export function exportedTypes(file: ts.SourceFile): Map<string, number> {
  const isType = (node: ts.Node) =>
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    (ts.isExportSpecifier(node) && (node.isTypeOnly || node.parent.parent.isTypeOnly));
  return new Map(
    [...exportedDeclarations(file)]
      .filter(([, nodes]) => nodes.every(isType))
      .map(([name, nodes]) => [name, nodes.length]),
  );
}

/**
 * Types a file declares at the top level without exporting them (`type JsonObject = …` beside an
 * `export {}`): names its own declarations may use, which no importer can see.
 */
export function localDeclarations(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  for (const statement of file.statements)
    if (
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
      !isExported(statement)
    )
      out.add(statement.name.text);
  return out;
}

/** Modules a file re-exports whole (`export * from "./types.js"`). */
export function starExports(file: ts.SourceFile): string[] {
  return file.statements.flatMap((s) =>
    ts.isExportDeclaration(s) &&
    !s.exportClause &&
    s.moduleSpecifier &&
    ts.isStringLiteral(s.moduleSpecifier)
      ? [s.moduleSpecifier.text]
      : [],
  );
}

/**
 * The schema words a JavaScript or declaration file spells out, outside comments, module
 * specifiers and the language's own names: string literals (and the segments of JSON
 * pointers among them), literal types, property names, data property reads (`data.kind`,
 * not a method call such as `text.replace(…)`) and the names of referenced types.
 */
export function spelledStrings(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const addString = (text: string) => {
    out.add(text);
    if (text.startsWith("/") || text.startsWith("#/"))
      for (const segment of text.split("/"))
        out.add(segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  };
  const visit = (n: ts.Node) => {
    if (
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
      n.moduleSpecifier !== undefined
    ) {
      if (ts.isExportDeclaration(n) && n.exportClause) ts.forEachChild(n.exportClause, visit);
      return;
    }
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) addString(n.text);
    else if (ts.isTemplateExpression(n)) {
      addString(n.head.text);
      for (const span of n.templateSpans) addString(span.literal.text);
    } else if (
      ts.isPropertyAccessExpression(n) &&
      !(ts.isCallExpression(n.parent) && n.parent.expression === n)
    )
      out.add(n.name.text);
    else if (
      (ts.isPropertyAssignment(n) ||
        ts.isShorthandPropertyAssignment(n) ||
        ts.isPropertySignature(n) ||
        ts.isMethodSignature(n) ||
        ts.isPropertyDeclaration(n) ||
        ts.isMethodDeclaration(n)) &&
      nameText(n.name) !== undefined
    )
      out.add(nameText(n.name) as string);
    else if (ts.isExportSpecifier(n)) out.add(n.name.text);
    else if (ts.isTypeReferenceNode(n)) out.add(entityName(n.typeName));
    else if (ts.isExpressionWithTypeArguments(n)) out.add(entityName(n.expression));
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

/** The direct members of an interface, class or object-typed constant, each with its shape. */
export function topMembers(node: ts.Node): Array<DeclarationShape & { name: string }> {
  let members: readonly ts.Node[] = [];
  if (ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) members = node.members;
  else if (ts.isVariableDeclaration(node) && node.type && ts.isTypeLiteralNode(node.type))
    members = node.type.members;
  return members.flatMap((member) => {
    const name =
      ts.isPropertySignature(member) ||
      ts.isMethodSignature(member) ||
      ts.isPropertyDeclaration(member) ||
      ts.isMethodDeclaration(member) ||
      ts.isGetAccessorDeclaration(member)
        ? nameText(member.name)
        : undefined;
    return name === undefined ? [] : [{ name, ...shapeOf(member) }];
  });
}

/** Names a file imports (`import { A, type B } from …`; a namespace import is not a name). */
export function importedNames(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const { name, namedBindings } = statement.importClause;
    if (name) names.add(name.text);
    if (namedBindings && ts.isNamedImports(namedBindings))
      for (const element of namedBindings.elements) names.add(element.name.text);
  }
  return names;
}

/** Every identifier in a file, imports included: the names its code uses. */
export function identifiers(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (n: ts.Node) => {
    if (ts.isIdentifier(n)) out.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

/** Type parameters a file declares (`<K extends …>`): names local to their declaration. */
export function typeParameters(file: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  const visit = (n: ts.Node) => {
    if (ts.isTypeParameterDeclaration(n)) out.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

let libNames: Set<string> | undefined;

/** Types the ECMAScript standard library declares (`Promise`, `Record`, `Extract`, …). */
export function standardLibraryTypes(): Set<string> {
  if (libNames) return libNames;
  const lib = dirname(createRequire(import.meta.url).resolve("typescript-5.9/lib/lib.d.ts"));
  libNames = new Set();
  for (const name of readdirSync(lib).filter((f) => /^lib\.es[\w.]*\.d\.ts$/.test(f))) {
    const file = parse(name, readFileSync(join(lib, name), "utf8"));
    for (const statement of file.statements)
      if (
        (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
        statement.name
      )
        libNames.add(statement.name.text);
  }
  return libNames;
}

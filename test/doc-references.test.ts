import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../adapters/project-root.js';

/**
 * The repository stands alone: no source, test, script or document sends its reader to a
 * document the repository does not hold. The rules a comment cites live in docs/api-rules.md
 * (or docs/fixtures.md, or a README section), cited as `docs/<page>.md#<anchor>`; this check
 * fails, naming file:line, on a citation of a planning document kept outside the repository,
 * on a relative path that leaves it, and on a `docs/...` or `README.md#...` citation or a
 * relative markdown link whose file or anchor does not exist. No server, no database.
 */

const root = projectRoot();

/** The trees and files whose text is checked. */
const SCANNED = /^(core|adapters|workers|db|seeding|bin|scripts|bench|test|examples|clients\/typescript\/src|docs|fixtures|\.ci)\/|^(README\.md|package\.json)$|^[^/]+\.md$/;
const TEXT = /\.(ts|tsx|mts|js|mjs|cjs|md|json|sh|sql|ya?ml)$|^\.ci\/[^./]+$/;
/** Large generated data: no prose in it. */
const SKIPPED = /^fixtures\/.*\.json$|^clients\/typescript\/src\/schema\.ts$/;
/** The two checks themselves name the outside documents they look for. */
const CHECKS = new Set(['test/doc-references.test.ts', 'test/docs-links.test.ts']);

/** Names of planning documents that are not in the repository, and the spec's numbered sections. */
const OUTSIDE =
  /\b(DECISIONS|RESOURCES|CONTRACT)(\.md)?\b|\b(OPERATIONS|EDI|ARCHITECTURE)\.md\b|\b[Ss]pec(?: section)? \d|\b[Tt]he spec\b|\bnotes\/[a-z-]+\.md\b|\/work\/shared\b|(?:\.\.\/)+shared\/(?:fixtures|spec|tools|hooks|notes)\b/;

/** `docs/page.md`, `docs/page.md#anchor` or `README.md#anchor` written in any text. */
const CITATION = /(?<![\w/.-])((?:docs\/[\w.-]+\.md)|README\.md(?=#))(?:#([\w-]+))?/g;

/** A relative path that climbs (`../x`), not inside a URL path; in markdown, outside inline code (shell examples). */
const CLIMB = /(?<![\w/.:-])((?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*)/g;

function trackedFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return walk('');
  }
}

/** Without git (an unpacked tarball): every file but the generated and installed ones. */
function walk(folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((name) => {
    const path = folder === '' ? name : `${folder}/${name}`;
    if (['node_modules', 'dist', '.bench-build', '.git', 'data', 'coverage'].includes(name)) return [];
    return statSync(join(root, path)).isDirectory() ? walk(path) : [path];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to hyphens. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    const markdown = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const headings = [...markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((match) => slugOf(match[1]!.replace(/`/g, '')));
    const explicit = [...markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)].map((match) => match[1]!);
    anchors = new Set([...headings, ...explicit]);
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** What is wrong with `file#anchor` as a target, or undefined when it opens. */
function missing(target: string, anchor: string | undefined): string | undefined {
  const inside = !relative(root, target).startsWith('..');
  if (!inside) return 'outside the repository';
  if (!existsSync(target)) return 'no such file';
  if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor)) return `no section #${anchor}`;
  return undefined;
}

/**
 * Outside files that CI uses only where they exist (an `[ -f ... ]` test in .ci/run, like the
 * runtime contract check): a clone with nothing beside it skips them, so naming them is fine.
 */
function presenceTested(path: string, text: string): string[] {
  if (path !== '.ci/run') return [];
  return [...text.matchAll(/\[ -[fe] ((?:\.\.\/)+[\w./-]+) \]/g)].map((match) => match[1]!);
}

/** Every problem of one file's text, as `path:line: what`. */
export function problemsOf(path: string, text: string): string[] {
  const problems: string[] = [];
  const folder = dirname(join(root, path));
  const markdown = path.endsWith('.md');
  const optional = presenceTested(path, text);
  text.split('\n').forEach((raw, index) => {
    const line = optional.reduce((rest, outside) => rest.split(outside).join(''), raw);
    const at = `${path}:${index + 1}`;
    const outside = OUTSIDE.exec(line);
    if (outside) problems.push(`${at}: names "${outside[0]}", which is not in the repository`);
    for (const [, file, anchor] of line.matchAll(CITATION)) {
      const why = missing(join(root, file!), anchor);
      if (why) problems.push(`${at}: ${file}${anchor ? `#${anchor}` : ''}: ${why}`);
    }
    for (const [, climb] of (markdown ? line.replace(/`[^`]*`/g, '') : line).matchAll(CLIMB)) {
      if (relative(root, resolve(folder, climb!)).startsWith('..')) problems.push(`${at}: ${climb}: outside the repository`);
    }
    if (markdown) {
      const prose = line.replace(/`[^`]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
        const [file = '', anchor] = target!.split('#');
        const why = missing(resolve(folder, decodeURIComponent(file)), anchor && decodeURIComponent(anchor));
        if (why) problems.push(`${at}: ${target}: ${why}`);
      }
    }
  });
  return problems;
}

describe('references to documents', () => {
  const files = trackedFiles().filter((path) => SCANNED.test(path) && TEXT.test(path) && !SKIPPED.test(path) && !CHECKS.has(path));

  it('scans the code, tests, scripts and docs', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/api-rules.md');
    expect(files).toContain('core/router.ts');
    expect(files).toContain('seeding/load-fixture.ts');
    expect(files).toContain('.ci/run');
  });

  it('every reference opens something in the repository', () => {
    const problems = files.filter((path) => existsSync(join(root, path))).flatMap((path) => problemsOf(path, readFileSync(join(root, path), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('the check catches what it is for', () => {
    // Lines with a problem: a line can break more than one rule.
    const caught = (text: string) => new Set(problemsOf('core/example/file.ts', text).map((problem) => problem.split(': ')[0])).size;
    expect(caught('/** The order of checks (DECISIONS "Errors"). */')).toBe(1);
    expect(caught('// RESOURCES.md: bare arrays')).toBe(1);
    expect(caught(' * as spec 4.3 says')).toBe(1);
    expect(caught('/** Spec 2.10: where a load starts. */')).toBe(1);
    expect(caught(" * the spec's limits")).toBe(1);
    // The folder beside a clone, written in pieces so this file itself names no outside path.
    const beside = ['..', 'shared'].join('/');
    expect(caught(`readFileSync(new URL('../../${beside}/fixtures/demo.json', import.meta.url))`)).toBe(1);
    expect(caught(`if [ -f ${beside}/tools/check.sh ]; then`)).toBe(1);
    // .ci/run may use an outside file behind a presence test, and only that way.
    const ci = `if [ -f ${beside}/tools/check.sh ]; then\n  bash ${beside}/tools/check.sh\nfi\nbash ${beside}/tools/other.sh`;
    expect(problemsOf('.ci/run', ci).map((problem) => problem.split(': ')[0])).toEqual(['.ci/run:4']);
    expect(caught('/** docs/api-rules.md#no-such-section */')).toBe(1);
    expect(caught('/** docs/no-such-page.md */')).toBe(1);
    expect(caught('/** README.md#no-such-section */')).toBe(1);
    expect(caught("import { x } from '../shared/scope.js'; // CONTRACTOR, docs/api-rules.md#paging, README.md#environment")).toBe(0);
    expect(problemsOf('docs/page.md', '[a](api-rules.md#paging) [b](api-rules.md#nothing) `[c](nowhere.md)`')).toHaveLength(1);
    expect(slugOf('Drivers, trucks and trailers')).toBe('drivers-trucks-and-trailers');
  });
});

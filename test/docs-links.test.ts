import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../adapters/project-root.js';

/**
 * The README and docs/ must stand on their own (issue 18, point 8): every relative link opens
 * a file of this repository (and an in-page anchor a heading of its page), no link leaves the
 * repository except to a local server, and no text sends the reader to the planning documents
 * that live outside it.
 */

const root = projectRoot();
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Names of documents a reader of the repository cannot open. */
const OUTSIDE_DOCUMENTS = ['DECISIONS.md', 'RESOURCES.md', 'ARCHITECTURE.md', '../shared'];

/** Local servers a walkthrough may point at; any other absolute link leaves the repository. */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** The text outside fenced code blocks and inline code, where a `](` is a real link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
  const autolinks = [...text.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)].map((match) => match[1]!);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1]!);
  return [...inline, ...autolinks, ...references];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const headings = [...markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)];
  return new Set(headings.map((match) => anchorOf(match[1]!)));
}

function brokenLinks(path: string): string[] {
  const markdown = readFileSync(join(root, path), 'utf8');
  const problems: string[] = [];
  for (const target of linkTargets(markdown)) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
    if (scheme) {
      const local = (scheme === 'http' || scheme === 'https') && LOCAL_HOSTS.has(new URL(target).hostname);
      if (!local) problems.push(`${target}: leaves the repository`);
      continue;
    }
    const [file = '', anchor] = target.split('#');
    if (file === '') {
      if (anchor && !anchorsOf(markdown).has(decodeURIComponent(anchor))) problems.push(`${target}: no such heading`);
      continue;
    }
    const resolved = resolve(dirname(join(root, path)), decodeURIComponent(file));
    const inside = !relative(root, resolved).startsWith('..');
    if (!inside) problems.push(`${target}: outside the repository`);
    else if (!existsSync(resolved)) problems.push(`${target}: no such file`);
    else if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) {
      problems.push(`${target}: no such heading`);
    }
  }
  return problems;
}

describe('documents in the repository', () => {
  it('checks the README and every page of docs/', () => {
    expect(documents).toContain('README.md');
    expect(documents).toContain('docs/api-rules.md');
    expect(documents).toContain('docs/architecture.md');
  });

  for (const path of documents) {
    it(`${path}: every link opens something in the repository`, () => {
      expect(brokenLinks(path)).toEqual([]);
    });

    it(`${path}: names no document outside the repository`, () => {
      const text = readFileSync(join(root, path), 'utf8');
      expect(OUTSIDE_DOCUMENTS.filter((name) => text.includes(name))).toEqual([]);
    });
  }

  it('the checks catch what they are for', () => {
    expect(linkTargets('[a](docs/x.md) `[b](no.md)` [c](https://example.com "t") <https://example.org>')).toEqual([
      'docs/x.md',
      'https://example.com',
      'https://example.org',
    ]);
    expect(anchorOf('Reference page and CORS')).toBe('reference-page-and-cors');
    expect(anchorOf('ETag and If-Match')).toBe('etag-and-if-match');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';

/** Top-level folders of the repository: a mention that starts with one of them names a repository path. */
export const REPO_ROOTS = ['src', 'native-host', 'extension', 'bench', 'test', 'docs', 'scripts', 'types', 'bin', '.ci'] as const;

/**
 * Endings of the files a comment or a doc names by their file name alone. Style sheets and pages
 * are left out: comments name example ones (`a.css`) that no repository holds.
 */
const FILE_ENDINGS = ['ts', 'mjs', 'cjs', 'md'];

/** One mention of a repository path or file name. */
export interface PathMention {
  /** The file that names it, relative to the repository. */
  file: string;
  line: number;
  /** What was named: `src/core/priority.ts`, `bench/results/`, `page-loader.ts`. */
  text: string;
  kind: 'path' | 'file-name';
}

/** The comments of a TypeScript or JavaScript source, each with the line it starts on. */
export function commentsOf(source: string, fileName = 'x.ts'): Array<{ text: string; line: number }> {
  const kind = /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, kind);
  const seen = new Set<number>();
  const out: Array<{ text: string; line: number }> = [];
  const take = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ text: source.slice(r.pos, r.end), line: sf.getLineAndCharacterOfPosition(r.pos).line + 1 });
    }
  };
  const visit = (node: ts.Node): void => {
    take(ts.getLeadingCommentRanges(source, node.getFullStart()));
    take(ts.getTrailingCommentRanges(source, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  take(ts.getLeadingCommentRanges(source, sf.getEnd()));
  return out.sort((a, b) => a.line - b.line);
}

const PATH_RE = new RegExp(`(?<![\\w./@-])((?:${REPO_ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\\w./*{},<>|-]*)`, 'g');
const FILE_NAME_RE = new RegExp(`(?<![\\w./@-])([\\w-]+(?:\\.[\\w-]+)*\\.(?:${FILE_ENDINGS.join('|')}))(?![\\w/-])`, 'g');

/** The repository paths and file names a piece of prose names. */
export function mentionsIn(text: string): Array<{ text: string; kind: PathMention['kind']; index: number }> {
  const out: Array<{ text: string; kind: PathMention['kind']; index: number }> = [];
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(PATH_RE)) {
    const raw = (m[1] as string).replace(/[.,:;]+$/, '');
    out.push({ text: raw, kind: 'path', index: m.index ?? 0 });
    spans.push([m.index ?? 0, (m.index ?? 0) + raw.length]);
  }
  for (const m of text.matchAll(FILE_NAME_RE)) {
    const at = m.index ?? 0;
    if (spans.some(([a, b]) => at >= a && at < b)) continue;
    out.push({ text: m[1] as string, kind: 'file-name', index: at });
  }
  return out;
}

/**
 * Whether a mentioned path exists: a file (a module may be named without its `.ts`), a folder,
 * for a glob, a `{a,b}` list or a `<placeholder>` the folder before the first pattern, or a place the build or the
 * tests make that git ignores (`bench/.build/`, `test/e2e/artifacts/`).
 */
export function pathExists(root: string, mention: string): boolean {
  const clean = mention.replace(/\/+$/, '');
  const patternAt = clean.search(/[*{<]/);
  if (patternAt >= 0) {
    const dir = clean.slice(0, patternAt).replace(/\/[^/]*$/, '');
    return dir === '' || existsSync(join(root, dir));
  }
  return existsSync(join(root, clean)) || existsSync(join(root, `${clean}.ts`)) || gitIgnores(root, clean) || gitIgnores(root, `${clean}/`);
}

function gitIgnores(root: string, path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Every file git tracks (or would add), relative to the repository. */
export function repositoryFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter((f) => f !== '' && existsSync(join(root, f)) && statSync(join(root, f)).isFile());
}

/**
 * Every path and file name named in the repository's docs (Markdown) and in the comments of its
 * sources, with where it is named. Generated and recorded material (bench results, fixtures) is
 * not read.
 */
export function pathMentions(root: string, files: readonly string[]): PathMention[] {
  const out: PathMention[] = [];
  for (const file of files) {
    if (file.startsWith('bench/results/') || file.startsWith('test/fixtures/') || file === 'bench/RESULTS.md') continue;
    const isDoc = file.endsWith('.md');
    const isCode = /\.(ts|mjs|cjs|js)$/.test(file);
    if (!isDoc && !isCode) continue;
    const text = readFileSync(join(root, file), 'utf8');
    const chunks = isDoc ? [{ text, line: 1 }] : commentsOf(text, file);
    for (const chunk of chunks) {
      for (const m of mentionsIn(chunk.text)) {
        const line = chunk.line + (chunk.text.slice(0, m.index).match(/\n/g)?.length ?? 0);
        out.push({ file, line, text: m.text, kind: m.kind });
      }
    }
  }
  return out;
}

/** The mentions that name nothing in the repository: a missing path, or a file name no tracked file has. */
export function brokenMentions(root: string, mentions: readonly PathMention[], files: readonly string[], external: ReadonlySet<string>): PathMention[] {
  const names = new Set(files.map((f) => basename(f)));
  return mentions.filter((m) => {
    if (external.has(m.text)) return false;
    return m.kind === 'path' ? !pathExists(root, m.text) : !names.has(m.text);
  });
}

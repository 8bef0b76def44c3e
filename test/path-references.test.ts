import { join } from 'node:path';
import { brokenMentions, commentsOf, mentionsIn, pathExists, pathMentions, repositoryFiles } from './support/path-references';

/**
 * Every repository path named in docs/ (and the other Markdown files) and in the comments of the
 * sources exists, and every source or doc file named by its file name alone is one the repository
 * holds: a reader who follows a reference finds what it names.
 */
const root = join(__dirname, '..');

describe('path references', () => {
  test('the scanner finds paths and file names in comments and prose, and tells missing ones (so the check below can fail)', () => {
    const source = "// see src/core/priority.ts and `page-loader.ts`\nconst url = 'http://x/src/nope.ts'; /* docs/missing.md */\nconst t = `// not a comment ${1}`;\n";
    expect(commentsOf(source).map((c) => c.line)).toEqual([1, 2]);
    expect(commentsOf(source).flatMap((c) => mentionsIn(c.text).map((m) => m.text))).toEqual(['src/core/priority.ts', 'page-loader.ts', 'docs/missing.md']);
    expect(mentionsIn('bench/results/bench-<quick|full>-latest.json, src/**/*.test.ts, and a.css')).toEqual([
      { text: 'bench/results/bench-<quick|full>-latest.json', kind: 'path', index: 0 },
      { text: 'src/**/*.test.ts', kind: 'path', index: 46 },
    ]);
    expect(pathExists(root, 'src/core/priority.ts')).toBe(true);
    expect(pathExists(root, 'src/core/priority')).toBe(true);
    expect(pathExists(root, 'src/core/')).toBe(true);
    expect(pathExists(root, 'src/**/*.test.ts')).toBe(true);
    expect(pathExists(root, 'src/nowhere/x.ts')).toBe(false);
    expect(pathExists(root, 'bench/.build/')).toBe(true); // made by the build, ignored by git
    const files = ['src/core/priority.ts', 'native-host/run/page-loader.ts'];
    const planted = [
      { file: 'a.ts', line: 1, text: 'src/core/priority.ts', kind: 'path' as const },
      { file: 'a.ts', line: 2, text: 'src/gone.ts', kind: 'path' as const },
      { file: 'a.ts', line: 3, text: 'page-loader.ts', kind: 'file-name' as const },
      { file: 'a.ts', line: 4, text: 'ARCHITECTURE.md', kind: 'file-name' as const },
    ];
    expect(brokenMentions(root, planted, files, new Set()).map((m) => m.line)).toEqual([2, 4]);
  });

  test('every path and file name named in docs and comments exists in the repository', () => {
    const files = repositoryFiles(root);
    const mentions = pathMentions(root, files);
    expect(mentions.length).toBeGreaterThan(500);
    const broken = brokenMentions(root, mentions, files, new Set()).map((m) => `${m.file}:${m.line} names ${m.text}`);
    expect(broken).toEqual([]);
  });
});

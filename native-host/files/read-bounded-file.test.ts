import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { readBoundedFile, readBoundedFileSync } from './read-bounded-file';

const CAP = 4096;
const dir = mkdtempSync(path.join(tmpdir(), 'getlist-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real `open`, with every read of the handle it returns seen by `onRead` first. */
function watchedOpen(onRead: (length: number) => void) {
  return async (p: string, flags: number): Promise<FileHandle> => {
    const handle = await open(p, flags);
    const read = handle.read.bind(handle) as (b: Buffer, o: number, l: number, p: number) => ReturnType<FileHandle['read']>;
    return Object.assign(handle, {
      read: (buffer: Buffer, offset: number, length: number, position: number) => {
        onRead(length);
        return read(buffer, offset, length, position);
      },
    });
  };
}

function file(name: string, bytes: number): string {
  const p = path.join(dir, name);
  writeFileSync(p, Buffer.alloc(bytes, 0x61));
  return p;
}

test('a regular file is read whole, also at exactly the cap', async () => {
  expect((await readBoundedFile(file('small', 10), CAP)).toString()).toBe('a'.repeat(10));
  expect(await readBoundedFile(file('at-cap', CAP), CAP)).toEqual(Buffer.alloc(CAP, 0x61));
  expect(await readBoundedFile(file('empty', 0), CAP)).toEqual(Buffer.alloc(0));
});

test('a file one byte over the cap is E_FILE_TOO_LARGE before any byte is read', async () => {
  const reads: number[] = [];
  await expect(readBoundedFile(file('over', CAP + 1), CAP, { open: watchedOpen((n) => reads.push(n)) })).rejects.toMatchObject({ code: 'E_FILE_TOO_LARGE', message: `it holds ${CAP + 1} bytes, more than the ${CAP} bytes allowed` });
  expect(reads).toEqual([]);
});

test('a sparse file of 1 TiB is refused from its size alone', async () => {
  const p = path.join(dir, 'sparse');
  writeFileSync(p, '');
  truncateSync(p, 2 ** 40);
  const reads: number[] = [];
  await expect(readBoundedFile(p, CAP, { open: watchedOpen((n) => reads.push(n)) })).rejects.toMatchObject({ code: 'E_FILE_TOO_LARGE' });
  expect(reads).toEqual([]);
});

test('a file that grows past the cap while it is read is cut at cap + 1 bytes and refused', async () => {
  const p = file('growing', 100);
  const reads: number[] = [];
  const growing = watchedOpen((n) => {
    // Another process appends between fstat and the reads.
    if (reads.length === 0) appendFileSync(p, Buffer.alloc(10 * CAP, 0x62));
    reads.push(n);
  });
  await expect(readBoundedFile(p, CAP, { open: growing })).rejects.toMatchObject({ code: 'E_FILE_TOO_LARGE', message: expect.stringMatching(/^it grew while being read, more than the 4096 bytes/) });
  expect(reads.reduce((a, b) => a + b, 0)).toBe(CAP + 1);
});

test.each([
  ['/dev/zero', () => '/dev/zero', /^it is a character device, not a regular file$/],
  ['/dev/full', () => '/dev/full', /^it is a character device, not a regular file$/],
  ['a directory', () => dir, /^it is a directory, not a regular file$/],
  ['a FIFO with no writer', () => {
    const p = path.join(dir, 'fifo');
    if (!existsSync(p)) execFileSync('mkfifo', [p]);
    return p;
  }, /^it is a FIFO \(named pipe\), not a regular file$/],
])('%s is E_NOT_REGULAR_FILE, answered at once without reading', async (_what, make, message) => {
  const reads: number[] = [];
  await expect(readBoundedFile(make(), CAP, { open: watchedOpen((n) => reads.push(n)) })).rejects.toMatchObject({ code: 'E_NOT_REGULAR_FILE', message: expect.stringMatching(message) });
  expect(reads).toEqual([]);
});

test('a path that cannot be opened is E_FILE_UNREADABLE with its errno', async () => {
  await expect(readBoundedFile(path.join(dir, 'missing'), CAP)).rejects.toMatchObject({ code: 'E_FILE_UNREADABLE', errno: 'ENOENT', message: 'cannot open it (no such file)' });
  const blocker = file('blocker', 1);
  await expect(readBoundedFile(path.join(blocker, 'x'), CAP)).rejects.toMatchObject({ code: 'E_FILE_UNREADABLE', errno: 'ENOTDIR' });
});

test('a symbolic link to a regular file is followed', async () => {
  const target = file('target', 5);
  const link = path.join(dir, 'link');
  execFileSync('ln', ['-s', target, link]);
  expect((await readBoundedFile(link, CAP)).toString()).toBe('aaaaa');
});

// procfs files are regular files whose fstat size is 0: only the cap while reading bounds them.
(process.platform === 'linux' ? test : test.skip)('a /proc file whose size reads 0 is bounded by the cap while reading', async () => {
  expect((await readBoundedFile('/proc/self/status', 1024 * 1024)).toString()).toMatch(/^Name:/);
  await expect(readBoundedFile('/proc/self/status', 16)).rejects.toMatchObject({ code: 'E_FILE_TOO_LARGE' });
});

test('the synchronous reader makes the same checks', async () => {
  const sync = (p: string) => readBoundedFileSync(fs, p, CAP);
  expect(sync(file('sync-at-cap', CAP))).toEqual(Buffer.alloc(CAP, 0x61));
  const fifo = path.join(dir, 'sync-fifo');
  execFileSync('mkfifo', [fifo]);
  for (const [p, code] of [['/dev/zero', 'E_NOT_REGULAR_FILE'], [fifo, 'E_NOT_REGULAR_FILE'], [dir, 'E_NOT_REGULAR_FILE'], [file('sync-over', CAP + 1), 'E_FILE_TOO_LARGE'], [path.join(dir, 'none'), 'E_FILE_UNREADABLE']] as const) {
    expect(() => sync(p)).toThrow(expect.objectContaining({ code }));
    await expect(readBoundedFile(p, CAP)).rejects.toMatchObject({ code });
  }
  if (process.platform === 'linux') expect(() => readBoundedFileSync(fs, '/proc/self/status', 16)).toThrow(expect.objectContaining({ code: 'E_FILE_TOO_LARGE' }));
});
